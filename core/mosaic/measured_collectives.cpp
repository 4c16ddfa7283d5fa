#include "mosaic/measured_collectives.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "common/json_reader.h"
#include "io/text_file.h"

namespace tandem::mosaic {
namespace {

/// Below this printed busbw (GB/s with two decimals) the time column is the better measurement.
constexpr double kPrintedBusbwFloor_Bps = 1e9;

bool spansNodes(int ranks, int gpusPerNode) { return ranks > gpusPerNode; }

}  // namespace

std::vector<std::string> MeasuredCollectives::add(const io::NcclImport& imp,
                                                  const std::string& source) {
    std::vector<std::string> notes;
    const std::string file = io::baseName(source);
    for (const auto& c : imp.curves) {
        const std::string what = std::string(io::name(c.collective)) + " on " +
                                 std::to_string(c.ranks) + " ranks in " + file;
        const std::optional<Collective> modelled = narrow(ncclCollectives(), c.collective);
        if (!modelled) {
            notes.push_back(what +
                            ": skipped, Tandem's model uses all_reduce, reduce_scatter, "
                            "all_gather and alltoall only");
            continue;
        }
        const Collective kind = *modelled;
        if (c.ranks < 2) {
            notes.push_back(what + ": skipped, the rank count is unknown or below 2");
            continue;
        }
        const auto dup =
            std::find_if(m_curves.begin(), m_curves.end(), [&](const MeasuredCurve& m) {
                return m.collective == kind && m.curve.ranks == c.ranks;
            });
        if (dup != m_curves.end()) {
            notes.push_back(what + ": skipped, " + dup->label + " was loaded first");
            continue;
        }
        MeasuredCurve m;
        m.collective = kind;
        m.source = source;
        m.label = what;
        m.curve = c;
        m.curve.points.clear();
        const double f = io::busBandwidthFactor(c.collective, c.ranks);
        std::size_t fromTime = 0, dropped = 0;
        for (io::NcclPoint p : c.points) {
            if (p.busbw_Bps < kPrintedBusbwFloor_Bps) {
                double t = p.timeOutOfPlace_s;
                if (p.timeInPlace_s > 0 && (t <= 0 || p.timeInPlace_s < t)) t = p.timeInPlace_s;
                if (t > 0 && f > 0) {
                    p.busbw_Bps = p.bytes * f / t;
                    ++fromTime;
                }
            }
            if (!(p.busbw_Bps > 0) || !std::isfinite(p.busbw_Bps)) {
                ++dropped;
                continue;
            }
            m.curve.points.push_back(p);
        }
        if (fromTime > 0)
            notes.push_back(what + ": " + std::to_string(fromTime) +
                            " size(s) with busbw below 1 GB/s use bytes x factor / time instead of "
                            "the printed busbw");
        if (dropped > 0)
            notes.push_back(what + ": " + std::to_string(dropped) +
                            " size(s) without a positive "
                            "bus bandwidth or time dropped");
        if (m.curve.points.empty()) {
            notes.push_back(what + ": skipped, no size with a positive bus bandwidth");
            continue;
        }
        m.logBytes = io::logSizes(m.curve);
        std::vector<int>& order = m_byRanks[static_cast<std::size_t>(m.collective)];
        const int ranks = m.curve.ranks;
        order.insert(std::lower_bound(
                         order.begin(), order.end(), ranks,
                         [&](int i, int r) { return m_curves[std::size_t(i)].curve.ranks < r; }),
                     static_cast<int>(m_curves.size()));
        m_curves.push_back(std::move(m));
    }
    return notes;
}

CurveChoice MeasuredCollectives::choose(Collective c, int ranks, bool spans,
                                        int gpusPerNode) const {
    auto ranksOf = [&](int i) { return m_curves[std::size_t(i)].curve.ranks; };
    // The nearest rank count by ratio among `want`'s curves of the right scope; on a tie the
    // larger. spansNodes is "ranks > gpusPerNode", so one scope is a contiguous run of the
    // rank-ordered index and the nearest count is a neighbour of `ranks` in it.
    auto pick = [&](Collective want) {
        CurveChoice best;
        const std::vector<int>& order = m_byRanks[static_cast<std::size_t>(want)];
        const auto split = std::partition_point(order.begin(), order.end(), [&](int i) {
            return !spansNodes(ranksOf(i), gpusPerNode);
        });
        const auto first = spans ? split : order.begin();
        const auto last = spans ? order.end() : split;
        if (first == last) return best;
        const int target = std::max(1, ranks);
        const auto hi =
            std::lower_bound(first, last, target, [&](int i, int r) { return ranksOf(i) < r; });
        if (hi == first) {
            best.index = *hi;
        } else if (hi == last) {
            best.index = *(hi - 1);
        } else {
            // max/min of the two rank counts orders them as |log(ratio)| does, without a log.
            const double b = double(target);
            const double below = b / double(ranksOf(*(hi - 1))), above = double(ranksOf(*hi)) / b;
            best.index = above <= below ? *hi : *(hi - 1);
        }
        return best;
    };
    CurveChoice ch = pick(c);
    if (ch.index < 0 && (c == Collective::ReduceScatter || c == Collective::AllGather)) {
        ch = pick(Collective::AllReduce);
        ch.standIn = ch.index >= 0;
    }
    return ch;
}

double MeasuredCollectives::timeOf(const Hardware& hw, Collective c, double bytes, int size,
                                   int stride, CollectiveUse* use) const {
    const GroupSpan g = groupSpan(size, stride, hw.gpusPerNode);
    const double an = analyticalCollectiveTime(hw, c, bytes, size, stride);
    if (use) {
        *use = CollectiveUse{};
        use->collective = c;
        use->bytes = bytes;
        use->ranks = size;
        use->stride = stride;
        use->nodes = g.nodes;
        use->time_s = an;
        use->analytical_s = an;
    }
    if (size <= 1 || bytes <= 0) return 0.0;
    const CurveChoice ch = choose(c, size, g.nodes > 1, hw.gpusPerNode);
    if (ch.index < 0) return an;
    const MeasuredCurve& measured = m_curves[std::size_t(ch.index)];
    const io::NcclCurve& curve = measured.curve;
    const io::BusBandwidth bw = io::effectiveBusBandwidth(curve, bytes, measured.logBytes);
    // Step 3: the curve's own run, in the requested collective's convention (a stand-in
    // all_reduce curve gives half its time at the same bus bandwidth).
    const double own = bytes * busFactor(c, curve.ranks) / bw.busbw_Bps;
    // Step 4: rank count and placement through the analytical model.
    const GroupSpan ownSpan = groupSpan(curve.ranks, 1, hw.gpusPerNode);
    const bool rescaled =
        size != curve.ranks || g.nodes != ownSpan.nodes || g.ranksPerNode != ownSpan.ranksPerNode;
    double scale = 1.0;
    if (rescaled) {
        const double ref = analyticalCollectiveTime(hw, c, bytes, curve.ranks, 1);
        if (ref > 0 && std::isfinite(ref) && std::isfinite(an)) scale = an / ref;
    }
    const double t = own * scale;
    if (!(t >= 0) || !std::isfinite(t))
        return an;  // busbw 0 below the smallest size: keep analytical
    if (use) {
        use->curve = ch.index;
        use->standIn = ch.standIn;
        use->rescaled = rescaled;
        use->extrapolated = bw.extrapolated;
        use->time_s = t;
    }
    return t;
}

nlohmann::ordered_json MeasuredCollectives::toJson(int gpusPerNode) const {
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const auto& m : m_curves) {
        nlohmann::ordered_json o;
        o["label"] = m.label;
        o["source"] = m.source;
        o["collective"] = collectiveName(m.collective);
        o["ranks"] = m.curve.ranks;
        o["scope"] = spansNodes(m.curve.ranks, gpusPerNode) ? "spans_nodes" : "intra_node";
        o["min_bytes"] = m.curve.points.front().bytes;
        o["max_bytes"] = m.curve.points.back().bytes;
        o["peak_busbw_GBps"] = m.curve.peakBusbw_Bps / 1e9;
        arr.push_back(o);
    }
    nlohmann::ordered_json j;
    j["curves"] = arr;
    return j;
}

