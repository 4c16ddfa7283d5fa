#pragma once
// Teaching presets: each figure of both papers one click away, with a two-sentence note.
#include <QList>
#include <QString>

#include "scenario/scenario.h"

namespace tandem::ui {

/// One preset of the Presets menu.
struct Preset {
    QString id;     ///< stable id, e.g. "mlforml-fig2c" (also the export file prefix)
    QString title;  ///< menu text, e.g. "ML-for-ML Fig. 2c: first crossing at 1.02 L_min"
    QString note;   ///< two sentences: what is shown, what to look at
    int workspace;  ///< 0 network, 1 MoE
    int shownBackgroundJobs = -1;  ///< N for the network detail charts (-1: scenario's first)
    int targetIndex = 1;           ///< target shown in the loss/first-crossing charts
    bool updatesAxis = false;      ///< loss chart against optimizer updates
    Scenario scenario;             ///< full scenario (both parts where it helps)
};

/// All presets in menu order: ML-for-ML [2608.06046] Fig. 2a-2d, Fig. 3; MOSAIC [2608.10605]
/// Fig. 1, Table 3/4 and Fig. 10, Fig. 8, Fig. 11.
QList<Preset> allPresets();

/// The scenario note shown above the workspaces (rich text, escaped): "<b>name</b>
/// description" of `current`. `preset` is the preset the scenario came from (nullptr: none);
/// once `current` no longer equals the preset's scenario (a slider moved, a file imported) the
/// header says "Modified from preset" with its title and the note is introduced as the preset's,
/// so it never passes for a description of the values on screen. `origin` is the scenario as it
/// was opened (a file, a recovered or new scenario; nullptr: none): once `current` differs from
/// it the header says "Modified from" its name (or, without one, `originLabel`, the file's name)
/// and introduces the description as the opened scenario's. Equal again (an undo): the plain
/// note. A scenario opened with the defaults' name and description but other values (the
/// defaults edited and saved, or recovered) is headed by `originLabel` ("Untitled scenario" when
/// it has none) and "Modified from" the defaults' name, never by the defaults' description.
QString scenarioNoteHtml(const Scenario& current, const Preset* preset,
                         const Scenario* origin = nullptr, const QString& originLabel = {});

}  // namespace tandem::ui
