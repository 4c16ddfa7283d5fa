#include "ui/mosaic/reality_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QFont>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QGraphicsTextItem>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QTextDocument>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "mosaic/layout_form.h"
#include "ui/widgets/bounds.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/count_label.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"

namespace tandem::ui {

namespace {
/// `text` up to the end of its first sentence (a '.' followed by white space or the end),
/// trimmed; the whole of `text` when it has one sentence.
QString firstSentence(const QString& text) {
    static const QRegularExpression end(QStringLiteral("\\.(\\s|$)"));
    const QRegularExpressionMatch m = end.match(text);
    return (m.hasMatch() ? text.left(m.capturedStart() + 1) : text).trimmed();
}
/// Marker shapes by system order: distinct shapes as well as colours (print, colour blindness).
QScatterSeries::MarkerShape markerShape(int i) {
    const QScatterSeries::MarkerShape shapes[] = {QScatterSeries::MarkerShapeCircle,
                                                  QScatterSeries::MarkerShapeRectangle};
    return shapes[i % 2];
}

/// Lower and upper axis end for `lo`..`hi` on a log-10 axis: whole powers of ten around the data.
std::pair<double, double> decadeRange(double lo, double hi) {
    return {std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi)))};
}
/// "+3.1 %" for an error of 0.031.
QString signedPercent(double error) {
    return (error >= 0 ? QStringLiteral("+") : QString()) + QString::number(100 * error, 'f', 1) +
           QStringLiteral(" %");
}

/// A box of `values` after the "all" entry `all` (data "" = no filter on the field).
void fillBox(QComboBox* box, const QString& all, const std::vector<std::string>& values,
             const std::string& current) {
    box->clear();
    box->addItem(all, QString());
    for (const std::string& v : values)
        box->addItem(QString::fromStdString(v), QString::fromStdString(v));
    int i = box->findData(QString::fromStdString(current));
    if (i < 0) {  // a filter value no run has: kept, matching nothing
        box->addItem(QString::fromStdString(current), QString::fromStdString(current));
        i = box->count() - 1;
    }
    box->setCurrentIndex(i);
}
/// The point a costed run draws: its names, layout, GPUs, measured and predicted tokens/s per
/// GPU and the error, as the run states them (shipped runs: system and container; the caller
/// marks a user's run).
RealityPoint realityPoint(const mosaic::RealityCase& c, const mosaic::RealityRow& row,
                          size_t index) {
    RealityPoint p;
    p.system = QString::fromStdString(c.run.system);
    p.model = QString::fromStdString(c.run.model);
    p.container = QString::fromStdString(c.run.container);
    p.stack = p.container;
    p.precision = QString::fromLatin1(mosaic::precisionName(c.cluster.precision));
    p.layout = QString::fromStdString(mosaic::layoutString(c.plan));
    p.gpus = c.run.gpus;
    p.measured = c.run.tokensPerSPerGpu;
    p.predicted = row.eval.tokensPerSPerGpu;
    p.error = row.error;
    p.row = index;
    return p;
}

}  // namespace

