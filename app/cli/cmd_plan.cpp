// tandem-cli plan MODEL.json --devices N --gbs B --seqlen T [--hardware NAME] [--layout ...]
// [--json]: the best feasible layouts of any MoE or dense geometry [2608.10605 Sec. 5].
#include <QCommandLineParser>
#include <QFile>

#include <algorithm>
#include <cstdio>

#include "commands.h"
#include "common/json_reader.h"
#include "mosaic/plan.h"
#include "output.h"

namespace cli {
namespace {

bool positiveInt(const QString& text, const char* name, int* out) {
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v <= 0) {
        printError(QStringLiteral("--%1 must be a positive integer (got '%2')")
                       .arg(QString::fromUtf8(name), text));
        return false;
    }
    *out = v;
    return true;
}

std::string pct(double v) { return fixed(100.0 * v, 1) + " %"; }

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
        "\"shared_experts\", \"dense_layers\"}."));
    parser.addPositionalArgument(QStringLiteral("MODEL.json"), QStringLiteral("Model geometry."));
    const QCommandLineOption devices(QStringLiteral("devices"), QStringLiteral("GPUs (N_dev)."),
                                     QStringLiteral("N"));
    const QCommandLineOption gbs(QStringLiteral("gbs"),
                                 QStringLiteral("Global batch, sequences (default 1024)."),
                                 QStringLiteral("B"), QStringLiteral("1024"));
    const QCommandLineOption seqlen(QStringLiteral("seqlen"),
                                    QStringLiteral("Sequence length, tokens (default 2048)."),
                                    QStringLiteral("T"), QStringLiteral("2048"));
    const QCommandLineOption hardware(
        QStringLiteral("hardware"),
        QStringLiteral("GPU/node type: %1 (default p6-b200).")
            .arg(QString::fromStdString([] {
                std::string s;
                for (const auto& n : m::hardwareNames()) s += (s.empty() ? "" : ", ") + n;
                return s;
            }())),
        QStringLiteral("NAME"), QStringLiteral("p6-b200"));
    const QCommandLineOption layout(QStringLiteral("layout"),
                                    QStringLiteral("Evaluate one layout: tp,ep,pp,cp,dp,mbs[,ckpt]."),
                                    QStringLiteral("LAYOUT"));
    const QCommandLineOption top(QStringLiteral("top"),
                                 QStringLiteral("How many layouts to list (default 10)."),
                                 QStringLiteral("K"), QStringLiteral("10"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    parser.addOptions({devices, gbs, seqlen, hardware, layout, top, json});
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
    if (!positiveInt(parser.value(devices), "devices", &cluster.devices) ||
        !positiveInt(parser.value(gbs), "gbs", &cluster.globalBatch) ||
        !positiveInt(parser.value(seqlen), "seqlen", &cluster.seqLen) ||
        !positiveInt(parser.value(top), "top", &topK))
        return kExitBadInput;
    try {
        cluster.hardware = m::builtinHardware(parser.value(hardware).toStdString());
    } catch (const std::exception& e) {
        printError(QStringLiteral("--hardware: %1").arg(QString::fromUtf8(e.what())));
        return kExitBadInput;
    }

    tandem::Diagnostics diag(pos[0].toStdString());
    QFile f(pos[0]);
    if (!f.open(QIODevice::ReadOnly)) {
        diag.error("$", "cannot open file for reading");
    }
    const std::string text = f.isOpen() ? f.readAll().toStdString() : std::string();
    m::Geometry geometry;
    if (diag.ok()) {
        const auto j = tandem::parseJsonText(text, diag);
        if (diag.ok()) {
            tandem::JsonReader r(j, "$", diag);
            if (!j.is_object()) diag.error("$", "MODEL.json must be a JSON object");
            else m::readPlanModel(r, geometry);
        }
    }
    if (!diag.ok()) {
        for (const auto& issue : diag.items()) std::fprintf(stderr, "%s\n", issue.str().c_str());
        return kExitBadInput;
    }

    std::vector<std::pair<m::Plan, m::PlanEval>> layouts;
    if (parser.isSet(layout)) {
        m::Plan p;
        std::string error;
        if (!m::parseLayout(parser.value(layout).toStdString(), p, error)) {
            printError(QStringLiteral("--layout: %1").arg(QString::fromStdString(error)));
            return kExitBadInput;
        }
        layouts.emplace_back(p, m::evaluateLayout(geometry, cluster, p));
    } else {
        layouts = m::planLayouts(geometry, cluster, m::LayoutGrid{}, topK);
    }
    const auto j = m::planToJson(geometry, cluster, layouts);
    if (parser.isSet(json)) {
        std::printf("%s\n", j.dump(2).c_str());
    } else {
        std::printf("Model: N_tot %.2f B, N_act %.2f B, S %.3f on %d x %s, global batch %d x %d tokens\n",
                    geometry.nTot / 1e9, geometry.nAct / 1e9, geometry.sparsity, cluster.devices,
                    cluster.hardware.name.c_str(), cluster.globalBatch, cluster.seqLen);
        std::vector<std::vector<std::string>> rows;
        for (const auto& l : j.at("layouts")) {
            const bool feasible = l.value("feasible", true);
            rows.push_back({std::to_string(l.at("tp").get<int>()), std::to_string(l.at("ep").get<int>()),
                            std::to_string(l.at("pp").get<int>()), std::to_string(l.at("cp").get<int>()),
                            std::to_string(l.at("dp").get<int>()), std::to_string(l.at("mbs").get<int>()),
                            l.at("ckpt").get<std::string>(),
                            feasible ? pct(l.at("mfu").get<double>()) : "-",
                            feasible ? fixed(l.at("iteration_s").get<double>(), 3) : "-",
                            feasible ? fixed(l.at("memory_GB").get<double>(), 1) : "-",
                            feasible ? "" : l.value("reason", std::string("infeasible"))});
        }
        if (rows.empty()) std::printf("No feasible layout on this cluster.\n");
        else printTable({"TP", "EP", "PP", "CP", "DP", "mbs", "ckpt", "MFU", "iter_s", "mem_GB", "note"}, rows);
    }
    const bool anyFeasible = std::any_of(layouts.begin(), layouts.end(),
                                         [](const auto& l) { return l.second.feasible; });
    return anyFeasible ? kExitOk : kExitFailure;
}

}  // namespace cli
