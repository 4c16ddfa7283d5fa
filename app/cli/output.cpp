#include "output.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

#include "commands.h"
#include "common/json_reader.h"
#include "common/number_format.h"
#include "standard_output.h"

namespace cli {

namespace {
/// errno of the first failed write to stdout; 0 while all succeeded.
int g_stdoutErrno = 0;

void noteStdoutResult(bool failed) {
    if (failed && g_stdoutErrno == 0) g_stdoutErrno = errno != 0 ? errno : EIO;
}
}  // namespace

void print(const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    errno = 0;
    const int n = std::vfprintf(stdout, format, ap);
    va_end(ap);
    noteStdoutResult(n < 0 || std::ferror(stdout));
}

int finishStdout(int exitCode) {
    return tandem::fileio::finishStandardOutput("tandem-cli", exitCode, g_stdoutErrno);
}

void printTable(const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows) {
    std::vector<size_t> width(header.size(), 0);
    auto grow = [&](const std::vector<std::string>& r) {
        for (size_t i = 0; i < r.size() && i < width.size(); ++i)
            width[i] = std::max(width[i], r[i].size());
    };
    grow(header);
    for (const auto& r : rows) grow(r);
    auto line = [&](const std::vector<std::string>& r) {
        std::string s;
        for (size_t i = 0; i < width.size(); ++i) {
            const std::string cell = i < r.size() ? r[i] : std::string();
            s += cell;
            if (i + 1 < width.size()) s += std::string(width[i] - cell.size() + 2, ' ');
        }
        while (!s.empty() && s.back() == ' ') s.pop_back();
        print("%s\n", s.c_str());
    };
    line(header);
    size_t total = 0;
    for (size_t w : width) total += w + 2;
    print("%s\n", std::string(total > 2 ? total - 2 : 0, '-').c_str());
    for (const auto& r : rows) line(r);
}

void printError(const QString& message) {
    std::fprintf(stderr, "tandem-cli: %s\n", message.toUtf8().constData());
}

void showProgress(std::size_t i, std::size_t n, const char* what) {
#ifdef _WIN32
    static const bool tty = _isatty(_fileno(stderr)) != 0;
#else
    static const bool tty = isatty(fileno(stderr)) != 0;
#endif
    if (!tty) return;
    if (n == 0)
        std::fprintf(stderr, "\r\033[K");
    else
        std::fprintf(stderr, "\r%s %zu of %zu", what, i, n);
    std::fflush(stderr);
}

std::string fixed(double v, int digits) {
    if (std::isnan(v)) return "not reached";
    if (!std::isfinite(v)) return "n/a";
    return tandem::formatFixed(v, digits);
}

std::string percent(double fraction) {
    const double p = 100.0 * fraction;
    if (std::isfinite(p) && p != 0 && std::abs(p) < 0.05) return tandem::formatGeneral(p, 2);
    return fixed(p, 1);
}

std::string significant(double v, int digits) {
    if (!std::isfinite(v)) return "n/a";
    return tandem::formatGeneral(v, digits);
}

std::vector<QString> nonFiniteReport(const QString& file, const nlohmann::ordered_json& result) {
    std::vector<QString> lines;
    for (const auto& p : tandem::nonFiniteNumberPaths(result))
        lines.push_back(
            QStringLiteral("%1: %2: not a finite number (internal error; nothing was written)")
                .arg(file, QString::fromStdString(p)));
    return lines;
}

}  // namespace cli

#include <QCommandLineParser>

namespace cli {

bool parseArgs(QCommandLineParser& parser, const QStringList& args, int* exitCode) {
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    parser.addOption(help);
    if (!parser.parse(args)) {
        printError(parser.errorText());
        *exitCode = kExitBadInput;
        return false;
    }
    if (parser.isSet(help)) {
        // Qt's usage line starts with the binary's full path; name the sub-command instead.
        QString text = parser.helpText();
        const qsizetype eol = text.indexOf('\n');
        const QString usage = text.left(eol);
        const qsizetype opts = usage.indexOf(QStringLiteral(" [options]"));
        if (usage.startsWith(QStringLiteral("Usage: ")) && opts > 0 && !args.isEmpty())
            text = QStringLiteral("Usage: ") + args.first() + usage.mid(opts) + text.mid(eol);
        print("%s", text.toUtf8().constData());
        *exitCode = kExitOk;
        return false;
    }
    return true;
}

bool noPositionalArgs(const QCommandLineParser& parser, const QString& command, int* exitCode) {
    const QStringList pos = parser.positionalArguments();
    if (pos.isEmpty()) return true;
    printError(QStringLiteral("%1 takes no positional arguments (got: %2)")
                   .arg(command, pos.join(QStringLiteral(", "))));
    *exitCode = kExitBadInput;
    return false;
}

std::optional<tandem::Scenario> loadScenarioOrReport(const QString& file) {
    tandem::Diagnostics diag(file.toStdString());
    auto s = tandem::loadScenarioFile(file.toStdString(), diag);
    if (!s) {
        for (const auto& issue : diag.items()) std::fprintf(stderr, "%s\n", issue.str().c_str());
    }
    return s;
}

}  // namespace cli
