// Fuzz target: `tandem-cli sweep --vary PATH=VALUES` and `--shard i/n` parsing.
// Input: axis text, a newline, shard text. Invariants: never crashes; an error names the
// problem; an accepted axis has a path and 1..100000 scalar values; a shard has 0 <= i < n.
#include "fuzz_support.h"
#include "sweep/sweep.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tandem;
    const std::string in = fuzz::text(data, size);
    const auto nl = in.find('\n');
    const std::string axisText = in.substr(0, nl);
    const std::string shardText = nl == std::string::npos ? std::string() : in.substr(nl + 1);
    sweep::Axis axis;
    std::string error;
    if (sweep::parseAxis(axisText, axis, error)) {
        fuzz::require(!axis.values.empty(), "accepted an axis without values");
        fuzz::require(axis.values.size() <= 100000, "axis above 100000 values");
        for (const auto& v : axis.values)
            fuzz::require(v.is_primitive() && !v.is_null(), "axis value is not a scalar");
    } else {
        fuzz::require(!error.empty(), "axis rejected without a reason");
    }
    sweep::Shard shard;
    error.clear();
    if (sweep::parseShard(shardText, shard, error))
        fuzz::require(shard.count >= 1 && shard.index >= 0 && shard.index < shard.count,
                      "bad shard");
    else
        fuzz::require(!error.empty(), "shard rejected without a reason");
    return 0;
}
