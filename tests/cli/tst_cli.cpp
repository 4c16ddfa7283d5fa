// tandem-cli end to end: every example runs; the papers' qualitative claims hold on the
// examples' outputs; validate names each bad path and exits 2.
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <clocale>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "common/csv.h"
#include "test_main.h"

namespace {

struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};

/// tandem-cli with `args`; `locale`, when not empty, is the child's LC_ALL.
CliRun runCli(const QStringList& args, const QString& locale = QString()) {
    QProcess p;
    if (!locale.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LC_ALL"), locale);
        p.setProcessEnvironment(env);
    }
    p.start(QStringLiteral(TANDEM_CLI), args);
    CliRun r;
    if (!p.waitForFinished(600000)) {
        p.kill();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

nlohmann::json readJson(const QString& path) {
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in);
}

QString example(const char* name) { return QStringLiteral(TANDEM_EXAMPLES "/") + name; }

/// Empty when CSV text `got` matches `want` within the stored results' tolerance, else the first
/// difference ("line N, column C: want W, got G"): the same lines, each with the same number of
/// fields (RFC 4180 quoting, tandem::splitCsvLine); a field that parses as a number in both is
/// equal when |got - want| <= 1e-9 max(|got|, |want|) + 1e-12 (infinities equal only themselves,
/// NaN only NaN); any other field must be equal as text.
QString sameCsv(const QByteArray& want, const QByteArray& got) {
    const QStringList w = QString::fromUtf8(want).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList g = QString::fromUtf8(got).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (w.size() != g.size())
        return QStringLiteral("%1 lines, expected %2").arg(g.size()).arg(w.size());
    std::vector<std::string> header;
    for (qsizetype i = 0; i < w.size(); ++i) {
        const std::vector<std::string> a = tandem::splitCsvLine(w[i].toStdString());
        const std::vector<std::string> b = tandem::splitCsvLine(g[i].toStdString());
        if (i == 0) header = a;
        if (a.size() != b.size())
            return QStringLiteral("line %1: %2 fields, expected %3")
                .arg(i + 1)
                .arg(b.size())
                .arg(a.size());
        for (size_t c = 0; c < a.size(); ++c) {
            bool okA = false, okB = false;
            const double x = QString::fromStdString(a[c]).toDouble(&okA);
            const double y = QString::fromStdString(b[c]).toDouble(&okB);
            const bool same =
                okA && okB ? (x == y || (std::isnan(x) && std::isnan(y)) ||
                              std::abs(x - y) <= 1e-9 * std::max(std::abs(x), std::abs(y)) + 1e-12)
                           : a[c] == b[c];
            if (!same)
                return QStringLiteral("line %1, column %2: want %3, got %4")
                    .arg(i + 1)
                    .arg(QString::fromStdString(c < header.size() ? header[c]
                                                                  : std::to_string(c + 1)))
                    .arg(QString::fromStdString(a[c]), QString::fromStdString(b[c]));
        }
    }
    return {};
}

/// True when the C library knows `locale` (e.g. "de_DE.UTF-8" after localedef); this process's
/// locale is left as it was.
bool localeInstalled(const char* locale) {
    const std::string before = std::setlocale(LC_ALL, nullptr);
    const bool ok = std::setlocale(LC_ALL, locale) != nullptr;
    std::setlocale(LC_ALL, before.c_str());
    return ok;
}

/// Runs `commands` (tandem-cli argument lists; "$OUT" stands for a fresh folder) one after the
/// other with LC_ALL=`locale`; returns every command's exit code, stdout and stderr ("$OUT" in
/// place of the folder) followed by every file the commands wrote, name and bytes.
QByteArray transcript(const QList<QStringList>& commands, const QString& locale) {
    QTemporaryDir dir;
    QByteArray all;
    for (const QStringList& command : commands) {
        QStringList args = command;
        args.replaceInStrings(QStringLiteral("$OUT"), dir.path());
        const CliRun r = runCli(args, locale);
        all += "$ " + command.join(QLatin1Char(' ')).toUtf8() + "\nexit " +
               QByteArray::number(r.exitCode) + "\n" +
               QString(r.out + r.err).replace(dir.path(), QStringLiteral("$OUT")).toUtf8();
    }
    QDirIterator it(dir.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    QStringList files;
    while (it.hasNext()) files << it.next();
    files.sort();
    for (const QString& f : files) {
        QFile in(f);
        all += "--- " + QDir(dir.path()).relativeFilePath(f).toUtf8() + "\n" +
               (in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray("<unreadable>")) + "\n";
    }
    return all;
}

/// Writes `bytes` to `dir`/model.json; the path, or "" when it cannot be written.
QString writeModel(const QTemporaryDir& dir, const QByteArray& bytes) {
    const QString path = dir.filePath(QStringLiteral("model.json"));
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() ? path : QString();
}
}  // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void everyExampleRuns_data() {
        QTest::addColumn<QString>("file");
        const QDir dir(QStringLiteral(TANDEM_EXAMPLES));
        const auto files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 3);
        for (const auto& f : files) QTest::newRow(f.toUtf8().constData()) << dir.filePath(f);
    }
    void everyExampleRuns() {
        QFETCH(QString, file);
        const auto v = runCli({QStringLiteral("validate"), file});
        QVERIFY2(v.exitCode == 0, qPrintable(v.out + v.err));
        QTemporaryDir out;
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--out"), out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("scenario.json"))));
        // The canonical copy of the scenario is the example itself, byte for byte.
        QFile a(file), b(out.filePath(QStringLiteral("scenario.json")));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), a.readAll());
    }

    /// Stored results: every example's CSV outputs match the files beside it,
    /// examples/<example>.expected/<name>.csv, within the stated tolerance (sameCsv: the same
    /// header and rows, text fields equal, numbers within a relative 1e-9 or an absolute 1e-12),
    /// so an optimisation that changes a number is caught while a last-digit change of a
    /// floating-point sum is not. Regenerate deliberately with TANDEM_UPDATE_EXPECTED=1 (writes
    /// into the source tree) and review the diff.
    void examplesMatchStoredResults_data() { everyExampleRuns_data(); }
    void examplesMatchStoredResults() {
        QFETCH(QString, file);
        QTemporaryDir out;
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--out"), out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QFileInfo example(file);
        const QDir expected(
            example.dir().filePath(example.completeBaseName() + QStringLiteral(".expected")));
        const bool update = qEnvironmentVariableIntValue("TANDEM_UPDATE_EXPECTED") == 1;
        if (update) QDir().mkpath(expected.path());
        int compared = 0;
        for (const auto& name :
             QDir(out.path()).entryList({QStringLiteral("*.csv")}, QDir::Files)) {
            QFile got(out.filePath(name));
            QVERIFY(got.open(QIODevice::ReadOnly));
            const QByteArray bytes = got.readAll();
            QFile want(expected.filePath(name));
            if (update) {
                QVERIFY(want.open(QIODevice::WriteOnly));
                want.write(bytes);
                continue;
            }
            QVERIFY2(want.open(QIODevice::ReadOnly), qPrintable("missing " + want.fileName()));
            const QString diff = sameCsv(want.readAll(), bytes);
            QVERIFY2(diff.isEmpty(),
                     qPrintable(name + " differs from " + want.fileName() + ": " + diff));
            ++compared;
        }
        if (!update) QVERIFY(compared >= 1);
    }

    /// The comparison itself: a last-digit difference passes, a changed number, a changed word,
    /// a missing row or another header fails, each naming the line and column.
    void storedResultsTolerance() {
        const QByteArray base = "a,b,name\n1.5,2e-20,x\n3,4,\"p,q\"\n";
        QCOMPARE(sameCsv(base, base), QString());
        QCOMPARE(sameCsv(base, "a,b,name\n1.5000000000000002,3e-20,x\n3,4,\"p,q\"\n"), QString());
        QVERIFY(sameCsv(base, "a,b,name\n1.5001,2e-20,x\n3,4,\"p,q\"\n")
                    .contains(QStringLiteral("line 2, column a")));
        QVERIFY(sameCsv(base, "a,b,name\n1.5,2e-20,y\n3,4,\"p,q\"\n")
                    .contains(QStringLiteral("line 2, column name")));
        QVERIFY(!sameCsv(base, "a,b,name\n1.5,2e-20,x\n").isEmpty());
        QVERIFY(!sameCsv(base, "a,c,name\n1.5,2e-20,x\n3,4,\"p,q\"\n").isEmpty());
        QVERIFY(!sameCsv(base, "a,b,name\n1.5,nan,x\n3,4,\"p,q\"\n").isEmpty());
    }

    /// scaling: one CSV row per (ratio, policy, target, node count); Joint's curve falls on
    /// the non-blocking fabric and turns at 4:1; a paper-fabric scenario is refused naming the
    /// key; JSON holds one object per curve.
    void scalingCurves() {
        QTemporaryDir out;
        const QString csv = out.filePath(QStringLiteral("s.csv"));
        const auto r = runCli({QStringLiteral("scaling"), example("mlforml-fabric-scaling.json"),
                               QStringLiteral("--nodes"), QStringLiteral("8,40,64"),
                               QStringLiteral("--oversubscription"), QStringLiteral("1,4"),
                               QStringLiteral("--out"), csv});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 2 * 5 * 4 * 3);  // header + ratios x policies x targets x nodes
        std::map<QString, double> joint;
        for (const auto& l : lines) {
            const QStringList c = l.split(',');
            if (c[2] == QStringLiteral("Joint") && c[3] == QStringLiteral("1.01"))
                joint[c[0] + "/" + c[4]] = c[5].toDouble();
        }
        QVERIFY(joint.at("1/8") > joint.at("1/40") && joint.at("1/40") > joint.at("1/64"));
        QVERIFY(joint.at("4/40") < joint.at("4/8") && joint.at("4/40") < joint.at("4/64"));
        // s-links.csv beside it: the links.csv rows of every point, led by its ratio and node
        // count. A leaf's uplink bundle is 16 nodes x 10.7 GB/s / ratio: 171.2 GB/s at 1:1,
        // 42.8 at 4:1; every leaf holds nodes of the spread jobs, so all 8 leaves' bundles
        // carry traffic at every point and only links some job crossed are listed.
        QFile lf(out.filePath(QStringLiteral("s-links.csv")));
        QVERIFY(lf.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(lf.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.value(0), QStringLiteral("oversubscription,foreground_nodes,background_jobs,"
                                               "link,capacity_GBps,observed_s,mean_utilisation,"
                                               "peak_utilisation,seconds_at_100pct,jobs"));
        std::map<QString, int> leafUps;
        for (int i = 1; i < rows.size(); ++i) {
            const QStringList c = rows[i].split(',');
            QCOMPARE(c.size(), 10);
            QVERIFY2(!c[9].isEmpty(), qPrintable(rows[i]));  // some job crossed it
            if (!c[3].endsWith(QStringLiteral("-up"))) continue;
            ++leafUps[c[0] + "/" + c[1]];
            QCOMPARE(c[4].toDouble(), c[0] == QStringLiteral("1") ? 171.2 : 42.8);
        }
        for (const char* point : {"1/8", "1/40", "1/64", "4/8", "4/40", "4/64"})
            QCOMPARE(leafUps[QString::fromLatin1(point)], 8);
        const auto bad = runCli({QStringLiteral("scaling"), example("mlforml-scenario1.json"),
                                 QStringLiteral("--out"), csv});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("ml_for_ml.topology")), qPrintable(bad.err));
        const QString js = out.filePath(QStringLiteral("s.json"));
        const auto rj = runCli({QStringLiteral("scaling"), example("mlforml-fabric-scaling.json"),
                                QStringLiteral("--nodes"), QStringLiteral("8,16"),
                                QStringLiteral("--oversubscription"), QStringLiteral("4"),
                                QStringLiteral("--out"), js});
        QVERIFY2(rj.exitCode == 0, qPrintable(rj.err));
        const auto j = readJson(js);
        QCOMPARE(j.at("curves").size(), size_t(5 * 4));
        QCOMPARE(j.at("curves")[0].at("foreground_nodes").size(), size_t(2));
    }

    /// The fabric-scaling example shows interference: its background jobs share the
    /// foreground's uplinks, so at 4:1 their gradient size changes the curve (Joint, 8 and 48
    /// foreground nodes: more than 20 % slower with the 2.81 GB gradient than with 0), while on
    /// the non-blocking fabric it does not; run's links.csv lists the background jobs on every
    /// leaf uplink, full most of the time.
    void scalingExampleShowsInterference() {
        QTemporaryDir dir;
        auto joint = [&](double gradientGB, const char* ratio) {
            nlohmann::json j = readJson(example("mlforml-fabric-scaling.json"));
            j["ml_for_ml"]["background_job"]["gradient_GB"] = gradientGB;
            const QString f = dir.filePath(QStringLiteral("g.json"));
            std::ofstream(f.toStdString()) << j.dump(2);
            const QString csv = dir.filePath(QStringLiteral("g.csv"));
            const auto r = runCli({QStringLiteral("scaling"), f, QStringLiteral("--nodes"),
                                   QStringLiteral("8,48"), QStringLiteral("--oversubscription"),
                                   QString::fromLatin1(ratio), QStringLiteral("--out"), csv});
            [&] { QVERIFY2(r.exitCode == 0, qPrintable(r.err)); }();
            QFile in(csv);
            std::map<int, double> t;
            if (!in.open(QIODevice::ReadOnly)) return t;
            for (const auto& l : QString::fromUtf8(in.readAll()).split('\n', Qt::SkipEmptyParts)) {
                const QStringList c = l.split(',');
                if (c[2] == QStringLiteral("Joint") && c[3] == QStringLiteral("1.01"))
                    t[c[4].toInt()] = c[5].toDouble();
            }
            return t;
        };
        const auto busy = joint(2.81, "4"), idle = joint(0.0, "4");
        QCOMPARE(busy.size(), size_t(2));
        QCOMPARE(idle.size(), size_t(2));
        for (int n : {8, 48})
            QVERIFY2(
                busy.at(n) > 1.2 * idle.at(n),
                qPrintable(
                    QString("%1 nodes: %2 s against %3 s").arg(n).arg(busy.at(n)).arg(idle.at(n))));
        const auto busy1 = joint(2.81, "1"), idle1 = joint(0.0, "1");
        for (int n : {8, 48}) QCOMPARE(busy1.at(n), idle1.at(n));

        const auto r = runCli({QStringLiteral("run"), example("mlforml-fabric-scaling.json"),
                               QStringLiteral("--out"), dir.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile links(dir.filePath(QStringLiteral("links.csv")));
        QVERIFY(links.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(links.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.value(0), QStringLiteral("background_jobs,link,capacity_GBps,observed_s,"
                                               "mean_utilisation,peak_utilisation,"
                                               "seconds_at_100pct,jobs"));
        int uplinks = 0;
        for (const auto& row : rows) {
            const QStringList c = row.split(',');
            if (!c.value(1).endsWith(QStringLiteral("-up"))) continue;
            ++uplinks;
            QCOMPARE(c[2].toDouble(), 16 * 10.7 / 4);
            QVERIFY2(c[6].toDouble() > 0.9 * c[3].toDouble(), qPrintable(row));
            QCOMPARE(c[7], QStringLiteral("foreground;bg0;bg1;bg2;bg3;bg4;bg5;bg6;bg7"));
        }
        QCOMPARE(uplinks, 8);  // 128 nodes, 16 per leaf
    }

    /// fabric_GBps is the shared paper-fabric's capacity: 0 warns there, not on a leaf/spine
    /// fabric (whose links carry the traffic) where the run still reaches its targets.
    void zeroFabricWarnsOnSharedFabricOnly() {
        QTemporaryDir dir;
        for (const bool leafSpine : {false, true}) {
            nlohmann::json j = readJson(
                example(leafSpine ? "mlforml-fabric-scaling.json" : "mlforml-scenario1.json"));
            j["ml_for_ml"]["fabric_GBps"] = 0.0;
            const QString f =
                dir.filePath(leafSpine ? QStringLiteral("ls.json") : QStringLiteral("sh.json"));
            std::ofstream(f.toStdString()) << j.dump(2);
            const auto v = runCli({QStringLiteral("validate"), f});
            QCOMPARE(v.exitCode, 0);
            QCOMPARE(v.out.contains(QStringLiteral("fabric_GBps: warning")), !leafSpine);
        }
    }

    /// ML-for-ML scenario 1: per N a first-crossing time per policy; Joint never slower than
    /// Decoupled; Decoupled/Joint in [1.05, 1.6] for every N [2608.06046 Fig. 2c-d].
    void mlForMlScenario1() {
        QTemporaryDir out;
        const auto r = runCli({QStringLiteral("run"), example("mlforml-scenario1.json"),
                               QStringLiteral("--out"), out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = readJson(out.filePath(QStringLiteral("mlforml_result.json")));
        const auto& points = j.at("points");
        QCOMPARE(points.size(), size_t(4));
        std::vector<int> ns;
        for (const auto& pt : points) {
            ns.push_back(pt.at("background_jobs").get<int>());
            double joint = NAN, decoupled = NAN;
            int policies = 0;
            for (const auto& run : pt.at("policies")) {
                const auto& fc = run.at("first_crossing_s");
                QCOMPARE(fc.size(), size_t(4));
                for (const auto& t : fc) QVERIFY(t.is_number() && t.get<double>() > 0);
                const auto name = run.at("policy").get<std::string>();
                const double last = fc.back().get<double>();  // 1.02 x L_min
                if (name == "Joint") joint = last;
                if (name == "Decoupled") decoupled = last;
                ++policies;
            }
            QVERIFY(policies >= 5);
            QVERIFY(joint <= decoupled);
            const double ratio = decoupled / joint;
            QVERIFY2(ratio >= 1.05 && ratio <= 1.6, qPrintable(QString::number(ratio)));
        }
        QCOMPARE(ns, (std::vector<int>{4, 8, 12, 16}));
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("mlforml_first_crossing.csv"))));
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("mlforml_trajectories.csv"))));
    }

    /// MoE frontiers: compute-optimal argmin at the sparsity boundary, cluster-optimal
    /// argmin strictly interior [2608.10605 Fig. 1, Sec. 7].
    void mosaicFrontiers_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("table3") << example("mosaic-table3.json");
        QTest::newRow("fig1") << example("mosaic-fig1.json");
    }
    void mosaicFrontiers() {
        QFETCH(QString, file);
        QTemporaryDir out;
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--out"), out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = readJson(out.filePath(QStringLiteral("mosaic_result.json")));
        const auto& co = j.at("compute_optimal");
        QVERIFY(co.size() >= 3);
        double sMax = -1;
        for (const auto& p : co) sMax = std::max(sMax, p.at("sparsity").get<double>());
        const double sCompute = j.at("compute_optimal_sparsity").get<double>();
        const double sCluster = j.at("cluster_optimal_sparsity").get<double>();
        QCOMPARE(sCompute, sMax);
        QVERIFY2(sCluster < sMax - 1e-9, qPrintable(QString::number(sCluster)));
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("mosaic_frontier.csv"))));
    }

    /// Validation: a wrong type, an unknown key and a negative bandwidth give three
    /// lines naming those paths, exit 2.
    void validateNamesEachProblem() {
        const auto r =
            runCli({QStringLiteral("validate"), QStringLiteral(TANDEM_CLI_DATA "/bad-three.json")});
        QCOMPARE(r.exitCode, 2);
        const auto lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(r.out.contains(QStringLiteral("$.ml_for_ml.background_jobs: must be")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("$.ml_for_ml.fabrc_GBps: unknown key")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("$.ml_for_ml.nic_GBps: must be >= 0 (got -12.5)")),
                 qPrintable(r.out));
    }

    /// Plan reads a Hugging Face config.json directly. Mixtral-8x7B on 64 p6-b200
    /// GPUs has a feasible best layout with 0 < MFU < 1 on a 64-GPU mesh; the mapping and its
    /// assumptions are reported in JSON and text.
    void planHuggingFaceConfig() {
        const QString cfg =
            QStringLiteral(TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json");
        const QStringList args{QStringLiteral("plan"),      cfg,
                               QStringLiteral("--devices"), QStringLiteral("64"),
                               QStringLiteral("--gbs"),     QStringLiteral("1024"),
                               QStringLiteral("--seqlen"),  QStringLiteral("4096"),
                               QStringLiteral("--top"),     QStringLiteral("3")};
        const auto r = runCli(args + QStringList{QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        const auto& src = j.at("model_source");
        QCOMPARE(src.at("model_type").get<std::string>(), std::string("mixtral"));
        QVERIFY(std::abs(src.at("n_total").get<double>() / 46.7e9 - 1) < 0.03);
        QVERIFY(std::abs(src.at("n_active").get<double>() / 12.9e9 - 1) < 0.03);
        QVERIFY(src.at("mapping_assumptions").is_array() &&
                src.at("import_assumptions").is_array());
        const auto& model = j.at("model");
        QCOMPARE(model.at("experts").get<int>(), 8);
        QCOMPARE(model.at("top_k").get<int>(), 2);
        QCOMPARE(model.at("layers").get<int>(), 32);
        const auto& best = j.at("layouts").at(0);
        QVERIFY(best.at("feasible").get<bool>());
        const double mfu = best.at("mfu").get<double>();
        QVERIFY2(mfu > 0 && mfu < 1, qPrintable(QString::number(mfu)));
        QCOMPARE(best.at("tp").get<int>() * best.at("cp").get<int>() * best.at("pp").get<int>() *
                     best.at("dp").get<int>(),
                 64);
        QVERIFY(best.at("memory_GB").get<double>() <= 179.0);
        QVERIFY(!best.contains("collectives"));  // analytical: no measured keys
        const auto t = runCli(args);
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        QVERIFY2(t.out.contains(QStringLiteral("From a Hugging Face config: model_type mixtral")),
                 qPrintable(t.out));
        QVERIFY(t.out.contains(QStringLiteral("Assumed:")));
    }

    /// --tokens D [--goodput G]: the days each layout needs, D / (tokens/s per GPU x N_dev x
    /// G) / 86400, in JSON (days_to_target, token_target) and the text; without --tokens the
    /// output has none of it; a bad value names its flag (exit 2).
    void planTokenTarget() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path =
            writeModel(dir, R"({"q": 8, "experts": 32, "top_k": 2, "expert_split_factor": 4})");
        const QStringList args{QStringLiteral("plan"),      path,
                               QStringLiteral("--devices"), QStringLiteral("64"),
                               QStringLiteral("--top"),     QStringLiteral("2")};
        const QStringList target{QStringLiteral("--tokens"), QStringLiteral("2e11"),
                                 QStringLiteral("--goodput"), QStringLiteral("0.9")};
        const auto j = runCli(args + target + QStringList{QStringLiteral("--json")});
        QVERIFY2(j.exitCode == 0, qPrintable(j.err));
        const auto plan = nlohmann::json::parse(j.out.toStdString());
        QCOMPARE(plan.at("token_target").at("tokens").get<double>(), 2e11);
        QCOMPARE(plan.at("token_target").at("goodput").get<double>(), 0.9);
        const auto& first = plan.at("layouts").at(0);
        const double days =
            2e11 / (first.at("tokens_per_s_per_gpu").get<double>() * 64 * 0.9) / 86400;
        QVERIFY(std::abs(first.at("days_to_target").get<double>() - days) < 1e-12 * days);
        const auto t = runCli(args + target);
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        QVERIFY2(t.out.contains(QStringLiteral("Days to train 2e+11 tokens with the first layout: "
                                               "%1 (goodput 0.9)\n")
                                    .arg(days, 0, 'f', 1)),
                 qPrintable(t.out));
        const auto none = runCli(args + QStringList{QStringLiteral("--json")});
        QVERIFY(!none.out.contains(QLatin1String("token_target")));
        QVERIFY(!none.out.contains(QLatin1String("days_to_target")));
        QVERIFY(!runCli(args).out.contains(QLatin1String("Days to train")));
        for (const auto& [flag, value] :
             {std::pair{"--tokens", "0"}, {"--tokens", "lots"}, {"--goodput", "1.5"}}) {
            const auto bad = runCli(args + QStringList{QLatin1String(flag), QLatin1String(value)});
            QCOMPARE(bad.exitCode, 2);
            QVERIFY2(bad.err.contains(QLatin1String(flag)), qPrintable(bad.err));
        }
    }

    /// The text table's MFU never shows a non-zero share as zero: 4.878e-05 printed "0.0 %";
    /// below 0.05 % two significant digits are kept, above it one decimal as before.
    void planTextKeepsSmallMfu_data() {
        QTest::addColumn<QByteArray>("model");
        QTest::addColumn<QString>("devices");
        QTest::addColumn<QString>("mfuText");  // the first layout's MFU cell
        QTest::newRow("tiny model, 8 GPUs (MFU 4.878e-05)")
            << QByteArray(R"({"layers": 2, "hidden": 64, "heads": 2, "ffn_width": 256,
                              "vocab": 1000})")
            << "8"
            << "0.0049 %";
        QTest::newRow("small model, 8 GPUs (one decimal, as before)")
            << QByteArray(R"({"layers": 4, "hidden": 256, "heads": 4, "ffn_width": 1024,
                              "vocab": 32000})")
            << "8"
            << "0.1 %";
    }
    void planTextKeepsSmallMfu() {
        QFETCH(QByteArray, model);
        QFETCH(QString, devices);
        QFETCH(QString, mfuText);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = writeModel(dir, model);
        QVERIFY(!path.isEmpty());
        const QStringList args{QStringLiteral("plan"),      path,
                               QStringLiteral("--devices"), devices,
                               QStringLiteral("--top"),     QStringLiteral("3")};
        const auto j = runCli(args + QStringList{QStringLiteral("--json")});
        QVERIFY2(j.exitCode == 0, qPrintable(j.err));
        const auto layouts = nlohmann::json::parse(j.out.toStdString()).at("layouts");
        QVERIFY(layouts.at(0).at("mfu").get<double>() > 0);
        const auto t = runCli(args);
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        const QStringList lines = t.out.split(QLatin1Char('\n'));
        int header = -1;
        for (int i = 0; i < lines.size() && header < 0; ++i)
            if (lines[i].startsWith(QLatin1String("TP ")) &&
                lines[i].contains(QLatin1String(" MFU ")))
                header = i;
        QVERIFY2(header >= 0 && header + 2 < lines.size(), qPrintable(t.out));
        QVERIFY2(lines[header + 2].contains(QStringLiteral("  ") + mfuText + QStringLiteral("  ")),
                 qPrintable(t.out));
        QVERIFY2(!t.out.contains(QStringLiteral(" 0.0 %")), qPrintable(t.out));
    }

    /// plan --emit megatron states the vocabulary divisor that keeps the costed vocabulary, or,
    /// where TP does not divide it, names Megatron-LM's padded size in a note on stderr (the
    /// line itself stays alone on stdout, to paste).
    void planEmitMegatronVocabulary_data() {
        QTest::addColumn<int>("vocab");
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("note");
        QTest::newRow("1000, TP 2: divisor 4")
            << 1000 << "--vocab-size 1000 --make-vocab-size-divisible-by 4 "
            << "";
        QTest::newRow("1001, TP 2: padded to 1002, noted")
            << 1001 << "--vocab-size 1001 --make-vocab-size-divisible-by 1 "
            << "--emit megatron: note: Megatron-LM pads the vocabulary of 1001 to 1002 (a "
               "multiple of TP 2); the plan costs 1001\n";
        QTest::newRow("1024, TP 2: the default keeps it") << 1024 << "--vocab-size 1024 --seq"
                                                          << "";
    }
    void planEmitMegatronVocabulary() {
        QFETCH(int, vocab);
        QFETCH(QString, flag);
        QFETCH(QString, note);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path =
            writeModel(dir, QStringLiteral(R"({"layers": 2, "hidden": 64, "heads": 2,
                                              "ffn_width": 256, "vocab": %1})")
                                .arg(vocab)
                                .toUtf8());
        QVERIFY(!path.isEmpty());
        const auto r =
            runCli({QStringLiteral("plan"), path, QStringLiteral("--devices"), QStringLiteral("8"),
                    QStringLiteral("--layout"), QStringLiteral("tp=2,pp=1,mbs=1"),
                    QStringLiteral("--emit"), QStringLiteral("megatron")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(flag), qPrintable(r.out));
        QCOMPARE(r.out.count(QLatin1Char('\n')), 1);
        QCOMPARE(r.err, note);
    }

    /// plan --megatron-args reads a launch script as bash would: the commented-out
    /// "--micro-batch-size 1" is not costed (micro-batch 4 is), the quoted 'selective' is
    /// Megatron's selective recompute (core attention), the arrays are expanded, and the flags
    /// it does not model are named in a note on stderr.
    void planMegatronLaunchFile() {
        const auto r =
            runCli({QStringLiteral("plan"),
                    QStringLiteral(TANDEM_TEST_DATA "/models/DeepSeek-V2-Lite.config.json"),
                    QStringLiteral("--devices"), QStringLiteral("64"), QStringLiteral("--stack"),
                    QStringLiteral("megatron-core"), QStringLiteral("--megatron-args"),
                    QStringLiteral(TANDEM_CLI_DATA "/launch-deepseek-v2-lite.sh"),
                    QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto l = nlohmann::json::parse(r.out.toStdString()).at("layouts").at(0);
        QCOMPARE(l.at("mbs").get<int>(), 4);
        QCOMPARE(l.at("ep").get<int>(), 8);
        QCOMPARE(l.at("dp").get<int>(), 64);
        QCOMPARE(l.at("ckpt").get<std::string>(), std::string("core-attn"));
        QCOMPARE(l.at("global_batch_sequences").get<int>(), 1024);
        QVERIFY(l.at("feasible").get<bool>());
        QVERIFY2(r.err.contains(QStringLiteral(
                     "note: not modelled, not costed: --nproc_per_node --nnodes --lr "
                     "--train-iters")),
                 qPrintable(r.err));
    }

    /// plan --layout without a ckpt key: a published Megatron-Bridge layout (Llama 3.1 405B on
    /// 256 DGX-GB200 at FP8, TP 4 PP 16 VP 4; tests/data/megatron-bridge/measured-throughput.csv
    /// line 18) was costed without recomputation and called out of memory. It is costed with
    /// the least recomputation that fits and names it (text and JSON); given ckpt=none it stays
    /// out of memory and names the recomputation that would fit.
    void planLayoutWithoutCkpt() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = writeModel(dir, R"({"layers": 126, "hidden": 16384, "heads": 128,
            "kv_heads": 8, "ffn_width": 53248, "vocab": 128256})");
        QVERIFY(!path.isEmpty());
        const QStringList base{QStringLiteral("plan"),        path,
                               QStringLiteral("--devices"),   QStringLiteral("256"),
                               QStringLiteral("--gbs"),       QStringLiteral("1536"),
                               QStringLiteral("--seqlen"),    QStringLiteral("8192"),
                               QStringLiteral("--hardware"),  QStringLiteral("gb200-nvl72"),
                               QStringLiteral("--stack"),     QStringLiteral("megatron-core"),
                               QStringLiteral("--precision"), QStringLiteral("fp8"),
                               QStringLiteral("--layout")};
        const QString published = QStringLiteral("tp=4,pp=16,vp=4,mbs=1");
        const auto js = runCli(base + QStringList{published, QStringLiteral("--json")});
        QVERIFY2(js.exitCode == 0, qPrintable(js.err + js.out));
        const auto l = nlohmann::json::parse(js.out.toStdString()).at("layouts").at(0);
        QVERIFY(l.at("feasible").get<bool>());
        QCOMPARE(l.at("ckpt").get<std::string>(), std::string("selective"));
        QVERIFY(l.at("ckpt_chosen").get<bool>());
        QVERIFY(l.at("memory_GB").get<double>() <= 184.0);
        const auto t = runCli(base + QStringList{published});
        QCOMPARE(t.exitCode, 0);
        QVERIFY2(t.out.contains(QStringLiteral(
                     "ckpt not given: costed with selective, the least recomputation that fits")),
                 qPrintable(t.out));
        // Given without recomputation: out of memory, and the remedy is named.
        const QString none = published + QStringLiteral(",ckpt=none");
        const auto jn = runCli(base + QStringList{none, QStringLiteral("--json")});
        QCOMPARE(jn.exitCode, 1);
        const auto ln = nlohmann::json::parse(jn.out.toStdString()).at("layouts").at(0);
        QVERIFY(!ln.at("feasible").get<bool>());
        QVERIFY(!ln.contains("ckpt_chosen"));
        QCOMPARE(ln.at("fits_with").at("change").get<std::string>(), std::string("ckpt=selective"));
        QCOMPARE(ln.at("fits_with").at("memory_GB").get<double>(), l.at("memory_GB").get<double>());
        const auto tn = runCli(base + QStringList{none});
        QCOMPARE(tn.exitCode, 1);
        QVERIFY2(tn.out.contains(QStringLiteral("Fits with ckpt=selective (")), qPrintable(tn.out));
        QVERIFY2(tn.out.contains(QStringLiteral(
                     "--layout tp=4,pp=16,cp=1,ep=1,dp=4,mbs=1,ckpt=selective,vp=4")),
                 qPrintable(tn.out));
    }

    /// reproduce reality reports the leave-out errors beside the in-sample ones: one refit per
    /// measured system and per model family, each group's runs predicted by the refit (JSON
    /// leave_out, the text's table and overall line), and the split by dense / MoE and by
    /// micro-batch size.
    void reproduceRealityLeaveOut() {
        const auto j = runCli(
            {QStringLiteral("reproduce"), QStringLiteral("reality"), QStringLiteral("--json")});
        QVERIFY2(j.exitCode == 0, qPrintable(j.err));
        const auto r = nlohmann::json::parse(j.out.toStdString());
        const auto& lo = r.at("leave_out");
        QCOMPARE(lo.at("groups").size(), size_t(6));
        int systemRuns = 0, familyRuns = 0;
        for (const auto& g : lo.at("groups")) {
            (g.at("kind") == "system" ? systemRuns : familyRuns) += g.at("rows").get<int>();
            QCOMPARE(g.at("runs").size(), g.at("rows").get<size_t>());
            QVERIFY(g.at("max_abs_error").get<double>() >= g.at("median_abs_error").get<double>());
        }
        QCOMPARE(systemRuns, 90);
        QCOMPARE(familyRuns, 90);
        QCOMPARE(r.at("split").at("dense_moe").at("dense").at("rows").get<int>(), 41);
        QVERIFY(r.at("split").at("mbs").contains("1"));
        const auto t = runCli({QStringLiteral("reproduce"), QStringLiteral("reality")});
        QCOMPARE(t.exitCode, 0);
        for (const char* s : {"By dense / MoE:", "By micro-batch size:", "Leave-out validation",
                              "system        DGX-H100", "model_family  Llama 3",
                              "Overall median |error|: leave-one-system-out "})
            QVERIFY2(t.out.contains(QString::fromUtf8(s)), s);
    }

    /// A launch file it cannot read as written is refused with the flag and exit code 2.
    void planMegatronArgsErrors_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << ""
                               << "the file has no arguments (it is empty or only comments)";
        QTest::newRow("only comments") << "#!/bin/bash\n# --micro-batch-size 1\n"
                                       << "the file has no arguments";
        QTest::newRow("misspelt value")
            << "--recompute-granularity fulll"
            << "--recompute-granularity must be full or selective (got \"fulll\")";
        QTest::newRow("twice, different values")
            << "--micro-batch-size 1 --micro-batch-size 2"
            << "--micro-batch-size is given twice with different values (\"1\" and \"2\")";
        QTest::newRow("contradicts the model")
            << "--num-layers 61 --expert-model-parallel-size 8"
            << "--num-layers 61 contradicts the model file (27 layers)";
        QTest::newRow("comment line ends the launch command")
            << "torchrun pretrain_gpt.py --tensor-model-parallel-size 2 --sequence-parallel \\\n"
               "  # --expert-model-parallel-size 4 \\\n"
               "  --expert-model-parallel-size 8\n"
            << "line 3: --expert-model-parallel-size starts a command of its own: the line before "
               "does not continue";
    }
    void planMegatronArgsErrors() {
        QFETCH(QString, script);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("launch.sh"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(script.toUtf8());
        f.close();
        const auto r =
            runCli({QStringLiteral("plan"),
                    QStringLiteral(TANDEM_TEST_DATA "/models/DeepSeek-V2-Lite.config.json"),
                    QStringLiteral("--devices"), QStringLiteral("64"), QStringLiteral("--stack"),
                    QStringLiteral("megatron-core"), QStringLiteral("--megatron-args"), file});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--megatron-args: ") + message), qPrintable(r.err));
    }

    /// plan --emit megatron writes the layout it costed and --megatron-args reads it back to the
    /// same layout and iteration time, bit for bit: VP 2 over DeepSeek-V3's 61 layers on 16
    /// stages (once written as 1 layer per chunk and read back as VP 3), and the planner's best
    /// layout of Llama 3 70B on a batch that DP x mbs does not divide (the rounded batch).
    void planEmitMegatronRoundTrip_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("DeepSeek-V3 VP 2 over 61 layers")
            << "DeepSeek-V3.config.json"
            << QStringList{
                   "--devices", "2048", "--gbs",    "2048",
                   "--seqlen",  "4096", "--layout", "tp=2,pp=16,vp=2,ep=64,mbs=1,ckpt=selective"};
        QTest::newRow("Llama 3 70B best layout, rounded batch")
            << "Llama-3-70B.config.json"
            << QStringList{"--devices", "96", "--gbs", "1000", "--seqlen", "8192"};
    }
    void planEmitMegatronRoundTrip() {
        QFETCH(QString, model);
        QFETCH(QStringList, args);
        const QString cfg = QStringLiteral(TANDEM_TEST_DATA "/models/") + model;
        const QStringList common =
            QStringList{QStringLiteral("plan"), cfg} + args +
            QStringList{QStringLiteral("--stack"), QStringLiteral("megatron-core")};
        const auto planned = runCli(common + QStringList{QStringLiteral("--json")});
        QVERIFY2(planned.exitCode == 0, qPrintable(planned.err));
        const auto want = nlohmann::json::parse(planned.out.toStdString()).at("layouts").at(0);
        const auto emitted =
            runCli(common + QStringList{QStringLiteral("--emit"), QStringLiteral("megatron")});
        QVERIFY2(emitted.exitCode == 0, qPrintable(emitted.err));
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("launch.sh"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(emitted.out.toUtf8());
        f.close();
        const auto back =
            runCli({QStringLiteral("plan"), cfg, QStringLiteral("--devices"), args.at(1),
                    QStringLiteral("--stack"), QStringLiteral("megatron-core"),
                    QStringLiteral("--megatron-args"), file, QStringLiteral("--json")});
        QVERIFY2(back.exitCode == 0, qPrintable(back.err));
        QVERIFY2(back.err.isEmpty(), qPrintable(back.err));  // every emitted flag is read
        const auto got = nlohmann::json::parse(back.out.toStdString()).at("layouts").at(0);
        for (const char* key :
             {"tp", "pp", "vp", "cp", "ep", "etp", "dp", "mbs", "fsdp", "distopt", "sp",
              "pp_first_layers", "pp_last_layers", "ckpt", "global_batch_sequences"})
            QVERIFY2(got.at(key) == want.at(key), key);
        QCOMPARE(got.at("iteration_s").get<double>(), want.at("iteration_s").get<double>());
        QCOMPARE(got.at("memory_GB").get<double>(), want.at("memory_GB").get<double>());
    }

    /// --nccl costs the DP collectives from the measured 2x8 all-reduce curve (a
    /// 2^28-parameter dense model on 16 H100: 1 GiB reduce-scatter, 512 MiB all-gather, both
    /// measured sizes), which changes the exposed DP time: the analytical model costs the
    /// reduce-scatter and all-gather across the two H100 nodes as NCCL's ring, bounded by the
    /// node's 8 x 400 Gb/s (351 GB/s at the fitted efficiency), slower than this all-reduce
    /// curve standing in for them at 1 GiB and 512 MiB (441 and 394 GB/s), so the measured
    /// curve lowers it; a log ending in an NCCL error is refused with its line.
    /// plan says when its collectives extrapolate the scale-out constants: 128 H100 nodes
    /// (fitted on runs of 10-12) in the text and in JSON's network_note; 10 nodes say nothing.
    void planNamesNetworkExtrapolation() {
        const QString model = QStringLiteral(TANDEM_TEST_DATA "/models/Llama-2-13b-hf.config.json");
        auto planOn = [&](int devices, bool json) {
            QStringList args{QStringLiteral("plan"),       model,
                             QStringLiteral("--devices"),  QString::number(devices),
                             QStringLiteral("--gbs"),      QStringLiteral("1024"),
                             QStringLiteral("--seqlen"),   QStringLiteral("4096"),
                             QStringLiteral("--hardware"), QStringLiteral("h100")};
            if (json) args << QStringLiteral("--json");
            return runCli(args);
        };
        const auto far = planOn(1024, false);
        QVERIFY2(far.exitCode == 0, qPrintable(far.err));
        QVERIFY2(far.out.contains(QStringLiteral("Note: h100: collectives across 128 nodes")),
                 qPrintable(far.out.left(400)));
        const auto farJson = nlohmann::json::parse(planOn(1024, true).out.toStdString());
        QVERIFY(farJson.at("network_note").get<std::string>().find("10-12 nodes") !=
                std::string::npos);
        const auto near = planOn(80, false);
        QVERIFY2(near.exitCode == 0, qPrintable(near.err));
        QVERIFY(!near.out.contains(QStringLiteral("Note:")));
        QVERIFY(
            !nlohmann::json::parse(planOn(80, true).out.toStdString()).contains("network_note"));
    }

    void planWithMeasuredCollectives() {
        QTemporaryDir dir;
        const QString model = dir.filePath(QStringLiteral("dense.json"));
        {
            std::ofstream(model.toStdString())
                << R"({"layers": 12, "hidden": 1024, "heads": 8, "kv_heads": 8, "ffn_width": 4096, "vocab": 65536})";
        }
        const QString log = QStringLiteral(
            TANDEM_TEST_DATA "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt");
        const QStringList args{QStringLiteral("plan"),       model,
                               QStringLiteral("--devices"),  QStringLiteral("16"),
                               QStringLiteral("--gbs"),      QStringLiteral("16"),
                               QStringLiteral("--seqlen"),   QStringLiteral("512"),
                               QStringLiteral("--hardware"), QStringLiteral("h100"),
                               QStringLiteral("--layout"),   QStringLiteral("1,1,1,1,16,1"),
                               QStringLiteral("--json")};
        const auto a = runCli(args);
        const auto m = runCli(args + QStringList{QStringLiteral("--nccl"), log});
        QVERIFY2(a.exitCode == 0 && m.exitCode == 0, qPrintable(a.err + m.err));
        const auto ja = nlohmann::json::parse(a.out.toStdString());
        const auto jm = nlohmann::json::parse(m.out.toStdString());
        QVERIFY(!ja.contains("measured_collectives"));
        QCOMPARE(jm.at("measured_collectives").at("curves").size(), size_t(1));
        const auto& lm = jm.at("layouts").at(0);
        const auto& coll = lm.at("collectives");
        QCOMPARE(coll.at("measured").get<int>(), 2);
        QCOMPARE(coll.at("extrapolated").get<int>(), 0);
        const double rs = 1073741824.0 * 15 / 16 / 440.96e9, ag = 536870912.0 * 15 / 16 / 394.00e9;
        QVERIFY(std::abs(coll.at("uses").at(0).at("time_s").get<double>() - rs) < 1e-15);
        QVERIFY(std::abs(coll.at("uses").at(1).at("time_s").get<double>() - ag) < 1e-15);
        const double dpA = ja.at("layouts").at(0).at("breakdown_s").at("dp").get<double>();
        const double dpM = lm.at("breakdown_s").at("dp").get<double>();
        QVERIFY2(dpM < dpA, qPrintable(QString::number(dpM) + " vs " + QString::number(dpA)));

        // A log that ends in an NCCL error.
        std::ifstream in(log.toStdString());
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        text += "node01: Test NCCL failure all_reduce.cu:44 'unhandled system error'\n";
        const QString bad = dir.filePath(QStringLiteral("bad.txt"));
        std::ofstream(bad.toStdString()) << text;
        const auto e = runCli(args + QStringList{QStringLiteral("--nccl"), bad});
        QCOMPARE(e.exitCode, 2);
        QVERIFY2(e.err.contains(QStringLiteral("line 35: NCCL error reported")), qPrintable(e.err));
    }

    /// inspect reads every file in tests/data (each with its kind, exit 0).
    void inspectEveryDataFile_data() {
        QTest::addColumn<QString>("file");
        for (const char* sub : {"models", "nccl", "losslogs"}) {
            const QDir dir(QStringLiteral(TANDEM_TEST_DATA "/") + sub);
            for (const auto& f : dir.entryList(QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(QString::fromUtf8(sub) + "/" + f)) << dir.filePath(f);
        }
    }
    void inspectEveryDataFile() {
        QFETCH(QString, file);
        const auto r = runCli({QStringLiteral("inspect"), file, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j.at("kind").get<std::string>() != "unknown");
        if (j.at("kind") == "nccl_tests") QVERIFY(j.contains("analytical_hardware"));
    }

    /// Issue #25: every number tandem-cli reads or writes is in the C convention whatever the
    /// locale. Each row's commands run once with LC_ALL=C and once with LC_ALL=de_DE.UTF-8
    /// (decimal comma) and once with fr_FR.UTF-8 where installed; exit codes, messages and every
    /// file written must be the same byte for byte. Under de_DE.UTF-8 `run` wrote "0,7" into
    /// comma-separated files, `sweep` wrote "\"0,985\"", and "2.5:5.5:2", nccl-tests logs, loss
    /// logs and load traces were refused or misread.
    void outputsIgnoreLocale_data() {
        QTest::addColumn<QList<QStringList>>("commands");
        const QString data = QStringLiteral(TANDEM_TEST_DATA "/");
        const QString nccl =
            data + QStringLiteral("nccl/H100-all_reduce-2x8-awsome-distributed-training.txt");
        QTest::newRow("run mosaic-fig1")
            << QList<QStringList>{{"run", example("mosaic-fig1.json"), "--out", "$OUT/run"}};
        QTest::newRow("run mosaic-background")
            << QList<QStringList>{{"run", example("mosaic-background.json"), "--out", "$OUT/run"}};
        QTest::newRow("run mlforml-scenario1")
            << QList<QStringList>{{"run", example("mlforml-scenario1.json"), "--out", "$OUT/run"}};
        QTest::newRow("scaling csv and json")
            << QList<QStringList>{{"scaling", example("mlforml-fabric-scaling.json"), "--nodes",
                                   "8,16", "--oversubscription", "1.5,4", "--out", "$OUT/s.csv"},
                                  {"scaling", example("mlforml-fabric-scaling.json"), "--nodes",
                                   "8", "--oversubscription", "2.5", "--out", "$OUT/s.json"}};
        QTest::newRow("sweep range with decimals")
            << QList<QStringList>{{"sweep", example("mosaic-table3.json"), "--vary",
                                   "mosaic.days=2.5:5.5:2", "--out", "$OUT/sweep.csv"}};
        QTest::newRow("sweep shards and merge") << QList<QStringList>{
            {"sweep", example("mlforml-fabric-scaling.json"), "--vary",
             "ml_for_ml.fabric_GBps=250.5,300.25", "--shard", "0/2", "--out", "$OUT/a.csv"},
            {"sweep", example("mlforml-fabric-scaling.json"), "--vary",
             "ml_for_ml.fabric_GBps=250.5,300.25", "--shard", "1/2", "--out", "$OUT/b.csv"},
            {"merge", "--out", "$OUT/merged.csv", "$OUT/a.csv", "$OUT/b.csv"}};
        QList<QStringList> inspect;
        for (const char* sub : {"nccl", "losslogs", "models"}) {
            const QDir dir(data + QString::fromUtf8(sub));
            for (const auto& f : dir.entryList(QDir::Files, QDir::Name)) {
                inspect.append(QStringList{"inspect", dir.filePath(f)});
                inspect.append(QStringList{"inspect", dir.filePath(f), "--json"});
            }
        }
        inspect.append(QStringList{"inspect", TANDEM_CLI_DATA "/rate-trace.csv"});
        inspect.append(QStringList{"inspect", TANDEM_CLI_DATA "/rate-trace.csv", "--json"});
        QTest::newRow("inspect nccl-tests, loss log, config, trace") << inspect;
        QTest::newRow("plan with nccl-tests")
            << QList<QStringList>{{"plan", data + "models/Mixtral-8x7B-v0.1.config.json",
                                   "--devices", "64", "--nccl", nccl},
                                  {"plan", data + "models/Mixtral-8x7B-v0.1.config.json",
                                   "--devices", "64", "--nccl", nccl, "--json"}};
        QTest::newRow("validate and reproduce")
            << QList<QStringList>{{"validate", example("mlforml-scenario2.json")},
                                  {"validate", TANDEM_CLI_DATA "/bad-three.json"},
                                  {"reproduce", "mosaic"},
                                  {"reproduce", "reality"}};
    }
    void outputsIgnoreLocale() {
        QFETCH(QList<QStringList>, commands);
        if (!localeInstalled("de_DE.UTF-8"))
            QSKIP(
                "the de_DE.UTF-8 locale is not installed here (localedef -i de_DE -f UTF-8 "
                "de_DE.UTF-8; scripts/ci-locale.sh does it)");
        const QByteArray c = transcript(commands, QStringLiteral("C"));
        QVERIFY(c.contains("exit 0"));
        for (const char* locale : {"de_DE.UTF-8", "fr_FR.UTF-8"}) {
            if (!localeInstalled(locale)) continue;
            const QByteArray other = transcript(commands, QString::fromUtf8(locale));
            if (other == c) continue;
            // The first differing line, with its neighbours, names the culprit.
            const QList<QByteArray> a = c.split('\n'), b = other.split('\n');
            qsizetype i = 0;
            while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
            QByteArray where;
            for (qsizetype k = std::max<qsizetype>(0, i - 3); k <= i && k < a.size(); ++k)
                where += "  " + a[k].left(300) + "\n";
            QFAIL(qPrintable(QStringLiteral("LC_ALL=%1 differs from LC_ALL=C at line %2; C "
                                            "says:\n%3%1 says:\n  %4")
                                 .arg(QString::fromUtf8(locale))
                                 .arg(i + 1)
                                 .arg(QString::fromUtf8(where))
                                 .arg(QString::fromUtf8(i < b.size() ? b[i].left(300) : "<end>"))));
        }
    }

    void usageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no command") << QStringList{};
        QTest::newRow("unknown command") << QStringList{"frobnicate"};
        QTest::newRow("run without --out") << QStringList{"run", example("mosaic-fig1.json")};
        QTest::newRow("run missing file")
            << QStringList{"run", "/nonexistent.json", "--out", "/tmp/x"};
        QTest::newRow("reproduce bad target") << QStringList{"reproduce", "everything"};
        QTest::newRow("unknown option") << QStringList{"validate", "--bogus", "x.json"};
        QTest::newRow("inspect unknown hardware")
            << QStringList{"inspect", TANDEM_TEST_DATA "/nccl/A100-alltoall-1x8-superbenchmark.txt",
                           "--hardware", "b300"};
        QTest::newRow("plan missing nccl file")
            << QStringList{"plan",      TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json",
                           "--devices", "64",
                           "--nccl",    "/nonexistent-nccl.txt"};
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        const auto r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!r.err.isEmpty() || !r.out.isEmpty());
    }
};

TANDEM_TEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
