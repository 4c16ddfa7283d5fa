// tandem-cli plan MODEL.json --devices N --gbs B --seqlen T [--hardware NAME] [--layout ...]
// [--nccl FILE]... [--json]: the best feasible layouts of any MoE or dense geometry
// [2608.10605 Sec. 5]. MODEL.json may be Tandem's model JSON or a Hugging Face config.json;
// --nccl replaces the analytical collective model with measured nccl-tests curves.
#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>

#include "commands.h"
#include "common/json_reader.h"
#include "io/hf_config.h"
#include "io/text_file.h"
#include "mosaic/collectives.h"
#include "mosaic/imported_geometry.h"
#include "mosaic/layout_form.h"
#include "mosaic/layout_grid.h"
#include "mosaic/measured_collectives.h"
#include "mosaic/megatron_args.h"
#include "mosaic/plan.h"
#include "mosaic/search.h"
#include "output.h"

namespace cli {
namespace {

/// Reads --NAME as an integer in [1, max]; prints why not otherwise.
bool positiveInt(const QString& text, const char* name, int* out, int max) {
    bool ok = false;
    const qlonglong v = text.toLongLong(&ok);  // 2^31 and beyond: "at most", not "not an integer"
    if (!ok || v <= 0) {
        printError(QStringLiteral("--%1 must be a positive integer (got '%2')")
                       .arg(QString::fromUtf8(name), text));
        return false;
    }
    if (v > max) {
        printError(
            QStringLiteral("--%1 must be at most %2 (got %3), the largest an envelope accepts")
                .arg(QString::fromUtf8(name))
                .arg(max)
                .arg(v));
        return false;
    }
    *out = static_cast<int>(v);
    return true;
}

std::string pct(double v) { return percent(v) + " %"; }

/// Where the time of one collective call came from (each use's "source" in collectivesOf).
enum class TimeSource {
    Analytical,  ///< the analytical collective model
    Measured,    ///< a measured nccl-tests curve
};

/// The words of TimeSource: "analytical", "measured".
const tandem::EnumTable<TimeSource>& timeSourceNames() {
    static const tandem::EnumTable<TimeSource> t = {{TimeSource::Analytical, "analytical"},
                                                    {TimeSource::Measured, "measured"}};
    return t;
}

/// The collectives of one layout with their source (measured curve or analytical), from a
/// re-evaluation under a CollectiveRecorder.
nlohmann::ordered_json collectivesOf(const tandem::mosaic::Geometry& g,
                                     const tandem::mosaic::Cluster& c,
                                     const tandem::mosaic::Plan& p) {
    namespace m = tandem::mosaic;
    m::CollectiveRecorder rec;
    (void)m::evaluateLayout(g, c, p);
    nlohmann::ordered_json j;
    j["calls"] = rec.calls();
    j["measured"] = rec.measuredCalls();
    j["extrapolated"] = rec.extrapolatedCalls();
    auto uses = nlohmann::ordered_json::array();
    for (const auto& u : rec.uses()) {
        nlohmann::ordered_json o;
        o["collective"] = m::collectiveName(u.collective);
        o["bytes"] = u.bytes;
        o["ranks"] = u.ranks;
        o["stride"] = u.stride;
        o["nodes"] = u.nodes;
        o["source"] = tandem::enumName(
            timeSourceNames(), u.curve >= 0 ? TimeSource::Measured : TimeSource::Analytical);
        o["curve"] =
            u.curve >= 0 ? c.hardware.measured->curves()[size_t(u.curve)].label : std::string();
        o["stand_in"] = u.standIn;
        o["rescaled"] = u.rescaled;
        o["extrapolated"] = u.extrapolated;
        o["time_s"] = u.time_s;
        o["analytical_s"] = u.analytical_s;
        uses.push_back(o);
    }
    j["uses"] = uses;
    return j;
}

}  // namespace

int planCommand(const QStringList& args) {
    namespace m = tandem::mosaic;
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Cost a model on a cluster and list the best feasible layouts (or one given layout) "
        "with MFU, iteration time, memory per GPU and the step-time breakdown "
        "[arXiv:2608.10605 Sec. 5]. MODEL.json is a ladder seed {\"q\", \"experts\", \"top_k\", "
        "\"expert_split_factor\"} or an explicit geometry {\"layers\", \"hidden\", \"heads\", "
        "\"kv_heads\", \"ffn_width\", \"vocab\", \"experts\", \"top_k\", \"expert_width\", "
        "\"shared_experts\", \"dense_layers\"}, or a Hugging Face config.json (it has model_type "
        "or architectures; the mapping's assumptions are printed). --nccl FILE (repeatable) costs "
        "collectives from measured nccl-tests curves instead of the analytical model. Outputs: "
        "tokens_per_s_per_gpu = B_global T_seq / (t_iter N_dev); mfu = 6 N_act per token over the "
        "dense "
        "BF16 peak (arXiv:2608.10605 Eq. 1); model_tflops_per_s_per_gpu = Megatron's model-FLOPs "
        "count "
        "(6 x (active GEMM parameters + LM head) + causal attention); memory_GB with "
        "memory_breakdown_GB."));
    parser.addPositionalArgument(QStringLiteral("MODEL.json"), QStringLiteral("Model geometry."));
    const QCommandLineOption devices(QStringLiteral("devices"), QStringLiteral("GPUs (N_dev)."),
                                     QStringLiteral("N"));
    const QCommandLineOption gbs(QStringLiteral("gbs"),
                                 QStringLiteral("Global batch, sequences (default 1024)."),
                                 QStringLiteral("B"), QStringLiteral("1024"));
    const QCommandLineOption seqlen(QStringLiteral("seqlen"),
                                    QStringLiteral("Sequence length, tokens (default 2048)."),
                                    QStringLiteral("T"), QStringLiteral("2048"));
    const QCommandLineOption hardware(QStringLiteral("hardware"),
                                      QStringLiteral("GPU/node type: %1 (default p6-b200).")
                                          .arg(QString::fromStdString(m::hardwareNameList())),
                                      QStringLiteral("NAME"), QStringLiteral("p6-b200"));
    const QCommandLineOption layout(
        QStringLiteral("layout"),
        QStringLiteral(
            "Evaluate one layout, named (tp=2,pp=8,vp=4,cp=1,ep=64,etp=1,mbs=1,fsdp=0,"
            "distopt=1,sp=1,pp_first=0,pp_last=0,ckpt=selective; any subset, dp = N / (TP CP "
            "PP) unless given; pp_first / pp_last: layers on the first / last stage, 0 "
            "= even; ckpt none, core-attn, selective, super-selective or full) or "
            "positional (tp,ep,pp,cp,dp,mbs[,ckpt])."),
        QStringLiteral("LAYOUT"));
    const QCommandLineOption stack(
        QStringLiteral("stack"),
        QStringLiteral(
            "Training stack: mosaic-paper (arXiv:2608.10605's stack, default), megatron-core "
            "(fitted to measured Megatron-Bridge runs; VP, ETP, FSDP, EP folding) or "
            "megatron-lm-2022 (arXiv:2205.05198's A100 stack: no flash attention, no TP "
            "overlap; fitted to its Table 5)."),
        QStringLiteral("S"), QStringLiteral("mosaic-paper"));
    const QCommandLineOption precision(
        QStringLiteral("precision"),
        QStringLiteral(
            "GEMM precision: bf16 (default), fp8, mxfp8, nvfp4 (attention, LM head and norms "
            "stay BF16)."),
        QStringLiteral("P"), QStringLiteral("bf16"));
    const QCommandLineOption emitFormat(
        QStringLiteral("emit"),
        QStringLiteral("Print the first layout as launch arguments: megatron (the complete "
                       "Megatron-LM pretrain_gpt.py line: model, layout, batch, recompute and "
                       "precision flags; --megatron-args reads it back to the same plan)."),
        QStringLiteral("FORMAT"));
    const QCommandLineOption megatronArgs(
        QStringLiteral("megatron-args"),
        QStringLiteral(
            "Cost the run of a Megatron-LM / Megatron-Bridge launch script, read as bash splits "
            "it (comments, continuations, quotes, variables and arrays): its parallel sizes, "
            "batch, sequence length, FSDP / distributed optimizer, recompute and precision flags "
            "(replaces --layout, --gbs, --seqlen, --precision); model flags are checked against "
            "MODEL.json. Unreadable values, a flag given twice with different values and "
            "contradictions are errors; flags not modelled are noted on stderr."),
        QStringLiteral("FILE"));
    const QCommandLineOption top(QStringLiteral("top"),
                                 QStringLiteral("How many layouts to list (default 10)."),
                                 QStringLiteral("K"), QStringLiteral("10"));
    const QCommandLineOption nccl(
        QStringLiteral("nccl"),
        QStringLiteral("nccl-tests output whose curves replace the analytical collective model "
                       "(repeatable)."),
        QStringLiteral("FILE"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    parser.addOptions({devices, gbs, seqlen, hardware, layout, stack, precision, emitFormat,
                       megatronArgs, top, nccl, json});
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1) {
        printError(QStringLiteral("plan takes exactly one MODEL.json"));
        return kExitBadInput;
    }
    if (!parser.isSet(devices)) {
        printError(QStringLiteral("plan needs --devices N"));
        return kExitBadInput;
    }
    m::Cluster cluster;
    int topK = 10;
    if (!positiveInt(parser.value(devices), "devices", &cluster.devices, m::kMaxDevices) ||
        !positiveInt(parser.value(gbs), "gbs", &cluster.globalBatch, m::kMaxGlobalBatch) ||
        !positiveInt(parser.value(seqlen), "seqlen", &cluster.seqLen, m::kMaxSeqLen) ||
        !positiveInt(parser.value(top), "top", &topK, std::numeric_limits<int>::max()))
        return kExitBadInput;
    try {
        cluster.hardware = m::builtinHardware(parser.value(hardware).toStdString());
    } catch (const std::exception& e) {
        printError(QStringLiteral("--hardware: %1").arg(QString::fromUtf8(e.what())));
        return kExitBadInput;
    }
    try {
        cluster.stack = m::builtinStack(parser.value(stack).toStdString());
    } catch (const std::exception& e) {
        printError(QStringLiteral("--stack: %1").arg(QString::fromUtf8(e.what())));
        return kExitBadInput;
    }
    if (!m::parsePrecision(parser.value(precision).toStdString(), cluster.precision)) {
        printError(QStringLiteral("--precision must be bf16, fp8, mxfp8 or nvfp4 (got '%1')")
                       .arg(parser.value(precision)));
        return kExitBadInput;
    }
    if (parser.isSet(emitFormat) && parser.value(emitFormat) != "megatron") {
        printError(
            QStringLiteral("--emit supports: megatron (got '%1')").arg(parser.value(emitFormat)));
        return kExitBadInput;
    }

    tandem::Diagnostics diag(pos[0].toStdString());
    QFile f(pos[0]);
    const QFileInfo info(pos[0]);
    if (info.exists() && !info.isFile()) {
        diag.error("$", info.isDir() ? "is a folder, not a model file" : "is not a regular file");
    } else if (!f.open(QIODevice::ReadOnly)) {
        diag.error("$", "cannot open file for reading: " + f.errorString().toLower().toStdString());
    }
    const std::string text = f.isOpen() ? f.readAll().toStdString() : std::string();
    m::Geometry geometry;
    std::optional<tandem::io::ModelImport> hf;
    tandem::mosaic::ImportedGeometry mapped;
    if (diag.ok()) {
        const auto j = tandem::parseJsonText(text, diag);
        if (diag.ok()) {
            tandem::JsonReader r(j, "$", diag);
            if (!j.is_object()) {
                diag.error("$", "MODEL.json must be a JSON object");
            } else if (tandem::io::isHfConfig(j)) {
                hf = tandem::io::importModelConfig(j, diag);
                if (hf) {
                    mapped = tandem::mosaic::importedGeometry(*hf);
                    geometry = mapped.geometry;
                }
            } else {
                m::readPlanModel(r, geometry);
            }
        }
    }
    if (!diag.ok()) {
        for (const auto& issue : diag.items()) std::fprintf(stderr, "%s\n", issue.str().c_str());
        return kExitBadInput;
    }
    std::vector<std::string> ncclNotes;
    if (parser.isSet(nccl)) {
        std::vector<std::string> files;
        for (const auto& name : parser.values(nccl)) files.push_back(name.toStdString());
        tandem::Diagnostics nd;
        cluster.hardware.measured =
            m::loadMeasuredCollectives(files, nd, "--nccl", false, &ncclNotes);
        if (!nd.ok()) {
            for (const auto& issue : nd.items()) std::fprintf(stderr, "%s\n", issue.str().c_str());
            return kExitBadInput;
        }
    }

    // A precision the hardware has no peak for cuts every layout; say so instead of "no
    // layout for this cluster".
    const auto precisionOk = [&](const char* flag) {
        const std::string why = m::precisionUnsupported(cluster.hardware, cluster.precision);
        if (!why.empty())
            printError(QStringLiteral("%1 %2: %3")
                           .arg(QLatin1String(flag),
                                QLatin1String(m::precisionName(cluster.precision)),
                                QString::fromStdString(why)));
        return why.empty();
    };
    if (!parser.isSet(megatronArgs) && !precisionOk("--precision")) return kExitBadInput;
    std::vector<std::pair<m::Plan, m::PlanEval>> layouts;
    if (parser.isSet(megatronArgs)) {
        // Read as every input file is: a folder, a device or a pipe is named as such.
        const std::string argsPath = parser.value(megatronArgs).toStdString();
        std::string script;
        tandem::Diagnostics argsDiag(argsPath);
        if (!tandem::io::readTextFile(argsPath, script, argsDiag)) {
            for (const auto& issue : argsDiag.items())
                printError(QStringLiteral("--megatron-args: %1")
                               .arg(QString::fromStdString(issue.message)));
            return kExitBadInput;
        }
        m::Plan p;
        std::string error;
        std::vector<std::string> notes;
        if (!m::parseMegatronArguments(script, geometry, cluster, p, error, &notes)) {
            printError(QStringLiteral("--megatron-args: %1").arg(QString::fromStdString(error)));
            return kExitBadInput;
        }
        for (const auto& n : notes) std::fprintf(stderr, "--megatron-args: note: %s\n", n.c_str());
        if (!precisionOk("--megatron-args: precision")) return kExitBadInput;
        layouts.emplace_back(p, m::evaluateLayout(geometry, cluster, p));
    } else if (parser.isSet(layout)) {
        m::Plan p;
        std::string error;
        if (!m::parseLayout(parser.value(layout).toStdString(), p, error)) {
            printError(QStringLiteral("--layout: %1").arg(QString::fromStdString(error)));
            return kExitBadInput;
        }
        if (p.dp == 0) {  // named form without dp: the rest of the devices
            const long long inner = 1LL * p.tp * p.cp * p.pp;
            if (cluster.devices % inner != 0) {
                printError(
                    QStringLiteral("--layout: TP x CP x PP = %1 does not divide --devices %2")
                        .arg(inner)
                        .arg(cluster.devices));
                return kExitBadInput;
            }
            p.dp = int(cluster.devices / inner);
        }
        // Every data-parallel rank needs a micro-batch: no rounding makes a smaller batch run.
        if (cluster.globalBatch < 1LL * p.dp * p.mbs) {
            printError(QStringLiteral("--gbs %1 is smaller than the layout's data-parallel width "
                                      "DP x mbs = %2 x %3 = %4: every data-parallel rank needs at "
                                      "least one micro-batch of %3 sequence(s) per step")
                           .arg(cluster.globalBatch)
                           .arg(p.dp)
                           .arg(p.mbs)
                           .arg(1LL * p.dp * p.mbs));
            return kExitBadInput;
        }
        layouts.emplace_back(p, m::evaluateLayout(geometry, cluster, p));
    } else {
        layouts = m::planLayouts(geometry, cluster, m::LayoutGrid{}, topK);
    }
    auto j = m::planToJson(geometry, cluster, layouts);
    const bool anyFeasible = std::any_of(layouts.begin(), layouts.end(),
                                         [](const auto& l) { return l.second.feasible; });
    // Nothing fits: the nearest whole-node GPU count that has a feasible layout.
    const int nearest = anyFeasible ? 0 : m::nearestWorkingDevices(geometry, cluster);
    if (!anyFeasible)
        j["nearest_working_devices"] =
            nearest > 0 ? nlohmann::ordered_json(nearest) : nlohmann::ordered_json(nullptr);
    // Keys added only for a config.json or measured curves: Tandem-model, analytical runs keep
    // their bytes.
    if (hf) j["model_source"] = tandem::mosaic::importedGeometryToJson(*hf, mapped);
    std::vector<nlohmann::ordered_json> used;
    if (cluster.hardware.measured) {
        auto mj = cluster.hardware.measured->toJson(cluster.hardware.gpusPerNode);
        mj["notes"] = ncclNotes;
        j["measured_collectives"] = mj;
        auto& arr = j["layouts"];
        for (size_t i = 0; i < layouts.size() && i < arr.size(); ++i) {
            used.push_back(collectivesOf(geometry, cluster, layouts[i].first));
            arr[i]["collectives"] = used.back();
        }
    }
    // Collectives across more nodes than the scale-out constants were fitted on, or on a node
    // whose constants no log measured, are an extrapolation: say so (docs/MODEL-NETWORK.md 4).
    const int nodes =
        (cluster.devices + cluster.hardware.gpusPerNode - 1) / cluster.hardware.gpusPerNode;
    const std::string networkNote = m::networkExtrapolation(cluster.hardware, nodes);
    if (!networkNote.empty()) j["network_note"] = networkNote;
    if (const auto bad = nonFiniteReport(QStringLiteral("plan"), j); !bad.empty()) {
        for (const auto& l : bad) printError(l);
        return kExitFailure;
    }
    if (parser.isSet(emitFormat)) {
        if (layouts.empty() || !layouts.front().second.feasible) {
            printError(QStringLiteral("--emit: no feasible layout to emit"));
            return kExitFailure;
        }
        std::vector<std::string> emitNotes;
        const std::string line =
            m::megatronArguments(geometry, cluster, layouts.front().first, &emitNotes);
        for (const auto& n : emitNotes)
            std::fprintf(stderr, "--emit megatron: note: %s\n", n.c_str());
        print("%s\n", line.c_str());
        return kExitOk;
    }
    if (parser.isSet(json)) {
        print("%s\n", j.dump(2).c_str());
    } else {
        print("Model: N_tot %s B, N_act %s B, S %s on %d x %s, global batch %d x %d tokens\n",
              fixed(geometry.nTot / 1e9, 2).c_str(), fixed(geometry.nAct / 1e9, 2).c_str(),
              fixed(geometry.sparsity, 3).c_str(), cluster.devices, cluster.hardware.name.c_str(),
              cluster.globalBatch, cluster.seqLen);
        if (!networkNote.empty()) print("Note: %s\n", networkNote.c_str());
        if (hf) {
            print(
                "From a Hugging Face config: model_type %s; with embeddings N_tot %s B, N_act %s "
                "B; "
                "costed as %s\n",
                hf->geometry.modelType.c_str(), fixed(double(hf->counts.total) / 1e9, 2).c_str(),
                fixed(double(hf->counts.active) / 1e9, 2).c_str(),
                m::geometryLabel(geometry).c_str());
            std::vector<std::string> all = hf->assumptions;
            all.insert(all.end(), mapped.assumptions.begin(), mapped.assumptions.end());
            if (!all.empty()) print("Assumed:\n");
            for (const auto& a : all) print("  - %s\n", a.c_str());
        }
        if (cluster.hardware.measured) {
            print("Measured collectives (nccl-tests):\n");
            for (const auto& c : cluster.hardware.measured->curves())
                print("  %s: %s to %s, peak busbw %s GB/s\n", c.label.c_str(),
                      tandem::io::formatBytes(c.curve.points.front().bytes).c_str(),
                      tandem::io::formatBytes(c.curve.points.back().bytes).c_str(),
                      fixed(c.curve.peakBusbw_Bps / 1e9, 1).c_str());
            for (const auto& n : ncclNotes) print("  note: %s\n", n.c_str());
        }
        std::vector<std::vector<std::string>> rows;
        for (const auto& l : j.at("layouts")) {
            const bool feasible = l.value("feasible", true);
            rows.push_back(
                {std::to_string(l.at("tp").get<int>()), std::to_string(l.at("ep").get<int>()),
                 std::to_string(l.at("pp").get<int>()), std::to_string(l.at("cp").get<int>()),
                 std::to_string(l.at("dp").get<int>()), std::to_string(l.at("mbs").get<int>()),
                 feasible ? std::to_string(l.at("global_batch_sequences").get<int>()) : "-",
                 l.at("ckpt").get<std::string>(), feasible ? pct(l.at("mfu").get<double>()) : "-",
                 feasible ? fixed(l.at("iteration_s").get<double>(), 3) : "-",
                 feasible ? fixed(l.at("memory_GB").get<double>(), 1) : "-",
                 feasible
                     ? (l.contains("collectives") && l["collectives"].value("extrapolated", 0) > 0
                            ? "extrapolated beyond measured sizes"
                            : "")
                     : l.value("reason", std::string("infeasible"))});
        }
        if (rows.empty()) {
            // Say which rules cut the candidates, with the smallest memory need seen, and the
            // nearest cluster that works.
            const m::PlanRejections rej = m::countRejections(geometry, cluster);
            print("No feasible layout on this cluster.\n%s  (%s layout grid)\n",
                  m::rejectionSummary(rej).c_str(), m::layoutGridRuleName(rej.layoutGrid));
            if (nearest > 0)
                print("Nearest cluster that works: %d GPUs (%d nodes of %d).\n", nearest,
                      nearest / cluster.hardware.gpusPerNode, cluster.hardware.gpusPerNode);
            else
                print("No cluster within %d nodes of this one has a feasible layout.\n",
                      m::kNearestNodesSpan);
        } else {
            printTable({"TP", "EP", "PP", "CP", "DP", "mbs", "GBS", "ckpt", "MFU", "iter_s",
                        "mem_GB", "note"},
                       rows);
            const bool rounded = std::any_of(layouts.begin(), layouts.end(), [&](const auto& l) {
                return l.second.feasible &&
                       m::planGlobalBatch(l.first, l.second) != cluster.globalBatch;
            });
            if (rounded)
                print(
                    "GBS: global batch each layout runs, the multiple of DP x mbs nearest "
                    "to the %d sequences asked for (no layout of the grid divides them).\n",
                    cluster.globalBatch);
        }
        if (!used.empty() && layouts.front().second.feasible) {
            print("Collectives of the first layout:\n");
            for (const auto& u : used.front().at("uses")) {
                const bool meas =
                    tandem::enumFromName(timeSourceNames(), u.at("source").get<std::string>()) ==
                    TimeSource::Measured;
                // A measured use also prints the analytical time for comparison; an analytical
                // one prints its time once.
                const std::string compare =
                    meas ? ", analytical " + fixed(1e3 * u.at("analytical_s").get<double>(), 3) +
                               " ms"
                         : std::string();
                print(
                    "  %s of %s over %d ranks (%d node%s): %s ms %s%s%s\n",
                    u.at("collective").get<std::string>().c_str(),
                    tandem::io::formatBytes(u.at("bytes").get<double>()).c_str(),
                    u.at("ranks").get<int>(), u.at("nodes").get<int>(),
                    u.at("nodes").get<int>() == 1 ? "" : "s",
                    fixed(1e3 * u.at("time_s").get<double>(), 3).c_str(),
                    meas ? ("measured (" + u.at("curve").get<std::string>() +
                            (u.at("stand_in").get<bool>() ? ", all_reduce standing in" : "") +
                            (u.at("rescaled").get<bool>() ? ", rescaled to this group" : "") + ")")
                               .c_str()
                         : "analytical (no curve for this collective and scope)",
                    compare.c_str(),
                    u.at("extrapolated").get<bool>() ? "; extrapolated beyond measured sizes" : "");
            }
        }
    }
    return anyFeasible ? kExitOk : kExitFailure;
}

}  // namespace cli