RealityView::RealityView(QWidget* parent)
    : ChartView(QStringLiteral("reality-predicted-vs-measured"),
                tr("Predicted against measured tokens/s per GPU"), parent) {
    m_x = new QLogValueAxis(this);
    m_x->setBase(10);
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_x->setMinorTickCount(8);
    m_x->setTitleText(tr("measured tokens/s per GPU"));
    m_y = new QLogValueAxis(this);
    m_y->setBase(10);
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_y->setMinorTickCount(8);
    m_y->setTitleText(tr("predicted tokens/s per GPU"));
    setOneLineVerticalTitles(true);  // a title wrapped to three words a line read badly
    m_yError = new QValueAxis(this);
    m_yError->setLabelFormat(QStringLiteral("%+.0f"));
    m_yError->setTitleText(tr("error (%)"));  // predicted / measured - 1: the title says so
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    chart()->addAxis(m_yError, Qt::AlignLeft);
    m_yError->setVisible(false);
    m_band = addAreaSeries(m_x, m_y);
    m_band->setName(tr("within \u00b125 %"));
    m_identity = new QLineSeries(this);
    m_identity->setName(tr("predicted = measured"));
    addSeriesOnAxes(chart(), m_identity, m_x, m_y);
    m_nearestSeries = new QScatterSeries(this);
    m_nearestSeries->setName(tr("runs nearest to the current plan"));
    m_nearestSeries->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_nearestSeries->setMarkerSize(20);
    m_nearestSeries->setVisible(false);
    addSeriesOnAxes(chart(), m_nearestSeries, m_x, m_y);
    m_planSeries = new QScatterSeries(this);
    m_planSeries->setName(tr("current plan (at its prediction)"));
    m_planSeries->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m_planSeries->setMarkerSize(18);
    m_planSeries->setVisible(false);
    addSeriesOnAxes(chart(), m_planSeries, m_x, m_y);
    m_caption = new QGraphicsTextItem(chart());
    m_caption->setZValue(10);
    m_caption->document()->setDocumentMargin(1);  // as tight as the legend's text above it
    chart()->legend()->setAlignment(Qt::AlignTop);
    setToolTip(
        tr("Every shipped measured Megatron-Core run (Megatron-Bridge performance summary) costed "
           "with its "
           "published layout under the megatron-core stack, against its measured throughput "
           "(tandem-cli reproduce reality). Hover a marker for the run. Right-click to export."));
    // The filter and view boxes above the plot (widgets over the chart's top margin).
    m_header = new QWidget(viewport());
    m_header->setObjectName(QStringLiteral("realityHeader"));
    m_header->setAutoFillBackground(true);
    m_headerGrid = new QGridLayout(m_header);
    m_headerGrid->setContentsMargins(8, 4, 8, 2);
    m_headerGrid->setHorizontalSpacing(14);
    m_headerGrid->setVerticalSpacing(3);
    const auto cell = [this](const QString& label, QComboBox* box, const QString& tip) {
        auto* w = new QWidget(m_header);
        auto* l = new QHBoxLayout(w);
        l->setContentsMargins(0, 0, 0, 0);
        l->setSpacing(4);
        auto* text = new QLabel(label, w);
        text->setBuddy(box);
        l->addWidget(text);
        l->addWidget(box);
        box->setParent(w);
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        box->setToolTip(tip);
        m_headerCells.append(w);
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (!m_settingBoxes) readBoxes();
        });
    };
    m_systemBox = new QComboBox;
    m_systemBox->setObjectName(QStringLiteral("realitySystem"));
    m_modelBox = new QComboBox;
    m_modelBox->setObjectName(QStringLiteral("realityModel"));
    m_precisionBox = new QComboBox;
    m_precisionBox->setObjectName(QStringLiteral("realityPrecision"));
    m_stackBox = new QComboBox;
    m_stackBox->setObjectName(QStringLiteral("realityRelease"));
    m_modeBox = new QComboBox;
    m_modeBox->setObjectName(QStringLiteral("realityMode"));
    m_modeBox->addItem(tr("predicted vs measured"));
    m_modeBox->addItem(tr("error (%) vs measured"));
    cell(tr("System"), m_systemBox, tr("Show the runs measured on one system"));
    cell(tr("Model"), m_modelBox, tr("Show the runs of one model"));
    cell(tr("Precision"), m_precisionBox, tr("Show the runs at one GEMM precision"));
    cell(tr("Release"), m_stackBox,
         tr("Show the runs measured with one software release (NeMo container)"));
    cell(tr("View"), m_modeBox,
         tr("Predicted against measured on log axes, or the error predicted / measured \u2212 1 "
            "in % against measured"));
    m_calibrate = new QPushButton(tr("Calibrate to these runs"), m_header);
    m_calibrate->setObjectName(QStringLiteral("realityCalibrate"));
    m_calibrate->setToolTip(
        tr("Refit the megatron-core stack's constants to your runs (the shipped runs on other "
           "hardware hold the rest) and use it in this scenario: tandem-cli calibrate"));
    m_calibrate->setVisible(false);
    m_headerCells.append(m_calibrate);
    connect(m_calibrate, &QPushButton::clicked, this, &RealityView::calibrateRequested);
    fillBoxes();
    applyTheme();
}

void RealityView::setCalibrationNote(const QString& note) {
    m_calibrationNote = note;
    refilter();
}

void RealityView::setUserRuns(const std::vector<mosaic::RealityCase>& cases,
                              const QString& stackName, const QStringList& problems) {
    m_userProblems = problems;
    m_calibrationNote.clear();
    m_userCases = cases;
    m_userRows = mosaic::costCases(m_userCases);
    m_userSummary = mosaic::summarize(m_userRows);
    m_userStack = stackName;
    m_calibrate->setVisible(!m_userRows.empty());
    m_headerColumns = 0;  // re-lay the header with the button shown or hidden
    refilter();
}

void RealityView::setCalibrating(bool on) {
    m_calibrate->setEnabled(!on);
    m_calibrate->setText(on ? tr("Calibrating\u2026") : tr("Calibrate to these runs"));
}

void RealityView::fillBoxes() {
    m_settingBoxes = true;
    mosaic::RealityFilterValues v;
    if (m_report) v = mosaic::realityFilterValues(*m_report);
    fillBox(m_systemBox, tr("all"), v.systems, m_filter.system);
    fillBox(m_modelBox, tr("all"), v.models, m_filter.model);
    fillBox(m_precisionBox, tr("all"), v.precisions, m_filter.precision);
    fillBox(m_stackBox, tr("all"), v.stacks, m_filter.stack);
    m_modeBox->setCurrentIndex(m_mode == Mode::LogLog ? 0 : 1);
    m_settingBoxes = false;
    placeHeader();
}

