// tandem-cli validate SCENARIO.json: exit 0 if valid; else one line per problem, exit 2.
#include <QCommandLineParser>
#include <cstdio>

#include "commands.h"
#include "output.h"
#include "run_notes.h"

namespace cli {

int validateCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Check a scenario file: types, ranges, units, unknown keys and "
                       "cross-field consistency. Prints one line per problem "
                       "(file: JSON path: reason) and exits 2 if there is any."));
    parser.addPositionalArgument(QStringLiteral("SCENARIO.json"), QStringLiteral("Scenario file."));
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1) {
        printError(QStringLiteral("validate takes exactly one SCENARIO.json"));
        return kExitBadInput;
    }
    tandem::Diagnostics diag(pos[0].toStdString());
    const auto s = tandem::loadScenarioFile(pos[0].toStdString(), diag);
    if (!s) {
        for (const auto& issue : diag.items()) print("%s\n", issue.str().c_str());
        return kExitBadInput;
    }
    // Accepted but suspect values: a warning at the path, still valid (exit 0).
    for (const auto& [path, why] : scenarioWarnings(*s))
        print("%s: %s: warning: %s\n", pos[0].toUtf8().constData(), path.c_str(), why.c_str());
    print("%s: valid (%s%s%s)\n", pos[0].toUtf8().constData(), s->mlForMl ? "ml_for_ml" : "",
          s->mlForMl && s->mosaic ? ", " : "", s->mosaic ? "mosaic" : "");
    return kExitOk;
}

}  // namespace cli
