// tandem-cli run SCENARIO.json --out DIR: runs each part of a scenario and writes its results.
#include <unistd.h>

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "common/number_format.h"
#include "mlforml/report.h"
#include "mlforml/simulate.h"
#include "mosaic/background.h"
#include "mosaic/measured_collectives.h"
#include "mosaic/report.h"
#include "mosaic/search.h"
#include "output.h"
#include "output_folder.h"
#include "run_notes.h"
#include "run_output.h"
#include "save_file.h"

namespace cli {
namespace {

/// Every file `run` can write; stale ones from an earlier run into the same folder are removed.
const std::vector<std::string> kAllOutputs{"scenario.json",
                                           "mlforml_result.json",
                                           "mlforml_first_crossing.csv",
                                           "mlforml_trajectories.csv",
                                           "links.csv",
                                           "mosaic_result.json",
                                           "mosaic_frontier.csv",
                                           "mosaic_candidates.csv"};

/// First-crossing summary: one row per (N, policy), minutes per target and ratio to Joint.
void printMlForMlSummary(const tandem::mlforml::Result& r) {
    print("\nML-for-ML [arXiv:2608.06046]: first-crossing time (min), ratio to Joint\n");
    std::vector<std::string> header{"background", "policy"};
    for (double f : r.targetFactors) header.push_back(fixed(f, 3) + "xLmin");
    header.push_back(
        "ratio@" + (r.targetFactors.empty() ? std::string("-") : fixed(r.targetFactors.back(), 3)));
    std::vector<std::vector<std::string>> rows;
    for (const auto& pt : r.points) {
        const tandem::mlforml::PolicyRun* joint = findRun(pt, tandem::mlforml::Policy::Joint);
        for (const auto& run : pt.policies) {
            std::vector<std::string> row{pt.label, run.policy};
            for (double t : run.firstCrossing_s) row.push_back(fixed(t / 60.0, 1));
            double ratio = std::nan("");
            if (joint && !run.firstCrossing_s.empty() && !joint->firstCrossing_s.empty())
                ratio = run.firstCrossing_s.back() / joint->firstCrossing_s.back();
            row.push_back(std::isfinite(ratio) ? fixed(ratio, 3) : "n/a");
            rows.push_back(row);
        }
    }
    printTable(header, rows);
}

void printMosaicSummary(const tandem::mosaic::SearchResult& r) {
    print("\nMOSAIC [arXiv:2608.10605]: loss against sparsity\n");
    print("  compute-optimal sparsity S* = %s (model-FLOPs budget, blind to hardware)\n",
          fixed(r.computeOptimalSparsity, 3).c_str());
    print("  cluster-optimal sparsity S* = %s (best feasible plan on the cluster)\n",
          fixed(r.clusterOptimalSparsity, 3).c_str());
    if (r.optimum >= 0) {
        const auto& c = r.candidates[static_cast<size_t>(r.optimum)];
        const auto& g = c.geometry;
        print(
            "  optimum: L=%d d=%d E=%d K=%d G=%d N_act=%s B N_tot=%s B S=%s "
            "D=%s tokens MFU=%s %% loss=%s nats\n",
            g.layers, g.dModel, g.experts, g.topK, g.splitG, fixed(g.nAct / 1e9, 2).c_str(),
            fixed(g.nTot / 1e9, 1).c_str(), fixed(g.sparsity, 3).c_str(),
            significant(c.tokens, 3).c_str(), percent(c.eval.mfu).c_str(),
            fixed(c.loss, 4).c_str());
        print("  layout: TP=%d EP=%d PP=%d CP=%d DP=%d micro-batch=%d\n", c.plan.tp, c.plan.ep,
              c.plan.pp, c.plan.cp, c.plan.dp, c.plan.mbs);
        if (c.globalBatch != r.globalBatchRequested)
            print(
                "  global batch: %d sequences used (%d requested; the nearest multiple of DP x "
                "micro-batch)\n",
                c.globalBatch, r.globalBatchRequested);
    } else {
        print("  %s; the rules that cut them (geometries):\n",
              tandem::mosaic::noFeasibleGeometryText().c_str());
        for (const auto& [reason, n] : r.rejections) print("    %d: %s\n", n, reason.c_str());
        if (r.nearestWorkingNodes > 0)
            print("  nearest node count that works: %d\n", r.nearestWorkingNodes);
        else
            print("  no node count within %d of this one works\n",
                  tandem::mosaic::kNearestNodesSpan);
    }
    if (!r.layoutGridNote.empty()) print("  layout grid: %s\n", r.layoutGridNote.c_str());
    print("  feasible candidates: %zu\n", r.candidates.size());
}

/// False (after printing each offending path) when `result` holds a NaN or infinite number,
/// which would be written as null: a result file never carries an impossible number.
bool requireFinite(const char* file, const nlohmann::ordered_json& result) {
    const auto lines = nonFiniteReport(QString::fromUtf8(file), result);
    for (const auto& l : lines) printError(l);
    return lines.empty();
}

/// Why the folder `path` cannot be written into (access(2) W_OK: "read-only file system",
/// "permission denied"), or "" when it can.
QString unwritableReason(const QString& path) {
    if (::access(QFile::encodeName(path).constData(), W_OK) == 0) return {};
    return tandem::fileio::errnoReason(errno);
}

/// kExitOk when `path` can be the output folder: an existing writable folder, or a name whose
/// nearest existing ancestor is a writable folder (it is created later). Otherwise prints why
/// and returns the exit code: kExitBadInput when --out names no folder (a file, a device, a
/// folder holding a non-regular output), kExitFailure when the folder cannot be written (a
/// read-only file system, no permission), a write failure as every other writer reports it.
int checkOutputFolder(const QString& path) {
    const QFileInfo info(path);
    if (info.exists()) {
        if (!info.isDir()) {
            printError(QStringLiteral("%1: --out names an existing %2, not a folder")
                           .arg(path, info.isFile() ? QStringLiteral("file")
                                                    : QStringLiteral("device, FIFO or socket")));
            return kExitBadInput;
        }
        if (const QString why = unwritableReason(path); !why.isEmpty()) {
            printError(QStringLiteral("%1: output folder is not writable: %2; nothing was written")
                           .arg(path, why));
            return kExitFailure;
        }
        if (const QString why = outputsProblem(path, kAllOutputs); !why.isEmpty()) {
            printError(why);
            return kExitBadInput;
        }
        return kExitOk;
    }
    // Walk up to the nearest existing ancestor (bounded by the path's depth).
    QString parent = QFileInfo(info.absoluteFilePath()).path();
    for (int depth = 0; depth < 4096; ++depth) {
        const QFileInfo p(parent);
        if (p.exists()) {
            if (!p.isDir()) {
                printError(QStringLiteral("%1: cannot create output folder: %2 is a file")
                               .arg(path, parent));
                return kExitBadInput;
            }
            if (const QString why = unwritableReason(parent); !why.isEmpty()) {
                printError(QStringLiteral("%1: cannot create output folder: %2 is not writable: "
                                          "%3; nothing was written")
                               .arg(path, parent, why));
                return kExitFailure;
            }
            return kExitOk;
        }
        const QString up = QFileInfo(parent).path();
        if (up == parent) break;
        parent = up;
    }
    return kExitOk;
}

}  // namespace

int runCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Run every part of a scenario (ml_for_ml, mosaic) and write the results into DIR: "
        "scenario.json (canonical copy), mlforml_result.json, mlforml_first_crossing.csv, "
        "mlforml_trajectories.csv, links.csv (per link of the fabric: utilisation, seconds full, "
        "the jobs crossing it), mosaic_result.json, mosaic_frontier.csv, mosaic_candidates.csv."));
    parser.addPositionalArgument(QStringLiteral("SCENARIO.json"), QStringLiteral("Scenario file."));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Output folder."),
                                 QStringLiteral("DIR"));
    parser.addOption(out);
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1) {
        printError(QStringLiteral("run takes exactly one SCENARIO.json"));
        return kExitBadInput;
    }
    if (!parser.isSet(out) || parser.value(out).isEmpty()) {
        printError(QStringLiteral("run needs --out DIR"));
        return kExitBadInput;
    }
    const auto scenario = loadScenarioOrReport(pos[0]);
    if (!scenario) return kExitBadInput;
    // The output folder is checked before any computing, so a typo costs nothing.
    if (const int folderCode = checkOutputFolder(parser.value(out)); folderCode != kExitOk)
        return folderCode;

    // The copy names the trace and nccl-tests files so that they resolve from DIR.
    const QString copyPath =
        QDir(parser.value(out)).absoluteFilePath(QStringLiteral("scenario.json"));
    std::vector<OutFile> files{
        {"scenario.json", tandem::scenarioToJson(*scenario, copyPath.toStdString())}};
    try {
        if (scenario->mlForMl) {
            const auto r = tandem::mlforml::simulate(*scenario->mlForMl, nullptr, true);
            auto rj = tandem::mlforml::resultToJson(r);
            // A policy that misses a target says why; reached policies keep their bytes.
            std::vector<std::string> reasons;
            for (size_t i = 0; i < r.points.size() && i < rj["points"].size(); ++i)
                for (size_t k = 0; k < r.points[i].policies.size(); ++k) {
                    const std::string why = tandem::mlforml::notReachedReason(
                        *scenario->mlForMl, r.points[i].policies[k], r.comboLabels);
                    if (why.empty()) continue;
                    rj["points"][i]["policies"][k]["not_reached_reason"] = why;
                    reasons.push_back(r.points[i].label + " " + r.points[i].policies[k].policy +
                                      ": " + why);
                }
            if (!requireFinite("mlforml_result.json", rj)) return kExitFailure;
            files.push_back({"mlforml_result.json", rj.dump(2) + "\n"});
            files.push_back({"mlforml_first_crossing.csv", tandem::mlforml::firstCrossingCsv(r)});
            files.push_back({"mlforml_trajectories.csv", tandem::mlforml::trajectoriesCsv(r)});
            files.push_back({"links.csv", tandem::mlforml::linksCsv(r)});
            printMlForMlSummary(r);
            for (const auto& w : scenarioWarnings(*scenario))
                if (w.first.rfind("$.ml_for_ml", 0) == 0)
                    print("warning: %s: %s\n", w.first.c_str(), w.second.c_str());
            for (const auto& why : reasons) print("  %s\n", why.c_str());
        }
        if (scenario->mosaic) {
            tandem::mosaic::CollectiveRecorder measured(
                0);  // counts costings from nccl-tests curves
            const auto r = tandem::mosaic::search(*scenario->mosaic);
            auto rj = tandem::mosaic::searchToJson(r);
            if (const auto& hw = scenario->mosaic->hardware; hw.measured) {
                rj["measured_collectives"] =
                    tandem::mosaic::measuredCollectivesReport(hw, measured);
                print(
                    "Measured collectives: %lld of %lld costings from nccl-tests curves, %lld "
                    "extrapolated beyond measured sizes\n",
                    measured.measuredCalls(), measured.calls(), measured.extrapolatedCalls());
            }
            if (const auto& e = *scenario->mosaic; e.background) {
                const auto m = tandem::mosaic::coRunModel(e.hardware, e.nodes, *e.background);
                rj["background"] = tandem::mosaic::coRunReport(m, *e.background);
                print(
                    "Co-running jobs: %d on a %d-node %s:1 leaf/spine fabric, largest "
                    "collective slowdown %sx\n",
                    e.background->jobs, e.background->topology.nodes,
                    tandem::formatGeneral(e.background->topology.oversubscription, 6).c_str(),
                    tandem::formatFixed(m.largestSlowdown, 2).c_str());
            }
            if (!requireFinite("mosaic_result.json", rj)) return kExitFailure;
            files.push_back({"mosaic_result.json", rj.dump(2) + "\n"});
            files.push_back({"mosaic_frontier.csv", tandem::mosaic::frontierCsv(r)});
            files.push_back({"mosaic_candidates.csv", tandem::mosaic::candidatesCsv(r)});
            printMosaicSummary(r);
            for (const auto& w : scenarioWarnings(*scenario))
                if (w.first.rfind("$.mosaic", 0) == 0)
                    print("note: %s: %s\n", w.first.c_str(), w.second.c_str());
        }
    } catch (const std::exception& e) {
        printError(QStringLiteral("%1: %2").arg(pos[0], QString::fromUtf8(e.what())));
        return kExitFailure;
    }
    print("\n");
    // The folder is created only once every result is computed; replaceOutputs stages every
    // file and swaps the whole set (stale files of an earlier run included) or, on any failure,
    // restores the previous set, so DIR never mixes two runs.
    // A folder made here is removed again when the run fails (folders that existed are kept).
    QDir dir(parser.value(out));
    tandem::fileio::NewOutputFolder folder(parser.value(out));
    if (QString why; !folder.create(&why)) {
        printError(QStringLiteral("%1: cannot create output folder: %2; nothing was written")
                       .arg(parser.value(out), why));
        return kExitFailure;
    }
    QString err;
    QStringList notes;
    const bool replaced = replaceOutputs(dir.path(), files, kAllOutputs, &err, &notes);
    for (const QString& note : notes) print("note: %s\n", note.toUtf8().constData());
    if (!replaced) {
        const bool wasNew = folder.createdAny();
        folder.removeCreated();
        if (wasNew && !QFileInfo::exists(parser.value(out)))
            err += QStringLiteral("; %1 was made by this run and is removed again")
                       .arg(parser.value(out));
        printError(err);
        return kExitFailure;
    }
    folder.keep();
    for (const auto& f : files)
        print("wrote %s\n", dir.filePath(QString::fromUtf8(f.name)).toUtf8().constData());
    return kExitOk;
}

}  // namespace cli
