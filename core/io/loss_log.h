#pragma once
// Training loss logs -> (step, loss) series: CSV with a step column and one or more loss columns
// (W&B / TensorBoard CSV exports included), llm.c text logs (`s:<step> trl:<train loss>`,
// `s:<step> tel:<val loss>`) and nanoGPT prints (`iter N: loss X`, `step N: train loss X, val
// loss Y`).
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/enum_names.h"

namespace tandem::io {

/// The text format of a loss log.
enum class LossLogFormat {
    Llmc,     ///< "llmc": llm.c lines `s:<step> trl:<loss>` / `tel:<loss>`
    NanoGpt,  ///< "nanogpt": nanoGPT prints `iter N: loss X`, `step N: train loss X, ...`
    Csv,      ///< "csv": a header with a step column and loss columns
};
/// "llmc", "nanogpt", "csv".
const EnumTable<LossLogFormat>& lossLogFormatNames();
const char* name(LossLogFormat f);

/// One loss series (e.g. train or validation), in file order.
struct LossSeries {
    std::string name;          ///< "train", "val", "train_eval" (nanoGPT `step N: train
                               ///< loss`), or the CSV column header
    bool validation = false;   ///< a held-out (val / eval / test) loss
    std::vector<double> step;  ///< optimizer steps (>= 0, strictly increasing)
    std::vector<double> loss;  ///< loss values (in [1e-20, 1000]; nats or whatever the log uses)
    std::vector<std::size_t> line;  ///< 1-based source line of each point
};

/// A parsed loss log.
struct LossLog {
    LossLogFormat format = LossLogFormat::Csv;
    std::vector<LossSeries> series;  ///< non-empty series only
    /// The series a fit should use: the validation series with the most points if it has >= 5,
    /// else the series with the most points. nullptr when there is none.
    const LossSeries* preferred() const;
};

/// Parses a loss log, detecting the format from the content. CSV: the first line that is neither
/// a comment nor an NCCL log line ("... NCCL INFO ...", skipped everywhere) is the header
/// (comma, tab or semicolon separated; double-quoted fields allowed); the step column is one of
/// step, steps, iter, iteration, global_step, _step, trainer/global_step (case-
/// insensitive, also as a suffix like "run - step"); every column containing "loss" is a
/// series; empty cells are skipped. Errors (path `line N`, or `line N, column "x"`): no step
/// column ("header has no step column; expected one of ..."), no loss column, a non-numeric or
/// non-finite cell, a negative step, no data at all (path "file"); for every format a step not
/// after the previous step of its series (`line N`: "step 80 is not after step 100 (line 4);
/// steps of a series must increase") and a loss outside [1e-20, 1000] (`line N`, CSV
/// `line N, column "x"`): no cross-entropy exceeds ln(vocabulary) by that much, and below
/// 1e-20 a float32-averaged loss is only rounding.
/// Returns std::nullopt on error.
std::optional<LossLog> parseLossLog(const std::string& text, Diagnostics& diag);

/// The text format of a loss log's lines, as parseLossLog reads them: Llmc when a line starts
/// with `s:` and holds `trl:` or `tel:`; else NanoGpt when a line starts (after blanks) with
/// `iter ` or `step ` and holds "loss"; else Csv. Other lines (NCCL INFO prints, warnings)
/// do not change the format.
LossLogFormat lossLogFormat(const std::vector<std::string>& lines);

/// Reads and parses a file (see parseLossLog).
std::optional<LossLog> loadLossLogFile(const std::string& path, Diagnostics& diag);

}  // namespace tandem::io
