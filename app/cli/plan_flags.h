#pragma once
// The readers of the run-describing flags that `plan` and `calibrate` share (MODEL.json, --layout,
// --precision and the positive counts --devices, --gbs, --seqlen): one parser and one help text
// each. Every reader prints its own error on stderr, naming the flag.
#include <QString>

#include "mosaic/perf_model.h"
#include "mosaic/plan.h"
#include "mosaic/plan_report.h"
#include "mosaic/stack.h"

namespace cli {

/// The named and positional forms of a layout mosaic::parseLayout reads, for help texts.
QString layoutSyntaxHelp();
/// Help text of `plan --layout`.
QString layoutFlagHelp();
/// Help text of --precision (without its default).
QString precisionFlagHelp();

/// Reads --NAME as an integer in [1, max]; prints why not otherwise.
bool positiveInt(const QString& text, const char* name, int* out, int max);

/// Reads MODEL.json (Tandem's model or a Hugging Face config) into the request's geometry (and
/// its import, `hf` and `mapped`); prints every problem on stderr with the file's name.
/// Returns false on error.
bool readModelFile(const QString& path, tandem::mosaic::PlanRequest& req);

/// Reads --layout LAYOUT (mosaic::parseLayout; dp stays 0 when the named form does not give
/// it); `ckptGiven` (optional) says whether it names ckpt. Prints "--layout: reason" on error.
bool readLayoutFlag(const QString& text, tandem::mosaic::Plan& plan, bool* ckptGiven = nullptr);

/// Reads --precision P (mosaic::parsePrecision); prints the words it takes on error.
bool readPrecisionFlag(const QString& text, tandem::mosaic::Precision& out);

}  // namespace cli
