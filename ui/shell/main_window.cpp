#include "ui/shell/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDeadlineTimer>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScreen>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QThread>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

#include "io/input_kind.h"
#include "io/text_file.h"
#include "ui/mlforml/loss_fit_view.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/shell/cluster_link.h"
#include "ui/shell/job_runner.h"
#include "ui/shell/presets.h"
#include "ui/shell/recovery.h"
#include "ui/shell/reproduce_dialog.h"
#include "ui/shell/scenario_document.h"
#include "ui/shell/scenario_undo.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/diagnostics_dialog.h"
#include "ui/widgets/file_dialog.h"
#include "ui/widgets/palette.h"

namespace tandem::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_doc(new ScenarioDocument(this)),
      m_network(new NetworkWorkspace(this)),
      m_moe(new MoeWorkspace(this)),
      m_tabs(new QTabWidget(this)),
      m_undo(new QUndoStack(this)) {
    setObjectName(QStringLiteral("mainWindow"));
    m_moe->setDocument(m_doc);  // the document owns the envelope; the workspace reads it there
    m_tabs->addTab(m_network, tr("Network x ML knobs"));
    m_tabs->addTab(m_moe, tr("MoE sparsity frontier"));
    m_tabs->setTabToolTip(
        0, tr("Gradient precision and accumulation under background traffic [arXiv:2608.06046]"));
    m_tabs->setTabToolTip(1,
                          tr("Compute-optimal vs cluster-optimal MoE sparsity [arXiv:2608.10605]"));
    auto* central = new QWidget(this);
    auto* cl = new QVBoxLayout(central);
    cl->setContentsMargins(4, 2, 4, 2);
    cl->setSpacing(2);
    m_note = new QLabel(central);
    m_note->setObjectName(QStringLiteral("scenarioNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::RichText);
    cl->addWidget(m_note);
    cl->addWidget(m_tabs, 1);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateNote);
    setCentralWidget(central);
    setAcceptDrops(true);
    // A linked slider's edit of the workspace not shown is computed when that one is shown.
    m_network->setComputeWhenShown(true);
    m_moe->setComputeWhenShown(true);
    m_link = new ClusterLink(
        m_network->controls()->backgroundSlider(), m_network->controls()->nodesSlider(),
        m_moe->controls()->coRunningSlider(), m_moe->controls()->nodesSlider(), this);
    buildMenus();

    connect(m_doc, &ScenarioDocument::scenarioReplaced, this, &MainWindow::syncFromDocument);
    connect(m_doc, &ScenarioDocument::stateChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &ScenarioDocument::contentChanged, this, &MainWindow::updateNoteText);
    // Control edits go to the document and onto the undo stack (a new scenario clears it).
    const auto apply = [this](const Scenario& stored, ScenarioParts parts) {
        // Imports are no control edits: an undo or redo keeps the files imported since, which
        // the workspaces still show (File > Import).
        Scenario s = stored;
        const Scenario& now = m_doc->scenario();
        if (s.mlForMl && now.mlForMl) s.mlForMl->lossLogFile = now.mlForMl->lossLogFile;
        if (s.mosaic && now.mosaic) {
            s.mosaic->importedModelFiles = now.mosaic->importedModelFiles;
            s.mosaic->shownNcclTestsFile = now.mosaic->shownNcclTestsFile;
            s.mosaic->userRuns = now.mosaic->userRuns;
        }
        m_applyingUndo = true;
        if (parts & ScenarioPart::MlForMl) {
            if (s.mlForMl) m_doc->setMlForMl(*s.mlForMl);
            m_network->setParams(s.mlForMl);
        }
        if (parts & ScenarioPart::Mosaic) {
            if (s.mosaic) m_doc->setMosaic(*s.mosaic);
            m_moe->showEnvelope();
        }
        m_applyingUndo = false;
    };
    // A linked slider's edit of the other workspace is one undo step with the user's own.
    const auto mergeRule = [this]() {
        return m_link->propagating() ? MergeRule::FollowUp : MergeRule::QuickEdits;
    };
    connect(m_network, &NetworkWorkspace::paramsEdited, this,
            [this, apply, mergeRule](const mlforml::Params& p) {
                const QScopedValueRollback<bool> recording(m_recordingEdit, true);
                const Scenario before = m_doc->scenario();
                m_doc->setMlForMl(p);
                if (!m_applyingUndo)
                    m_undo->push(new ScenarioEditCommand(
                        ScenarioPart::MlForMl, before, m_doc->scenario(), apply,
                        tr("change of the ML-for-ML controls"), mergeRule()));
            });
    connect(m_moe, &MoeWorkspace::envelopeEdited, this,
            [this, apply, mergeRule](const mosaic::Envelope& e) {
                const QScopedValueRollback<bool> recording(m_recordingEdit, true);
                const Scenario before = m_doc->scenario();
                m_doc->setMosaic(e);
                if (!m_applyingUndo)
                    m_undo->push(new ScenarioEditCommand(
                        ScenarioPart::Mosaic, before, m_doc->scenario(), apply,
                        tr("change of the MoE controls"), mergeRule()));
            });
    // A calibration is one undo step of its own, never merged into the edits around it.
    connect(
        m_moe, &MoeWorkspace::envelopeCalibrated, this, [this, apply](const mosaic::Envelope& e) {
            const QScopedValueRollback<bool> recording(m_recordingEdit, true);
            const Scenario before = m_doc->scenario();
            m_doc->setMosaic(e);
            m_undo->push(new ScenarioEditCommand(ScenarioPart::Mosaic, before, m_doc->scenario(),
                                                 apply, tr("calibration to your runs"),
                                                 MergeRule::Never));
        });
    connect(m_doc, &ScenarioDocument::scenarioReplaced, m_undo, &QUndoStack::clear);
    // The document is unmodified exactly when the undo stack is at its clean index: the state
    // opened or last saved (clear() on open, setClean() on save). A change that is no undo step
    // (an import, a recovered scenario) leaves no index at the saved content.
    connect(m_undo, &QUndoStack::cleanChanged, m_doc,
            [this](bool clean) { m_doc->setModified(!clean); });
    connect(m_doc, &ScenarioDocument::contentChanged, this, [this]() {
        if (!m_applyingUndo && !m_recordingEdit) m_undo->resetClean();
    });
    connect(m_network->lossFitPanel(), &LossFitPanel::useFitRequested, this,
            &MainWindow::applyLossFit);
    connect(m_moe, &MoeWorkspace::ncclUseToggled, this, &MainWindow::useMeasuredCollectives);
    for (ChartView* c : allCharts())
        connect(c, &ChartView::activated, this, [this](ChartView* v) { m_currentChart = v; });
    auto busy = [this](bool) {
        const bool any = m_network->runner()->isBusy() || m_moe->isBusy();
        if (any)
            statusBar()->showMessage(tr("Computing..."));
        else
            statusBar()->clearMessage();
    };
    connect(m_network, &NetworkWorkspace::busyChanged, this, busy);
    connect(m_moe, &MoeWorkspace::busyChanged, this, busy);

    syncFromDocument();
    updateTitle();
    QSettings settings;
    placeOnScreen(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/workspace"), 0).toInt());
    if (settings.value(QStringLiteral("view/dark"), false).toBool()) setDarkTheme(true);
    // The fonts of the mode as remembered (also when an earlier window in this process left
    // the presentation fonts on).
    const bool presenting = settings.value(QStringLiteral("view/presentation"), false).toBool();
    if (presenting || chartFontScale() != 1.0) setPresentationMode(presenting);
}

QRect MainWindow::firstWindowFrame(const QRect& available, const QSize& minimum) {
    const QSize share(available.width() * 9 / 10, available.height() * 9 / 10);
    const QSize size =
        preferredWindowSize().boundedTo(share).expandedTo(minimum).boundedTo(available.size());
    QRect frame(QPoint(0, 0), size);
    frame.moveCenter(available.center());
    return frame;
}

QRect MainWindow::frameOnScreen(const QRect& frame, const QRect& available) {
    if (available.contains(frame)) return frame;
    QRect r(frame.topLeft(), frame.size().boundedTo(available.size()));
    r.moveLeft(
        std::clamp(r.left(), available.left(), available.x() + available.width() - r.width()));
    r.moveTop(
        std::clamp(r.top(), available.top(), available.y() + available.height() - r.height()));
    return r;
}

void MainWindow::placeOnScreen(const QByteArray& savedGeometry) {
    // The frame is not known before the window is first shown: a title bar's height above the
    // window and a thin border on the other sides stand in for it (as QWidget::restoreGeometry
    // estimates it).
    const int border = 4;
    const QMargins frame(border, style()->pixelMetric(QStyle::PM_TitleBarHeight, nullptr, this),
                         border, border);
    if (!savedGeometry.isEmpty() && restoreGeometry(savedGeometry)) {
        if (isMaximized() || isFullScreen()) return;
        // screen(): the screen under the window's centre, else the primary screen (a window
        // saved on a monitor that is no longer there).
        const QRect target = frameOnScreen(geometry() + frame, screen()->availableGeometry());
        setGeometry(target - frame);
        return;
    }
    const QSize least = minimumSizeHint().expandedTo(minimumSize()).grownBy(frame);
    setGeometry(firstWindowFrame(screen()->availableGeometry(), least) - frame);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New scenario"), QKeySequence::New, this, [this]() { newScenario(); });
    file->addAction(tr("&Open scenario..."), QKeySequence::Open, this, [this]() {
        if (!maybeSave()) return;
        const QString path =
            openFileName(this, tr("Open scenario"), QFileInfo(m_doc->filePath()).path(),
                         tr("Tandem scenario (*.json)"));
        if (!path.isEmpty()) openFile(path);
    });
    file->addAction(tr("&Save scenario"), QKeySequence::Save, this, [this]() {
        if (saveAsksForName()) {
            const QString path = saveFileName(
                this, tr("Save scenario"),
                m_doc->filePath().isEmpty() ? QStringLiteral("scenario.json") : m_doc->filePath(),
                tr("Tandem scenario (*.json)"));
            if (!path.isEmpty()) saveFile(path);
        } else {
            saveFile(m_doc->filePath());
        }
    });
    file->addAction(tr("Save scenario &as..."), QKeySequence::SaveAs, this, [this]() {
        const QString path = saveFileName(this, tr("Save scenario as"), m_doc->filePath(),
                                          tr("Tandem scenario (*.json)"));
        if (!path.isEmpty()) saveFile(path);
    });
    file->addAction(tr("&Import..."), QKeySequence(Qt::CTRL | Qt::Key_I), this,
                    &MainWindow::importDialog)
        ->setStatusTip(
            tr("Import a Hugging Face config.json, nccl-tests output, a training loss log or a "
               "background load trace"));
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addAction(tr("&Reset to defaults"), this, [this]() {
        if (QMessageBox::question(this, tr("Reset to defaults"),
                                  tr("Set every control of this scenario to its default value?")) ==
            QMessageBox::Yes)
            resetToDefaults();
    });
    file->addSeparator();
    file->addAction(tr("&Export current chart..."), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                    &MainWindow::exportCurrentChart);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* presets = menuBar()->addMenu(tr("&Presets"));
    const QList<Preset> list = allPresets();
    for (int i = 0; i < list.size(); ++i) {
        if (i > 0 && list[i].workspace != list[i - 1].workspace) presets->addSeparator();
        QAction* a = presets->addAction(list[i].title, this, [this, i]() { applyPreset(i); });
        a->setToolTip(list[i].note);
        a->setStatusTip(list[i].note);
    }
    presets->setToolTipsVisible(true);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Network x ML knobs"), QKeySequence(Qt::CTRL | Qt::Key_1), this,
                    [this]() { m_tabs->setCurrentIndex(0); });
    view->addAction(tr("&MoE sparsity frontier"), QKeySequence(Qt::CTRL | Qt::Key_2), this,
                    [this]() { m_tabs->setCurrentIndex(1); });
    view->addSeparator();
    m_darkAction = view->addAction(tr("&Dark theme"));
    m_darkAction->setCheckable(true);
    m_darkAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    connect(m_darkAction, &QAction::toggled, this, &MainWindow::setDarkTheme);
    m_presentationAction = view->addAction(tr("&Presentation mode"));
    m_presentationAction->setObjectName(QStringLiteral("presentationMode"));
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_presentationAction->setToolTip(tr("Larger chart titles, axes and legends for a projector"));
    connect(m_presentationAction, &QAction::toggled, this, &MainWindow::setPresentationMode);
    view->addSeparator();
    // One pin for the window: the action (checked while pinned) and the side panels' buttons.
    m_pinAction = view->addAction(tr("P&in for comparison"));
    m_pinAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_pinAction->setCheckable(true);
    connect(m_pinAction, &QAction::triggered, this,
            [this](bool on) { on ? pinForComparison() : clearComparison(); });
    for (QPushButton* button : {m_network->controls()->pinButton(), m_moe->controls()->pinButton()})
        connect(button, &QPushButton::clicked, m_pinAction, &QAction::trigger);
    QAction* pin = m_pinAction;
    pin->setObjectName(QStringLiteral("pinForComparison"));
    pin->setToolTip(
        tr("Keep this state on every chart (dashed grey) and the Plan page's figures "
           "to compare later states with"));
    m_clearPinAction = view->addAction(tr("Clear pinned"), this, &MainWindow::clearComparison);
    m_clearPinAction->setObjectName(QStringLiteral("clearPinned"));
    m_clearPinAction->setEnabled(false);
    view->addSeparator();

    // One cluster for both workspaces: the action and the two side-panel boxes show one state.
    m_linkAction = view->addAction(tr("Same &cluster in both workspaces"));
    m_linkAction->setCheckable(true);
    m_linkAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_linkAction->setToolTip(tr("Co-running jobs and nodes move together in both workspaces"));
    connect(m_linkAction, &QAction::toggled, this,
            [this](bool on) { m_link->setLinked(on, m_tabs->currentIndex()); });
    for (QCheckBox* box : {m_network->controls()->linkBox(), m_moe->controls()->linkBox()})
        connect(box, &QCheckBox::toggled, m_linkAction, &QAction::setChecked);
    connect(m_link, &ClusterLink::linkedChanged, this, [this](bool on) {
        for (QCheckBox* box : {m_network->controls()->linkBox(), m_moe->controls()->linkBox()}) {
            const QSignalBlocker block(box);
            box->setChecked(on);
        }
        const QSignalBlocker block(m_linkAction);
        m_linkAction->setChecked(on);
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this, [this]() {
        QMessageBox box(QMessageBox::NoIcon, tr("Keyboard shortcuts"), shortcutsText(),
                        QMessageBox::Close, this);
        box.setTextFormat(Qt::PlainText);
        box.exec();
    });
    help->addAction(tr("&Reproduce a figure..."), this, [this]() {
        ReproduceFigureDialog dialog(this);
        connect(&dialog, &ReproduceFigureDialog::presetChosen, this,
                [this](int i) { applyPreset(i); });
        dialog.exec();
    });
    help->addSeparator();
    help->addAction(tr("&About Tandem"), this,
                    [this]() { QMessageBox::about(this, tr("About Tandem"), aboutText()); });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QString MainWindow::aboutText() {
    return tr("<h3>Tandem %1</h3>"
              "<p>A what-if tool for distributed LLM training, built on two papers:</p>"
              "<ul><li>Y. Zhao, N. H. Rotman, G. Antichi and R. Ben Basat, <i>ML-for-ML</i>, "
              "arXiv:2608.06046 (2026): the network x ML knobs workspace.</li>"
              "<li>S. Sarkar, Y. Tang and S. Zha, <i>Compute-Optimal Is Not Cluster-Optimal: "
              "Systems-Aware "
              "Scaling for Sparse Mixture-of-Experts</i> (MOSAIC), arXiv:2608.10605 (2026): the "
              "MoE sparsity frontier "
              "workspace.</li></ul>"
              "<p>Every preset in the Presets menu reproduces a figure or table of these "
              "papers.</p>")
        .arg(QApplication::applicationVersion().toHtmlEscaped());
}

QString MainWindow::shortcutsText() const {
    QStringList lines;
    const auto menus = menuBar()->actions();
    for (const QAction* m : menus) {
        if (!m->menu()) continue;
        const auto actions = m->menu()->actions();
        for (const QAction* a : actions) {
            if (a->shortcut().isEmpty()) continue;
            QString what = a->text();
            what.remove(QLatin1Char('&'));
            lines << tr("%1: %2 > %3")
                         .arg(a->shortcut().toString(QKeySequence::NativeText),
                              QString(m->text()).remove(QLatin1Char('&')), what);
        }
    }
    lines
        << QString()
        << tr("Left / Right arrow on a slider: one step (one stop of a log-scale slider)")
        << tr("Page Up / Page Down on a slider: a larger step (a quarter of a log-scale slider)")
        << tr("Home / End on a slider: its smallest / largest value")
        << tr("Up / Down arrow in a number box: one step (bandwidths step by their leading digit)")
        << tr("Click in a chart: pin the values at the cursor; click again or Esc: unpin")
        << tr("Right-click in a chart: export it (PNG, SVG, PDF) or its data (CSV)");
    return lines.join(QLatin1Char('\n'));
}

void MainWindow::applyPreset(int index, bool ask) {
    const QList<Preset> list = allPresets();
    if (index < 0 || index >= list.size()) return;
    if (ask && !maybeSave()) return;
    const Preset& p = list[index];
    m_doc->reset(p.scenario);
    m_preset = p;  // after reset(): syncFromDocument forgets the previous preset
    m_network->applyPresetView(p.shownBackgroundJobs, p.targetIndex, p.updatesAxis);
    m_noteWorkspace = p.workspace;
    m_tabs->setCurrentIndex(p.workspace);
    updateNoteText();
    updateNote();
}

void MainWindow::newScenario(bool ask) {
    if (ask && !maybeSave()) return;
    m_doc->reset(defaultScenario());
}

void MainWindow::resetToDefaults() {
    const Scenario defaults = defaultScenario();
    Scenario s = m_doc->scenario();
    const bool both = !s.mlForMl && !s.mosaic;
    if (s.mlForMl || both) s.mlForMl = defaults.mlForMl;
    if (s.mosaic || both) s.mosaic = defaults.mosaic;
    // The note keeps what the scenario was opened as: its description is not about the defaults.
    const std::optional<Preset> preset = m_preset;
    m_keepOrigin = true;
    m_doc->reset(s, m_doc->filePath());
    m_keepOrigin = false;
    m_preset = preset;
    m_doc->markModified();
    statusBar()->showMessage(tr("Every control reset to its default; reopen the file to undo."),
                             6000);
}

void MainWindow::updateNoteText() {
    m_note->setText(scenarioNoteHtml(m_doc->scenario(), m_preset ? &*m_preset : nullptr,
                                     m_origin ? &*m_origin : nullptr, m_doc->displayName()));
}

void MainWindow::updateNote() {
    const bool has = !m_doc->scenario().name.empty() || !m_doc->scenario().description.empty();
    m_note->setVisible(has && (m_noteWorkspace < 0 || m_noteWorkspace == m_tabs->currentIndex()));
}

void MainWindow::setDarkTheme(bool dark) {
    if (m_darkAction && m_darkAction->isChecked() != dark) {
        m_darkAction->setChecked(dark);  // re-enters through toggled()
        return;
    }
    setCurrentTheme(dark ? Theme::Dark : Theme::Light);
    QPalette pal = dark ? QPalette(QColor(0x35, 0x37, 0x3b), QColor(0x26, 0x28, 0x2b))
                        : QApplication::style()->standardPalette();
    if (dark) {
        // Light text on dark ground where a control is enabled; a disabled one keeps a grey
        // text on the window colour, so it reads as off as it does on the light theme.
        for (QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive}) {
            pal.setColor(g, QPalette::WindowText, QColor(0xE8, 0xE8, 0xE8));
            pal.setColor(g, QPalette::Text, QColor(0xE8, 0xE8, 0xE8));
            pal.setColor(g, QPalette::ButtonText, QColor(0xE8, 0xE8, 0xE8));
            pal.setColor(g, QPalette::Base, QColor(0x26, 0x28, 0x2b));
        }
        const QColor off(0x80, 0x82, 0x86);
        pal.setColor(QPalette::Disabled, QPalette::WindowText, off);
        pal.setColor(QPalette::Disabled, QPalette::Text, off);
        pal.setColor(QPalette::Disabled, QPalette::ButtonText, off);
        pal.setColor(QPalette::Disabled, QPalette::Base, QColor(0x35, 0x37, 0x3b));
    }
    QApplication::setPalette(pal);
    m_network->applyTheme();
    m_moe->applyTheme();
    QSettings().setValue(QStringLiteral("view/dark"), dark);
}

void MainWindow::setPresentationMode(bool on) {
    if (m_presentationAction->isChecked() != on) {
        m_presentationAction->setChecked(on);  // comes back here through toggled
        return;
    }
    setChartFontScale(on ? kPresentationFontScale : 1.0);
    m_network->applyTheme();
    m_moe->applyTheme();
    QSettings().setValue(QStringLiteral("view/presentation"), on);
}

bool MainWindow::presentationMode() const { return m_presentationAction->isChecked(); }

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > 8) files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& f : files)
        m_recentMenu
            ->addAction(QFileInfo(f).fileName(), this,
                        [this, f]() {
                            if (maybeSave()) openFile(f);
                        })
            ->setToolTip(f);
    m_recentMenu->setEnabled(!files.isEmpty());
}

