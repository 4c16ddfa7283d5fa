// Fuzz target: `tandem-cli merge` (sweep::merge of shard CSVs) and the CSV writer.
// The input is split at 0x1e bytes into up to four shard files. Invariants: never crashes;
// rejections are explained; a merged table has rows 0..n-1 of the header's width, and merging
// its own CSV again gives the same table (quoting round trip).
#include "fuzz_support.h"
#include "sweep/sweep.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tandem;
    std::vector<std::string> csvs(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0x1e && csvs.size() < 4)
            csvs.emplace_back();
        else
            csvs.back() += static_cast<char>(data[i]);
    }
    Diagnostics diag;
    const auto t = sweep::merge(csvs, {}, diag);
    if (!diag.ok()) {
        fuzz::requireExplained(diag);
        return 0;
    }
    fuzz::require(!t.rows.empty(), "merged an empty table without a diagnostic");
    for (size_t r = 0; r < t.rows.size(); ++r) {
        fuzz::require(t.rows[r].size() == t.header.size(), "row width differs from the header");
        fuzz::require(t.rows[r][0] == std::to_string(r), "points are not 0..n-1 in order");
    }
    Diagnostics again;
    const auto t2 = sweep::merge({sweep::toCsv(t)}, {}, again);
    fuzz::require(again.ok(), "a merged table's own CSV does not merge");
    fuzz::require(t2.header == t.header && t2.rows == t.rows, "CSV write -> merge is not identity");
    return 0;
}
