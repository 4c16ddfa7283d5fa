// The background-job keys (fabric/background_job.h) read the same in both workspaces: for every
// numeric key, ML-for-ML's `ml_for_ml.background_job.<key>` and the MoE job's
// `mosaic.background.job.<key>` accept the value at each bound and refuse the value just
// outside it, with the same message at the key's own path; the writer writes every key of the
// table once and reads back equal.
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/diagnostics.h"
#include "fabric/background_job.h"
#include "scenario/scenario.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::fabric;

namespace {

/// `{"<key>": v}` as a job object (an integer key written as an integer).
nlohmann::json jobWith(const BackgroundJobField& f, double v) {
    nlohmann::json j;
    if (f.integer)
        j[f.key] = static_cast<long long>(v);
    else
        j[f.key] = v;
    return j;
}

/// The errors of reading `job` as ML-for-ML's background job ("ml") or as the job beside the
/// MoE job ("moe", no co-running jobs so that any node count fits the fabric).
std::vector<Issue> errorsOf(const char* workspace, const nlohmann::json& job) {
    nlohmann::json s;
    if (std::string(workspace) == "ml")
        s["ml_for_ml"]["background_job"] = job;
    else
        s["mosaic"] = {{"nodes", 32}, {"background", {{"jobs", 0}, {"job", job}}}};
    Diagnostics d;
    (void)parseScenario(s.dump(), d);
    return d.items();
}

std::string pathOf(const char* workspace, const BackgroundJobField& f) {
    return std::string(std::string(workspace) == "ml" ? "$.ml_for_ml.background_job."
                                                      : "$.mosaic.background.job.") +
           f.key;
}

/// A value a small step beyond `bound` in direction `dir` (+1 above, -1 below): the next
/// integer for an integer key, else one part in a million (1e-6 at 0).
double beyond(const BackgroundJobField& f, double bound, int dir) {
    if (f.integer) return bound + dir;
    return bound + dir * (bound != 0 ? std::fabs(bound) * 1e-6 : 1e-6);
}

}  // namespace

class TestBackgroundJobFields : public QObject {
    Q_OBJECT
private slots:
    void bothReadersShareTheBounds_data() {
        QTest::addColumn<int>("field");
        QTest::addColumn<int>("side");  // -1 lower bound, +1 upper bound
        const auto& fields = backgroundJobFields();
        int bounds = 0;
        for (size_t i = 0; i < fields.size(); ++i) {
            const BackgroundJobField& f = fields[i];
            if (!f.get) continue;  // the label `model`
            const double lo = f.atLeast.why ? f.atLeast.limit : f.range.min;
            const double hi = f.atMost.why ? f.atMost.limit : f.range.max;
            if (std::isfinite(lo)) {
                QTest::addRow("%s lower", f.key) << int(i) << -1;
                ++bounds;
            }
            if (std::isfinite(hi)) {
                QTest::addRow("%s upper", f.key) << int(i) << 1;
                ++bounds;
            }
        }
        // nodes, sync_bursts: both ends; gradient_GB, burst_gap_ms: 0 and the physical bound;
        // compute_ms: 1 us and one hour; compute_jitter: [0, 1).
        QCOMPARE(bounds, 12);
    }
    void bothReadersShareTheBounds() {
        QFETCH(int, field);
        QFETCH(int, side);
        const BackgroundJobField& f = backgroundJobFields()[size_t(field)];
        const bool stated = side < 0 ? f.atLeast.why != nullptr : f.atMost.why != nullptr;
        const double bound = side < 0 ? (stated ? f.atLeast.limit : f.range.min)
                                      : (stated ? f.atMost.limit : f.range.max);
        const bool exclusive = !stated && (side < 0 ? f.range.minExclusive : f.range.maxExclusive);
        // The last accepted value and the first refused one.
        const double inside = exclusive ? beyond(f, bound, -side) : bound;
        const double outside = exclusive ? bound : beyond(f, bound, side);
        std::string refusal[2];
        int w = 0;
        for (const char* workspace : {"ml", "moe"}) {
            const auto ok = errorsOf(workspace, jobWith(f, inside));
            const std::string why = std::string(workspace) + " " + f.key + " = " +
                                    std::to_string(inside) +
                                    (ok.empty() ? "" : ": " + ok.front().str());
            QVERIFY2(ok.empty(), why.c_str());
            const auto bad = errorsOf(workspace, jobWith(f, outside));
            QCOMPARE(bad.size(), size_t(1));
            QCOMPARE(bad.front().path, pathOf(workspace, f));
            refusal[w++] = bad.front().message;
        }
        QCOMPARE(refusal[0], refusal[1]);
        // A bound with a reason says it.
        if (stated)
            QVERIFY2(refusal[0].find(side < 0 ? f.atLeast.why : f.atMost.why) != std::string::npos,
                     refusal[0].c_str());
    }

    // The label is a string in both workspaces.
    void modelIsAString() {
        const BackgroundJobField& f = backgroundJobFields().front();
        QCOMPARE(std::string(f.key), std::string("model"));
        for (const char* workspace : {"ml", "moe"}) {
            const auto bad = errorsOf(workspace, nlohmann::json{{"model", 13}});
            QCOMPARE(bad.size(), size_t(1));
            QCOMPARE(bad.front().path, pathOf(workspace, f));
            QCOMPARE(bad.front().message, std::string("must be a string (got a number)"));
        }
    }

    // The writer writes the table's keys in the table's order, in JSON units, and reads back.
    void writerFollowsTheTable() {
        BackgroundJob b;
        b.model = "GPT-13B";
        b.nodes = 16;
        b.gradientBytes = 26e9;
        b.compute_s = 0.5;
        b.syncBursts = 4;
        b.burstGap_s = 0.002;
        const nlohmann::ordered_json j = writeBackgroundJob(b);
        std::vector<std::string> keys, table;
        for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
        for (const auto& f : backgroundJobFields()) table.emplace_back(f.key);
        QCOMPARE(keys, table);
        QCOMPARE(j["gradient_GB"].get<double>(), 26.0);
        QCOMPARE(j["compute_ms"].get<double>(), 500.0);
        QCOMPARE(j["burst_gap_ms"].get<double>(), 2.0);
        Diagnostics d;
        const nlohmann::json in = nlohmann::json::parse(j.dump());
        BackgroundJob back;
        readBackgroundJob(JsonReader(in, "$.job", d), back);
        QVERIFY2(d.ok(), d.str().c_str());
        QVERIFY(back == b);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestBackgroundJobFields)
#include "tst_fabric_background_job.moc"
