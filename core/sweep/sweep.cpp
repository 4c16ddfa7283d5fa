#include "sweep/sweep.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "io/text_file.h"
#include "mlforml/simulate.h"
#include "mosaic/layout_form.h"
#include "mosaic/search.h"
#include "scenario/scenario.h"

namespace tandem::sweep {
namespace {

using io::trim;

/// Name/value pairs of one grid point's outputs, in a fixed order.
using Metrics = std::vector<std::pair<std::string, std::string>>;

void mlforMlMetrics(const mlforml::Result& r, Metrics& m) {
    for (size_t i = 0; i < r.points.size(); ++i) {
        const auto& pt = r.points[i];
        const std::string pre = "ml.p" + std::to_string(i) + ".";
        m.emplace_back(pre + "background_jobs", std::to_string(pt.backgroundJobs));
        m.emplace_back(pre + "dp_share_bf16", csvNumber(pt.dpShareBf16));
        m.emplace_back(pre + "dp_share_mxfp4", csvNumber(pt.dpShareMxfp4));
        m.emplace_back(pre + "bg_p95_GB_per_50ms", csvNumber(pt.bgP95GBPer50ms));
        const mlforml::PolicyRun* joint = findRun(pt, mlforml::Policy::Joint);
        for (const auto& run : pt.policies) {
            for (size_t k = 0; k < run.firstCrossing_s.size(); ++k) {
                const std::string f = formatNumber(r.targetFactors[k]);
                m.emplace_back(pre + run.policy + ".first_crossing_s@" + f,
                               csvNumber(run.firstCrossing_s[k]));
                if (joint && k < joint->firstCrossing_s.size())
                    m.emplace_back(pre + run.policy + ".ratio_to_joint@" + f,
                                   csvNumber(run.firstCrossing_s[k] / joint->firstCrossing_s[k]));
            }
        }
    }
}

void mosaicMetrics(const mosaic::SearchResult& r, Metrics& m) {
    m.emplace_back("moe.compute_optimal_sparsity", csvNumber(r.computeOptimalSparsity));
    m.emplace_back("moe.cluster_optimal_sparsity", csvNumber(r.clusterOptimalSparsity));
    m.emplace_back("moe.naive_on_cluster_loss", csvNumber(r.naiveOnClusterLoss));
    m.emplace_back("moe.feasible_candidates", std::to_string(r.candidates.size()));
    const mosaic::Candidate* c =
        r.optimum >= 0 ? &r.candidates[static_cast<size_t>(r.optimum)] : nullptr;
    const double nan = std::nan("");
    m.emplace_back("moe.optimum_loss", csvNumber(c ? c->loss : nan));
    m.emplace_back("moe.optimum_mfu", csvNumber(c ? c->eval.mfu : nan));
    m.emplace_back("moe.optimum_n_act", csvNumber(c ? c->geometry.nAct : nan));
    m.emplace_back("moe.optimum_n_tot", csvNumber(c ? c->geometry.nTot : nan));
    m.emplace_back("moe.optimum_experts", c ? std::to_string(c->geometry.experts) : "");
    m.emplace_back("moe.optimum_top_k", c ? std::to_string(c->geometry.topK) : "");
    m.emplace_back("moe.optimum_G", c ? std::to_string(c->geometry.splitG) : "");
    m.emplace_back("moe.optimum_tokens", csvNumber(c ? c->tokens : nan));
    m.emplace_back("moe.optimum_layout", c ? mosaic::layoutString(c->plan) : "");
}

/// Sets dotted `path` in `doc` to `v`, wrapping a scalar into an array when the key holds one.
bool setPath(nlohmann::json& doc, const std::string& path, const nlohmann::json& v,
             std::string& error) {
    // Each dotted segment is a literal key: escape JSON-pointer syntax ('~' -> "~0",
    // '/' -> "~1") so that a typed '~' or '/' gives "no key" instead of a pointer parse error.
    std::string pointer;
    size_t start = 0;
    while (true) {
        const auto dot = path.find('.', start);
        pointer += "/";
        for (char c : path.substr(start, dot == std::string::npos ? dot : dot - start))
            pointer += c == '~'   ? std::string("~0")
                       : c == '/' ? std::string("~1")
                                  : std::string(1, c);
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    const nlohmann::json::json_pointer ptr(pointer);
    if (!doc.contains(ptr)) {
        error = "no key \"" + path +
                "\" in the scenario (keys are dotted from the root, e.g. "
                "ml_for_ml.fabric_GBps)";
        return false;
    }
    auto& slot = doc[ptr];
    slot = (slot.is_array() && !v.is_array()) ? nlohmann::json::array({v}) : v;
    return true;
}

}  // namespace

std::string sweepFingerprint(const std::string& canonicalScenarioJson,
                             const std::vector<Axis>& axes) {
    std::uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis
    auto feed = [&h](const std::string& bytes) {
        for (unsigned char c : bytes) {
            h ^= c;
            h *= 1099511628211ull;  // FNV-1a 64 prime
        }
        h ^= 0xffu;  // field separator (0xff never occurs in UTF-8 text)
        h *= 1099511628211ull;
    };
    feed(canonicalScenarioJson);
    for (const auto& a : axes) {
        feed(a.path);
        for (const auto& v : a.values) feed(v.dump());
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return hex;
}

bool parseAxis(const std::string& text, Axis& axis, std::string& error) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
        error = "expected PATH=VALUES (e.g. ml_for_ml.fabric_GBps=300:600:4), got \"" + text + "\"";
        return false;
    }
    axis.path = trim(text.substr(0, eq));
    axis.values.clear();
    const std::string spec = trim(text.substr(eq + 1));
    const auto c1 = spec.find(':');
    if (c1 != std::string::npos) {
        const auto c2 = spec.find(':', c1 + 1);
        char* end = nullptr;
        const std::string a = spec.substr(0, c1), b = spec.substr(c1 + 1, c2 - c1 - 1),
                          n = c2 == std::string::npos ? "" : spec.substr(c2 + 1);
        // C convention whatever the locale: "2.5:5.5:2" under de_DE.UTF-8 too.
        const NumberScan sLo = scanNumber(a), sHi = scanNumber(b);
        const double lo = sLo.value, hi = sHi.value;
        const bool okLo = !a.empty() && sLo.length == a.size();
        const bool okHi = !b.empty() && sHi.length == b.size();
        const long count = std::strtol(n.c_str(), &end, 10);
        const bool okN = !n.empty() && *end == '\0';
        // The number parser's rule for every command-line number: an integer beyond 2^53 is
        // not the number written.
        for (const auto* end : {&sLo, &sHi})
            if (okLo && okHi && end->inexactInteger) {
                error = axis.path + ": range " + (end == &sLo ? "start " : "end ") +
                        integerBeyondDoubleReason();
                return false;
            }
        if (okLo && okHi && (!std::isfinite(lo) || !std::isfinite(hi))) {
            error = axis.path + ": range ends must be finite numbers, got \"" + spec + "\"";
            return false;
        }
        if (!okLo || !okHi || !okN) {
            error = axis.path + ": range must be lo:hi:n with numbers, got \"" + spec + "\"";
            return false;
        }
        if (count < 2 || count > 100000) {
            error = axis.path + ": range needs 2 <= n <= 100000 points, got " + n;
            return false;
        }
        const double step = (hi - lo) / static_cast<double>(count - 1);
        // Integer values only where every point is an exact integer: beyond 2^53 a double is no
        // longer one, and llround of a value past the long long range is undefined (it gave
        // -9223372036854775808).
        constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
        const bool whole = std::floor(lo) == lo && std::floor(step) == step &&
                           std::abs(lo) <= kExactIntegers && std::abs(hi) <= kExactIntegers;
        for (long i = 0; i < count; ++i) {
            const double v = lo + step * static_cast<double>(i);
            if (whole)
                axis.values.emplace_back(static_cast<long long>(std::llround(v)));
            else
                axis.values.emplace_back(v);
        }
        return true;
    }
    size_t start = 0;
    while (start <= spec.size()) {
        const auto comma = spec.find(',', start);
        const std::string item =
            trim(spec.substr(start, comma == std::string::npos ? comma : comma - start));
        if (item.empty()) {
            error = axis.path + ": empty value in list \"" + spec + "\"";
            return false;
        }
        // "nan", "inf" and "1e400" are numbers to strtod but not to JSON: name them as such
        // instead of passing them on as strings ("must be a number (got a string)").
        const NumberScan asNumber = scanNumber(item);
        if (asNumber.length == item.size() && !std::isfinite(asNumber.value)) {
            error = axis.path + ": " + item + " must be a finite number";
            return false;
        }
        if (asNumber.length == item.size() && asNumber.inexactInteger) {
            error = axis.path + ": list value " + std::to_string(axis.values.size() + 1) + " " +
                    integerBeyondDoubleReason();
            return false;
        }
        nlohmann::json v = nlohmann::json::parse(item, nullptr, false);
        if (v.is_discarded()) v = item;  // a bare word is a string (e.g. closed_loop)
        if (!v.is_primitive() || v.is_null()) {
            error = axis.path + ": values must be numbers, strings or booleans, got " + item;
            return false;
        }
        axis.values.push_back(std::move(v));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return true;
}

bool parseShard(const std::string& text, Shard& shard, std::string& error) {
    const auto slash = text.find('/');
    char* end = nullptr;
    const std::string a = text.substr(0, slash),
                      b = slash == std::string::npos ? "" : text.substr(slash + 1);
    const long i = std::strtol(a.c_str(), &end, 10);
    const bool okI = !a.empty() && *end == '\0';
    const long n = std::strtol(b.c_str(), &end, 10);
    const bool okN = !b.empty() && *end == '\0';
    if (!okI || !okN || n < 1 || i < 0 || i >= n || n > 1000000) {
        error = "shard must be i/n with 0 <= i < n (0-based), got \"" + text + "\"";
        return false;
    }
    shard = {static_cast<int>(i), static_cast<int>(n)};
    return true;
}

bool shardFromSlurm(const char* taskId, const char* taskMin, const char* taskCount, Shard& shard,
                    std::string& error) {
    auto read = [&error](const char* name, const char* value, long& out) {
        const std::string v = value ? value : "";
        if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) {
            error = std::string(name) + "=" + (value ? "\"" + v + "\"" : "(unset)") +
                    ": must be a non-negative integer";
            return false;
        }
        out = std::strtol(v.c_str(), nullptr, 10);
        return true;
    };
    long id = 0, min = 0, count = 0;
    if (!read("SLURM_ARRAY_TASK_ID", taskId, id)) return false;
    if (taskMin && !read("SLURM_ARRAY_TASK_MIN", taskMin, min)) return false;
    if (!taskCount) {
        error =
            "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (both are needed to "
            "pick a shard; or give --shard i/n)";
        return false;
    }
    if (!read("SLURM_ARRAY_TASK_COUNT", taskCount, count)) return false;
    if (count < 1 || count > 1000000) {
        error =
            "SLURM_ARRAY_TASK_COUNT=" + std::to_string(count) + ": must be between 1 and 1000000";
        return false;
    }
    if (id < min || id - min >= count) {
        error = "SLURM_ARRAY_TASK_ID=" + std::to_string(id) + ": task " + std::to_string(id - min) +
                " (minus SLURM_ARRAY_TASK_MIN=" + std::to_string(min) +
                ") must be >= 0 and < SLURM_ARRAY_TASK_COUNT=" + std::to_string(count) +
                " (a job array with steps or gaps cannot be mapped to shards; give --shard i/n)";
        return false;
    }
    shard = {static_cast<int>(id - min), static_cast<int>(count)};
    return true;
}

Table run(const std::string& scenarioJson, const std::vector<Axis>& axes, const Shard& shard,
          int threads, Diagnostics& diag, const CancelFlag* cancel,
          const std::function<void(std::size_t, std::size_t)>& progress) {
    Table table;
    table.shard = shard;
    const auto base = parseScenario(scenarioJson, diag);
    if (!base) return table;
    const nlohmann::json canonical = nlohmann::json::parse(scenarioToJson(*base));
    table.fingerprint = sweepFingerprint(canonical.dump(), axes);

    for (size_t a = 0; a < axes.size(); ++a)
        for (size_t b = 0; b < a; ++b)
            if (axes[a].path == axes[b].path) {
                diag.error(axes[a].path, "is swept twice; sweep two different keys");
                return table;
            }
    // Grid size and index -> axis values (first axis slowest).
    size_t total = 1;
    for (const auto& a : axes) {
        if (a.values.empty()) {
            diag.error(a.path, "no values to sweep");
            return table;
        }
        total *= a.values.size();
        if (total > kMaxGridPoints) {
            // Two 100000-value axes would make 1e10 points: refuse before allocating them.
            diag.error(a.path, "the grid has more than " + std::to_string(kMaxGridPoints) +
                                   " points; use fewer values per axis");
            return table;
        }
    }
    table.gridPoints = total;
    std::vector<size_t> mine;
    for (size_t i = 0; i < total; ++i)
        if (static_cast<int>(i % static_cast<size_t>(shard.count)) == shard.index)
            mine.push_back(i);

    auto valuesOf = [&](size_t point) {
        std::vector<const nlohmann::json*> vs(axes.size());
        for (size_t k = axes.size(); k-- > 0;) {
            vs[k] = &axes[k].values[point % axes[k].values.size()];
            point /= axes[k].values.size();
        }
        return vs;
    };

    // Validate every point before spending time on any.
    std::vector<Scenario> scenarios;
    scenarios.reserve(mine.size());
    for (size_t point : mine) {
        nlohmann::json doc = canonical;
        const auto vs = valuesOf(point);
        std::string label = "point " + std::to_string(point) + " (";
        bool ok = true;
        for (size_t k = 0; k < axes.size(); ++k) {
            label += (k ? ", " : "") + axes[k].path + "=" + vs[k]->dump();
            std::string err;
            if (!setPath(doc, axes[k].path, *vs[k], err)) {
                diag.error(axes[k].path, err);
                return Table{};
            }
        }
        label += ")";
        Diagnostics pd;
        auto s = parseScenario(doc.dump(), pd);
        if (!s) {
            for (const auto& is : pd.items()) diag.error(label + " " + is.path, is.message);
            ok = false;
        }
        if (!ok) return Table{};
        scenarios.push_back(std::move(*s));
    }

    std::vector<Metrics> results(mine.size());
    std::vector<std::string> errors(mine.size());
    std::atomic<size_t> next{0};
    std::mutex progressMutex;
    size_t done = 0;  // points finished, guarded by progressMutex
    auto worker = [&] {
        for (size_t j; (j = next.fetch_add(1)) < mine.size();) {
            try {
                throwIfCancelled(cancel);
                const auto& s = scenarios[j];
                if (s.mlForMl) mlforMlMetrics(mlforml::simulate(*s.mlForMl, cancel), results[j]);
                if (s.mosaic) mosaicMetrics(mosaic::search(*s.mosaic, cancel), results[j]);
            } catch (const Cancelled&) {
                errors[j] = "cancelled";
            } catch (const std::exception& e) {
                errors[j] = e.what();
            }
            if (progress) {
                const std::lock_guard<std::mutex> lock(progressMutex);
                progress(++done, mine.size());
            }
        }
    };
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const size_t nThreads =
        std::min<size_t>(mine.size(), threads > 0 ? static_cast<size_t>(threads) : hw);
    std::vector<std::thread> pool;
    for (size_t t = 1; t < nThreads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    throwIfCancelled(cancel);

    for (size_t j = 0; j < mine.size(); ++j) {
        if (!errors[j].empty()) {
            diag.error("point " + std::to_string(mine[j]), errors[j]);
            return Table{};
        }
    }
    table.header.push_back("point");
    for (const auto& a : axes) table.header.push_back(a.path);
    if (!results.empty())
        for (const auto& kv : results[0]) table.header.push_back(kv.first);
    for (size_t j = 0; j < mine.size(); ++j) {
        std::vector<std::string> row{std::to_string(mine[j])};
        for (const auto* v : valuesOf(mine[j]))
            row.push_back(v->is_string() ? v->get<std::string>() : v->dump());
        bool same = results[j].size() + 1 + axes.size() == table.header.size();
        for (size_t c = 0; same && c < results[j].size(); ++c)
            same = results[j][c].first == table.header[1 + axes.size() + c];
        if (!same) {
            diag.error("point " + std::to_string(mine[j]),
                       "outputs differ in shape from point " + std::to_string(mine[0]) +
                           " (sweep a key that keeps the number of sub-points and policies)");
            return Table{};
        }
        for (const auto& kv : results[j]) row.push_back(kv.second);
        table.rows.push_back(std::move(row));
    }
    return table;
}

}  // namespace tandem::sweep
