// tandem-cli reproduce {ml-for-ml|mosaic|all} [--json]: the papers' numbers next to Tandem's.
#include <QCommandLineParser>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

#include "commands.h"
#include "common/check.h"
#include "mlforml/reproduce.h"
#include "mosaic/reproduce.h"
#include "output.h"

namespace cli {
namespace {

nlohmann::ordered_json reportJson(const tandem::Report& r) {
    nlohmann::ordered_json j;
    j["paper"] = r.paper;
    j["checks"] = nlohmann::ordered_json::array();
    for (const auto& c : r.checks) {
        nlohmann::ordered_json k;
        k["id"] = c.id;
        k["quantity"] = c.quantity;
        k["paper_value"] = c.paperValue;
        k["tandem_value"] = std::isfinite(c.tandemValue) ? nlohmann::ordered_json(c.tandemValue)
                                                         : nlohmann::ordered_json(nullptr);
        k["low"] = c.low;
        k["high"] = c.high;
        k["pass"] = c.pass;
        // Only rows judged by more than their band carry these keys (other reports keep their
        // bytes).
        if (!c.note.empty()) k["note"] = c.note;
        if (!c.nearTies.empty()) {
            auto ties = nlohmann::ordered_json::array();
            for (const auto& t : c.nearTies)
                ties.push_back({{"value", t.value},
                                {"loss_gap_nats", t.lossGapNats},
                                {"label", t.label},
                                {"in_band", t.value >= c.low && t.value <= c.high}});
            k["near_ties"] = ties;
        }
        j["checks"].push_back(k);
    }
    return j;
}

std::string num(double v) {
    if (!std::isfinite(v)) return "n/a";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

void printReport(const tandem::Report& r) {
    std::printf("Paper arXiv:%s\n", r.paper.c_str());
    std::vector<std::vector<std::string>> rows;
    int passed = 0;
    for (const auto& c : r.checks) {
        rows.push_back({c.id, num(c.paperValue), num(c.tandemValue),
                        "[" + num(c.low) + ", " + num(c.high) + "]",
                        !c.pass                                             ? "FAIL"
                        : c.tandemValue >= c.low && c.tandemValue <= c.high ? "pass"
                                                                            : "pass (near-tie)",
                        c.quantity});
        passed += c.pass ? 1 : 0;
    }
    printTable({"id", "paper", "tandem", "band", "result", "quantity"}, rows);
    for (const auto& c : r.checks) {
        if (c.note.empty()) continue;
        std::printf("%s: %s\n", c.id.c_str(), c.note.c_str());
        for (const auto& t : c.nearTies)
            std::printf("    %s  %s  +%s%s\n", num(t.value).c_str(), t.label.c_str(),
                        num(t.lossGapNats).c_str(),
                        t.value >= c.low && t.value <= c.high ? "  in band" : "");
    }
    std::printf("%d passed, %d failed\n\n", passed, static_cast<int>(r.checks.size()) - passed);
}

}  // namespace

int reproduceCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Run the papers' presets and print each published number, Tandem's value and the "
        "acceptance band (docs/MODEL-ML-FOR-ML.md, docs/MODEL-MOSAIC.md). Exit 1 if any check is "
        "outside its band."));
    parser.addPositionalArgument(QStringLiteral("which"),
                                 QStringLiteral("ml-for-ml (arXiv:2608.06046), mosaic "
                                                "(arXiv:2608.10605) or all."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    parser.addOption(json);
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    const QStringList pos = parser.positionalArguments();
    const QString which = pos.value(0);
    if (pos.size() != 1 || (which != "ml-for-ml" && which != "mosaic" && which != "all")) {
        printError(QStringLiteral("reproduce takes one of: ml-for-ml, mosaic, all"));
        return kExitBadInput;
    }
    std::vector<tandem::Report> reports;
    if (which != "mosaic") reports.push_back(tandem::mlforml::reproduceMlForMl());
    if (which != "ml-for-ml") reports.push_back(tandem::mosaic::reproduceMosaic());

    bool allPass = true;
    for (const auto& r : reports)
        for (const auto& c : r.checks) allPass = allPass && c.pass;
    if (parser.isSet(json)) {
        if (reports.size() == 1) {
            std::printf("%s\n", reportJson(reports[0]).dump(2).c_str());
        } else {
            nlohmann::ordered_json j;
            j["reports"] = nlohmann::ordered_json::array();
            for (const auto& r : reports) j["reports"].push_back(reportJson(r));
            std::printf("%s\n", j.dump(2).c_str());
        }
    } else {
        for (const auto& r : reports) printReport(r);
    }
    return allPass ? kExitOk : kExitFailure;
}

}  // namespace cli
