#include "ui/shell/scenario_document.h"

#include <QFile>
#include <QFileInfo>

#include "save_file.h"

namespace tandem::ui {

ScenarioDocument::ScenarioDocument(QObject* parent)
    : QObject(parent), m_scenario(defaultScenario()) {}

QString ScenarioDocument::displayName() const {
    QString name =
        m_path.isEmpty() ? QString::fromStdString(m_scenario.name) : QFileInfo(m_path).fileName();
    if (name.isEmpty()) name = tr("Untitled");
    return name;
}

bool ScenarioDocument::load(const QString& path, Diagnostics& diag) {
    // The core loader: size and folder checks, and trace / nccl-tests files named relative to
    // the scenario are found next to it (not next to the working directory).
    std::optional<Scenario> s = loadScenarioFile(QFile::encodeName(path).toStdString(), diag);
    if (!s) return false;
    reset(*s, QFileInfo(path).absoluteFilePath());
    return true;
}

bool ScenarioDocument::loadText(const QString& text, const QString& label, Diagnostics& diag) {
    Q_UNUSED(label);
    std::optional<Scenario> s = parseScenario(text.toStdString(), diag);
    if (!s) return false;
    reset(*s);
    return true;
}

bool ScenarioDocument::save(const QString& path, QString* error) {
    // File names under the saved file's folder are written relative to it, as tandem-cli does.
    const std::string text = scenarioToJson(m_scenario, QFile::encodeName(path).toStdString());
    if (!fileio::writeFileAtomic(path, text, error)) return false;
    m_path = QFileInfo(path).absoluteFilePath();
    m_modified = false;
    emit stateChanged();
    return true;
}

void ScenarioDocument::reset(const Scenario& s, const QString& path) {
    m_scenario = s;
    m_path = path;
    m_modified = false;
    emit scenarioReplaced();
    emit stateChanged();
}

void ScenarioDocument::setMlForMl(const mlforml::Params& p) {
    m_scenario.mlForMl = p;
    setModified(true);
    emit contentChanged();
}

void ScenarioDocument::setMosaic(const mosaic::Envelope& e) {
    m_scenario.mosaic = e;
    setModified(true);
    emit contentChanged();
}

void ScenarioDocument::markModified() {
    setModified(true);
    emit contentChanged();
}

void ScenarioDocument::setModified(bool m) {
    if (m_modified == m) return;
    m_modified = m;
    emit stateChanged();
}

}  // namespace tandem::ui