namespace {
/// A Tandem scenario (opened) rather than a file to import, by io::detectInputKind (the
/// detector of File > Import and `tandem-cli inspect`): a scenario, or JSON that is no model
/// config (opening reports what is wrong with it). An unreadable file is opened too: the open
/// says why.
bool looksLikeScenario(const QString& path) {
    Diagnostics diag;
    std::string text;
    if (!io::readTextFile(QFile::encodeName(path).toStdString(), text, diag)) return true;
    const io::InputKind kind = io::detectInputKind(text);
    return kind == io::InputKind::Scenario || kind == io::InputKind::Json;
}
}  // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile()) return;
    event->acceptProposedAction();
    const QString path = urls.front().toLocalFile();
    if (!looksLikeScenario(path))
        importFile(path);
    else if (maybeSave())
        openFile(path);
}

QList<ChartView*> MainWindow::allCharts() const { return m_network->charts() + m_moe->charts(); }

ChartView* MainWindow::currentChart() const {
    const QList<ChartView*> visible =
        m_tabs->currentIndex() == 0 ? m_network->charts() : m_moe->charts();
    if (m_currentChart && visible.contains(m_currentChart)) return m_currentChart;
    return visible.isEmpty() ? nullptr : visible.front();
}

void MainWindow::setCurrentWorkspace(int index) { m_tabs->setCurrentIndex(index); }

