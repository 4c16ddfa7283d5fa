#pragma once
// `tandem-cli inspect FILE [--json]`: detect what a user file is, import it, and say what Tandem
// understood.
#include <nlohmann/json.hpp>
#include <string>

#include "common/diagnostics.h"

namespace tandem::inspect {

/// Reads `path` (io::readTextFile: no byte-order mark, no devices or FIFOs), detects its kind
/// from the content with io::detectInputKind (io/input_kind.h) and imports it: a Tandem
/// scenario is named as such (check it with `validate`), other JSON and unrecognised text give
/// "not a recognised input: ..." listing what is supported.
/// Returned JSON, always with:
/// - "file"; "kind": exactly one of model_config | nccl_tests | loss_log | train_log |
///   load_trace | scenario | stack_file | megatron_launch | unknown (the text rendering uses the
///   same words); "format": hf_config, json, nccl-tests, tandem_scenario, llmc / nanogpt / csv
///   (loss logs), megatron / nemo / torchtitan / modded-nanogpt (training logs), rate / window
///   (load traces), bash (launch scripts) or unknown;
/// - "errors": [{path, message}] (the issues this call added to `diag`, also on failure);
/// - "warnings": [strings] (e.g. an implausible loss fit; the file still imported).
/// Per kind:
/// - model_config: see modelImportToJson (n_total, n_active, n_total_nonembedding,
///   n_active_nonembedding, sparsity, split_factor_G, geometry, assumptions);
/// - nccl_tests: the first curve's ncclCurveToJson fields at top level (collective, ranks,
///   peak_busbw_GBps, points[], notes...); a log with several collectives adds curves[] with
///   every curve; each curve also carries the analytical collective model of a hardware at the
///   same rank count, packed on that hardware's nodes: analytical_hardware,
///   analytical_placement, analytical_peak_busbw_GBps and points[].analytical_busbw_GBps (null
///   for a collective the model lacks, e.g. broadcast) [mosaic/collectives.h]; for a modelled
///   collective also analytical_bound (what bounds the model at the largest size: "latency",
///   "NVLink" or "NIC"), analytical_ceiling_busbw_GBps (the line-rate ceiling there: every
///   efficiency 1, no ramp or latency) and analytical_notes (where the model extrapolates its
///   scale-out constants, mosaic::networkExtrapolation, and a measured peak more than 5 % above
///   the ceiling: NVLS reduces inside the switch a few per cent above the ring's NVLink bound). The
///   hardware is `hardware` when non-empty (a built-in name, see mosaic::hardwareNames; an unknown
///   name adds nothing), else the one the file name names (A3 Mega, H100, H200, A100, GB200, B200),
///   else p6-b200; top-level analytical_hardware_source says which ("--hardware", "file name",
///   "default");
/// - loss_log: format, series[] {name, validation, points, first_step, last_step, last_loss},
///   fit_series, L_inf, A, alpha, S0, stderr{}, rmse, points, converged, usable (the fit may be
///   used as a progress curve), last_step, predicted_at_last_step, logged_at_last_step; fit
///   warnings go to "warnings" prefixed with the series;
/// - train_log: the measured run of io::parseTrainLog (records, steps, warm-up and steady
///   records, iteration_time_s {median, q25, q75, min, max, spread, drift, drifts},
///   tokens_per_s, tokens_per_s_per_gpu, tflops_per_gpu, mfu, peak_memory_bytes, skipped and
///   NaN counts, last_loss, layout{...}, missing_for_prediction); its notes go to "warnings".
///   "prediction": with `hardware` non-empty and a complete layout, PerfModel::evaluate of the
///   log's layout (read by mosaic::parseMegatronArguments) under the megatron-core stack:
///   iteration_s, tokens_per_s_per_gpu, model_tflops_per_gpu, memory_GB, breakdown_s and
///   predicted_over_measured; else null with "prediction_note" saying what is missing
///   (docs/TRAINING-LOGS.md);
/// - load_trace: see loadTraceToJson;
/// - megatron_launch: "note", how to cost its run (`plan MODEL.json --megatron-args FILE`: its
///   flags are read against a model); no error.
/// Problems go to `diag` with the file and the line or JSON path; the JSON then holds what was
/// understood before the failure.
nlohmann::ordered_json inspectFile(const std::string& path, tandem::Diagnostics& diag,
                                   const std::string& hardware = "");

/// inspectFile on text already read: `text` is the file's content, `path` its name (for the
/// "file" field, messages and the hardware the name mentions); a leading byte-order mark is
/// skipped as readTextFile does. The same JSON and errors.
nlohmann::ordered_json inspectContent(const std::string& text, const std::string& path,
                                      tandem::Diagnostics& diag, const std::string& hardware = "");

/// Human-readable rendering of an inspectFile result (a few lines, units spelled out).
std::string inspectText(const nlohmann::ordered_json& j);

}  // namespace tandem::inspect
