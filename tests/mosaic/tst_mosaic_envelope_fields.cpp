// The envelope field table (mosaic::envelopeFields()) against what readEnvelope and
// writeEnvelope do: every numeric and integer-list key is read with the table's range (a value
// at each closed end accepted, one just outside rejected at the key's JSON path), the writer
// writes exactly the table's keys, and a non-default envelope round-trips.
#include <QtTest>
#include <cmath>
#include <limits>
#include <set>

#include "common/json_reader.h"
#include "mosaic/envelope.h"
#include "mosaic/user_runs.h"
#include "mosaic_fixtures.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::mosaic;

namespace {

/// A set of integer search values (a list of at most maxItems integers).
bool isList(const EnvelopeField& f) { return f.maxItems > 0; }

std::string pathOf(const EnvelopeField& f) {
    return std::string("$.mosaic.") + (*f.section ? std::string(f.section) + "." : "") + f.key;
}

/// `{"mosaic": {...}}`'s object with `value` at field `f` (inside its section), plus `extra`.
nlohmann::json withValue(const EnvelopeField& f, const nlohmann::json& value,
                         nlohmann::json extra = nlohmann::json::object()) {
    const nlohmann::json v = isList(f) ? nlohmann::json::array({value}) : value;
    if (*f.section)
        extra[f.section][f.key] = v;
    else
        extra[f.key] = v;
    return extra;
}

/// The issues readEnvelope reports for `obj` whose path is `path` or an entry of it.
std::vector<Issue> issuesAt(const nlohmann::json& obj, const std::string& path,
                            Envelope* out = nullptr) {
    Diagnostics d;
    JsonReader r(obj, "$.mosaic", d);
    Envelope e;
    readEnvelope(r, e);
    if (out) *out = e;
    std::vector<Issue> at;
    for (const Issue& i : d.items())
        if (i.path == path || i.path.rfind(path + "[", 0) == 0) at.push_back(i);
    return at;
}

std::string describe(const std::vector<Issue>& issues) {
    std::string s;
    for (const Issue& i : issues) s += i.str() + "\n";
    return s;
}

/// Keys the other keys must make room for when one is at a bound: the cross-field checks.
nlohmann::json contextFor(const std::string& key, double value) {
    nlohmann::json c = nlohmann::json::object();
    if (key == "top_k_values") c["experts_values"] = {kMaxExperts};  // K <= E
    if (key == "expert_split_values") c["q_values"] = {64};          // G divides d_ff = 1280 q
    if (key == "tokens_per_parameter_min") c["tokens_per_parameter_max"] = value;
    if (key == "tokens_per_parameter_max") c["tokens_per_parameter_min"] = value;
    return c;
}

bool numeric(const EnvelopeField& f) { return f.get || isList(f); }

}  // namespace

class TestMosaicEnvelopeFields : public QObject {
    Q_OBJECT
private slots:
    void tableIsWellFormed();
    void boundsAreTheReaders_data();
    void boundsAreTheReaders();
    void writerWritesTheTableKeys();
    void roundTrip();
    void precisionNamesFromTheTable();
};

void TestMosaicEnvelopeFields::tableIsWellFormed() {
    std::set<std::string> seen;
    bool inLaw = false;
    for (const EnvelopeField& f : envelopeFields()) {
        QVERIFY2(seen.insert(pathOf(f)).second, pathOf(f).c_str());
        QVERIFY2(*f.description && *f.source, pathOf(f).c_str());
        const int shapes = (f.get && f.set ? 1 : 0) + (f.read ? 1 : 0);
        QVERIFY2(shapes == 1, pathOf(f).c_str());
        QVERIFY2(!isList(f) || (f.integer && f.read && f.write && f.maxItems == kMaxAxisValues),
                 pathOf(f).c_str());
        // The scaling_law keys are consecutive and last.
        if (*f.section) inLaw = true;
        QVERIFY2(!inLaw || std::string(f.section) == "scaling_law", pathOf(f).c_str());
    }
    QCOMPARE(&envelopeField("scaling_law.eta"), &envelopeFields().back());
    QCOMPARE(std::string(envelopeField("days").key), std::string("days"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, envelopeField("nope"));
    // The 11 coefficients of Eq. 10.
    int law = 0;
    for (const EnvelopeField& f : envelopeFields()) law += *f.section ? 1 : 0;
    QCOMPARE(law, 11);
}

void TestMosaicEnvelopeFields::boundsAreTheReaders_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<bool>("low");  // which end
    const auto& t = envelopeFields();
    for (int i = 0; i < int(t.size()); ++i) {
        if (!numeric(t[i]) && std::string(t[i].key) != "devices") continue;
        const std::string p = pathOf(t[i]);
        if (std::isfinite(t[i].range.min)) QTest::newRow((p + " low").c_str()) << i << true;
        if (std::isfinite(t[i].range.max)) QTest::newRow((p + " high").c_str()) << i << false;
    }
}

