#include "io/text_file.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::io {

TextFileRead readTextFileWithin(const std::string& path, std::size_t maxBytes, std::string& out) {
    // Checked before opening: opening a FIFO blocks until a writer appears, and a folder or a
    // device has no meaningful size.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::is_directory(status)) return {TextFileError::Folder, 0, {}};
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        return {TextFileError::NotRegularFile, 0, {}};
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::string why = errno != 0 ? std::strerror(errno) : "";
        for (char& c : why) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return {TextFileError::CannotOpen, 0, why};
    }
    in.seekg(0, std::ios::end);
    const auto size = in.tellg();
    if (size < 0) return {TextFileError::UnknownSize, 0, {}};
    const auto bytes = static_cast<std::size_t>(size);
    if (bytes > maxBytes) return {TextFileError::TooLarge, bytes, {}};
    in.seekg(0, std::ios::beg);
    out.assign(bytes, '\0');
    if (size > 0 && !in.read(&out[0], size)) return {TextFileError::ReadFailed, bytes, {}};
    return {TextFileError::None, bytes, {}};
}

bool readTextFile(const std::string& path, std::string& out, Diagnostics& diag) {
    const TextFileRead r = readTextFileWithin(path, kMaxImportBytes, out);
    switch (r.error) {
        case TextFileError::None:
            if (const std::string wide = wideUnicodeProblem(out); !wide.empty()) {
                diag.error("file", wide);
                return false;
            }
            out.erase(0, utf8BomLength(out));
            return true;
        case TextFileError::Folder:
            diag.error("file", "\"" + path + "\" is a folder, not a file");
            break;
        case TextFileError::NotRegularFile:
            diag.error("file",
                       "\"" + path + "\" is not a regular file (devices and pipes are not read)");
            break;
        case TextFileError::CannotOpen:
            diag.error("file", "cannot open \"" + path + "\" for reading" +
                                   (r.reason.empty() ? "" : ": " + r.reason));
            break;
        case TextFileError::UnknownSize:
            diag.error("file", "cannot determine the size of \"" + path + "\"");
            break;
        case TextFileError::TooLarge:
            diag.error("file", "file is " + std::to_string(r.bytes) +
                                   " bytes; importers read at most " +
                                   std::to_string(kMaxImportBytes) + " bytes");
            break;
        case TextFileError::ReadFailed:
            diag.error("file", "read error on \"" + path + "\"");
            break;
    }
    return false;
}

std::size_t utf8BomLength(const std::string& text) {
    return text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
}

bool isNcclLogLine(const std::string& line) {
    return line.find(" NCCL INFO ") != std::string::npos ||
           line.find(" NCCL WARN ") != std::string::npos;
}

std::string stripLauncherPrefix(const std::string& line) {
    std::size_t i = 0;
    while (i < line.size() && line[i] == ' ') ++i;
    std::size_t j = i;
    while (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i && j < line.size() && line[j] == ':') return line.substr(j + 1);
    if (line.compare(i, 1, "[") == 0)
        for (const char* tag : {"<stdout>:", "<stderr>:"}) {
            const auto at = line.find(tag, i);
            if (at != std::string::npos) return line.substr(at + 9);
        }
    return line;
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::string cur;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n' || c == '\r') {
            lines.push_back(cur);
            cur.clear();
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
        } else {
            cur.push_back(c);
        }
    }
    if (!cur.empty()) lines.push_back(cur);
    return lines;
}

std::vector<std::string> splitBlanks(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream ss(line);
    std::string tok;
    while (ss >> tok) out.push_back(tok);
    return out;
}

std::string linePath(std::size_t oneBasedLine) { return "line " + std::to_string(oneBasedLine); }

bool parseDouble(const std::string& s, double& out) {
    const std::optional<double> v = parseNumber(s);
    if (!v) return false;
    out = *v;
    return true;
}

bool parseInteger(const std::string& s, long long& out) {
    if (s.empty()) return false;
    const char* b = s.c_str();
    char* e = nullptr;
    errno = 0;
    const long long v = std::strtoll(b, &e, 10);
    if (e == b || *e != '\0' || errno == ERANGE) return false;
    out = v;
    return true;
}

std::string toLower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string baseName(const std::string& path) {
    const auto p = path.find_last_of('/');
    return p == std::string::npos ? path : path.substr(p + 1);
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    const auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

std::string formatBytes(double bytes) {
    if (!std::isfinite(bytes) || bytes < 0) return formatNumber(bytes) + " B";
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double b = bytes;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        ++u;
    }
    return (b >= 999.5 ? formatFixed(b, 0) : formatGeneral(b, 3)) + " " + units[u];
}

std::string formatCount(double v) {
    if (std::isfinite(v) && std::abs(v) < 1e15 && v == std::floor(v)) return formatFixed(v, 0);
    return formatNumber(v);
}

}  // namespace tandem::io
