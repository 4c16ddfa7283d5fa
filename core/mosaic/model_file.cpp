#include "mosaic/model_file.h"

#include "common/json_reader.h"
#include "io/hf_config.h"
#include "io/text_file.h"
#include "mosaic/imported_geometry.h"
#include "mosaic/plan.h"

namespace tandem::mosaic {

bool parseModelFile(const std::string& text, PlanRequest& req, Diagnostics& diag) {
    const auto j = parseJsonText(text, diag);
    if (!diag.ok()) return false;
    JsonReader r(j, "$", diag);
    if (!j.is_object()) {
        diag.error("$", "MODEL.json must be a JSON object");
    } else if (io::isHfConfig(j)) {
        req.hf = io::importModelConfig(j, diag);
        if (req.hf) {
            req.mapped = importedGeometry(*req.hf);
            req.geometry = req.mapped.geometry;
        }
    } else {
        readPlanModel(r, req.geometry);
    }
    return diag.ok();
}

bool loadModelFile(const std::string& path, PlanRequest& req, Diagnostics& diag) {
    std::string text;
    return io::readTextFile(path, text, diag) && parseModelFile(text, req, diag);
}

}  // namespace tandem::mosaic
