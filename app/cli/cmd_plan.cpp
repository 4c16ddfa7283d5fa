// tandem-cli plan MODEL.json --devices N --gbs B --seqlen T [--hardware NAME] [--layout ...]
// [--nccl FILE]... [--json]: the best feasible layouts of any MoE or dense geometry
// [2608.10605 Sec. 5]. MODEL.json may be Tandem's model JSON or a Hugging Face config.json;
// --nccl replaces the analytical collective model with measured nccl-tests curves. The flags
// become a mosaic::PlanRequest, mosaic::runPlan costs it, and the report is printed as text
// (plan_text.h), JSON (planReportToJson) or a Megatron-LM launch script (planReportMegatron).
#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <cstdio>
#include <limits>

#include "commands.h"
#include "common/json_reader.h"
#include "common/number_format.h"
#include "io/hf_config.h"
#include "io/text_file.h"
#include "mosaic/imported_geometry.h"
#include "mosaic/layout_form.h"
#include "mosaic/measured_collectives.h"
#include "mosaic/megatron_args.h"
#include "mosaic/plan.h"
#include "mosaic/plan_report.h"
#include "mosaic/search.h"
#include "mosaic/stack_file.h"
#include "output.h"
#include "plan_flags.h"
#include "plan_text.h"

namespace cli {
namespace {

namespace m = tandem::mosaic;

/// The flags of `plan`.
struct PlanFlags {
    const QCommandLineOption devices{QStringLiteral("devices"), QStringLiteral("GPUs (N_dev)."),
                                     QStringLiteral("N")};
    const QCommandLineOption gbs{QStringLiteral("gbs"),
                                 QStringLiteral("Global batch, sequences (default 1024)."),
                                 QStringLiteral("B"), QStringLiteral("1024")};
    const QCommandLineOption seqlen{QStringLiteral("seqlen"),
                                    QStringLiteral("Sequence length, tokens (default 2048)."),
                                    QStringLiteral("T"), QStringLiteral("2048")};
    const QCommandLineOption hardware{QStringLiteral("hardware"),
                                      QStringLiteral("GPU/node type: %1 (default p6-b200).")
                                          .arg(QString::fromStdString(m::hardwareNameList())),
                                      QStringLiteral("NAME"), QStringLiteral("p6-b200")};
    const QCommandLineOption layout{QStringLiteral("layout"), layoutFlagHelp(),
                                    QStringLiteral("LAYOUT")};
    const QCommandLineOption stack{
        QStringLiteral("stack"),
        QStringLiteral(
            "Training stack: mosaic-paper (arXiv:2608.10605's stack, default), megatron-core "
            "(fitted to measured Megatron-Bridge runs; VP, ETP, FSDP, EP folding) or "
            "megatron-lm-2022 (arXiv:2205.05198's A100 stack: no flash attention, no TP "
            "overlap; fitted to its Table 5), or a stack file (.json) written by `tandem-cli "
            "calibrate`."),
        QStringLiteral("S"), QStringLiteral("mosaic-paper")};
    const QCommandLineOption precision{QStringLiteral("precision"),
                                       precisionFlagHelp() + QStringLiteral(" Default bf16."),
                                       QStringLiteral("P"), QStringLiteral("bf16")};
    const QCommandLineOption emitFormat{
        QStringLiteral("emit"),
        QStringLiteral(
            "Print the first layout as a launch script: megatron (a bash script "
            "whose header names the model, hardware, stack, predictions and notes, "
            "then torchrun pretrain_gpt.py with the complete Megatron-LM flags: model, "
            "layout, batch, recompute and precision; the GUI's Save as .sh writes the "
            "same bytes; --megatron-args reads it back to the same plan; not with --json)."),
        QStringLiteral("FORMAT")};
    const QCommandLineOption megatronArgs{
        QStringLiteral("megatron-args"),
        QStringLiteral(
            "Cost the run of a Megatron-LM / Megatron-Bridge launch script, read as bash splits "
            "it (comments, continuations, quotes, variables and arrays): its parallel sizes, "
            "batch, sequence length, FSDP / distributed optimizer, recompute and precision flags "
            "(replaces --layout, --gbs, --seqlen, --precision); model flags are checked against "
            "MODEL.json. Unreadable values, a flag given twice with different values and "
            "contradictions are errors; flags not modelled are noted on stderr."),
        QStringLiteral("FILE")};
    const QCommandLineOption top{QStringLiteral("top"),
                                 QStringLiteral("How many layouts to list (default 10)."),
                                 QStringLiteral("K"), QStringLiteral("10")};
    const QCommandLineOption nccl{
        QStringLiteral("nccl"),
        QStringLiteral("nccl-tests output whose curves replace the analytical collective model "
                       "(repeatable)."),
        QStringLiteral("FILE")};
    const QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Print JSON.")};
    const QCommandLineOption tokens{
        QStringLiteral("tokens"),
        QStringLiteral("Token target D: also print the wall-clock days each layout needs to train "
                       "D tokens, D / (tokens_per_s_per_gpu N_dev goodput) (JSON: token_target, "
                       "days_to_target)."),
        QStringLiteral("D")};
    const QCommandLineOption goodput{
        QStringLiteral("goodput"),
        QStringLiteral("With --tokens: share of wall time spent training, eta_good in (0, 1] "
                       "(default 1)."),
        QStringLiteral("G"), QStringLiteral("1")};

