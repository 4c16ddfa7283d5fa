#pragma once
// The scenario being edited: its content, file path and unsaved-changes state.
#include <QObject>
#include <QString>

#include "common/diagnostics.h"
#include "scenario/scenario.h"

namespace tandem::ui {

/// Owns the current tandem::Scenario. Loading validates the whole file first and replaces the
/// current scenario only when it is valid (a bad file leaves everything as it was). Saving writes
/// the canonical JSON (scenarioToJson) atomically through QSaveFile, so save -> open -> save is
/// byte-identical.
class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject* parent = nullptr);

    const Scenario& scenario() const { return m_scenario; }
    QString filePath() const { return m_path; }
    bool isModified() const { return m_modified; }
    /// Window title part: the file name, or the scenario name when untitled.
    QString displayName() const;

    /// Reads and validates `path`. On success replaces the scenario and emits scenarioReplaced();
    /// on failure returns false, fills `diag` (JSON path + reason per problem) and keeps the
    /// current scenario untouched.
    bool load(const QString& path, Diagnostics& diag);
    /// Parses JSON text (drag-and-drop of text, tests); same contract as load().
    bool loadText(const QString& text, const QString& label, Diagnostics& diag);
    /// Writes the canonical JSON to `path` atomically (scenarioToJson(scenario, path): file
    /// names under `path`'s folder relative to it); on success the document takes that path
    /// and becomes unmodified. Returns false with a reason in `error`.
    bool save(const QString& path, QString* error);
    /// Replaces the scenario (a preset or File > New); `path` empty means untitled.
    void reset(const Scenario& s, const QString& path = {});

    /// Edits from the controls: replace one part and mark the document modified.
    void setMlForMl(const mlforml::Params& p);
    void setMosaic(const mosaic::Envelope& e);
    /// Marks the document modified (an import or a recovered scenario) and emits contentChanged().
    void markModified();
    /// Sets the unsaved-changes flag (the window ties it to its undo stack's clean state);
    /// emits stateChanged() when it changes.
    void setModified(bool m);

signals:
    /// A whole new scenario arrived (open, preset, new): views must re-read every control.
    void scenarioReplaced();
    /// The modified flag or the file path changed (window title, Save action).
    void stateChanged();
    /// The scenario's content was edited (every edit, not only the first): crash recovery.
    void contentChanged();

private:
    Scenario m_scenario;
    QString m_path;
    bool m_modified = false;
};

}  // namespace tandem::ui
