#pragma once
// The files a scenario names (`ml_for_ml.trace_file`, `ml_for_ml.loss_log_file`,
// `mosaic.nccl_tests_files`, `mosaic.imported_model_files`, `mosaic.shown_nccl_tests_file`): the
// one place that resolves them against a folder when a scenario is read, and writes them relative
// to the saved file's folder when a scenario is written. Every reader (loadScenarioFile, crash
// recovery, the GUI importers) and every writer goes through these functions.
#include <string>
#include <vector>

namespace tandem {

struct Scenario;

/// Every file reference of `s`, in schema order: `ml_for_ml.trace_file` and
/// `ml_for_ml.loss_log_file` (when the section is present, even if empty), then each entry of
/// `mosaic.nccl_tests_files` and `mosaic.imported_model_files`, then
/// `mosaic.shown_nccl_tests_file` (when the section is present, even if empty), then each
/// `mosaic.measured_runs[i]`'s `log_file` and `model_file` (even if empty). The pointers stay
/// valid while `s` is not restructured. A new file-valued key is added here and nowhere else.
std::vector<std::string*> scenarioFileReferences(Scenario& s);

/// The folder a scenario file's relative names are resolved against: the absolute, lexically
/// normal folder of `scenarioFile` ("/p/s.json" -> "/p", "s.json" -> the working folder).
/// Empty `scenarioFile` (an untitled document) gives "" (= the working folder, see below).
std::string scenarioFolder(const std::string& scenarioFile);

/// `name`, a file named in a scenario, resolved against `baseDir`: a relative name becomes
/// `baseDir/name` (`baseDir` empty: the working folder), absolute and lexically normal
/// ("/p/./logs/../a.txt" -> "/p/a.txt"); an absolute name is only normalised; an empty name
/// stays empty (no trace file). Pure path arithmetic: the file need not exist. This is the
/// only function that resolves a scenario's file names.
std::string resolveScenarioFile(const std::string& name, const std::string& baseDir);

/// Resolves every reference of scenarioFileReferences(s) with resolveScenarioFile(name,
/// baseDir), in place.
void resolveScenarioFiles(Scenario& s, const std::string& baseDir);

/// How a stored file name is written into a scenario saved at `savedAs`: relative to the saved
/// file's folder (generic '/' separators) when the file lies inside that folder's tree,
/// absolute otherwise ("../" is never written), so loading `savedAs` resolves it to the same
/// file. A name that is still relative (parseScenario without a folder) and an empty `savedAs`
/// leave `stored` as given.
std::string scenarioFileForSave(const std::string& stored, const std::string& savedAs);

}  // namespace tandem