void RealityView::readBoxes() {
    mosaic::RealityFilter f;
    f.system = m_systemBox->currentData().toString().toStdString();
    f.model = m_modelBox->currentData().toString().toStdString();
    f.precision = m_precisionBox->currentData().toString().toStdString();
    f.stack = m_stackBox->currentData().toString().toStdString();
    m_mode = m_modeBox->currentIndex() == 1 ? Mode::Error : Mode::LogLog;
    m_filter = f;
    refilter();
}

void RealityView::setFilter(const mosaic::RealityFilter& f) {
    m_filter = f;
    fillBoxes();
    refilter();
}

void RealityView::setMode(Mode m) {
    m_mode = m;
    m_settingBoxes = true;
    m_modeBox->setCurrentIndex(m == Mode::LogLog ? 0 : 1);
    m_settingBoxes = false;
    updateTitle();
    requestRebuild();
}

void RealityView::setPlan(const std::optional<mosaic::RealityPlan>& plan) {
    m_plan = plan;
    findNearest();
    requestRebuild();
}

void RealityView::findNearest() {
    m_nearest.clear();
    if (m_plan && m_report)
        m_nearest = mosaic::nearestRealityRuns(*m_report, *m_plan, kNearestRuns, m_filter);
}

void RealityView::setPlanCandidate(const mosaic::Envelope& e,
                                   const std::optional<mosaic::Candidate>& c) {
    setPlan(c && c->eval.feasible ? std::optional<mosaic::RealityPlan>(mosaic::realityPlan(e, *c))
                                  : std::nullopt);
}

QString RealityView::planSentence() const {
    if (!m_plan || !m_report) return {};
    const mosaic::RealityPlan& p = *m_plan;
    const QString stack = QString::fromStdString(p.stack);
    const QString what =
        tr("Current plan: %1, %2, %3 B parameters, %4")
            .arg(QString::fromStdString(p.hardware), countLabel(p.gpus, tr("GPU"), tr("GPUs")))
            .arg(p.totalParams / 1e9, 0, 'f', p.totalParams < 1e10 ? 1 : 0)
            .arg(QString::fromStdString(p.precision).toUpper());
    // Which stack the star and the runs are costed with, and the scenario's own prediction when
    // its stack is another.
    QString plan =
        p.predicted > 0
            ? tr("%1, predicted %2 tokens/s per GPU (the star) under %3, the stack the runs are "
                 "costed with.")
                  .arg(what)
                  .arg(p.predicted, 0, 'f', 0)
                  .arg(stack)
            : tr("%1: not drawn, it does not fit under %2, the stack the runs are costed with "
                 "(%3).")
                  .arg(what, stack, QString::fromStdString(p.reason));
    if (!p.scenarioStack.empty() && p.scenarioStack != p.stack && p.scenarioPredicted > 0)
        plan += QLatin1Char(' ') + tr("The scenario's %1 stack predicts %2 tokens/s per GPU.")
                                       .arg(QString::fromStdString(p.scenarioStack))
                                       .arg(p.scenarioPredicted, 0, 'f', 0);
    if (m_nearest.empty()) return plan;
    const mosaic::RealityNeighbourSummary s = mosaic::summarizeNeighbours(*m_report, m_nearest);
    QStringList runs;
    for (const mosaic::RealityNeighbour& n : m_nearest) {
        const mosaic::RealityRow& row = m_report->rows[n.row];
        const mosaic::MeasuredRun& run = m_report->cases[row.caseIndex].run;
        runs << tr("%1 (%2 %3, %4) %5")
                    .arg(QString::fromStdString(run.model),
                         countLabel(run.gpus, tr("GPU"), tr("GPUs")),
                         QString::fromStdString(run.system), QString::fromStdString(run.container),
                         signedPercent(row.error));
    }
    const QString which =
        s.sameSystem == s.runs
            ? tr("the %1 measured runs on %2 nearest in GPU count, model size and precision")
                  .arg(s.runs)
                  .arg(QString::fromStdString(p.system))
        : s.sameSystem > 0
            ? tr("the %1 measured runs nearest to it, %2 of them on %3")
                  .arg(s.runs)
                  .arg(s.sameSystem)
                  .arg(QString::fromStdString(p.system))
            : tr("the %1 measured runs nearest in GPU count, model size and precision; none was "
                 "measured on %2")
                  .arg(s.runs)
                  .arg(QString::fromStdString(p.hardware));
    const bool filtered = !m_filter.system.empty() || !m_filter.model.empty() ||
                          !m_filter.precision.empty() || !m_filter.stack.empty();
    return plan + QLatin1Char(' ') +
           tr("Measured runs like this plan were predicted within %1 % (the largest |error| of "
              "%2%3; median "
              "%4 %): %5.")
               .arg(QString::number(100 * s.maxAbsError, 'f', 1), which,
                    filtered ? tr(", among the runs the filter shows") : QString(),
                    QString::number(100 * s.medianAbsError, 'f', 1),
                    runs.join(QStringLiteral("; ")));
}

