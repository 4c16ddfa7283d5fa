#include "common/number_format.h"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <system_error>

namespace tandem {
namespace {

constexpr int kMaxDigits = 40;

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// std::to_chars with a precision into a buffer large enough for any double (a fixed-point
/// 1e308 has 309 digits before the point).
std::string toChars(double v, std::chars_format fmt, int precision) {
    char buf[320 + kMaxDigits];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, fmt, precision);
    return r.ec == std::errc() ? std::string(buf, r.ptr) : std::string();
}

/// Order of magnitude (decimal exponent of the first significant digit) of the decimal number
/// `t`, which from_chars found out of range: positive means overflow, else underflow.
long long decimalMagnitude(std::string_view t) {
    std::size_t i = 0;
    long long intDigits = 0, leadingFractionZeros = 0;
    bool seenNonZero = false;
    for (; i < t.size() && isDigit(t[i]); ++i)
        if (seenNonZero || t[i] != '0') {
            seenNonZero = true;
            ++intDigits;
        }
    if (i < t.size() && t[i] == '.')
        for (++i; i < t.size() && isDigit(t[i]); ++i) {
            if (!seenNonZero && t[i] == '0') ++leadingFractionZeros;
            if (t[i] != '0') seenNonZero = true;
        }
    long long exponent = 0;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        const bool negative = i < t.size() && t[i] == '-';
        if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
        for (; i < t.size() && isDigit(t[i]); ++i)
            exponent = std::min(exponent * 10 + (t[i] - '0'), 1000000LL);
        if (negative) exponent = -exponent;
    }
    return (intDigits > 0 ? intDigits - 1 : -(leadingFractionZeros + 1)) + exponent;
}

}  // namespace

std::string formatNumber(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    std::string s;
    for (int prec = 6; prec <= 17; ++prec) {
        s = formatGeneral(v, prec);
        const auto back = scanNumber(s);
        if (back.length == s.size() && back.value == v) break;
    }
    return s;
}

std::string csvNumber(double v) { return std::isfinite(v) ? formatNumber(v) : std::string(); }

std::string formatGeneral(double v, int significantDigits) {
    return toChars(v, std::chars_format::general, std::clamp(significantDigits, 1, kMaxDigits));
}

std::string formatFixed(double v, int decimals) {
    return toChars(v, std::chars_format::fixed, std::clamp(decimals, 0, kMaxDigits));
}

bool integerBeyondDouble(std::string_view literal) {
    std::size_t i = 0;
    if (i < literal.size() && (literal[i] == '-' || literal[i] == '+')) ++i;
    if (i >= literal.size()) return false;
    for (std::size_t k = i; k < literal.size(); ++k)
        if (!isDigit(literal[k])) return false;
    while (i + 1 < literal.size() && literal[i] == '0') ++i;
    const std::string_view digits = literal.substr(i);
    constexpr std::string_view k2pow53 = "9007199254740992";
    return digits.size() > k2pow53.size() || (digits.size() == k2pow53.size() && digits > k2pow53);
}

const char* integerBeyondDoubleReason() {
    return "is an integer beyond 2^53 (9007199254740992), the largest integer a number keeps "
           "exactly: it would be read as a different number than the one written";
}

NumberScan scanNumber(std::string_view text) {
    NumberScan out;
    std::size_t i = 0;
    while (i < text.size() && isBlank(text[i])) ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    // from_chars takes no sign of its own here (it would accept "--1") and no "0x" prefix.
    if (i >= text.size() || text[i] == '+' || text[i] == '-') return out;
    const bool hex = i + 2 < text.size() && text[i] == '0' &&
                     (text[i + 1] == 'x' || text[i + 1] == 'X') &&
                     (std::isxdigit(static_cast<unsigned char>(text[i + 2])) ||
                      (text[i + 2] == '.' && i + 3 < text.size() &&
                       std::isxdigit(static_cast<unsigned char>(text[i + 3]))));
    const std::size_t start = hex ? i + 2 : i;
    const char* first = text.data() + start;
    const char* last = text.data() + text.size();
    double v = 0;
    const auto r =
        std::from_chars(first, last, v, hex ? std::chars_format::hex : std::chars_format::general);
    if (r.ec == std::errc::invalid_argument) return out;
    out.length = static_cast<std::size_t>(r.ptr - text.data());
    if (r.ec == std::errc::result_out_of_range) {
        out.outOfRange = true;
        const std::string_view read(first, static_cast<std::size_t>(r.ptr - first));
        const bool overflow = hex ? read.find("p-") == std::string_view::npos &&
                                        read.find("P-") == std::string_view::npos
                                  : decimalMagnitude(read) > 0;
        v = overflow ? HUGE_VAL : 0.0;
    } else if (v != 0 && std::isfinite(v) && std::abs(v) < DBL_MIN) {
        out.outOfRange = true;  // subnormal: strtod reports ERANGE too
    }
    out.value = negative ? -v : v;
    out.inexactInteger = !hex && integerBeyondDouble(text.substr(start, out.length - start));
    return out;
}

std::optional<double> parseNumber(std::string_view text) {
    const NumberScan s = scanNumber(text);
    if (s.length == 0 || s.length != text.size() || s.outOfRange || s.inexactInteger ||
        !std::isfinite(s.value))
        return std::nullopt;
    return s.value;
}

}  // namespace tandem
