#include "mosaic/envelope.h"

#include <algorithm>
#include <stdexcept>

#include "common/field_table.h"
#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::mosaic {
namespace {

std::string idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

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
    readFields(r, envelopeFields(), e);

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

nlohmann::ordered_json writeEnvelope(const Envelope& e) { return writeFields(envelopeFields(), e); }

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
