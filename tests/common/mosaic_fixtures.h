#pragma once
// Hand-built MOSAIC inputs shared by several suites [arXiv:2608.10605 Sec. 3.4; MODEL.md B].
#include <nlohmann/json.hpp>

#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "mosaic/envelope.h"
#include "mosaic/geometry.h"

namespace tandem::test {

/// A dense model (no experts, every block a SwiGLU FFN of width `dFf`) with `heads` query and
/// `heads` KV heads, residual width `dModel` and a `vocab`-token embedding; nAct / nTot filled
/// by mosaic::countParameters (non-embedding: layers x (4 d^2 + 3 d dFf) with full-width KV
/// heads). No checks: all arguments >= 1 and dModel divisible by heads are the caller's job.
inline mosaic::Geometry denseGeometry(int layers, int dModel, int heads, int dFf, int vocab) {
    return mosaic::denseGeometry(layers, dModel, heads, heads, dFf, vocab);
}

/// `e` as a scenario file holds it and reads it back: writeEnvelope, dumped to text and parsed
/// again, then readEnvelope at path "$.mosaic" into a default Envelope. Issues go to `d` (a
/// faithful round trip leaves it ok()).
inline mosaic::Envelope envelopeRoundTrip(const mosaic::Envelope& e, Diagnostics& d) {
    const nlohmann::json parsed = nlohmann::json::parse(mosaic::writeEnvelope(e).dump());
    JsonReader r(parsed, "$.mosaic", d);
    mosaic::Envelope back;
    mosaic::readEnvelope(r, back);
    return back;
}

}  // namespace tandem::test