void MainWindow::syncFromDocument() {
    m_network->clearImports();
    m_moe->clearImports();
    m_network->setParams(m_doc->scenario().mlForMl);
    m_moe->showEnvelope();
    showScenarioImports();
    // A scenario whose workspaces sit on different clusters is shown as it is: the link goes off.
    if (m_link && m_link->isLinked() && !m_link->inStep()) {
        m_link->setLinked(false, 0);
        statusBar()->showMessage(
            tr("Cluster link off: this scenario's workspaces use different co-running jobs or "
               "nodes (View > Same cluster in both workspaces links them again)."),
            8000);
    }
    const Scenario& sc = m_doc->scenario();
    // A pin belongs to the scenario it was taken from: another file, a new or a recovered
    // scenario ends it (Reset to defaults keeps the same scenario, and its pin).
    if (!m_keepOrigin && comparisonPinned()) clearComparison();
    m_preset.reset();  // a file, a new scenario or a recovered one (applyPreset sets it again)
    if (!m_keepOrigin) m_origin = sc;
    updateNoteText();
    // The note belongs to the workspace(s) the scenario has a section for (a preset: its own).
    m_noteWorkspace = sc.mlForMl && !sc.mosaic ? 0 : !sc.mlForMl && sc.mosaic ? 1 : -1;
    updateNote();
    if (!m_doc->scenario().mlForMl && m_doc->scenario().mosaic) m_tabs->setCurrentIndex(1);
    if (m_doc->scenario().mlForMl && !m_doc->scenario().mosaic) m_tabs->setCurrentIndex(0);
}

