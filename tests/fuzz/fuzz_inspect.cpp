// Fuzz target: the kind detector (io::detectInputKind) and `inspect` on text (inspectContent),
// which routes every input kind to its importer: model configs, scenarios, nccl-tests logs, loss
// logs (with the fit) and load traces. Invariants: never crashes or hangs; the kind is one of
// inspect's words and agrees with the detector; a refused input says where and why; an
// accepted one carries its kind's result; the JSON and the text rendering serialise.
#include <string>

#include "fuzz_support.h"
#include "inspect/inspect.h"
#include "io/input_kind.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tandem;
    const std::string text = fuzz::text(data, size);
    Diagnostics diag("H100-all_reduce-2x8.txt");
    const auto j = inspect::inspectContent(text, "H100-all_reduce-2x8.txt", diag);
    const std::string kind = j.at("kind").get<std::string>();
    const io::InputKind detected = io::detectInputKind(text);
    fuzz::require(kind == io::inputKindName(detected),
                  "inspect's kind differs from the detector's");
    fuzz::require(j.at("errors").size() == diag.items().size(),
                  "errors JSON differs from the diagnostics");
    if (!diag.ok()) {
        fuzz::requireExplained(diag);
    } else {
        const char* key = kind == "model_config" ? "n_total"
                          : kind == "nccl_tests" ? "peak_busbw_GBps"
                          : kind == "loss_log"   ? "series"
                          : kind == "train_log"  ? "records"
                          : kind == "load_trace" ? "samples"
                                                 : nullptr;
        fuzz::require(key != nullptr, "an input of no kind accepted without an error");
        fuzz::require(j.contains(key), "accepted input without its kind's result");
    }
    (void)fuzz::dumpLikeCli(j);
    (void)inspect::inspectText(j);
    return 0;
}
