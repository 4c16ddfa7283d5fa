// tandem-cli: headless front end to the Tandem engine (same core as the GUI).
#include <QCoreApplication>
#include <QStringList>
#include <csignal>
#include <cstdio>

#include "commands.h"
#include "output.h"

namespace {

const char* kUsage =
    "Usage: tandem-cli <command> [options]\n"
    "\n"
    "Commands:\n"
    "  run SCENARIO.json --out DIR   run a scenario; write results as CSV and JSON into DIR\n"
    "  validate SCENARIO.json        check a scenario; one line per problem, exit 2 if any\n"
    "  reproduce {ml-for-ml|mosaic|reality|all} [--json]\n"
    "                                compare Tandem with the papers' published numbers\n"
    "                                (all: both papers; reality: measured Megatron-Core\n"
    "                                runs)\n"
    "  fit-stack [--json]            re-derive the megatron-core stack's fitted constants\n"
    "  calibrate RUNS.csv... --out FILE.json [--hardware H] [--stack S]\n"
    "                                refit the stack to your measured runs; plan with\n"
    "                                --stack FILE.json\n"
    "  plan MODEL.json --devices N [--gbs B] [--seqlen T] [--hardware NAME] [--layout L]\n"
    "       [--nccl FILE]... [--json]\n"
    "                                best feasible layouts of an MoE or dense model (Tandem JSON\n"
    "                                or a Hugging Face config.json) on a cluster; --nccl costs\n"
    "                                collectives from measured nccl-tests output\n"
    "  inspect FILE [--json]         what Tandem understood from a config.json, nccl-tests log,\n"
    "                                training loss log or background load trace\n"
    "  sweep SCENARIO.json --vary PATH=VALUES [--vary ...] [--shard i/n] --out FILE.csv\n"
    "                                a grid over one or two keys, one row per point\n"
    "  merge --out FILE.csv SHARD.csv...  join a sharded sweep (exit 2 naming any missing\n"
    "                                shard or point)\n"
    "  scaling SCENARIO.json [--nodes 8:64:8] [--oversubscription 1,2,4] --out FILE.csv|.json\n"
    "                                time to target per policy against foreground nodes on a\n"
    "                                leaf/spine fabric, one curve per oversubscription ratio\n"
    "  bench [--json] [--quick]      time the engine's main operations (median, p95)\n"
    "\n"
    "Run 'tandem-cli <command> --help' for a command's options.\n"
    "Exit codes: 0 ok, 1 a check failed or a run error, 2 invalid input or usage.\n";

/// Every command, by the name typed after tandem-cli (the usage above describes each).
struct Command {
    const char* name;
    int (*run)(const QStringList& args);
};
constexpr Command kCommands[] = {
    {"run", cli::runCommand},
    {"validate", cli::validateCommand},
    {"reproduce", cli::reproduceCommand},
    {"fit-stack", cli::fitStackCommand},
    {"calibrate", cli::calibrateCommand},
    {"plan", cli::planCommand},
    {"inspect", cli::inspectCommand},
    {"bench", cli::benchCommand},
    {"sweep", cli::sweepCommand},
    {"merge", cli::mergeCommand},
    {"scaling", cli::scalingCommand},
};

/// Runs the command line; every byte of standard output goes through cli::print.
int runCommandLine() {
    QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == "--help" || args[1] == "-h" || args[1] == "help") {
        if (args.size() < 2) {
            std::fputs(kUsage, stderr);
            return cli::kExitBadInput;
        }
        cli::print("%s", kUsage);
        return cli::kExitOk;
    }
    if (args[1] == "--version") {
        cli::print("tandem-cli %s\n", TANDEM_VERSION);
        return cli::kExitOk;
    }
    const QString command = args[1];
    QStringList rest = args.mid(2);
    rest.prepend(QStringLiteral("tandem-cli ") + command);
    for (const Command& c : kCommands)
        if (command == QLatin1String(c.name)) return c.run(rest);
    std::fprintf(stderr, "tandem-cli: unknown command '%s'\n\n%s", command.toUtf8().constData(),
                 kUsage);
    return cli::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
    // A file-size limit (ulimit -f) makes write() fail with EFBIG instead of killing the
    // process, so the failure is reported like a full disk.
    std::signal(SIGXFSZ, SIG_IGN);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("tandem-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TANDEM_VERSION));
    return cli::finishStdout(runCommandLine());
}
