// Params JSON: round trip, unit conversion, error paths with JSON paths, the field table that
// defines every key [MODEL.md A].
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "common/json_reader.h"
#include "mlforml/params.h"
#include "mlforml/presets.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::mlforml;

namespace {
Diagnostics readText(const std::string& text, Params& p) {
    Diagnostics d;
    const auto j = parseJsonText(text, d);
    if (!d.ok()) return d;
    JsonReader r(j, "$.ml_for_ml", d);
    readParams(r, p);
    return d;
}
}  // namespace

class TestParams : public QObject {
    Q_OBJECT
private slots:
    void roundTripIsByteIdentical_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("scenario 1") << 1;
        QTest::newRow("scenario 2") << 2;
    }
    void roundTripIsByteIdentical() {
        QFETCH(int, which);
        const Params p = which == 1 ? scenario1Params() : scenario2Params();
        const std::string a = writeParams(p).dump(2);
        Params q;
        const auto d = readText(a, q);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(QString::fromStdString(writeParams(q).dump(2)), QString::fromStdString(a));
    }

    void unitsConvertedOnce() {
        Params p;
        const auto d = readText(R"({"fabric_GBps": 400, "nic_GBps": 25, "microbatch_compute_ms": 30,
                                   "overlap_window_ms": 5, "background_job": {"gradient_GB": 1.5}})",
                                p);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(p.fabricBytesPerS, 400e9);
        QCOMPARE(p.nicBytesPerS, 25e9);
        QCOMPARE(p.microbatchCompute_s, 0.030);
        QCOMPARE(p.overlapWindow_s, 0.005);
        QCOMPARE(p.backgroundJob.gradientBytes, 1.5e9);
    }

    void errors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("words");
        QTest::newRow("negative fabric") << R"({"fabric_GBps": -1})"
                                         << "$.ml_for_ml.fabric_GBps"
                                         << "> 0 (got -1): a link of capacity 0 or less";
        QTest::newRow("unknown key hint") << R"({"fabric_Gbps": 400})"
                                          << "$.ml_for_ml.fabric_Gbps"
                                          << "fabric_GBps";
        QTest::newRow("bad policy") << R"({"policies": ["Jiont"]})"
                                    << "$.ml_for_ml.policies[0]"
                                    << "Joint";
        QTest::newRow("bad precision") << R"({"precisions": ["BF61"]})"
                                       << "$.ml_for_ml.precisions[0]"
                                       << "BF16";
        QTest::newRow("target below reachable") << R"({"target_factors": [0.9]})"
                                                << "$.ml_for_ml.target_factors[0]"
                                                << "reachable";
        QTest::newRow("trace needs file") << R"({"scenario": "trace"})"
                                          << "$.ml_for_ml.trace_file"
                                          << "required";
        QTest::newRow("zero schedules") << R"({"poisson_schedules": 0})"
                                        << "$.ml_for_ml.poisson_schedules"
                                        << "[1, 256]";
        QTest::newRow("too many recordings") << R"({"exposure_recordings": 65})"
                                             << "$.ml_for_ml.exposure_recordings"
                                             << "[1, 64]";
        QTest::newRow("nested unknown") << R"({"progress": {"kapa_mxfp4": 1.2}})"
                                        << "$.ml_for_ml.progress.kapa_mxfp4"
                                        << "kappa_mxfp4";
        QTest::newRow("wrong type") << R"({"seed": "one"})"
                                    << "$.ml_for_ml.seed"
                                    << "integer";
        QTest::newRow("bad mode") << R"({"mode": "closedloop"})"
                                  << "$.ml_for_ml.mode"
                                  << "closed_loop";
        QTest::newRow("zero bursts") << R"({"background_job": {"sync_bursts": 0}})"
                                     << "$.ml_for_ml.background_job.sync_bursts"
                                     << "[1, 1024]";
        QTest::newRow("negative burst gap") << R"({"background_job": {"burst_gap_ms": -1}})"
                                            << "$.ml_for_ml.background_job.burst_gap_ms"
                                            << ">= 0";
        QTest::newRow("arrivals after start") << R"({"arrivals_start_s": 10})"
                                              << "$.ml_for_ml.arrivals_start_s"
                                              << "0] (got 10)";
        QTest::newRow("jitter range") << R"({"background_job": {"compute_jitter": 1.5}})"
                                      << "$.ml_for_ml.background_job.compute_jitter"
                                      << "[0, 1)";
    }
    void errors() {
        QFETCH(QString, json);
        QFETCH(QString, path);
        QFETCH(QString, words);
        Params p;
        const auto d = readText(json.toStdString(), p);
        QVERIFY(!d.ok());
        bool found = false;
        for (const auto& i : d.items())
            if (i.path == path.toStdString() && QString::fromStdString(i.message).contains(words))
                found = true;
        QVERIFY2(found, d.str().c_str());
    }

    void fixedComboPolicyAccepted() {
        Params p;
        const auto d = readText(R"({"policies": ["Joint", "GA16-MXFP4", "GA8-FP8", "Oracle"]})", p);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(p.policies.size(), size_t(4));
        QVERIFY(p.policies[0] == PolicySpec(Policy::Joint));
        QVERIFY(p.policies[1] == PolicySpec(Combo{16, Precision::Mxfp4}));
        QVERIFY(p.policies[2] == PolicySpec(Combo{8, Precision::Fp8}));
        QVERIFY(p.policies[3] == PolicySpec(Policy::Oracle));
        QCOMPARE(writeParams(p)["policies"].dump(),
                 std::string(R"(["Joint","GA16-MXFP4","GA8-FP8","Oracle"])"));
    }

    void precisionNamesRoundTrip() {
        // Every word reads back to its precision, as a key's list and inside a combination label;
        // the bytes per value are the hand values of MODEL.md A2.
        QCOMPARE(enumNames(precisionNames()),
                 (std::vector<std::string>{"FP32", "BF16", "FP8", "MXFP8", "MXFP4"}));
        const double bytes[] = {4.0, 2.0, 1.0, 1.03125, 0.53125};
        size_t i = 0;
        for (const auto& e : precisionNames()) {
            QVERIFY(enumFromName(precisionNames(), name(e.value)) == e.value);
            QCOMPARE(bytesPerValue(e.value), bytes[i++]);
            Combo c;
            QVERIFY(parseComboLabel("GA8-" + std::string(e.name), c));
            QVERIFY(c == (Combo{8, e.value}));
            QCOMPARE(c.label(), "GA8-" + std::string(e.name));
            Params p;
            const auto d = readText("{\"precisions\": [\"" + std::string(e.name) + "\"]}", p);
            QVERIFY2(d.ok(), d.str().c_str());
            QVERIFY(p.precisions == std::vector<Precision>{e.value});
            QCOMPARE(writeParams(p)["precisions"].dump(), "[\"" + std::string(e.name) + "\"]");
        }
        Combo c;
        QVERIFY(!parseComboLabel("GA8-FP6", c));
        QVERIFY(!parseComboLabel("GA8-bf16", c));
        Params p;
        const auto d = readText(R"({"precisions": ["BF16", "FP6"]})", p);
        QVERIFY(!d.ok());
        QCOMPARE(d.items().at(0).path, std::string("$.ml_for_ml.precisions[1]"));
        QVERIFY2(d.items().at(0).message.find(
                     R"(must be one of "FP32", "BF16", "FP8", "MXFP8", "MXFP4" (got "FP6"))") !=
                     std::string::npos,
                 d.str().c_str());
        QVERIFY(p.precisions == Params().precisions);  // the default is kept
    }

    void policyNamesRoundTrip() {
        // Every named policy reads back to itself, its label its word; Fixed has no word.
        QCOMPARE(enumNames(policyNames()),
                 (std::vector<std::string>{"Static", "Knob-Precision", "Knob-GA", "Decoupled",
                                           "Joint", "Oracle"}));
        for (const auto& e : policyNames()) {
            PolicySpec spec;
            QVERIFY(parsePolicy(e.name, spec));
            QVERIFY(spec.policy == e.value);
            QCOMPARE(spec.label(), std::string(e.name));
        }
        QCOMPARE(std::string(name(Policy::Fixed)), std::string());
        PolicySpec spec;
        QVERIFY(parsePolicy("GA16-MXFP4", spec));
        QVERIFY(spec.policy == Policy::Fixed && spec.combo == (Combo{16, Precision::Mxfp4}));
        QCOMPARE(spec.label(), std::string("GA16-MXFP4"));
        QVERIFY(!parsePolicy("joint", spec));
        // An unknown word: the error names the key's entry and lists every policy.
        Params p;
        const auto d = readText(R"({"policies": ["Static", "Jiont"]})", p);
        QVERIFY(!d.ok());
        QCOMPARE(d.items().size(), size_t(1));
        QCOMPARE(d.items()[0].path, std::string("$.ml_for_ml.policies[1]"));
        QCOMPARE(d.items()[0].message,
                 std::string("unknown policy \"Jiont\": use Static, Knob-Precision, Knob-GA, "
                             "Decoupled, Joint, Oracle or a combination such as \"GA16-MXFP4\"; "
                             "did you mean \"Joint\"?"));
    }
};