bool MainWindow::saveAsksForName() const {
    return m_doc->filePath().isEmpty() || !QFileInfo::exists(m_doc->filePath());
}

void MainWindow::updateTitle() {
    // A recovered document whose file was deleted says so (Save then asks for a name).
    const QString gone = !m_doc->filePath().isEmpty() && !QFileInfo::exists(m_doc->filePath())
                             ? tr(" (original file deleted)")
                             : QString();
    setWindowTitle(tr("%1[*]%2 - Tandem").arg(m_doc->displayName(), gone));
    setWindowModified(m_doc->isModified());
}

bool MainWindow::openFile(const QString& path) {
    Diagnostics diag(QDir::toNativeSeparators(path).toStdString());
    if (m_doc->load(path, diag)) {
        statusBar()->showMessage(tr("Opened %1").arg(path), 4000);
        addRecentFile(m_doc->filePath());
        return true;
    }
    showDiagnostics(path, diag);
    return false;
}

bool MainWindow::saveFile(const QString& path) {
    QString error;
    if (!m_doc->save(path, &error)) {
        QMessageBox::warning(this, tr("Save failed"), error);
        return false;
    }
    m_undo->setClean();
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    addRecentFile(m_doc->filePath());
    return true;
}

bool MainWindow::maybeSave() {
    if (!m_doc->isModified()) return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"), tr("The scenario has unsaved changes. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Discard) return true;
    const QString path = saveAsksForName() ? saveFileName(this, tr("Save scenario"),
                                                          m_doc->filePath().isEmpty()
                                                              ? QStringLiteral("scenario.json")
                                                              : m_doc->filePath(),
                                                          tr("Tandem scenario (*.json)"))
                                           : m_doc->filePath();
    return !path.isEmpty() && saveFile(path);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/workspace"), m_tabs->currentIndex());
    if (m_recovery) m_recovery->finish();  // clean exit: nothing to recover next time
    event->accept();
}

void MainWindow::exportCurrentChart() {
    ChartView* view = currentChart();
    if (!view) return;
    const QString path = saveFileName(this, tr("Export chart"),
                                      view->exportName() + QStringLiteral(".png"), exportFilters());
    if (path.isEmpty()) return;
    QString error;
    if (!exportChart(view, path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
}

bool MainWindow::waitForResults(int timeoutMs, bool drawHidden) {
    QDeadlineTimer deadline(timeoutMs);
    auto busy = [this]() {
        return m_network->runner()->isBusy() || m_network->sweepRunner()->isBusy() ||
               m_network->mapRunner()->isBusy() || m_moe->isBusy();
    };
    QApplication::processEvents();
    while (busy() && !deadline.hasExpired()) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    QApplication::processEvents();
    if (drawHidden)
        for (ChartView* v : m_network->charts() + m_moe->charts()) v->ensureBuilt();
    return !busy();
}

}  // namespace tandem::ui
