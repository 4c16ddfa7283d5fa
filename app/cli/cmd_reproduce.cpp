// tandem-cli reproduce {ml-for-ml|mosaic|all} [--json]: the papers' numbers next to Tandem's.
#include <QCommandLineParser>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <utility>

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
        // A one-sided (directional) check has no upper bound: null.
        k["high"] = std::isfinite(c.high) ? nlohmann::ordered_json(c.high)
                                          : nlohmann::ordered_json(nullptr);
        k["pass"] = c.pass;
        k["status"] = tandem::statusName(c.status);
        if (!c.reason.empty()) k["reason"] = c.reason;
        j["checks"].push_back(k);
    }
    return j;
}

std::string num(double v) { return significant(v, 4); }

/// "[low, high]", or ">= low" for a one-sided check.
std::string band(const tandem::Check& c) {
    if (std::isinf(c.high) && c.high > 0) return ">= " + num(c.low);
    return "[" + num(c.low) + ", " + num(c.high) + "]";
}

void printReport(const tandem::Report& r) {
    std::printf("Paper arXiv:%s\n", r.paper.c_str());
    std::vector<std::vector<std::string>> rows;
    std::vector<const tandem::Check*> open;
    for (const auto& c : r.checks) {
        rows.push_back({c.id, num(c.paperValue), num(c.tandemValue), band(c),
                        tandem::statusName(c.status), c.quantity});
        if (c.status == tandem::CheckStatus::NotReproducible) open.push_back(&c);
    }
    printTable({"id", "paper", "tandem", "band", "result", "quantity"}, rows);
    // One line per reason, naming its rows.
    std::vector<std::pair<std::string, std::string>> byReason;
    for (const auto* c : open) {
        auto it = std::find_if(byReason.begin(), byReason.end(),
                               [&](const auto& p) { return p.first == c->reason; });
        if (it == byReason.end())
            byReason.emplace_back(c->reason, c->id);
        else
            it->second += ", " + c->id;
    }
    for (const auto& [reason, ids] : byReason)
        std::printf("not reproducible, %s: %s\n", reason.c_str(), ids.c_str());
    std::printf("%d passed, %d failed, %d not reproducible\n\n",
                tandem::countStatus(r, tandem::CheckStatus::Pass),
                tandem::countStatus(r, tandem::CheckStatus::Fail),
                tandem::countStatus(r, tandem::CheckStatus::NotReproducible));
}

}  // namespace

int reproduceCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Run the papers' presets and print each published number, Tandem's value and the "
        "acceptance band (docs/MODEL-ML-FOR-ML.md, docs/MODEL-MOSAIC.md). Exit 1 if any check is "
        "outside its band; rows marked 'not reproducible' (the paper's numbers contradict its "
        "stated model) are counted apart and shown with Tandem's value."));
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
        allPass = allPass && tandem::countStatus(r, tandem::CheckStatus::Fail) == 0;
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
