#include "mosaic/layout_form.h"

#include <algorithm>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "mosaic/envelope.h"

namespace tandem::mosaic {
namespace {

using V = LayoutValue;

/// The keys of the positional form, in its order.
constexpr const char* kPositionalKeys[] = {"tp", "ep", "pp", "cp", "dp", "mbs"};

const char* const kCheckpointingChoices = "none, core-attn, selective, super-selective or full";

const LayoutKey* findKey(const std::string& key) {
    for (const LayoutKey& k : layoutKeys())
        if (key == k.key) return &k;
    return nullptr;
}

/// "tp, pp, ..., ckpt": every key of the table.
std::string knownKeys() {
    std::string s;
    for (const LayoutKey& k : layoutKeys()) s += (s.empty() ? "" : ", ") + std::string(k.key);
    return s;
}

/// `text` as a whole integer; false when it is not one (or does not fit an int).
bool readInteger(const std::string& text, int& out) {
    try {
        size_t used = 0;
        out = std::stoi(text, &used);
        return used == text.size();
    } catch (const std::exception&) {
        return false;
    }
}

/// The value of `k` in `p` as the named form writes it.
std::string valueText(const LayoutKey& k, const Plan& p) {
    switch (k.kind) {
        case V::Count:
        case V::CountOrZero:
            return std::to_string(p.*k.count);
        case V::Flag:
            return std::to_string(int(p.*k.flag));
        case V::Checkpointing:
            return checkpointingName(p.*k.mode);
    }
    return "";
}

/// Sets `k` of `p` from `value`; false + `error` when the value is outside the key's kind.
bool setValue(const LayoutKey& k, const std::string& value, Plan& p, std::string& error) {
    if (k.kind == V::Checkpointing) {
        if (parseCheckpointing(value, p.*k.mode)) return true;
        error =
            std::string(k.key) + " must be " + kCheckpointingChoices + " (got \"" + value + "\")";
        return false;
    }
    int v = 0;
    if (!readInteger(value, v)) {
        error = "layout key " + std::string(k.key) + " must be an integer (got \"" + value + "\")";
        return false;
    }
    const char* rule = k.kind == V::Flag          ? (v == 0 || v == 1 ? nullptr : " must be 0 or 1")
                       : k.kind == V::CountOrZero ? (v >= 0 ? nullptr : " must be >= 0")
                                                  : (v >= 1 ? nullptr : " must be >= 1");
    if (rule) {
        error = "layout key " + std::string(k.key) + rule + " (got " + value + ")";
        return false;
    }
    if (k.kind == V::Flag)
        p.*k.flag = v == 1;
    else
        p.*k.count = v;
    return true;
}

/// The named form (any subset of layoutKeys(); dp 0 when not given).
bool parseNamedLayout(const std::vector<std::string>& parts, Plan& p, std::string& error,
                      bool& ckptGiven) {
    p = Plan{};
    p.dp = 0;
    std::vector<std::string> seen;
    for (const std::string& part : parts) {
        const auto eq = part.find('=');
        const std::string key = part.substr(0, eq),
                          value = eq == std::string::npos ? "" : part.substr(eq + 1);
        if (eq == std::string::npos || key.empty()) {
            error = "layout entry \"" + part + "\" must be key=value";
            return false;
        }
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
            error = "layout key \"" + key + "\" given twice";
            return false;
        }
        seen.push_back(key);
        const LayoutKey* k = findKey(key);
        if (!k) {
            error = "unknown layout key \"" + key + "\" (known: " + knownKeys() + ")";
            return false;
        }
        if (!setValue(*k, value, p, error)) return false;
        ckptGiven = ckptGiven || k->kind == V::Checkpointing;
    }
    return true;
}

}  // namespace

const std::vector<LayoutKey>& layoutKeys() {
    static const std::vector<LayoutKey> keys = {
        {"tp", V::Count, &Plan::tp, nullptr, nullptr, true, "tensor-parallel degree"},
        {"pp", V::Count, &Plan::pp, nullptr, nullptr, true, "pipeline-parallel stages"},
        {"vp", V::Count, &Plan::vp, nullptr, nullptr, false,
         "virtual pipeline stages per GPU (1 = plain 1F1B)"},
        {"cp", V::Count, &Plan::cp, nullptr, nullptr, true, "context-parallel degree"},
        {"ep", V::Count, &Plan::ep, nullptr, nullptr, true, "expert-parallel degree"},
        {"etp", V::Count, &Plan::etp, nullptr, nullptr, false, "expert tensor-parallel degree"},
        {"dp", V::Count, &Plan::dp, nullptr, nullptr, true,
         "data-parallel degree (not given: N_dev / (TP CP PP))"},
        {"mbs", V::Count, &Plan::mbs, nullptr, nullptr, true, "micro-batch size, sequences"},
        {"fsdp", V::Flag, nullptr, &Plan::fsdp, nullptr, false, "fully sharded data parallel"},
        {"distopt", V::Flag, nullptr, &Plan::distributedOptimizer, nullptr, false,
         "distributed optimizer (ZeRO-1)"},
        {"sp", V::Flag, nullptr, &Plan::sequenceParallel, nullptr, false, "sequence parallelism"},
        {"pp_first", V::CountOrZero, &Plan::firstStageLayers, nullptr, nullptr, false,
         "layers on the first pipeline stage (0 = even split)"},
        {"pp_last", V::CountOrZero, &Plan::lastStageLayers, nullptr, nullptr, false,
         "layers on the last pipeline stage (0 = even split)"},
        {"ckpt", V::Checkpointing, nullptr, nullptr, &Plan::ckpt, true,
         "activation checkpointing mode"},
    };
    return keys;
}

bool parseLayout(const std::string& text, Plan& p, std::string& error, bool* ckptGiven) {
    bool given = false;
    if (ckptGiven) *ckptGiven = false;
    std::vector<std::string> parts;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) parts.push_back(item);
    if (text.find('=') != std::string::npos) {
        const bool ok = parseNamedLayout(parts, p, error, given);
        if (ok && ckptGiven) *ckptGiven = given;
        return ok;
    }
    constexpr size_t n = std::size(kPositionalKeys);
    if (parts.size() < n || parts.size() > n + 1) {
        error = "layout must be tp,ep,pp,cp,dp,mbs[,ckpt] (got \"" + text + "\")";
        return false;
    }
    int v[n];
    for (size_t i = 0; i < n; ++i)
        if (!readInteger(parts[i], v[i]) || v[i] < 1) {
            error = "layout field " + std::to_string(i + 1) +
                    " must be a positive integer (got \"" + parts[i] + "\")";
            return false;
        }
    for (size_t i = 0; i < n; ++i) p.*findKey(kPositionalKeys[i])->count = v[i];
    p.ckpt = Checkpointing::None;
    if (parts.size() == n + 1 && !parseCheckpointing(parts[n], p.ckpt)) {
        error = std::string("checkpointing must be ") + kCheckpointingChoices + " (got \"" +
                parts[n] + "\")";
        return false;
    }
    if (ckptGiven) *ckptGiven = parts.size() == n + 1;
    return true;
}

std::string layoutString(const Plan& p) {
    const Plan def;
    std::string s;
    for (bool always : {true, false})
        for (const LayoutKey& k : layoutKeys()) {
            const std::string value = valueText(k, p);
            if (k.alwaysWritten != always || (!always && value == valueText(k, def))) continue;
            s += (s.empty() ? "" : ",") + std::string(k.key) + "=" + value;
        }
    return s;
}

}  // namespace tandem::mosaic
