// tandem-cli sweep / merge: grids over one or two scenario keys, on every core, shardable as a
// Slurm job array and mergeable into the table an unsharded run writes.
#include <QCommandLineParser>
#include <QProcessEnvironment>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "commands.h"
#include "io/text_file.h"
#include "mlforml/scaling.h"
#include "output.h"
#include "save_file.h"
#include "sweep/sweep.h"

namespace cli {
namespace {

/// Reads a scenario or shard file through io::readTextFile, which refuses folders, devices and
/// FIFOs before opening them (opening a FIFO would block until a writer appears).
bool readText(const QString& path, std::string* out) {
    tandem::Diagnostics diag(path.toStdString());
    if (tandem::io::readTextFile(path.toStdString(), *out, diag)) return true;
    for (const auto& issue : diag.items()) std::fprintf(stderr, "%s\n", issue.str().c_str());
    return false;
}

/// --shard wins; else SLURM_ARRAY_TASK_ID (minus SLURM_ARRAY_TASK_MIN) of SLURM_ARRAY_TASK_COUNT,
/// each checked by sweep::shardFromSlurm (a malformed variable is an error, never shard 0).
bool shardFrom(const QCommandLineParser& parser, const QCommandLineOption& opt,
               tandem::sweep::Shard* shard) {
    std::string err;
    if (parser.isSet(opt)) {
        if (tandem::sweep::parseShard(parser.value(opt).toStdString(), *shard, err)) return true;
    } else {
        const auto env = QProcessEnvironment::systemEnvironment();
        if (!env.contains(QStringLiteral("SLURM_ARRAY_TASK_ID"))) return true;
        auto var = [&env](const char* name, std::string* holder) -> const char* {
            const QString key = QString::fromLatin1(name);
            if (!env.contains(key)) return nullptr;
            *holder = env.value(key).toStdString();
            return holder->c_str();
        };
        std::string id, min, count;
        const char* pid = var("SLURM_ARRAY_TASK_ID", &id);
        const char* pmin = var("SLURM_ARRAY_TASK_MIN", &min);
        const char* pcount = var("SLURM_ARRAY_TASK_COUNT", &count);
        if (tandem::sweep::shardFromSlurm(pid, pmin, pcount, *shard, err)) return true;
    }
    printError(QString::fromStdString(err));
    return false;
}

/// True when `out` may be written: not a folder, device, FIFO or socket
/// (fileio::outputTargetProblem) and not the same file as any of `inputs` (also through a
/// symbolic link, a hard link or another spelling of the path). Otherwise prints why. Checked
/// before any computing, so a wrong --out costs nothing.
bool checkOutFile(const QString& out, const QStringList& inputs) {
    if (const QString why = tandem::fileio::outputTargetProblem(out); !why.isEmpty()) {
        printError(QStringLiteral("--out %1: %2; output is written to regular files only, nothing "
                                  "was written")
                       .arg(out, why));
        return false;
    }
    for (const QString& in : inputs) {
        if (tandem::fileio::sameFile(out, in)) {
            printError(QStringLiteral("--out %1: is the input %2; write the output to another file "
                                      "(the input is left unchanged)")
                           .arg(out, in));
            return false;
        }
    }
    return true;
}

void writeAndReport(const QString& out, const tandem::sweep::Table& table, const QString& what,
                    int* code) {
    QString err;
    if (!tandem::fileio::writeFileAtomic(out, tandem::sweep::toCsv(table), &err)) {
        printError(err);
        *code = kExitFailure;
        return;
    }
    print("wrote %s: %s\n", out.toUtf8().constData(), what.toUtf8().constData());
    *code = kExitOk;
}

}  // namespace

int sweepCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Run a scenario over a grid of one or two keys and write one CSV row per grid point.\n"
        "  --vary ml_for_ml.fabric_GBps=300:600:7     7 evenly spaced values\n"
        "  --vary ml_for_ml.background_jobs=4,8,12,16 a list (array keys take one element)\n"
        "  --vary mosaic.nodes=8,16,32 --vary mosaic.days=10,20\n"
        "Points run on every core. With --shard i/n (0-based), or SLURM_ARRAY_TASK_ID and "
        "SLURM_ARRAY_TASK_COUNT set, only points p with p % n == i are computed; "
        "'tandem-cli merge' joins the shard files into the unsharded table."));
    parser.addPositionalArgument(QStringLiteral("SCENARIO.json"), QStringLiteral("Scenario file."));
    const QCommandLineOption vary(QStringLiteral("vary"),
                                  QStringLiteral("PATH=lo:hi:n or PATH=v1,v2,..."),
                                  QStringLiteral("AXIS"));
    const QCommandLineOption shardOpt(QStringLiteral("shard"),
                                      QStringLiteral("Compute share i of n (0-based)."),
                                      QStringLiteral("i/n"));
    const QCommandLineOption threadsOpt(QStringLiteral("threads"),
                                        QStringLiteral("Worker threads (default: all cores)."),
                                        QStringLiteral("K"), QStringLiteral("0"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Output CSV file."),
                                 QStringLiteral("FILE"));
    parser.addOptions({vary, shardOpt, threadsOpt, out});
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1) {
        printError(QStringLiteral("sweep takes exactly one SCENARIO.json"));
        return kExitBadInput;
    }
    if (!parser.isSet(out)) {
        printError(QStringLiteral("sweep needs --out FILE.csv"));
        return kExitBadInput;
    }
    const QStringList axesText = parser.values(vary);
    if (axesText.isEmpty() || axesText.size() > 2) {
        printError(QStringLiteral("sweep needs one or two --vary PATH=VALUES"));
        return kExitBadInput;
    }
    std::vector<tandem::sweep::Axis> axes;
    for (const auto& a : axesText) {
        tandem::sweep::Axis axis;
        std::string err;
        if (!tandem::sweep::parseAxis(a.toStdString(), axis, err)) {
            printError(QStringLiteral("--vary: %1").arg(QString::fromStdString(err)));
            return kExitBadInput;
        }
        for (const auto& other : axes) {
            if (other.path == axis.path) {
                printError(QStringLiteral("--vary: %1 is given twice; sweep two different keys")
                               .arg(QString::fromStdString(axis.path)));
                return kExitBadInput;
            }
        }
        axes.push_back(std::move(axis));
    }
    tandem::sweep::Shard shard;
    if (!shardFrom(parser, shardOpt, &shard)) return kExitBadInput;
    bool okThreads = false;
    const int threads = parser.value(threadsOpt).toInt(&okThreads);
    if (!okThreads || threads < 0) {
        printError(QStringLiteral("--threads must be a non-negative integer"));
        return kExitBadInput;
    }
    if (!checkOutFile(parser.value(out), pos)) return kExitBadInput;
    std::string text;
    if (!readText(pos[0], &text)) return kExitBadInput;
    tandem::Diagnostics diag(pos[0].toStdString());
    // Progress on a terminal only (showProgress writes nothing when stderr is no TTY).
    const auto table =
        tandem::sweep::run(text, axes, shard, threads, diag, nullptr,
                           [](std::size_t done, std::size_t n) { showProgress(done, n, "point"); });
    showProgress(0, 0, "");
    if (!diag.ok()) {
        for (const auto& issue : diag.items()) std::fprintf(stderr, "%s\n", issue.str().c_str());
        return kExitBadInput;
    }
    QString what = QStringLiteral("%1 point(s)").arg(table.rows.size());
    if (shard.count > 1) what += QStringLiteral(" (shard %1/%2)").arg(shard.index).arg(shard.count);
    writeAndReport(parser.value(out), table, what, &code);
    return code;
}

int scalingCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Time to target per policy against foreground nodes on a leaf/spine fabric, one curve "
        "per oversubscription ratio (the per-GPU micro-batch fixed). The scenario's ml_for_ml "
        "part must use a leaf-spine topology. --out FILE.csv writes one row per point, "
        "FILE.json one object per curve; FILE-links.csv beside it the use of every link some "
        "flow crossed at each point (the links.csv columns led by oversubscription and "
        "foreground_nodes)."));
    parser.addPositionalArgument(QStringLiteral("SCENARIO.json"), QStringLiteral("Scenario file."));
    const QCommandLineOption nodesOpt(QStringLiteral("nodes"),
                                      QStringLiteral("Foreground nodes, lo:hi:n or a list."),
                                      QStringLiteral("VALUES"), QStringLiteral("8:64:8"));
    const QCommandLineOption ratiosOpt(QStringLiteral("oversubscription"),
                                       QStringLiteral("Ratios, a list (default 1,2,4)."),
                                       QStringLiteral("VALUES"), QStringLiteral("1,2,4"));
    const QCommandLineOption out(QStringLiteral("out"),
                                 QStringLiteral("Output .csv or .json file."),
                                 QStringLiteral("FILE"));
    parser.addOptions({nodesOpt, ratiosOpt, out});
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1 || !parser.isSet(out)) {
        printError(QStringLiteral("scaling takes one SCENARIO.json and --out FILE.csv|FILE.json"));
        return kExitBadInput;
    }
    const QString outFile = parser.value(out);
    const bool json = outFile.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive);
    if (!json && !outFile.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive)) {
        printError(QStringLiteral("--out %1: must end in .csv or .json").arg(outFile));
        return kExitBadInput;
    }
    // Both lists use the sweep's axis syntax; node counts must be whole, ratios in [1, 64].
    std::vector<int> nodes;
    std::vector<double> ratios;
    for (const auto& [opt, isNodes] : {std::pair{&nodesOpt, true}, std::pair{&ratiosOpt, false}}) {
        tandem::sweep::Axis axis;
        std::string err;
        const QString name =
            isNodes ? QStringLiteral("--nodes") : QStringLiteral("--oversubscription");
        if (!tandem::sweep::parseAxis("x=" + parser.value(*opt).toStdString(), axis, err)) {
            printError(QStringLiteral("%1: %2").arg(name, QString::fromStdString(err)));
            return kExitBadInput;
        }
        // A range whose step is not a whole number of nodes (8:64:100000 asks for points
        // 0.00056 nodes apart): say why rather than naming its first fractional point.
        const std::string spec = parser.value(*opt).toStdString();
        if (isNodes && spec.find(':') != std::string::npos && axis.values.size() >= 2 &&
            !std::all_of(axis.values.begin(), axis.values.end(),
                         [](const auto& v) { return v.is_number_integer(); })) {
            const double lo = axis.values.front().get<double>(),
                         hi = axis.values.back().get<double>();
            const double n = static_cast<double>(axis.values.size());
            printError(
                QStringLiteral("--nodes %1: %2 points from %3 to %4 lie %5 nodes apart, but a "
                               "node count is a whole number: lo:hi:n needs whole lo and hi and "
                               "(hi - lo) / (n - 1) whole, so at most %6 points here (every "
                               "node count); or give a list (8,16,32)")
                    .arg(QString::fromStdString(spec), QString::number(n, 'g', 10),
                         QString::number(lo, 'g', 10), QString::number(hi, 'g', 10),
                         QString::number((hi - lo) / (n - 1), 'g', 3))
                    .arg(std::floor(hi) == hi && std::floor(lo) == lo && hi >= lo
                             ? QString::number(hi - lo + 1, 'g', 10)
                             : QStringLiteral("0")));
            return kExitBadInput;
        }
        for (const auto& v : axis.values) {
            const bool ok =
                v.is_number() && (isNodes ? v.is_number_integer() && v.get<long long>() >= 1 &&
                                                v.get<long long>() <= 65536
                                          : v.get<double>() >= 1 && v.get<double>() <= 64);
            if (!ok) {
                printError(QStringLiteral("%1: %2 is not %3")
                               .arg(name, QString::fromStdString(v.dump()),
                                    isNodes ? QStringLiteral("a node count in [1, 65536]")
                                            : QStringLiteral("a ratio in [1, 64]")));
                return kExitBadInput;
            }
            if (isNodes)
                nodes.push_back(v.get<int>());
            else
                ratios.push_back(v.get<double>());
        }
    }
    if (!checkOutFile(outFile, pos)) return kExitBadInput;
    // The per-link table beside it: FILE.csv -> FILE-links.csv.
    const QString linksFile =
        outFile.left(outFile.lastIndexOf(QLatin1Char('.'))) + QStringLiteral("-links.csv");
    if (!checkOutFile(linksFile, pos)) return kExitBadInput;
    const auto scenario = loadScenarioOrReport(pos[0]);
    if (!scenario) return kExitBadInput;
    if (!scenario->mlForMl) {
        printError(QStringLiteral("%1: has no ml_for_ml part").arg(pos[0]));
        return kExitBadInput;
    }
    std::vector<tandem::mlforml::ScalingCurve> curves;
    std::vector<tandem::mlforml::ScalingLinks> links;
    try {
        curves = tandem::mlforml::fabricScaling(
            *scenario->mlForMl, nodes, ratios, nullptr,
            [](std::size_t i, std::size_t n) { showProgress(i + 1, n, "point"); }, &links);
        showProgress(0, 0, "");
    } catch (const std::invalid_argument& e) {
        showProgress(0, 0, "");
        printError(QStringLiteral("%1: %2").arg(pos[0], QString::fromUtf8(e.what())));
        return kExitBadInput;
    } catch (const std::exception& e) {
        showProgress(0, 0, "");
        printError(QString::fromUtf8(e.what()));
        return kExitFailure;
    }
    const std::string text = json ? tandem::mlforml::scalingToJson(curves).dump(2) + "\n"
                                  : tandem::mlforml::scalingToCsv(curves);
    QString err;
    if (!tandem::fileio::writeFileAtomic(outFile, text, &err) ||
        !tandem::fileio::writeFileAtomic(linksFile, tandem::mlforml::scalingLinksCsv(links),
                                         &err)) {
        printError(err);
        return kExitFailure;
    }
    print("wrote %s: %zu curve(s) of %zu point(s); %s: the links of each point\n",
          outFile.toUtf8().constData(), curves.size(), nodes.size(),
          linksFile.toUtf8().constData());
    return kExitOk;
}

int mergeCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Join the CSV files of a sharded sweep into one table, identical to an unsharded run. "
        "Fails (exit 2) if headers differ, a point repeats, a point is missing or, for shard "
        "files written by 'tandem-cli sweep --shard i/n', any of the n shards is not given "
        "(the missing shards and their points are named)."));
    parser.addPositionalArgument(QStringLiteral("SHARD.csv"), QStringLiteral("Shard outputs."),
                                 QStringLiteral("SHARD.csv..."));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Merged CSV file."),
                                 QStringLiteral("FILE"));
    parser.addOption(out);
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.isEmpty() || !parser.isSet(out)) {
        printError(QStringLiteral("merge needs --out FILE and at least one SHARD.csv"));
        return kExitBadInput;
    }
    if (!checkOutFile(parser.value(out), pos)) return kExitBadInput;
    std::vector<std::string> texts, names;
    for (const auto& p : pos) {
        std::string t;
        if (!readText(p, &t)) return kExitBadInput;
        texts.push_back(std::move(t));
        names.push_back(p.toStdString());
    }
    tandem::Diagnostics diag;
    const auto table = tandem::sweep::merge(texts, names, diag);
    if (!diag.ok()) {
        for (const auto& issue : diag.items()) std::fprintf(stderr, "%s\n", issue.str().c_str());
        return kExitBadInput;
    }
    writeAndReport(parser.value(out), table, QStringLiteral("%1 point(s)").arg(table.rows.size()),
                   &code);
    return code;
}

}  // namespace cli
