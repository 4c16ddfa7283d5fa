#include "mosaic/envelope.h"

#include <algorithm>
#include <stdexcept>

#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::mosaic {
namespace {

std::string idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

/// A set of integers (list key `f`): at most kMaxAxisValues entries, each in f.range, none
/// repeated; absent: kept.
void readInts(JsonReader& r, const EnvelopeField& f, std::vector<int>& list) {
    if (!r.arrayWithin(f.key, kMaxAxisValues)) return;
    const auto v = r.integers(f.key, std::vector<long long>(list.begin(), list.end()), f.range, 1);
    list.assign(v.begin(), v.end());
    r.requireDistinct(f.key, list);
}

/// Reads key `f` from `r` (its section's reader) into `e`.
void readField(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    if (f.read)
        f.read(r, f, e);
    else if (f.list)
        readInts(r, f, e.*f.list);
    else if (f.integer)
        f.set(e, static_cast<double>(r.integer(f.key, static_cast<long long>(f.get(e)), f.range)));
    else
        f.set(e, r.number(f.key, f.get(e), f.range));
}

/// Writes key `f` of `e` into `j` (its section's object).
void writeField(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    if (f.read) {
        if (f.write) f.write(f, e, j);
    } else if (f.list) {
        j[f.key] = e.*f.list;
    } else if (f.integer) {
        j[f.key] = static_cast<long long>(f.get(e));
    } else {
        j[f.key] = f.get(e);
    }
}

}  // namespace

const char* checkpointingName(Checkpointing c) {
    switch (c) {
        case Checkpointing::None:
            return "none";
        case Checkpointing::CoreAttention:
            return "core-attn";
        case Checkpointing::Selective:
            return "selective";
        case Checkpointing::SuperSelective:
            return "super-selective";
        case Checkpointing::Full:
            return "full";
    }
    return "none";
}

const char* layoutGridRuleName(LayoutGridRule r) {
    switch (r) {
        case LayoutGridRule::Auto:
            return "auto";
        case LayoutGridRule::Listed:
            return "listed";
        case LayoutGridRule::Derived:
            return "derived";
    }
    return "auto";
}

bool parseCheckpointing(const std::string& s, Checkpointing& out) {
    for (auto c : {Checkpointing::None, Checkpointing::CoreAttention, Checkpointing::Selective,
                   Checkpointing::SuperSelective, Checkpointing::Full})
        if (s == checkpointingName(c)) {
            out = c;
            return true;
        }
    return false;
}

double Envelope::peakBudgetFlops() const {
    return hardware.peakFlops * double(devices()) * days * 86400.0;
}

double Envelope::deliverableModelFlops(double mfu) const {
    return peakBudgetFlops() * goodput * mfu;
}

double Envelope::modelBudgetFlops() const {
    return computeBudgetFlops > 0 ? computeBudgetFlops : deliverableModelFlops(kAutoBudgetMfu);
}

namespace {

/// The background's fabric must hold the MoE job and every co-running job, with valid explicit
/// placements: the same check the co-run model makes (buildFabric), reported at its key.
void checkBackgroundFits(const Envelope& e, Diagnostics& diag) {
    const BackgroundLoad& b = *e.background;
    try {
        (void)fabric::buildFabric(b.topology, b.placement, b.jobs, b.job.nodes, e.nodes,
                                  e.hardware.gpusPerNode * e.hardware.nicBytesPerS,
                                  e.hardware.gpusPerNode, backgroundFabricKeys(), true);
        checkCoRunSize(e.nodes, b);
    } catch (const fabric::FabricError& ex) {
        diag.error("$." + ex.key(), ex.reason());
    }
}

}  // namespace

void readEnvelope(JsonReader& r, Envelope& e) {
    Diagnostics& diag = r.diagnostics();
    const auto& fields = envelopeFields();
    for (size_t i = 0; i < fields.size();) {
        if (!*fields[i].section) {
            readField(r, fields[i++], e);
            continue;
        }
        // One nested object: its fields are consecutive in the table.
        const std::string section = fields[i].section;
        JsonReader sub = r.object(section.c_str());
        for (; i < fields.size() && section == fields[i].section; ++i) readField(sub, fields[i], e);
        sub.finish();
    }

    // Cross-field checks.
    const int maxE = e.expertValues.empty()
                         ? 0
                         : *std::max_element(e.expertValues.begin(), e.expertValues.end());
    for (size_t i = 0; i < e.topKValues.size(); ++i)
        if (e.topKValues[i] > maxE)
            diag.error(idx(r.childPath("top_k_values"), i),
                       "top-K " + std::to_string(e.topKValues[i]) +
                           " exceeds every expert count (largest E = " + std::to_string(maxE) +
                           "); K <= E is required");
    for (size_t i = 0; i < e.splitValues.size(); ++i)
        for (int q : e.qValues)
            if ((1280LL * q) % e.splitValues[i] != 0) {
                diag.error(idx(r.childPath("expert_split_values"), i),
                           "G = " + std::to_string(e.splitValues[i]) + " does not divide d_ff = " +
                               std::to_string(1280 * q) + " at q = " + std::to_string(q));
                break;
            }
    if (e.tppMin > e.tppMax)
        diag.error(r.childPath("tokens_per_parameter_min"),
                   "must be <= tokens_per_parameter_max (" + formatNumber(e.tppMax) + ")");
    for (size_t i = 1; i < e.frontierSparsity.size(); ++i)
        if (!(e.frontierSparsity[i] > e.frontierSparsity[i - 1])) {
            diag.error(idx(r.childPath("frontier_sparsity"), i), "must be strictly ascending");
            break;
        }
    if (e.background && diag.ok()) checkBackgroundFits(e, diag);
    r.finish();
}

nlohmann::ordered_json writeEnvelope(const Envelope& e) {
    nlohmann::ordered_json j;
    for (const EnvelopeField& f : envelopeFields()) writeField(f, e, *f.section ? j[f.section] : j);
    return j;
}

EnvelopeKey searchKey(const Envelope& e) { return {writeEnvelope(e).dump(), e.hardware.measured}; }

EnvelopeKey costingKey(const Envelope& e) {
    Envelope c = e;
    const Envelope defaults;
    c.days = defaults.days;
    c.goodput = defaults.goodput;
    c.tppMin = defaults.tppMin;
    c.tppMax = defaults.tppMax;
    c.computeBudgetFlops = defaults.computeBudgetFlops;
    c.law = defaults.law;
    c.frontierSparsity = defaults.frontierSparsity;
    return searchKey(c);
}

const BackgroundLoad& backgroundOrIdle(const Envelope& e) {
    static const BackgroundLoad kIdle;
    return e.background ? *e.background : kIdle;
}

}  // namespace tandem::mosaic
