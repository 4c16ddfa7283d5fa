#pragma once
// `tandem-cli inspect FILE [--json]`: detect what a user file is, import it, and say what Tandem
// understood (issue 8).
#include <nlohmann/json.hpp>

#include <string>

#include "common/diagnostics.h"

namespace tandem::io {

/// Detects the kind of `path` and imports it. Detection: a JSON object -> Hugging Face model
/// config; text mentioning busbw / NCCL / an X_perf binary -> nccl-tests output; llm.c
/// (`s:N trl:`) or nanoGPT (`iter N: loss`) lines, or a CSV header with a loss column -> loss
/// log; a CSV header with time/bytes columns -> background load trace.
/// Returned JSON (always has "file" and "kind": model_config | nccl_tests | loss_log |
/// load_trace | unknown):
/// - model_config: see modelImportToJson (n_total, n_active, n_total_nonembedding,
///   n_active_nonembedding, sparsity, split_factor_G, geometry, assumptions);
/// - nccl_tests: the first curve's ncclCurveToJson fields at top level (collective, ranks,
///   peak_busbw_GBps, points[], notes...); a log with several collectives adds curves[] with
///   every curve; each curve also carries the analytical collective model of `hardware` (a
///   built-in name, see mosaic::hardwareNames; an unknown name adds nothing) at the same rank
///   count, packed on that hardware's nodes: analytical_hardware, analytical_placement,
///   analytical_peak_busbw_GBps and points[].analytical_busbw_GBps (null for a collective the
///   model lacks, e.g. broadcast) [mosaic/collectives.h];
/// - loss_log: format, series[] {name, validation, points, first_step, last_step, last_loss},
///   fit_series, L_inf, A, alpha, S0, stderr{}, rmse, points, converged, last_step,
///   predicted_at_last_step, logged_at_last_step;
/// - load_trace: see loadTraceToJson.
/// Problems go to `diag` with the file and the line or JSON path; the JSON then holds what was
/// understood before the failure (at least file and kind).
nlohmann::ordered_json inspectFile(const std::string& path, tandem::Diagnostics& diag,
                                   const std::string& hardware = "p6-b200");

/// Human-readable rendering of an inspectFile result (a few lines, units spelled out).
std::string inspectText(const nlohmann::ordered_json& j);

}  // namespace tandem::io