std::vector<std::pair<std::size_t, std::size_t>> repeatedFiles(
    const std::vector<std::string>& files) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    std::vector<std::string> keys;  // canonical names, one per entry
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::error_code ec;
        std::string key = std::filesystem::weakly_canonical(files[i], ec).string();
        if (ec) key = std::filesystem::path(files[i]).lexically_normal().string();
        const auto first = std::find(keys.begin(), keys.end(), key);
        if (first != keys.end())
            out.emplace_back(i, static_cast<std::size_t>(first - keys.begin()));
        keys.push_back(key);
    }
    return out;
}

std::shared_ptr<const MeasuredCollectives> loadMeasuredCollectives(
    const std::vector<std::string>& files, Diagnostics& diag, const std::string& pathPrefix,
    bool indexed, std::vector<std::string>* notes) {
    if (files.empty()) return nullptr;
    auto out = std::make_shared<MeasuredCollectives>();
    const std::size_t before = diag.items().size();
    // The same file listed twice (under any spelling) is used once, with a note, instead of
    // failing because its curves duplicate themselves.
    const auto repeats = repeatedFiles(files);
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string at = indexed ? pathPrefix + "[" + std::to_string(i) + "]" : pathPrefix;
        if (std::any_of(repeats.begin(), repeats.end(),
                        [i](const auto& r) { return r.first == i; })) {
            if (notes) notes->push_back("\"" + files[i] + "\": listed twice; used once");
            continue;
        }
        Diagnostics sub(files[i]);
        const auto imp = io::loadNcclTestsFile(files[i], sub);
        for (const auto& issue : sub.items()) {
            const std::string where = issue.path == "file" ? std::string() : " " + issue.path;
            diag.error(at, "\"" + files[i] + "\"" + where + ": " + issue.message);
        }
        if (!imp) continue;
        const std::size_t had = out->curves().size();
        auto n = out->add(*imp, files[i]);
        if (out->curves().size() == had) {
            std::string why = "no curve Tandem can use";
            if (!n.empty()) why += " (" + n.front() + ")";
            diag.error(at, "\"" + files[i] + "\": " + why);
        }
        if (notes) notes->insert(notes->end(), n.begin(), n.end());
    }
    if (diag.items().size() != before) return nullptr;
    return out;
}

