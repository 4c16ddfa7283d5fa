#pragma once
// Sub-commands of tandem-cli. Each takes the arguments after the command name (argv[0] is
// "tandem-cli <command>") and returns the process exit code: 0 ok, 1 failed check or runtime
// error, 2 invalid input or usage.
#include <QStringList>

namespace cli {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

int runCommand(const QStringList& args);
int validateCommand(const QStringList& args);
int reproduceCommand(const QStringList& args);
int fitStackCommand(const QStringList& args);
int calibrateCommand(const QStringList& args);
int planCommand(const QStringList& args);
int inspectCommand(const QStringList& args);
int benchCommand(const QStringList& args);
int sweepCommand(const QStringList& args);
int mergeCommand(const QStringList& args);
int scalingCommand(const QStringList& args);

}  // namespace cli