void TestMosaicEnvelopeFields::boundsAreTheReaders() {
    QFETCH(int, row);
    QFETCH(bool, low);
    const EnvelopeField& f = envelopeFields()[size_t(row)];
    const double bound = low ? f.range.min : f.range.max;
    const bool open = low ? f.range.minExclusive : f.range.maxExclusive;
    const double outward =
        low ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    // The last accepted value and the first rejected one on this side.
    double in = bound, out = bound;
    if (f.integer)
        out = low ? bound - 1 : bound + 1;
    else if (open)
        in = std::nextafter(bound, -outward);
    else
        out = std::nextafter(bound, outward);
    const auto json = [&](double v) -> nlohmann::json {
        if (f.integer) return static_cast<long long>(v);
        return v;
    };
    const std::string path = pathOf(f);

    const auto accepted = issuesAt(withValue(f, json(in), contextFor(f.key, in)), path);
    if (std::string(f.key) == "devices") {
        // In range, devices is then checked against nodes x gpus_per_node.
        QCOMPARE(accepted.size(), size_t(1));
        QVERIFY2(accepted[0].message.rfind("must equal nodes x gpus_per_node", 0) == 0,
                 describe(accepted).c_str());
    } else {
        QVERIFY2(accepted.empty(), describe(accepted).c_str());
    }
    const auto rejected = issuesAt(withValue(f, json(out), contextFor(f.key, out)), path);
    QVERIFY2(!rejected.empty(), path.c_str());
    QVERIFY2(rejected[0].message.rfind("must be", 0) == 0, describe(rejected).c_str());
    QVERIFY2(rejected[0].message.find(f.range.describe()) != std::string::npos,
             describe(rejected).c_str());
}

void TestMosaicEnvelopeFields::writerWritesTheTableKeys() {
    // Every conditional key present: a measured file, a background, a non-default stack,
    // precision and layout rule.
    Envelope e;
    e.ncclTestsFiles = {"a.log"};
    e.importedModelFiles = {"m.config.json"};
    e.shownNcclTestsFile = "b.log";
    UserRun run;
    run.logFile = "run.log";
    run.modelFile = "m.config.json";
    run.hardware = "h100";
    run.layout = "tp=4,pp=8";
    run.devices = 64;
    run.globalBatch = 256;
    run.seqLen = 8192;
    run.precision = "fp8";
    UserRun bare;  // what the log states stays out of the file
    bare.logFile = "stated.log";
    bare.hardware = "gb200-nvl72";
    e.userRuns = {run, bare};
    e.background.emplace();
    e.stack = builtinStack("megatron-core");
    e.precision = Precision::Fp8;
    e.layoutGrid = LayoutGridRule::Listed;
    const auto j = writeEnvelope(e);
    std::vector<std::string> expected, lawExpected, written, lawWritten;
    for (const EnvelopeField& f : envelopeFields()) {
        if (f.read && !f.write) continue;  // read only (devices)
        auto& list = *f.section ? lawExpected : expected;
        list.push_back(f.key);
        if (*f.section && expected.back() != f.section) expected.push_back(f.section);
    }
    for (auto it = j.begin(); it != j.end(); ++it) written.push_back(it.key());
    for (auto it = j["scaling_law"].begin(); it != j["scaling_law"].end(); ++it)
        lawWritten.push_back(it.key());
    QCOMPARE(written, expected);  // the same keys in the same order
    QCOMPARE(lawWritten, lawExpected);
    // Each numeric key holds the member's value.
    for (const EnvelopeField& f : envelopeFields()) {
        const auto& obj = *f.section ? j[f.section] : j;
        if (f.get) QCOMPARE(obj[f.key].get<double>(), f.get(e));
        if (isList(f)) QVERIFY2(obj[f.key].is_array() && !obj[f.key].empty(), f.key);
    }
    // The defaults leave the conditional keys out and write every other key.
    const auto d = writeEnvelope(Envelope{});
    for (const char* k :
         {"nccl_tests_files", "imported_model_files", "shown_nccl_tests_file", "measured_runs",
          "background", "stack", "precision", "layout_grid", "devices"})
        QVERIFY2(!d.contains(k), k);
    QCOMPARE(d.size(), expected.size() - 8);
    QCOMPARE(j["measured_runs"][1].dump(),
             std::string(R"({"log_file":"stated.log","hardware":"gb200-nvl72"})"));
    // The imported runs read back as written.
    Diagnostics diag;
    Envelope back;
    const nlohmann::json plain = j;  // the reader keeps a reference: no temporary
    JsonReader r(plain, "$", diag);
    readUserRuns(r, "measured_runs", back.userRuns);
    QVERIFY2(diag.ok(), diag.str().c_str());
    QVERIFY(back.userRuns == e.userRuns);
    QCOMPARE(j["imported_model_files"].get<std::vector<std::string>>(), e.importedModelFiles);
    QCOMPARE(j["shown_nccl_tests_file"].get<std::string>(), e.shownNcclTestsFile);
}

