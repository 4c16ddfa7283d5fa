#pragma once
// How Tandem writes and reads a number in text, CSV cells, messages and command-line values: the
// C convention (decimal point, no digit grouping) whatever the process locale. These functions
// are the one formatting path and the one parsing path for numbers; the C library's
// locale-dependent calls (printf's %f/%g/%e, strtod, std::stod, atof, std::to_string of a double)
// read LC_NUMERIC, which a Qt application sets from the environment at start (a decimal comma
// under de_DE.UTF-8 or fr_FR.UTF-8), and must not be used for numbers.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tandem {

/// Shortest "%.Ng" (N = 6..17) that round-trips through parseNumber; "nan", "inf", "-inf" for
/// non-finite values. Example: 0.1 -> "0.1", 1e300 -> "1e+300", 2.5 -> "2.5". Locale-free.
std::string formatNumber(double v);

/// A finite value as formatNumber writes it; NaN or infinity as an empty CSV cell.
std::string csvNumber(double v);

/// printf's "%.*g" in the C locale: `significantDigits` (1..40; 0 counts as 1) significant
/// digits, trailing zeros removed, exponent form below 1e-4 or from 10^digits. Example:
/// (1234.5, 3) -> "1.23e+03". Non-finite values as "nan", "-nan", "inf", "-inf".
std::string formatGeneral(double v, int significantDigits);

/// printf's "%.*f" in the C locale: `decimals` (0..40) digits after the decimal point. Example:
/// (2.345, 2) -> "2.35" (correctly rounded from the binary value, here 2.34499... -> "2.34").
/// Non-finite values as "nan", "-nan", "inf", "-inf".
std::string formatFixed(double v, int decimals);

/// What scanNumber read from the start of a text.
struct NumberScan {
    double value = 0;         ///< the number; +-inf on overflow, +-0 on underflow
    std::size_t length = 0;   ///< characters read (leading blanks included); 0: no number
    bool outOfRange = false;  ///< overflow, underflow or a subnormal result (strtod's ERANGE)
    /// A decimal integer (digits only: no '.', exponent or "0x") beyond 2^53: `value` is not the
    /// number written but its nearest double (9007199254740993 reads as 9007199254740992).
    bool inexactInteger = false;
};

/// True when `literal` (an optional '-' or '+', then digits; leading zeros allowed) is an
/// integer whose magnitude exceeds 2^53 = 9007199254740992, the largest integer up to which
/// every integer is a double: such a number is read as a different one than written. False
/// for anything with a '.', an exponent, or any other character.
bool integerBeyondDouble(std::string_view literal);

/// The reason an integer beyond 2^53 is refused, for messages after the flag, key or path:
/// "is an integer beyond 2^53 (9007199254740992) ... than the one written".
const char* integerBeyondDoubleReason();

/// std::strtod in the C locale, whatever the process locale: leading white space, an optional
/// sign, then a decimal number ("2.5", ".5", "1e-3"), a hexadecimal one ("0x1p3"), "inf",
/// "infinity" or "nan" (any case). Reads the longest such prefix of `text`.
NumberScan scanNumber(std::string_view text);

/// The whole of `text` as a finite number in the C convention (scanNumber's syntax, nothing
/// left over, not out of range, not NaN or infinite, not an integer beyond 2^53); nullopt
/// otherwise. "2.5" -> 2.5; "2,5", "", "1e400", "nan", "9007199254740993" -> nullopt.
std::optional<double> parseNumber(std::string_view text);

}  // namespace tandem