    /// Adds the description, the positional argument and every flag to `parser`.
    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(QStringLiteral(
            "Cost a model on a cluster and list the best feasible layouts (or one given layout) "
            "with MFU, iteration time, memory per GPU and the step-time breakdown "
            "[arXiv:2608.10605 Sec. 5]. MODEL.json is a ladder seed {\"q\", \"experts\", "
            "\"top_k\", "
            "\"expert_split_factor\"} or an explicit geometry {\"layers\", \"hidden\", \"heads\", "
            "\"kv_heads\", \"ffn_width\", \"vocab\", \"experts\", \"top_k\", \"expert_width\", "
            "\"shared_experts\", \"dense_layers\"}, or a Hugging Face config.json (it has "
            "model_type "
            "or architectures; the mapping's assumptions are printed). --nccl FILE (repeatable) "
            "costs "
            "collectives from measured nccl-tests curves instead of the analytical model. Outputs: "
            "tokens_per_s_per_gpu = B_global T_seq / (t_iter N_dev); mfu = 6 N_act per token over "
            "the "
            "dense "
            "BF16 peak (arXiv:2608.10605 Eq. 1); model_tflops_per_s_per_gpu = Megatron's "
            "model-FLOPs "
            "count "
            "(6 x (active GEMM parameters + LM head) + causal attention); memory_GB with "
            "memory_breakdown_GB."));
        parser.addPositionalArgument(QStringLiteral("MODEL.json"),
                                     QStringLiteral("Model geometry."));
        parser.addOptions({devices, gbs, seqlen, hardware, layout, stack, precision, emitFormat,
                           megatronArgs, top, nccl, json, tokens, goodput});
    }
};

/// Reads the cluster flags (--devices, --gbs, --seqlen, --top, --hardware, --stack,
/// --precision), the token target (--tokens, --goodput) and checks --emit. Returns kExitOk or
/// kExitBadInput (printed).
int readCluster(const QCommandLineParser& parser, const PlanFlags& f, m::PlanRequest& req) {
    m::Cluster& cluster = req.cluster;
    if (!positiveInt(parser.value(f.devices), "devices", &cluster.devices, m::kMaxDevices) ||
        !positiveInt(parser.value(f.gbs), "gbs", &cluster.globalBatch, m::kMaxGlobalBatch) ||
        !positiveInt(parser.value(f.seqlen), "seqlen", &cluster.seqLen, m::kMaxSeqLen) ||
        !positiveInt(parser.value(f.top), "top", &req.top, std::numeric_limits<int>::max()))
        return kExitBadInput;
    try {
        cluster.hardware = m::builtinHardware(parser.value(f.hardware).toStdString());
    } catch (const std::exception& e) {
        printError(QStringLiteral("--hardware: %1").arg(QString::fromUtf8(e.what())));
        return kExitBadInput;
    }
    {
        tandem::Diagnostics diag;
        std::vector<std::string> notes;
        cluster.stack = m::loadStack(parser.value(f.stack).toStdString(), diag, &notes);
        if (!diag.ok()) {
            for (const tandem::Issue& issue : diag.items())
                printError(QStringLiteral("--stack: %1").arg(QString::fromStdString(issue.str())));
            return kExitBadInput;
        }
        for (const std::string& n : notes)
            printError(QStringLiteral("--stack %1: warning: %2")
                           .arg(parser.value(f.stack), QString::fromStdString(n)));
    }
    if (!readPrecisionFlag(parser.value(f.precision), cluster.precision)) return kExitBadInput;
    if (parser.isSet(f.tokens)) {
        const auto d = tandem::parseNumber(parser.value(f.tokens).toStdString());
        if (!d || *d <= 0) {
            printError(QStringLiteral("--tokens must be a positive number of tokens (got '%1')")
                           .arg(parser.value(f.tokens)));
            return kExitBadInput;
        }
        req.tokenTarget = *d;
    }
    const auto g = tandem::parseNumber(parser.value(f.goodput).toStdString());
    if (!g || *g <= 0 || *g > 1) {
        printError(QStringLiteral("--goodput must be a number in (0, 1] (got '%1')")
                       .arg(parser.value(f.goodput)));
        return kExitBadInput;
    }
    req.goodput = *g;
    if (parser.isSet(f.emitFormat) && parser.value(f.emitFormat) != "megatron") {
        printError(
            QStringLiteral("--emit supports: megatron (got '%1')").arg(parser.value(f.emitFormat)));
        return kExitBadInput;
    }
    // --emit prints a bash script, --json a JSON document: one output each.
    if (parser.isSet(f.emitFormat) && parser.isSet(f.json)) {
        printError(QStringLiteral(
            "--emit megatron and --json cannot be combined: --emit prints a launch script, "
            "--json the plan's JSON; give one of them"));
        return kExitBadInput;
    }
    return kExitOk;
}

/// --nccl FILE...: the measured curves on the request's hardware. Returns kExitOk or
/// kExitBadInput (printed).
int readNccl(const QCommandLineParser& parser, const PlanFlags& f, m::PlanRequest& req) {
    if (!parser.isSet(f.nccl)) return kExitOk;
    std::vector<std::string> files;
    for (const auto& name : parser.values(f.nccl)) files.push_back(name.toStdString());
    tandem::Diagnostics nd;
    req.cluster.hardware.measured =
        m::loadMeasuredCollectives(files, nd, "--nccl", false, &req.ncclNotes);
    if (nd.ok()) return kExitOk;
    for (const auto& issue : nd.items()) std::fprintf(stderr, "%s\n", issue.str().c_str());
    return kExitBadInput;
}

/// A precision the hardware has no peak for cuts every layout: says so (prefixed with `flag`)
/// instead of "no layout for this cluster". True when the precision is supported.
bool precisionOk(const m::Cluster& cluster, const char* flag) {
    const std::string why = m::precisionUnsupported(cluster.hardware, cluster.precision);
    if (!why.empty())
        printError(QStringLiteral("%1 %2: %3")
                       .arg(QLatin1String(flag), QLatin1String(m::precisionName(cluster.precision)),
                            QString::fromStdString(why)));
    return why.empty();
}

/// --megatron-args FILE: the launch script's plan (and its batch, sequence and precision) as
/// the one layout of the request. Returns kExitOk or kExitBadInput (printed).
int readLaunchScript(const QString& file, m::PlanRequest& req) {
    // Read as every input file is: a folder, a device or a pipe is named as such.
    const std::string argsPath = file.toStdString();
    std::string script;
    tandem::Diagnostics argsDiag(argsPath);
    if (!tandem::io::readTextFile(argsPath, script, argsDiag)) {
        for (const auto& issue : argsDiag.items())
            printError(
                QStringLiteral("--megatron-args: %1").arg(QString::fromStdString(issue.message)));
        return kExitBadInput;
    }
    m::Plan p;
    std::string error;
    std::vector<std::string> notes;
    if (!m::parseMegatronArguments(script, req.geometry, req.cluster, p, error, &notes)) {
        printError(QStringLiteral("--megatron-args: %1").arg(QString::fromStdString(error)));
        return kExitBadInput;
    }
    for (const auto& n : notes) std::fprintf(stderr, "--megatron-args: note: %s\n", n.c_str());
    if (!precisionOk(req.cluster, "--megatron-args: precision")) return kExitBadInput;
    req.layouts = {p};
    return kExitOk;
}

/// --layout LAYOUT: the one layout of the request (dp from --devices when not given). Returns
/// kExitOk or kExitBadInput (printed).
int readLayout(const QString& text, m::PlanRequest& req) {
    const m::Cluster& cluster = req.cluster;
    m::Plan p;
    bool ckptGiven = false;
    if (!readLayoutFlag(text, p, &ckptGiven)) return kExitBadInput;
    if (p.dp == 0) {  // named form without dp: the rest of the devices
        const long long inner = 1LL * p.tp * p.cp * p.pp;
        if (cluster.devices % inner != 0) {
            printError(QStringLiteral("--layout: TP x CP x PP = %1 does not divide --devices %2")
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
    req.layouts = {p};
    req.leastRecomputation = !ckptGiven;
    return kExitOk;
}

/// Prints the report as the flags ask (--emit megatron, --json or text). Returns the exit
/// code: kExitOk when a layout is feasible, kExitFailure otherwise or on a non-finite number.
int writeReport(const QCommandLineParser& parser, const PlanFlags& f, const m::PlanReport& r) {
    const auto j = m::planReportToJson(r);
    if (const auto bad = nonFiniteReport(QStringLiteral("plan"), j); !bad.empty()) {
        for (const auto& l : bad) printError(l);
        return kExitFailure;
    }
    if (parser.isSet(f.emitFormat)) {
        std::vector<std::string> notes;
        const std::string text = m::planReportMegatron(r, &notes);
        if (text.empty()) {
            // Why, as the plan's text says it: the rules that cut the grid's layouts and the
            // nearest cluster that works, or the given layout's reason.
            printError(
                QStringLiteral("--emit megatron: no feasible layout to write; nothing "
                               "emitted:"));
            std::fprintf(stderr, "%s", whyNothingToEmit(r).c_str());
            return kExitFailure;
        }
        for (const auto& n : notes) std::fprintf(stderr, "--emit megatron: note: %s\n", n.c_str());
        print("%s", text.c_str());
        return kExitOk;
    }
    if (parser.isSet(f.json))
        print("%s\n", j.dump(2).c_str());
    else
        printPlanReport(r);
    return r.anyFeasible ? kExitOk : kExitFailure;
}

}  // namespace

int planCommand(const QStringList& args) {
    QCommandLineParser parser;
    const PlanFlags f;
    f.addTo(parser);
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1) {
        printError(QStringLiteral("plan takes exactly one MODEL.json"));
        return kExitBadInput;
    }
    if (!parser.isSet(f.devices)) {
        printError(QStringLiteral("plan needs --devices N"));
        return kExitBadInput;
    }
    m::PlanRequest req;
    if ((code = readCluster(parser, f, req)) != kExitOk) return code;
    if (!readModelFile(pos[0], req)) return kExitBadInput;
    if ((code = readNccl(parser, f, req)) != kExitOk) return code;
    if (parser.isSet(f.megatronArgs))
        code = readLaunchScript(parser.value(f.megatronArgs), req);
    else if (!precisionOk(req.cluster, "--precision"))
        code = kExitBadInput;
    else if (parser.isSet(f.layout))
        code = readLayout(parser.value(f.layout), req);
    if (code != kExitOk) return code;
    return writeReport(parser, f, m::runPlan(req));
}

}  // namespace cli
