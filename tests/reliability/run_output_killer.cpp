// Helper of tst_output_files: drives cli::replaceOutputs (the swap of `tandem-cli run --out DIR`)
// and kills itself with SIGKILL at a chosen step, leaving what a killed run leaves.
//   run_output_killer write DIR STEP   replaces the set kNames (three of the names `run` writes)
//                                      by the first two with new bytes; SIGKILL when the STEP-th
//                                      step boundary is reached (0: never)
//   run_output_killer recover DIR      cli::recoverInterruptedRuns, one note per line
#include <QCoreApplication>
#include <QStringList>
#include <csignal>
#include <cstdio>

#include "run_output.h"

namespace {

const std::vector<std::string> kNames{"scenario.json", "mosaic_result.json", "mosaic_frontier.csv"};
int g_killAt = 0;
int g_steps = 0;

void onStep() {
    if (++g_steps == g_killAt) std::raise(SIGKILL);
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args[1] == QLatin1String("write")) {
        g_killAt = args[3].toInt();
        cli::testing::setReplaceOutputsStepHook(&onStep);
        const std::vector<cli::OutFile> files{{"scenario.json", "new scenario\n"},
                                              {"mosaic_result.json", "new result\n"}};
        QString error;
        if (!cli::replaceOutputs(args[2], files, kNames, &error)) {
            std::fprintf(stderr, "%s\n", error.toUtf8().constData());
            return 1;
        }
        std::printf("steps %d\n", g_steps);
        return 0;
    }
    if (args.size() == 3 && args[1] == QLatin1String("recover")) {
        QStringList notes;
        const int n = cli::recoverInterruptedRuns(args[2], kNames, &notes);
        for (const QString& note : notes) std::printf("%s\n", note.toUtf8().constData());
        std::printf("removed %d\n", n);
        return 0;
    }
    std::fprintf(stderr, "usage: run_output_killer write DIR STEP | recover DIR\n");
    return 2;
}
