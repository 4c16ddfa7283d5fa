// Fuzz target: scenario JSON loader (parseScenario) and the canonical writer.
// Invariants: never crashes; a rejected file has a path and a reason for every problem; an
// accepted file saves to canonical text that loads again and saves byte-identically.
#include "fuzz_support.h"
#include "scenario/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tandem;
    Diagnostics diag("fuzz.json");
    const auto s = parseScenario(fuzz::text(data, size), diag);
    if (!s) {
        fuzz::requireExplained(diag);
        return 0;
    }
    fuzz::require(diag.ok(), "accepted scenario with diagnostics");
    const std::string saved = scenarioToJson(*s);
    Diagnostics again("saved.json");
    const auto s2 = parseScenario(saved, again);
    if (!s2) std::fprintf(stderr, "%s", again.str().c_str());
    fuzz::require(s2.has_value(), "canonical save of a valid scenario does not load");
    fuzz::require(scenarioToJson(*s2) == saved, "save -> load -> save is not byte-identical");
    return 0;
}