nlohmann::ordered_json measuredCollectivesReport(const Hardware& hw,
                                                 const CollectiveRecorder& rec) {
    nlohmann::ordered_json j =
        hw.measured ? hw.measured->toJson(hw.gpusPerNode)
                    : nlohmann::ordered_json{{"curves", nlohmann::ordered_json::array()}};
    j["costings"] = rec.calls();
    j["measured_costings"] = rec.measuredCalls();
    j["extrapolated_costings"] = rec.extrapolatedCalls();
    return j;
}

BusBandwidthComparison compareBusBandwidth(const Hardware& hw, Collective c, int ranks,
                                           const std::vector<double>& sizes, int stride) {
    BusBandwidthComparison out;
    out.collective = c;
    out.ranks = ranks;
    out.stride = std::max(1, stride);
    const GroupSpan g = groupSpan(ranks, out.stride, hw.gpusPerNode);
    out.nodes = g.nodes;
    const MeasuredCollectives* m = hw.measured.get();
    if (m && ranks > 1) {
        const CurveChoice ch = m->choose(c, ranks, g.nodes > 1, hw.gpusPerNode);
        if (ch.index >= 0) {
            const auto& mc = m->curves()[std::size_t(ch.index)];
            out.curve = ch.index;
            out.curveLabel = mc.label;
            out.curveRanks = mc.curve.ranks;
            out.standIn = ch.standIn;
            const GroupSpan own = groupSpan(mc.curve.ranks, 1, hw.gpusPerNode);
            out.rescaled = ranks != mc.curve.ranks || own.nodes != g.nodes ||
                           own.ranksPerNode != g.ranksPerNode;
            out.minMeasuredBytes = mc.curve.points.front().bytes;
            out.maxMeasuredBytes = mc.curve.points.back().bytes;
        }
    }
    const double f = busFactor(c, ranks);
    out.samples.reserve(sizes.size());
    for (double s : sizes) {
        BusBandwidthSample b;
        b.bytes = s;
        if (s > 0 && ranks > 1) {
            const double an = analyticalCollectiveTime(hw, c, s, ranks, out.stride);
            b.analyticalBusbw_Bps = an > 0 ? s * f / an : 0.0;
            if (out.curve >= 0) {
                CollectiveUse use;
                const double t = m->timeOf(hw, c, s, ranks, out.stride, &use);
                if (use.curve >= 0 && t > 0) b.measuredBusbw_Bps = s * f / t;
                b.extrapolated = use.extrapolated;
            }
        }
        out.samples.push_back(b);
    }
    return out;
}

std::vector<double> logSpacedSizes(double minBytes, double maxBytes, int count) {
    std::vector<double> out;
    if (count < 2 || !(minBytes > 0) || !(maxBytes >= minBytes) || !std::isfinite(maxBytes))
        return out;
    const double a = std::log(minBytes), b = std::log(maxBytes);
    out.reserve(std::size_t(count));
    for (int i = 0; i < count; ++i) out.push_back(std::exp(a + (b - a) * i / (count - 1)));
    out.front() = minBytes;
    out.back() = maxBytes;
    return out;
}

}  // namespace tandem::mosaic