void RealityView::placeHeader() {
    if (!m_header) return;
    const int avail = std::max(100, viewport()->width() - 16);
    // As many cells per row as fit (5, 3, 2 or 1), each column as wide as its widest cell.
    int columns = 1;
    for (int c : {5, 3, 2}) {
        QList<int> widths(c, 0);
        for (int i = 0; i < m_headerCells.size(); ++i)
            widths[i % c] = std::max(widths[i % c], m_headerCells[i]->sizeHint().width());
        int total = 14 * (c - 1);
        for (int w : widths) total += w;
        if (total <= avail) {
            columns = c;
            break;
        }
    }
    if (columns != m_headerColumns) {
        for (QWidget* w : std::as_const(m_headerCells)) m_headerGrid->removeWidget(w);
        for (int i = 0; i < m_headerCells.size(); ++i)
            m_headerGrid->addWidget(m_headerCells[i], i / columns, i % columns, Qt::AlignLeft);
        for (int c = 0; c < 5; ++c) m_headerGrid->setColumnStretch(c, c == columns - 1 ? 1 : 0);
        m_headerColumns = columns;
    }
    m_header->setFixedWidth(viewport()->width());
    const int h = m_header->heightForWidth(viewport()->width()) > 0
                      ? m_header->heightForWidth(viewport()->width())
                      : m_header->sizeHint().height();
    m_header->setFixedHeight(h);
    m_header->move(0, 0);
    m_header->raise();
    QMargins m = chart()->margins();
    m.setTop(h + 4);
    chart()->setMargins(m);
}

void RealityView::load() {
    if (!m_report) setReport(mosaic::reproduceReality());
}

void RealityView::showEvent(QShowEvent* event) {
    ChartView::showEvent(event);
    load();
}

void RealityView::emptyReasonChanged() { m_header->setVisible(emptyReason().isEmpty()); }

void RealityView::resizeEvent(QResizeEvent* event) {
    ChartView::resizeEvent(event);
    placeHeader();
    placeCaption();
}

void RealityView::setReport(const mosaic::RealityReport& r) {
    m_report = r;
    fillBoxes();
    refilter();
}

void RealityView::refilter() {
    if (!m_report) return;
    const mosaic::RealityReport& r = *m_report;
    findNearest();  // among the runs the filter shows
    m_points.clear();
    for (size_t i = 0; i < r.rows.size(); ++i) {
        const mosaic::RealityRow& row = r.rows[i];
        if (!row.eval.feasible || !mosaic::realityRowMatches(r, row, m_filter)) continue;
        m_points.append(realityPoint(r.cases[row.caseIndex], row, i));
    }
    std::stable_sort(
        m_points.begin(), m_points.end(),
        [](const RealityPoint& a, const RealityPoint& b) { return a.system < b.system; });
    // The user's runs the filter shows, as it shows the measured ones.
    for (size_t i = 0; i < m_userRows.size(); ++i) {
        const mosaic::RealityRow& row = m_userRows[i];
        if (!row.eval.feasible) continue;
        const mosaic::RealityCase& c = m_userCases[row.caseIndex];
        if (!mosaic::realityCaseMatches(c, m_filter)) continue;
        RealityPoint p = realityPoint(c, row, i);
        p.system = yoursKey();
        p.container = QString::fromStdString(c.run.note);  // the log's file name
        p.stack = m_userStack;
        p.yours = true;
        m_points.append(p);
    }
    for (QScatterSeries* s : std::as_const(m_series)) {
        chart()->removeSeries(s);
        delete s;
    }
    m_series.clear();
    m_seriesPoints.clear();
    for (int i = 0; i < m_points.size(); ++i) m_seriesPoints[m_points[i].system].append(i);
    // Shape by the system's place among all the report's systems (sorted), so that a filter
    // does not change a system's shape.
    const std::vector<std::string> systems = mosaic::realityFilterValues(r).systems;
    for (auto it = m_seriesPoints.cbegin(); it != m_seriesPoints.cend(); ++it) {
        const QString system = it.key();
        const int k = static_cast<int>(
            std::find(systems.begin(), systems.end(), system.toStdString()) - systems.begin());
        auto* s = new QScatterSeries(this);
        s->setName(system);
        s->setMarkerShape(markerShape(k));
        s->setMarkerSize(k % 2 ? 9 : 10);
        if (system == yoursKey()) {
            s->setName(tr("yours (%1, costed under %2)")
                           .arg(countLabel(it.value().size(), tr("run"), tr("runs")), m_userStack));
            s->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
            s->setMarkerSize(17);
        }
        addSeriesOnAxes(chart(), s, m_x, shownY());
        m_series.insert(system, s);
    }
    // The plan's marker and rings stay on top of the run markers.
    chart()->removeSeries(m_nearestSeries);
    chart()->removeSeries(m_planSeries);
    addSeriesOnAxes(chart(), m_nearestSeries, m_x, shownY());
    addSeriesOnAxes(chart(), m_planSeries, m_x, shownY());
    m_summary = mosaic::summarizeRealityFilter(r, m_filter);
    updateTitle();
    requestRebuild();
}