/// Keys of `j` in order, nested objects as "section.key".
std::vector<std::string> keysOf(const nlohmann::ordered_json& j) {
    std::vector<std::string> out;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_object() && (it.key() == "background_job" || it.key() == "progress")) {
            for (auto in = it.value().begin(); in != it.value().end(); ++in)
                out.push_back(it.key() + "." + in.key());
        } else {
            out.push_back(it.key());
        }
    }
    return out;
}

std::string fieldName(const ParamField& f) {
    return *f.section ? std::string(f.section) + "." + f.key : std::string(f.key);
}

/// The JSON path the reader reports a field's problems at.
std::string fieldPath(const ParamField& f) { return "$.ml_for_ml." + fieldName(f); }

/// A JSON object setting field `f` to `v` (nested in its section).
std::string withField(const ParamField& f, double v) {
    nlohmann::ordered_json j;
    nlohmann::ordered_json& out = *f.section ? j[f.section] : j;
    if (f.integer)
        out[f.key] = static_cast<long long>(v);
    else
        out[f.key] = v;
    return j.dump();
}

class TestParamFields : public QObject {
    Q_OBJECT
private slots:
    // The writer writes the table's keys in the table's order: every key, once (topology,
    // placement and static_nodes only when they differ from the defaults).
    void writerFollowsTheTable() {
        Params p = scenario1Params();
        p.progress.staticNodes = 0;
        p.topology.kind = fabric::FabricKind::LeafSpine;
        p.lossLogFile = "loss.txt";
        std::vector<std::string> table;
        for (const ParamField& f : paramFields()) table.push_back(fieldName(f));
        std::vector<std::string> written = keysOf(writeParams(p));
        written.insert(std::find(written.begin(), written.end(), "cc_efficiency"), "placement");
        QCOMPARE(written, table);
        const Params defaultParams;
        std::vector<std::string> defaults = keysOf(writeParams(defaultParams));
        for (const char* conditional :
             {"topology", "placement", "progress.static_nodes", "loss_log_file"})
            table.erase(std::find(table.begin(), table.end(), conditional));
        QCOMPARE(defaults, table);
    }

