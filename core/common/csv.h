#pragma once
// RFC 4180 field quoting, shared by every CSV writer (ML-for-ML reports, sweep tables), and the
// one field splitter of every CSV reader (loss logs, load traces, the compiled-in data tables).
#include <functional>
#include <string>
#include <vector>

#include "common/diagnostics.h"

namespace tandem {

/// One CSV field as RFC 4180 (section 2, rules 5-7) writes it: returned unchanged unless it
/// contains a comma, a double quote, CR or LF; then enclosed in double quotes with every double
/// quote doubled. Any bytes (including NUL and non-UTF-8) pass through; never throws.
/// Example: `a,b` -> `"a,b"`, `say "hi"` -> `"say ""hi"""`, `` -> ``.
std::string csvQuote(const std::string& field);

/// Fields of one CSV record split at `sep`, with RFC 4180 quoting (`"a,b"` is one field, `""`
/// inside quotes one quote). Never empty (an empty line gives one empty field). The one CSV
/// field splitter: loss logs, load traces, the compiled-in data tables.
std::vector<std::string> splitCsvRecord(const std::string& line, char sep);

/// The most likely separator of a CSV header line: ',', '\t' or ';' (',' by default).
char detectCsvSeparator(const std::string& header);

/// splitCsvRecord at ',' with CR bytes dropped (CR LF tables). Example: `a,,b` -> {"a", "",
/// "b"}.
std::vector<std::string> splitCsvLine(const std::string& line);

/// Reads an unquoted CSV table (splitCsvLine; CR LF or LF; empty lines skipped). The first line
/// must be exactly `columns` joined by commas, else one error `line N: header must be ...` and
/// nothing more is read; a later line with another field count gets an error naming it and is
/// skipped. Every other line goes to `row` with its fields (columns.size() of them) and its
/// location `line N` (1-based), for the caller's errors (`line N, column: reason`).
void readCsvTable(const std::string& csv, const std::vector<std::string>& columns,
                  Diagnostics& diag,
                  const std::function<void(const std::vector<std::string>& fields,
                                           const std::string& where, int line)>& row);

}  // namespace tandem