void RealityView::updateTitle() {
    QStringList parts;
    for (const std::string* f : {&m_filter.system, &m_filter.model, &m_filter.precision})
        if (!f->empty()) parts << QString::fromStdString(*f);
    if (!m_filter.stack.empty())
        parts << tr("release %1").arg(QString::fromStdString(m_filter.stack));
    const QString which = parts.isEmpty() ? QString() : tr(" (%1)").arg(parts.join(", "));
    const mosaic::RealitySummary& sum = m_summary;
    const QString median = QString::number(100 * sum.medianAbsError, 'f', 1);
    const QString within = QString::number(100 * sum.shareWithin25, 'f', 0);
    const QString runs = countLabel(sum.rows, tr("run"), tr("runs"));
    if (sum.rows == 0) {
        // Runs of yours the filter shows are plotted; the summary is the measured runs'.
        const bool yours = std::any_of(m_points.begin(), m_points.end(),
                                       [](const RealityPoint& p) { return p.yours; });
        if (yours)
            setFittingTitle({tr("Predicted against measured tokens/s per GPU%1: no measured run "
                                "matches the filter, only yours")
                                 .arg(which),
                             tr("Only your runs match the filter")});
        else
            setFittingTitle({tr("Predicted against measured tokens/s per GPU%1: no run matches "
                                "the filter")
                                 .arg(which),
                             tr("No run matches the filter")});
        return;
    }
    const bool logLog = m_mode == Mode::LogLog;
    setFittingTitle(
        {(logLog ? tr("Predicted against measured tokens/s per GPU%1: median |error| %2 %, %3 % "
                      "of %4 within \u00b125 %")
                 : tr("Error of the predicted tokens/s per GPU%1: median |error| %2 %, %3 % of "
                      "%4 within \u00b125 %"))
             .arg(which, median, within, runs),
         (logLog ? tr("Predicted vs measured%1: median |error| %2 %, %3 % of %4 within \u00b125 %")
                 : tr("Prediction error%1: median |error| %2 %, %3 % of %4 within \u00b125 %"))
             .arg(which, median, within, runs),
         tr("Median |error| %1 %, %2 % of %3 within \u00b125 %").arg(median, within, runs)});
}

QString RealityView::caption() const {
    if (!m_report) return {};
    struct Group {
        QStringList models;
        int runs = 0;
    };
    std::map<std::string, Group> reasons;  // reason -> models and runs
    int notExpressible = 0;
    for (const mosaic::RealityCase& c : m_report->cases) {
        if (c.expressible) continue;
        ++notExpressible;
        Group& g = reasons[c.reason];
        ++g.runs;
        const QString model = QString::fromStdString(c.run.model);
        if (!g.models.contains(model)) g.models << model;
    }
    // Runs out of memory under the model among those the filter shows (a run the filter hides
    // is neither plotted nor out of memory).
    int infeasible = 0;
    for (const mosaic::RealityRow& row : m_report->rows)
        if (!row.eval.feasible && mosaic::realityRowMatches(*m_report, row, m_filter)) ++infeasible;
    const int yoursPlotted = int(std::count_if(m_points.begin(), m_points.end(),
                                               [](const RealityPoint& p) { return p.yours; }));
    QString text =
        tr("%1 of %2 plotted, costed with their published layouts under the megatron-core stack.")
            .arg(m_points.size() - yoursPlotted)
            .arg(countLabel(static_cast<qint64>(m_report->cases.size()), tr("measured run"),
                            tr("measured runs")));
    if (!m_userRows.empty()) {
        text += QLatin1Char(' ') +
                tr("Yours (triangles): %1 of %2 imported from training logs, costed under %3")
                    .arg(yoursPlotted)
                    .arg(countLabel(int(m_userRows.size()), tr("run"), tr("runs")), m_userStack);
        if (m_userSummary.feasible > 0)
            text += tr(": median |error| %1 %")
                        .arg(QString::number(100 * m_userSummary.medianAbsError, 'f', 1));
        text += QLatin1Char('.');
        const int userInfeasible = m_userSummary.rows - m_userSummary.feasible;
        if (userInfeasible > 0)
            text += QLatin1Char(' ') +
                    tr("%1 of yours out of memory under the model: not plotted, and left out of a "
                       "calibration.")
                        .arg(countLabel(userInfeasible, tr("run"), tr("runs")));
    }
    if (!m_calibrationNote.isEmpty()) text += QLatin1Char(' ') + m_calibrationNote;
    if (!m_userProblems.isEmpty())
        text += QLatin1Char(' ') + tr("Runs of yours that cannot be read, not plotted: %1.")
                                       .arg(m_userProblems.join(QStringLiteral("; ")));
    if (infeasible > 0)
        text += QLatin1Char(' ') + tr("%1 out of memory under the model, not plotted.")
                                       .arg(countLabel(infeasible, tr("run"), tr("runs")));
    if (notExpressible > 0) {
        QStringList parts;
        for (const auto& [reason, g] : reasons)
            parts << tr("%1 (%2): %3")
                         .arg(g.models.join(QStringLiteral(", ")),
                              countLabel(g.runs, tr("run"), tr("runs")),
                              QString::fromStdString(reason));
        text += QLatin1Char(' ') + tr("%1 not costed, not plotted: %2.")
                                       .arg(countLabel(notExpressible, tr("run"), tr("runs")),
                                            parts.join(QStringLiteral("; ")));
    }
    return text;
}