void TestMosaicEnvelopeFields::roundTrip() {
    Envelope e;
    // Every numeric key moved off its default, inside its range.
    for (const EnvelopeField& f : envelopeFields()) {
        if (!f.get) continue;
        double v = f.get(e);
        v = f.integer ? v / 2 : v * 0.9;
        QVERIFY2(f.range.contains(v), pathOf(f).c_str());
        f.set(e, v);
    }
    e.computeBudgetFlops = 2.5e22;
    e.qValues = {8, 12};
    e.topKValues = {2, 4};
    e.expertValues = {16, 64};
    e.splitValues = {1, 2};
    e.microBatchValues = {1, 8};
    e.tpValues = {1, 4};
    e.cpValues = {1};
    e.ppValues = {1, 2};
    e.epValues = {1, 16};
    e.frontierSparsity = {0.8, 0.9};
    e.checkpointing = {Checkpointing::Selective, Checkpointing::Full};
    e.stack = builtinStack("megatron-core");
    e.precision = Precision::Mxfp8;
    e.layoutGrid = LayoutGridRule::Derived;
    e.importedModelFiles = {"a.config.json", "b/config.json"};
    e.shownNcclTestsFile = "ar.log";

    Diagnostics d;
    const Envelope back = test::envelopeRoundTrip(e, d);
    QVERIFY2(d.ok(), d.str().c_str());
    for (const EnvelopeField& f : envelopeFields()) {
        if (f.get) QVERIFY2(f.get(back) == f.get(e), pathOf(f).c_str());
        if (isList(f)) {
            nlohmann::ordered_json a, b;
            writeField(f, back, a);
            writeField(f, e, b);
            QVERIFY2(a == b && a[f.key].size() ==
                                   (f.key == std::string("context_parallel_values") ? 1u : 2u),
                     pathOf(f).c_str());
        }
    }
    QCOMPARE(back.frontierSparsity, e.frontierSparsity);
    QCOMPARE(back.checkpointing, e.checkpointing);
    QCOMPARE(back.stack.name, e.stack.name);
    QCOMPARE(back.precision, e.precision);
    QCOMPARE(back.layoutGrid, e.layoutGrid);
    QCOMPARE(back.importedModelFiles, e.importedModelFiles);
    QCOMPARE(back.shownNcclTestsFile, e.shownNcclTestsFile);
    QCOMPARE(writeEnvelope(back).dump(), writeEnvelope(e).dump());
}

void TestMosaicEnvelopeFields::precisionNamesFromTheTable() {
    QCOMPARE(precisionNameList(), std::string("bf16, fp8, mxfp8 or nvfp4"));
    const auto at = issuesAt(nlohmann::json{{"precision", "fp4"}}, "$.mosaic.precision");
    QCOMPARE(at.size(), size_t(1));
    QCOMPARE(at[0].message, std::string("must be bf16, fp8, mxfp8 or nvfp4 (got \"fp4\")"));
}

TANDEM_TEST_APPLESS_MAIN(TestMosaicEnvelopeFields)
#include "tst_mosaic_envelope_fields.moc"
