#include "scenario/scenario_files.h"

#include <filesystem>

#include "scenario/scenario.h"

namespace tandem {
namespace {

namespace fs = std::filesystem;

/// `p` made absolute against the working folder (as given when that fails), lexically normal.
fs::path absoluteNormal(const fs::path& p) {
    std::error_code ec;
    const fs::path a = fs::absolute(p, ec);
    return (ec ? p : a).lexically_normal();
}

}  // namespace

std::vector<std::string*> scenarioFileReferences(Scenario& s) {
    std::vector<std::string*> refs;
    if (s.mlForMl) {
        refs.push_back(&s.mlForMl->traceFile);
        refs.push_back(&s.mlForMl->lossLogFile);
    }
    if (s.mosaic) {
        for (std::string& f : s.mosaic->ncclTestsFiles) refs.push_back(&f);
        for (std::string& f : s.mosaic->importedModelFiles) refs.push_back(&f);
        refs.push_back(&s.mosaic->shownNcclTestsFile);
        for (mosaic::UserRun& u : s.mosaic->userRuns) {
            refs.push_back(&u.logFile);
            refs.push_back(&u.modelFile);
        }
    }
    return refs;
}

std::string scenarioFolder(const std::string& scenarioFile) {
    if (scenarioFile.empty()) return std::string();
    return absoluteNormal(fs::path(scenarioFile)).parent_path().string();
}

std::string resolveScenarioFile(const std::string& name, const std::string& baseDir) {
    if (name.empty()) return name;
    fs::path p(name);
    if (p.is_relative() && !baseDir.empty()) p = fs::path(baseDir) / p;
    return absoluteNormal(p).string();
}

void resolveScenarioFiles(Scenario& s, const std::string& baseDir) {
    for (std::string* f : scenarioFileReferences(s)) *f = resolveScenarioFile(*f, baseDir);
}

std::string scenarioFileForSave(const std::string& stored, const std::string& savedAs) {
    if (stored.empty() || savedAs.empty()) return stored;
    const fs::path p(stored);
    if (p.is_relative()) return stored;
    const fs::path folder(scenarioFolder(savedAs));
    const fs::path rel = p.lexically_normal().lexically_relative(folder);
    if (rel.empty() || *rel.begin() == "..") return p.lexically_normal().string();
    return rel.generic_string();
}

}  // namespace tandem