QString RealityView::csv() const {
    QString out = QStringLiteral(
        "system,model,container,gpus,precision,layout,measured_tokens_per_s_per_gpu,"
        "predicted_tokens_per_s_per_gpu,error\n");
    for (const RealityPoint& p : m_points)
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                   .arg(csvField(p.system), csvField(p.model), csvField(p.container))
                   .arg(p.gpus)
                   .arg(csvField(p.precision), csvField(p.layout),
                        QString::number(p.measured, 'g', 10), QString::number(p.predicted, 'g', 10),
                        QString::number(p.error, 'g', 6));
    return out;
}

void RealityView::applyTheme() { requestRebuild(); }

QAbstractAxis* RealityView::shownY() {
    // Both y axes stay on the chart (Qt 6.4 leaves a removed axis drawn); the mode's one is
    // visible and carries every series.
    QAbstractAxis* want = m_mode == Mode::LogLog ? static_cast<QAbstractAxis*>(m_y) : m_yError;
    QAbstractAxis* other = m_mode == Mode::LogLog ? static_cast<QAbstractAxis*>(m_yError) : m_y;
    const auto series = chart()->series();
    for (QAbstractSeries* s : series)
        if (s->attachedAxes().contains(other)) {
            s->detachAxis(other);
            s->attachAxis(want);
        }
    if (other->isVisible()) other->setVisible(false);
    if (!want->isVisible()) want->setVisible(true);
    return want;
}