    // Every numeric field is read from its key in JSON units, converted by its scale, and
    // refused just outside its range and bounds at its own path.
    void readerFollowsTheTable() {
        int numeric = 0;
        for (const ParamField& f : paramFields()) {
            if (f.read || f.getWord) {  // another shape, or a word
                QVERIFY2(
                    !f.get && !f.set && (f.read ? f.write && !f.getWord : f.setWord != nullptr),
                    f.key);
                continue;
            }
            ++numeric;
            QVERIFY2(f.get && f.set && !f.write, f.key);
            QVERIFY2(*f.description && *f.source, f.key);
            const Params def;
            const double json = f.get(def) / f.scale;
            // A valid value other than the default, read back through the member: one step
            // up, else half the default (a loss floor stays below l_min), else one step down.
            bool readBack = false;
            for (double other : {json + 1, json / 2, json - 1}) {
                if (f.integer) other = std::round(other);
                if (other == json || !f.range.contains(other)) continue;
                if (f.atLeast.why && other < f.atLeast.limit) continue;
                if (f.atMost.why && other > f.atMost.limit) continue;
                Params p;
                const auto d = readText(withField(f, other), p);
                if (!d.ok()) continue;
                QVERIFY2(
                    std::fabs(f.get(p) - other * f.scale) <= 1e-12 * std::fabs(other * f.scale),
                    fieldName(f).c_str());
                readBack = true;
                break;
            }
            QVERIFY2(readBack, fieldName(f).c_str());
            // Above the upper bound (the stated bound, else the range's).
            const double hi = f.atMost.why ? f.atMost.limit : f.range.max;
            if (std::isfinite(hi)) {
                const double over = f.integer ? std::floor(hi) + 1 : hi * 1.5 + 1;
                Params q;
                const auto d = readText(withField(f, over), q);
                bool at = false;
                for (const auto& i : d.items()) at = at || i.path == fieldPath(f);
                QVERIFY2(at,
                         (fieldName(f) + " = " + std::to_string(over) + ": " + d.str()).c_str());
            }
            // Below the lower bound.
            const double low = f.atLeast.why ? f.atLeast.limit : f.range.min;
            if (std::isfinite(low) && !(f.atLeast.unlessZero && low / 2 == 0)) {
                const double under = f.integer ? std::ceil(low) - 1 : (low > 0 ? low / 2 : low - 1);
                Params q;
                const auto d = readText(withField(f, under), q);
                bool at = false;
                for (const auto& i : d.items()) at = at || i.path == fieldPath(f);
                QVERIFY2(at,
                         (fieldName(f) + " = " + std::to_string(under) + ": " + d.str()).c_str());
            }
        }
        QVERIFY(numeric >= 40);
    }

    // operator== sees every member the writer writes: a read-back copy is equal, and a change of
    // any numeric field makes it unequal.
    void equalityCoversEveryField() {
        const Params p = scenario2Params();
        Params q;
        const auto d = readText(writeParams(p).dump(), q);
        QVERIFY2(d.ok(), d.str().c_str());
        QVERIFY(q == p);
        for (const ParamField& f : paramFields()) {
            if (!f.set) continue;
            Params r = p;
            f.set(r, f.get(r) + (f.integer ? 1 : f.scale));
            QVERIFY2(r != p, f.key);
        }
        Params r = p;
        r.policies.pop_back();
        QVERIFY(r != p);
        Params withLog = p;
        withLog.lossLogFile = "loss.txt";
        QVERIFY(withLog != p);
    }
};

namespace {
// Two classes in one suite: the parameters, then their field table.
int runParamSuites(int argc, char** argv) {
    int status = 0;
    {
        TestParams t;
        status |= QTest::qExec(&t, argc, argv);
    }
    {
        TestParamFields t;
        status |= QTest::qExec(&t, argc, argv);
    }
    return status;
}
[[maybe_unused]] const bool registered = tandem::test::registerSuite(__FILE__, &runParamSuites);
}  // namespace
#include "tst_mlforml_params.moc"
