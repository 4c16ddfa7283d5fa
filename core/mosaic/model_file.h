#pragma once
// A model file as `tandem-cli plan MODEL.json`, `calibrate --model` and the GUI's training-log
// import read it: Tandem's MODEL.json (readPlanModel) or a Hugging Face config.json
// (io::importModelConfig, mapped by importedGeometry). The one reader of both.
#include <string>

#include "common/diagnostics.h"
#include "mosaic/plan_report.h"

namespace tandem::mosaic {

/// Parses the text of a model file into req.geometry (and, for a Hugging Face config, req.hf
/// and req.mapped). Errors go to `diag` with their JSON path; false on any.
bool parseModelFile(const std::string& text, PlanRequest& req, Diagnostics& diag);

/// Reads and parses the model file `path` (io::readTextFile, then parseModelFile). `diag`
/// carries the file's name.
bool loadModelFile(const std::string& path, PlanRequest& req, Diagnostics& diag);

}  // namespace tandem::mosaic