void RealityView::rebuild() {
    shownY();
    ChartView::applyTheme();  // also styles the legend markers of series added since
    const bool dark = currentTheme() == Theme::Dark;
    const bool logLog = m_mode == Mode::LogLog;
    // The plan's nearest runs that are plotted, and the plan itself.
    QList<QPointF> rings;
    for (const mosaic::RealityNeighbour& n : m_nearest)
        for (const RealityPoint& p : std::as_const(m_points))
            if (!p.yours && p.row == n.row)
                rings.append(logLog ? QPointF(p.measured, p.predicted)
                                    : QPointF(p.measured, 100 * p.error));
    const bool plan = m_plan && m_plan->predicted > 0;
    // x (and y on log axes): every measured and predicted throughput, and the plan's.
    Bounds extent;
    for (const RealityPoint& p : std::as_const(m_points)) extent.add(p.measured, p.predicted);
    if (plan) extent.add(m_plan->predicted, m_plan->predicted);
    const bool any = !m_points.isEmpty() || plan;
    const double lo = any ? std::min(extent.xLo, extent.yLo) : 100;
    const double hi = any ? std::max(extent.xHi, extent.yHi) : 100000;
    const auto [a, b] = decadeRange(lo / 1.3, hi * 1.3);
    m_x->setRange(a, b);
    for (auto it = m_seriesPoints.cbegin(); it != m_seriesPoints.cend(); ++it) {
        QList<QPointF> pts;
        for (int i : it.value())
            pts.append(logLog ? QPointF(m_points[i].measured, m_points[i].predicted)
                              : QPointF(m_points[i].measured, 100 * m_points[i].error));
        if (QScatterSeries* s = m_series.value(it.key())) s->replace(pts);
    }
    if (logLog) {
        m_y->setRange(a, b);
        m_identity->replace({QPointF(a, a), QPointF(b, b)});
        m_band->lowerSeries()->replace({QPointF(a, 0.75 * a), QPointF(b, 0.75 * b)});
        m_band->upperSeries()->replace({QPointF(a, 1.25 * a), QPointF(b, 1.25 * b)});
    } else {
        double eLo = -25, eHi = 25;  // the band always shows
        for (const RealityPoint& p : std::as_const(m_points)) {
            eLo = std::min(eLo, 100 * p.error);
            eHi = std::max(eHi, 100 * p.error);
        }
        eLo = 10 * std::floor((eLo - 5) / 10);
        eHi = 10 * std::ceil((eHi + 5) / 10);
        m_yError->setRange(eLo, eHi);
        // Round ticks from 0, as many as fit one above the other (Qt Charts elides the labels
        // to "..." where they do not: a short plot at 800x600).
        const double plotHeight = chart()->plotArea().height();
        const int lineHeight = QFontMetrics(m_yError->labelsFont()).height() + 4;
        const int fit = plotHeight > 0 ? std::max(2, int(plotHeight / lineHeight)) : 11;
        double step = 10;
        for (double s : {10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 500.0, 1000.0}) {
            step = s;
            if ((eHi - eLo) / s + 1 <= fit) break;
        }
        m_yError->setTickType(QValueAxis::TicksDynamic);
        m_yError->setTickAnchor(0);
        m_yError->setTickInterval(step);
        m_identity->replace({QPointF(a, 0), QPointF(b, 0)});
        m_band->lowerSeries()->replace({QPointF(a, -25), QPointF(b, -25)});
        m_band->upperSeries()->replace({QPointF(a, 25), QPointF(b, 25)});
    }
    m_nearestSeries->replace(rings);
    m_nearestSeries->setVisible(!rings.isEmpty());
    m_planSeries->replace(plan ? QList<QPointF>{logLog
                                                    ? QPointF(m_plan->predicted, m_plan->predicted)
                                                    : QPointF(m_plan->predicted, 0)}
                               : QList<QPointF>{});
    m_planSeries->setVisible(plan);
    QColor fill = dark ? QColor(0x80, 0x80, 0x80) : QColor(0x99, 0x99, 0x99);
    fill.setAlphaF(dark ? 0.35 : 0.30);
    m_band->setBrush(fill);
    m_band->setPen(QPen(fill.darker(130), 1, Qt::DashLine));
    const QColor ink = dark ? QColor(0xE8, 0xE8, 0xE8) : QColor(0x20, 0x20, 0x20);
    m_identity->setPen(QPen(ink, 1.4));
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it) {
        const QColor c = it.key() == yoursKey()
                             ? (dark ? QColor(0x66, 0xBB, 0x6A) : QColor(0x1B, 0x7A, 0x3E))
                             : systemColor(it.key());
        it.value()->setColor(c);
        // The user's runs are outlined in ink, so that they stand out among the shipped runs.
        it.value()->setBorderColor(it.key() == yoursKey() ? ink
                                   : dark                 ? QColor(0x26, 0x28, 0x2b)
                                                          : QColor(Qt::white));
    }
    const QColor accent = dark ? QColor(0xFF, 0xC1, 0x07) : QColor(0xC2, 0x18, 0x5B);
    m_nearestSeries->setColor(Qt::transparent);
    m_nearestSeries->setBorderColor(accent);
    m_nearestSeries->setPen(QPen(accent, 2.2));
    m_planSeries->setColor(accent);
    m_planSeries->setBorderColor(ink);
    QFont f = font();
    f.setPointSizeF(9);
    m_caption->setFont(f);
    m_caption->setDefaultTextColor(ink);
    const QString sentence = planSentence(), text = caption();
    // Shorter forms are whole sentences (no "...": a cut text reads as elided); the whole text
    // is the caption's tooltip then.
    m_captionForms = {sentence.isEmpty() ? text : sentence + QLatin1Char('\n') + text};
    if (!sentence.isEmpty())
        m_captionForms << firstSentence(sentence) + QLatin1Char('\n') + firstSentence(text);
    m_captionForms << firstSentence(text);
    // One line: the count of runs plotted ("90 of 112 measured runs plotted.").
    const qsizetype clause = text.indexOf(QLatin1Char(','));
    if (clause > 0) m_captionForms << text.left(clause) + QLatin1Char('.');
    m_captionForms.removeDuplicates();
    placeHeader();
    placeCaption();
}

QPoint RealityView::markerPosition(int i) const {
    if (i < 0 || i >= m_points.size()) return {-1, -1};
    const RealityPoint& p = m_points[i];
    QScatterSeries* s = m_series.value(p.system);
    if (!s) return {-1, -1};
    const QPointF value = m_mode == Mode::LogLog ? QPointF(p.measured, p.predicted)
                                                 : QPointF(p.measured, 100 * p.error);
    return mapFromScene(chart()->mapToScene(chart()->mapToPosition(value, s)));
}

int RealityView::markerAt(const QPoint& viewportPos) const {
    int best = -1;
    double bestD = kHoverPixels;
    for (int i = 0; i < m_points.size(); ++i) {
        const QPoint at = markerPosition(i);
        const double d = std::hypot(at.x() - viewportPos.x(), at.y() - viewportPos.y());
        if (d <= bestD) bestD = d, best = i;
    }
    if (m_planSeries->isVisible() && m_planSeries->count() == 1) {
        const QPoint at = mapFromScene(
            chart()->mapToScene(chart()->mapToPosition(m_planSeries->at(0), m_planSeries)));
        const double d = std::hypot(at.x() - viewportPos.x(), at.y() - viewportPos.y());
        if (d < bestD) best = -2;
    }
    return best;
}

HoverTable RealityView::hoverAt(const QPoint& viewportPos) const {
    const int i = markerAt(viewportPos);
    HoverTable t;
    if (i == -2 && m_plan) {
        t.heading = tr("Current plan: %1, %2")
                        .arg(QString::fromStdString(m_plan->hardware),
                             countLabel(m_plan->gpus, tr("GPU"), tr("GPUs")));
        t.rows.append(
            {tr("predicted"), tr("%1 tokens/s per GPU").arg(m_plan->predicted, 0, 'f', 0)});
        t.rows.append({tr("stack"), QString::fromStdString(m_plan->stack)});
        t.rows.append({tr("precision"), QString::fromStdString(m_plan->precision).toUpper()});
        return t;
    }
    if (i < 0) return t;
    const RealityPoint& p = m_points[i];
    t.heading = p.yours ? tr("Yours: %1 (%2), %3, %4")
                              .arg(p.model, p.container, countLabel(p.gpus, tr("GPU"), tr("GPUs")),
                                   p.precision.toUpper())
                        : tr("%1 on %2, %3, %4")
                              .arg(p.model, p.system, countLabel(p.gpus, tr("GPU"), tr("GPUs")),
                                   p.precision.toUpper());
    t.rows.append({tr("measured"), tr("%1 tokens/s per GPU").arg(p.measured, 0, 'f', 0)});
    t.rows.append({tr("predicted"), tr("%1 tokens/s per GPU").arg(p.predicted, 0, 'f', 0)});
    t.rows.append({tr("error"), signedPercent(p.error)});
    t.rows.append({tr("layout"), p.layout});
    t.rows.append(p.yours ? HoverRow{tr("stack"), p.stack} : HoverRow{tr("release"), p.container});
    return t;
}

QString RealityView::shownCaption() const {
    return m_caption ? m_caption->toPlainText() : QString();
}

QString RealityView::captionToolTip() const { return m_caption ? m_caption->toolTip() : QString(); }

void RealityView::placeCaption() {
    if (!m_caption) return;
    const qreal width = std::max(200, this->width() - 24);
    const qreal drawn = m_caption->boundingRect().height();  // the margin was set for it
    m_caption->setTextWidth(width);
    // The room under the plot: the caption's present share of the chart plus what the plot has
    // beyond its least height (its one-line y title's length, as ChartView keeps it).
    if (QGraphicsLayout* l = chart()->layout()) l->activate();
    const QAbstractAxis* y = m_mode == Mode::LogLog ? static_cast<QAbstractAxis*>(m_y) : m_yError;
    const QVariant source = y->property("tandemTitleSource");
    const QString title = plainChartText(source.isValid() ? source.toString() : y->titleText())
                              .replace(QLatin1Char('\n'), QLatin1Char(' '));
    const qreal least = std::max(50, QFontMetrics(y->titleFont()).horizontalAdvance(title) + 9);
    const qreal room = drawn + chart()->plotArea().height() - least;
    for (const QString& form : std::as_const(m_captionForms)) {
        if (m_caption->toPlainText() != form) m_caption->setPlainText(form);
        if (m_caption->boundingRect().height() <= room) break;
    }
    m_caption->setToolTip(m_captionForms.isEmpty() || m_caption->toPlainText() == m_captionForms[0]
                              ? QString()
                              : m_captionForms[0]);
    // The view needs room for the shortest form only (ChartView::textsHeight): a longer one
    // drawn while the view was taller does not keep it taller.
    if (!m_captionForms.isEmpty()) {
        const std::unique_ptr<QTextDocument> shortest(m_caption->document()->clone());
        shortest->setPlainText(m_captionForms.back());
        shortest->setTextWidth(width);
        setProperty("tandemShrinkableBottom",
                    int(m_caption->boundingRect().height() - shortest->size().height()));
    }
    const qreal h = m_caption->boundingRect().height();
    QMargins m = chart()->margins();
    m.setBottom(static_cast<int>(h) + 6);
    chart()->setMargins(m);
    m_caption->setPos(12, chart()->size().height() - h - 2);
}

}  // namespace tandem::ui
