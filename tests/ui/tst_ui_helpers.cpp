// Pure helpers of the UI layer: decimation, time-weighted smoothing, display units, palette.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QComboBox>
#include <QDeadlineTimer>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QFuture>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtConcurrent>
#include <QtTest>
#include <cmath>

#include "mosaic/envelope.h"
#include "test_main.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mosaic/candidate_table.h"
#include "ui/mosaic/layout_cells.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/widgets/collapsible_section.h"
#include "ui/widgets/control_rows.h"
#include "ui/widgets/count_label.h"
#include "ui/widgets/decimate.h"
#include "ui/widgets/file_dialog.h"
#include "ui/widgets/hover.h"
#include "ui/widgets/labeled_slider.h"
#include "ui/widgets/number_spin_box.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/smoothing.h"
#include "ui/widgets/text_fit.h"
#include "ui/widgets/units.h"
#include "ui/widgets/workspace_layout.h"

using namespace tandem::ui;

class TstUiHelpers : public QObject {
    Q_OBJECT
private slots:
    /// A number typed in exponent notation is read whole (QDoubleSpinBox kept "1e22" as 122);
    /// one outside the range is not taken, and plain numbers work as before.
    void numberSpinBoxReadsExponents() {
        tandem::ui::NumberSpinBox box;
        box.setRange(0, 1e30);
        box.setDecimals(2);
        box.setSuffix(QStringLiteral(" GB/s"));
        box.setKeyboardTracking(false);
        box.show();
        QLineEdit* edit = box.findChild<QLineEdit*>();
        QVERIFY(edit);
        auto type = [&](const QString& text) {
            edit->selectAll();
            QTest::keyClicks(edit, text);
            QTest::keyClick(edit, Qt::Key_Return);
        };
        type(QStringLiteral("1e22"));
        QCOMPARE(box.value(), 1e22);
        type(QStringLiteral("2.5E-1"));
        QCOMPARE(box.value(), 0.25);
        type(QStringLiteral("1e40"));  // beyond the range: the value stays
        QCOMPARE(box.value(), 0.25);
        type(QStringLiteral("130"));
        QCOMPARE(box.value(), 130.0);
        int pos = 0;
        QString partial = QStringLiteral("3e");
        QCOMPARE(box.validate(partial, pos), QValidator::Intermediate);
        QString garbage = QStringLiteral("3e5e");
        QCOMPARE(box.validate(garbage, pos), QValidator::Invalid);
    }
    /// Ctrl+Z in a box whose typed number was taken (Enter) reaches the window's Undo action:
    /// the line edit's own history is empty then, and it used to take the key and do nothing.
    /// While typing, Ctrl+Z stays the line edit's (it undoes the keystrokes).
    void undoAfterEnterReachesTheWindow() {
        QMainWindow window;
        auto* box = new tandem::ui::IntSpinBox;
        box->setRange(0, 100);
        box->setKeyboardTracking(false);
        window.setCentralWidget(box);
        auto* undo = new QAction(QStringLiteral("Undo"), &window);
        undo->setShortcut(QKeySequence::Undo);
        window.addAction(undo);
        QSignalSpy undone(undo, &QAction::triggered);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        box->setFocus();
        QLineEdit* edit = box->findChild<QLineEdit*>();
        edit->selectAll();
        QTest::keyClicks(box, QStringLiteral("42"));
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(box->value(), 42);
        QTest::keyClick(box, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(undone.count(), 1);
        // Typing again: Ctrl+Z undoes the keystroke in the box, not the window's last edit.
        QTest::keyClicks(box, QStringLiteral("7"));
        QVERIFY(edit->isUndoAvailable());
        QTest::keyClick(box, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(undone.count(), 1);
    }
    /// A number outside a box's range is refused with a message naming the field, the number and
    /// the range, and the box keeps its value. Qt's boxes dropped the keystrokes instead: "-5" in
    /// a box whose minimum is 5 became 5, "1e308" in one whose maximum is 130 became 130, without
    /// a word. Both kinds of box (whole numbers, decimals) and every way they are made.
    void numberBoxesRefuseOutOfRangeWithAMessage_data() {
        QTest::addColumn<QString>("made");  // slider / intRow / doubleRow
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("start");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("message");  // empty: taken
        QTest::newRow("below the minimum") << "slider" << 5.0 << 130.0 << 64.0 << "-5" << 64.0
                                           << "Nodes: -5 is below the minimum 5 (accepted: 5 to "
                                              "130 nodes); the value stays 64 nodes";
        QTest::newRow("exponent above the maximum")
            << "slider" << 1.0 << 130.0 << 64.0 << "1e308" << 64.0
            << "Nodes: 1e308 is above the maximum 130 (accepted: 1 to 130 nodes); the value stays "
               "64 nodes";
        QTest::newRow("more digits than the maximum")
            << "slider" << 1.0 << 130.0 << 64.0 << "1308" << 64.0
            << "Nodes: 1308 is above the maximum 130 (accepted: 1 to 130 nodes); the value stays "
               "64 nodes";
        QTest::newRow("in range") << "slider" << 1.0 << 130.0 << 64.0 << "100" << 100.0 << "";
        QTest::newRow("exponent in range")
            << "slider" << 1.0 << 130.0 << 64.0 << "1.2e2" << 120.0 << "";
        QTest::newRow("fraction in a whole-number box")
            << "intRow" << 0.0 << 50.0 << 8.0 << "2.5" << 8.0
            << "Jobs: 2.5 is not a whole number (accepted: 0 to 50); the value stays 8";
        QTest::newRow("too large for a double")
            << "doubleRow" << 0.05 << 1.0 << 0.9 << "1e400" << 0.9
            << "Goodput: 1e400 is above the maximum 1 (accepted: 0.05 to 1); the value stays "
               "0.90";
        QTest::newRow("decimal below the minimum")
            << "doubleRow" << 0.05 << 1.0 << 0.9 << "-0.5" << 0.9
            << "Goodput: -0.5 is below the minimum 0.05 (accepted: 0.05 to 1); the value stays "
               "0.90";
        QTest::newRow("decimal in range")
            << "doubleRow" << 0.05 << 1.0 << 0.9 << "0.5" << 0.5 << "";
    }
    void numberBoxesRefuseOutOfRangeWithAMessage() {
        QFETCH(QString, made);
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, start);
        QFETCH(QString, typed);
        QFETCH(double, value);
        QFETCH(QString, message);
        QMainWindow window;
        auto* central = new QWidget(&window);
        auto* form = new QFormLayout(central);
        window.setCentralWidget(central);
        QAbstractSpinBox* box = nullptr;
        std::function<double()> current;
        SpinBoxRefusal* shared = nullptr;  // the state both kinds of box keep
        if (made == QLatin1String("slider")) {
            auto* slider = new LabeledSlider(QStringLiteral("Nodes"), QStringLiteral("%1"), int(lo),
                                             int(hi), 1, QString(), central);
            form->addRow(slider);
            slider->setValueSilently(int(start));
            auto* b = qobject_cast<IntSpinBox*>(slider->addNumberBox(QStringLiteral(" nodes")));
            QVERIFY(b);
            box = b;
            current = [b]() { return double(b->value()); };
            shared = b;
        } else if (made == QLatin1String("intRow")) {
            auto* b = qobject_cast<IntSpinBox*>(
                addIntRow(form, QStringLiteral("Jobs"), int(lo), int(hi), QString(), QString()));
            QVERIFY(b);
            b->setValue(int(start));
            box = b;
            current = [b]() { return double(b->value()); };
            shared = b;
        } else {
            auto* b = qobject_cast<NumberSpinBox*>(addDoubleRow(form, QStringLiteral("Goodput"), lo,
                                                                hi, 2, 0.05, QString(), QString()));
            QVERIFY(b);
            b->setValue(start);
            box = b;
            current = [b]() { return b->value(); };
            shared = b;
        }
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QLineEdit* edit = box->findChild<QLineEdit*>();
        QVERIFY(edit);
        box->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, typed);
        // Every keystroke kept, none dropped silently (the box keeps its suffix after them).
        QCOMPARE(edit->text(), typed + box->property("suffix").toString());
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(current(), value);
        QCOMPARE(shared->refusal(), message);
        if (message.isEmpty()) return;
        QCOMPARE(window.statusBar()->currentMessage(), message);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), message);
        // The next number taken clears it.
        edit->selectAll();
        QTest::keyClicks(edit, QString::number(start));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(shared->refusal(), QString());
    }

    /// The range in a refusal is written readably: a large whole number in full with digit
    /// groups, not as "1e+09" (the Fabric box's maximum read "1e+09 GB/s"); a small or huge
    /// fraction with a bare exponent; up to four digits as before.
    void refusalWritesTheRangeReadably_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<QString>("message");
        QTest::newRow("above 1e9") << 2e9 << 1.0 << 1e9
                                   << "Box: x is above the maximum 1,000,000,000 (accepted: 1 to "
                                      "1,000,000,000 GB/s); the value stays k";
        QTest::newRow("five digits") << -1.0 << 0.0 << 16384.0
                                     << "Box: x is below the minimum 0 (accepted: 0 to 16,384 "
                                        "GB/s); the value stays k";
        QTest::newRow("four digits") << 5000.0 << 280.0 << 4000.0
                                     << "Box: x is above the maximum 4000 (accepted: 280 to 4000 "
                                        "GB/s); the value stays k";
        QTest::newRow("small and huge ends")
            << 1e-9 << 2.5e-7 << 1e20
            << "Box: x is below the minimum 2.5e-7 (accepted: 2.5e-7 to 1e20 GB/s); the value "
               "stays k";
        QTest::newRow("fractions") << 2.0 << 0.05 << 1.0
                                   << "Box: x is above the maximum 1 (accepted: 0.05 to 1 GB/s); "
                                      "the value stays k";
    }
    void refusalWritesTheRangeReadably() {
        QFETCH(double, value);
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(QString, message);
        QCOMPARE(
            tandem::ui::numberRefusal(QStringLiteral("Box"), QStringLiteral("x"), value, false, lo,
                                      hi, QStringLiteral(" GB/s"), QStringLiteral("k"), false),
            message);
    }

    /// Painted texts: one cut by its box, one outside the widget, two overlapping, each found
    /// once; texts side by side that only touch are not.
    void drawnTextProblemsFindCutOutsideAndOverlap() {
        const QSizeF size(200, 100);
        QList<DrawnText> fine{{QStringLiteral("a"), QRectF(0, 0, 50, 20), QRectF(0, 0, 40, 20)},
                              {QStringLiteral("b"), QRectF(50, 0, 50, 20), QRectF(50, 0, 50, 20)}};
        QVERIFY(drawnTextProblems(QStringLiteral("v"), size, fine).isEmpty());
        const QList<DrawnText> cut{
            {QStringLiteral("wide"), QRectF(0, 0, 30, 20), QRectF(0, 0, 45, 20)}};
        const QStringList c = drawnTextProblems(QStringLiteral("v"), size, cut);
        QCOMPARE(c.size(), 1);
        QVERIFY(c.front().contains(QStringLiteral("cut")));
        const QList<DrawnText> out{
            {QStringLiteral("far"), QRectF(180, 90, 40, 20), QRectF(180, 90, 40, 20)}};
        QVERIFY(drawnTextProblems(QStringLiteral("v"), size, out)
                    .front()
                    .contains(QStringLiteral("outside")));
        fine.append({QStringLiteral("c"), QRectF(40, 5, 30, 20), QRectF(40, 5, 30, 20)});
        const QStringList o = drawnTextProblems(QStringLiteral("v"), size, fine);
        QCOMPARE(o.size(), 2);  // "c" overlaps both "a" and "b"
        QVERIFY(o.front().contains(QStringLiteral("overlap")));
    }

    /// The network view's colours: the foreground blue, background jobs cycling through five
    /// colours, an idle node grey; the utilisation ramp from grey to vermillion, clamped.
    void jobAndUtilisationColours() {
        QCOMPARE(jobColor(-1), QColor(0x00, 0x72, 0xB2));
        QCOMPARE(jobColor(0), jobColor(kJobColours));
        QVERIFY(jobColor(0) != jobColor(1) && jobColor(1) != jobColor(-1));
        QCOMPARE(utilisationColor(1), QColor(0xD5, 0x5E, 0x00));
        QCOMPARE(utilisationColor(2), utilisationColor(1));
        QCOMPARE(utilisationColor(-1), utilisationColor(0));
        QVERIFY(utilisationColor(0).lightness() > utilisationColor(0.5).lightness());
    }

    void candidateCountsShareOneUnitPerColumn() {
        // 0.9 T and 1.2 T tokens, 40 B and 380 B total parameters, 2 B and 15 B active: each
        // column in the unit of its largest value, named in the header.
        std::vector<tandem::mosaic::Candidate> rows(2);
        rows[0].tokens = 9e11;
        rows[1].tokens = 1.2e12;
        rows[0].geometry.nTot = 4e10;
        rows[1].geometry.nTot = 3.8e11;
        rows[0].geometry.nAct = 2e9;
        rows[1].geometry.nAct = 1.5e10;
        rows[1].extrapolated = true;
        CandidateModel m;
        m.setCandidates(rows, 50);
        const auto header = [&](int col) {
            return m.headerData(col, Qt::Horizontal, Qt::DisplayRole).toString();
        };
        const auto cell = [&](int row, int col) {
            return m.data(m.index(row, col), Qt::DisplayRole).toString();
        };
        QCOMPARE(header(6), QStringLiteral("N_act (B)"));
        QCOMPARE(header(7), QStringLiteral("N_tot (B)"));
        QCOMPARE(header(9), QStringLiteral("D (T)"));
        QCOMPARE(header(11), QStringLiteral("Loss (* extrapolated)"));
        QCOMPARE(cell(0, 9), QStringLiteral("0.90"));
        QCOMPARE(cell(1, 9), QStringLiteral("1.20"));
        QCOMPARE(cell(0, 7), QStringLiteral("40.0"));
        QCOMPARE(cell(1, 7), QStringLiteral("380"));
        QCOMPARE(cell(0, 6), QStringLiteral("2.00"));
        QVERIFY(cell(1, 11).endsWith(QLatin1Char('*')));
        QVERIFY(!cell(0, 11).endsWith(QLatin1Char('*')));
        // No extrapolated row: the plain header; counts below a million: no unit.
        rows[1].extrapolated = false;
        rows[0].tokens = rows[1].tokens = 5e5;
        m.setCandidates(rows, 50);
        QCOMPARE(header(11), QStringLiteral("Loss"));
        QCOMPARE(header(9), QStringLiteral("D"));
    }
    void decimateKeepsEndsAndPeaks() {
        QList<QPointF> pts;
        for (int i = 0; i < 10000; ++i) pts.append(QPointF(i, std::sin(i * 0.01)));
        pts[5000].setY(7.0);  // a single spike must survive
        const QList<QPointF> out = decimateMinMax(pts, 100);
        QVERIFY(out.size() <= 2 * 100 + 2 + 100);
        QVERIFY(out.size() >= 100);
        QCOMPARE(out.front(), pts.front());
        QCOMPARE(out.back(), pts.back());
        double maxY = -1;
        for (const QPointF& p : out) maxY = std::max(maxY, p.y());
        QCOMPARE(maxY, 7.0);
        for (qsizetype i = 1; i < out.size(); ++i) QVERIFY(out[i].x() >= out[i - 1].x());
    }
    void planLabels() {
        tandem::mosaic::Plan p;
        p.tp = 1;
        p.ep = 8;
        p.pp = 8;
        p.cp = 1;
        p.dp = 32;
        p.mbs = 4;
        p.ckpt = tandem::mosaic::Checkpointing::Selective;
        QCOMPARE(QString::fromStdString(planAxesLabel(p)),
                 QStringLiteral("TP 1, EP 8, PP 8, CP 1, DP 32"));
        QCOMPARE(QString::fromStdString(planLabel(p)),
                 QStringLiteral("TP 1, EP 8, PP 8, CP 1, DP 32, mb 4, selective"));
    }
    void decimateSmallInputUnchanged() {
        const QList<QPointF> pts{{0, 1}, {1, 2}, {2, 3}};
        QCOMPARE(decimateMinMax(pts, 100), pts);
        QCOMPARE(decimateMinMax(pts, 0), pts);
    }
    void smoothingRespectsSpacing() {
        // A step from 0 to 1: after a gap of tau the EMA covers 1 - e^-1 of it, whatever the
        // number of samples before.
        const double tau = 2.0;
        const QList<QPointF> pts{{0, 0}, {0.1, 0}, {0.2, 0}, {2.2, 1}};
        const QList<QPointF> out = smoothTimeWeighted(pts, tau);
        QCOMPARE(out.size(), pts.size());
        QVERIFY(std::abs(out[3].y() - (1 - std::exp(-1.0))) < 1e-12);
        // Sampling a constant signal twice as densely changes nothing (time-consistent); a plain
        // EMA would move further with more samples.
        const QList<QPointF> twoSteps = smoothTimeWeighted({{0, 0}, {1.0, 1}, {2.0, 1}}, 2.0);
        const QList<QPointF> oneStep = smoothTimeWeighted({{0, 0}, {2.0, 1}}, 2.0);
        QVERIFY(std::abs(twoSteps.back().y() - oneStep.back().y()) < 1e-12);
        QCOMPARE(smoothTimeWeighted(pts, 0), pts);
    }
    void timeUnits_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("divisor");
        QTest::newRow("seconds") << 90.0 << 1.0;
        QTest::newRow("minutes") << 3000.0 << 60.0;
        QTest::newRow("hours") << 20000.0 << 3600.0;
    }
    void timeUnits() {
        QFETCH(double, seconds);
        QFETCH(double, divisor);
        QCOMPARE(chooseTimeUnit(seconds).divisor, divisor);
    }
    void formatting() {
        QCOMPARE(formatDuration(5400), QStringLiteral("90.0 min"));
        QCOMPARE(formatDuration(NAN), QStringLiteral("not reached"));
        QCOMPARE(formatRatio(1.4249), QStringLiteral("x1.42"));
    }
    void fixedPolicyColours() {
        const QStringList policies{"Static",    "Knob-Precision", "Knob-GA",
                                   "Decoupled", "Joint",          "Oracle"};
        QSet<QRgb> seen;
        for (const QString& p : policies) seen.insert(policyColor(p).rgb());
        QCOMPARE(seen.size(), policies.size());
        QCOMPARE(policyColor("Joint"), QColor(0x00, 0x72, 0xB2));  // Okabe-Ito blue
        QCOMPARE(comboColor("GA16-MXFP4"), comboColor("GA16-MXFP4"));
    }
    void countLabelPicksTheNoun_data() {
        QTest::addColumn<qint64>("count");
        QTest::addColumn<QString>("singular");
        QTest::addColumn<QString>("plural");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one node") << qint64(1) << "node"
                                  << "nodes"
                                  << "1 node";
        QTest::newRow("one day") << qint64(1) << "day"
                                 << "days"
                                 << "1 day";
        QTest::newRow("one job") << qint64(1) << "job"
                                 << "jobs"
                                 << "1 job";
        QTest::newRow("one GPU") << qint64(1) << "GPU"
                                 << "GPUs"
                                 << "1 GPU";
        QTest::newRow("zero jobs") << qint64(0) << "job"
                                   << "jobs"
                                   << "0 jobs";
        QTest::newRow("two nodes") << qint64(2) << "node"
                                   << "nodes"
                                   << "2 nodes";
        QTest::newRow("eleven days") << qint64(11) << "day"
                                     << "days"
                                     << "11 days";
        QTest::newRow("twenty-one GPUs") << qint64(21) << "GPU"
                                         << "GPUs"
                                         << "21 GPUs";
        QTest::newRow("irregular plural") << qint64(3) << "geometry"
                                          << "geometries"
                                          << "3 geometries";
        QTest::newRow("minus one") << qint64(-1) << "day"
                                   << "days"
                                   << "-1 day";
    }
    void countLabelPicksTheNoun() {
        QFETCH(qint64, count);
        QFETCH(QString, singular);
        QFETCH(QString, plural);
        QFETCH(QString, expected);
        QCOMPARE(countLabel(count, singular, plural), expected);
    }
    /// A counted slider row reads "1 node" at 1 and "2 nodes" at 2, whether set silently or
    /// dragged.
    void countSliderFollowsItsValue() {
        QWidget panel;
        auto* layout = new QVBoxLayout(&panel);
        LabeledSlider* s = addCountSlider(
            layout,
            {QStringLiteral("testSlider"), QStringLiteral("Nodes"), QStringLiteral("node"),
             QStringLiteral("nodes"), 1, 8, QStringLiteral("tooltip")},
            &panel);
        QCOMPARE(s->objectName(), QStringLiteral("testSlider"));
        QCOMPARE(layout->indexOf(s), 0);
        QCOMPARE(s->valueText(), QStringLiteral("1 node"));
        s->setValueSilently(2);
        QCOMPARE(s->valueText(), QStringLiteral("2 nodes"));
        s->slider()->setValue(1);
        QCOMPARE(s->value(), 1);
        QCOMPARE(s->valueText(), QStringLiteral("1 node"));
        LabeledSlider percent(QStringLiteral("Smoothing"), QStringLiteral("%1 %"), 0, 95, 5,
                              QString());
        percent.setValueSilently(35);
        QCOMPARE(percent.valueText(), QStringLiteral("35 %"));
    }
    /// Every counted slider of both side panels says "1 node", "1 day", "1 job" at one.
    void sidePanelSlidersUseTheSingularAtOne() {
        MoeControls moe;
        NetworkControls net;
        moe.nodesSlider()->setValueSilently(1);
        moe.daysSlider()->setValueSilently(1);
        net.nodesSlider()->setValueSilently(1);
        net.backgroundSlider()->setValueSilently(1);
        QCOMPARE(moe.nodesSlider()->valueText(), QStringLiteral("1 node"));
        QCOMPARE(moe.daysSlider()->valueText(), QStringLiteral("1 day"));
        QCOMPARE(net.nodesSlider()->valueText(), QStringLiteral("1 node"));
        QCOMPARE(net.backgroundSlider()->valueText(), QStringLiteral("1 job"));
        moe.nodesSlider()->setValueSilently(32);
        moe.daysSlider()->setValueSilently(20);
        net.backgroundSlider()->setValueSilently(0);
        QCOMPARE(moe.nodesSlider()->valueText(), QStringLiteral("32 nodes"));
        QCOMPARE(moe.daysSlider()->valueText(), QStringLiteral("20 days"));
        QCOMPARE(net.backgroundSlider()->valueText(), QStringLiteral("0 jobs"));
        QCOMPARE(moe.findChild<LabeledSlider*>(QStringLiteral("moeDaysSlider")), moe.daysSlider());
        QCOMPARE(net.findChild<LabeledSlider*>(QStringLiteral("backgroundSlider")),
                 net.backgroundSlider());
    }
    /// The crosshair's model step: lines interpolated, markers read at the nearest point,
    /// segments of one curve give one value, nothing outside a line's x range.
    void hoverValuesAtX() {
        const QList<QPointF> line = {{0, 10}, {2, 14}, {4, 6}};
        QCOMPARE(interpolateAt(line, 1), 12.0);
        QCOMPARE(interpolateAt(line, 3), 10.0);
        QCOMPARE(interpolateAt(line, 4), 6.0);
        QCOMPARE(interpolateAt(line, 0), 10.0);
        QVERIFY(std::isnan(interpolateAt(line, 4.5)));
        QVERIFY(std::isnan(interpolateAt(line, -0.1)));
        QVERIFY(std::isnan(interpolateAt({}, 1)));
        QCOMPARE(nearestByX({{1, 5}, {3, 7}}, 2.2, 1.0), 1);
        QCOMPARE(nearestByX({{1, 5}, {3, 7}}, 2.0, 1.0), 0);  // a tie: the first
        QCOMPARE(nearestByX({{1, 5}, {3, 7}}, 5.0, 1.0), -1);
        const std::vector<HoverSeries> series = {
            {QStringLiteral("A"), {{0, 1}, {1, 3}}, true},
            {QStringLiteral("B"), {{0, 0}, {0.4, 2}}, true},  // first segment of B
            {QStringLiteral("B"), {{0.6, 4}, {1, 8}}, true},  // second segment of B
            {QStringLiteral("C"), {{0.45, 9}, {0.9, 1}}, false}};
        const std::vector<HoverValue> at05 = valuesAt(series, 0.5, 0.1);
        QCOMPARE(at05.size(), size_t(2));  // B has a gap at 0.5
        QCOMPARE(at05[0].name, QStringLiteral("A"));
        QCOMPARE(at05[0].y, 2.0);
        QCOMPARE(at05[1].name, QStringLiteral("C"));
        QCOMPARE(at05[1].y, 9.0);
        const std::vector<HoverValue> at08 = valuesAt(series, 0.8, 0.05);
        QCOMPARE(at08.size(), size_t(2));
        QCOMPARE(at08[1].name, QStringLiteral("B"));
        QCOMPARE(at08[1].y, 6.0);
        HoverTable t{QStringLiteral("t = 1"),
                     QStringLiteral("Loss"),
                     {{QStringLiteral("A"), QStringLiteral("2")}}};
        QCOMPARE(t.text(), QStringLiteral("t = 1\nLoss\nA: 2"));
    }
    /// The nodes sliders step over a log ladder (three stops per doubling), the days slider in
    /// half days; a value between stops (2.5 days, 300 nodes from a file) is shown as it is.
    void logLadderSliders() {
        const std::vector<double> ladder = logCountLadder(256);
        const std::vector<double> want = {1,  2,  3,  4,  5,  6,  8,  10,  12,  16,  20,
                                          24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256};
        QCOMPARE(ladder, want);
        QCOMPARE(logCountLadder(1), std::vector<double>{1});
        QCOMPARE(logCountLadder(100).back(), 100.0);  // the maximum is always a stop
        QCOMPARE(logCountLadder(100)[logCountLadder(100).size() - 2], 96.0);
        QCOMPARE(dayLabel(2.5), QStringLiteral("2.5 days"));
        QCOMPARE(dayLabel(1), QStringLiteral("1 day"));

        MoeControls moe;
        tandem::mosaic::Envelope e;
        e.days = 2.5;
        e.nodes = 32;
        moe.setEnvelope(e);
        QCOMPARE(moe.daysSlider()->valueText(), QStringLiteral("2.5 days"));
        tandem::mosaic::Envelope back;
        moe.applyTo(back);
        QCOMPARE(back.days, 2.5);
        QCOMPARE(back.nodes, 32);
        e.days = 2.7;  // between stops: inserted, not snapped to 2.5 or 3
        moe.setEnvelope(e);
        QCOMPARE(moe.daysSlider()->valueText(), QStringLiteral("2.7 days"));
        moe.applyTo(back);
        QCOMPARE(back.days, 2.7);

        LabeledSlider* nodes = moe.nodesSlider();
        QSignalSpy changed(nodes, &LabeledSlider::valueChanged);
        nodes->slider()->setFocus();
        QTest::keyClick(nodes->slider(), Qt::Key_Right);  // one stop: 32 -> 40
        QCOMPARE(nodes->value(), 40);
        QTest::keyClick(nodes->slider(), Qt::Key_PageUp);  // a quarter of 22 stops: 5 stops
        QCOMPARE(nodes->value(), 128);
        QTest::keyClick(nodes->slider(), Qt::Key_Left);
        QCOMPARE(nodes->value(), 96);
        QCOMPARE(changed.count(), 3);
        QCOMPARE(changed.last().first().toInt(), 96);
        nodes->setNumber(7);  // not a stop: inserted between 6 and 8, emitted
        QCOMPARE(nodes->value(), 7);
        QCOMPARE(changed.count(), 4);
        QTest::keyClick(nodes->slider(), Qt::Key_Right);
        QCOMPARE(nodes->value(), 8);
        nodes->setValueNote(QStringLiteral("none fits, try 8"));
        QCOMPARE(nodes->valueText(), QStringLiteral("8 nodes: none fits, try 8"));
    }

    /// The wheel over a side-panel control scrolls the panel unless the control has focus:
    /// three notches over an unfocused control leave its value and move the panel; with focus
    /// they change the value. Controls added after the layout are covered too.
    void wheelScrollsThePanelUnlessTheControlHasFocus_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("addedLater");
        for (const char* kind : {"slider", "spin box", "combo box"}) {
            QTest::newRow(kind) << QString::fromLatin1(kind) << false;
            QTest::newRow(qPrintable(QStringLiteral("%1 added later").arg(kind)))
                << QString::fromLatin1(kind) << true;
        }
    }
    void wheelScrollsThePanelUnlessTheControlHasFocus() {
        QFETCH(QString, kind);
        QFETCH(bool, addedLater);
        QWidget workspace;
        auto* panel = new QWidget;
        auto* column = new QVBoxLayout(panel);
        for (int i = 0; i < 30; ++i) column->addWidget(new QLabel(QStringLiteral("row %1").arg(i)));
        auto* holder = new QWidget;
        column->insertWidget(3, holder);
        auto* holderLayout = new QVBoxLayout(holder);
        auto* pages = new QTabWidget;
        pages->addTab(new QWidget, QStringLiteral("page"));
        // Made later, a control is constructed with its parent (it is no control yet when the
        // panel learns of it).
        auto makeControl = [&](QWidget* parent) -> QWidget* {
            if (kind == QLatin1String("slider")) {
                auto* s = new QSlider(Qt::Horizontal, parent);
                s->setRange(1, 60);
                s->setValue(30);
                return s;
            }
            if (kind == QLatin1String("spin box")) {
                auto* s = new QSpinBox(parent);
                s->setRange(1, 60);
                s->setValue(30);
                return s;
            }
            auto* c = new QComboBox(parent);
            for (int i = 0; i < 10; ++i) c->addItem(QString::number(i));
            c->setCurrentIndex(5);
            return c;
        };
        QWidget* control = nullptr;
        if (!addedLater) holderLayout->addWidget(control = makeControl(nullptr));
        layOutWorkspace(&workspace, panel, pages, new QLabel);
        if (addedLater) holderLayout->addWidget(control = makeControl(holder));
        auto* other = new QLineEdit;
        column->addWidget(other);
        workspace.resize(800, 300);
        workspace.show();
        QVERIFY(QTest::qWaitForWindowExposed(&workspace));
        auto value = [&]() {
            if (auto* s = qobject_cast<QAbstractSlider*>(control)) return s->value();
            if (auto* s = qobject_cast<QSpinBox*>(control)) return s->value();
            return qobject_cast<QComboBox*>(control)->currentIndex();
        };
        auto* scroll = workspace.findChild<QScrollArea*>();
        QVERIFY(scroll);
        QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
        auto wheel = [&](QWidget* target) {
            const QPointF local(target->width() / 2.0, target->height() / 2.0);
            for (int notch = 0; notch < 3; ++notch) {
                QWheelEvent e(local, target->mapToGlobal(local), QPoint(), QPoint(0, -120),
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
                QApplication::sendEvent(target, &e);
            }
        };
        const int before = value();
        QApplication::setActiveWindow(&workspace);
        other->setFocus();
        QVERIFY(!control->hasFocus());
        // A spin box's wheel arrives at its line edit, the widget under the cursor.
        QWidget* target = control->focusProxy() ? control->focusProxy() : control;
        wheel(target);
        QCOMPARE(value(), before);
        QVERIFY(scroll->verticalScrollBar()->value() > 0);
        QVERIFY(!control->hasFocus());  // the wheel gives no focus

        const int scrolled = scroll->verticalScrollBar()->value();
        control->setFocus();
        QTRY_VERIFY(control->hasFocus());
        wheel(target);
        QVERIFY2(value() != before, qPrintable(QString::number(value())));
        QCOMPARE(scroll->verticalScrollBar()->value(), scrolled);
        QVERIFY(control->focusPolicy() == Qt::StrongFocus);  // a click or Tab, never the wheel
    }

    /// The icon provider every file dialog shares names a FIFO, a character device and a /proc
    /// file from stat alone: it returns at once (the default provider sniffs a file's contents
    /// for its MIME type, and a read of /proc/kmsg or of a FIFO without a writer blocks the GUI
    /// thread). Asked on a worker thread; a call still blocked after 5 s fails the test, and the
    /// FIFO is then opened for writing so the blocked call can return.
    void fileIconProviderReadsNoContents_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("type");
        QTest::newRow("fifo") << QStringLiteral("fifo") << QStringLiteral("Special file");
        QTest::newRow("dev-zero") << QStringLiteral("/dev/zero") << QStringLiteral("Special file");
        QTest::newRow("proc-file") << QStringLiteral("/proc/self/status") << QStringLiteral("File");
        QTest::newRow("folder") << QStringLiteral("/proc") << QStringLiteral("Folder");
    }
    void fileIconProviderReadsNoContents() {
        QFETCH(QString, what);
        QFETCH(QString, type);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString path = what;
        if (what == QLatin1String("fifo")) {
            path = dir.filePath(QStringLiteral("pipe.json"));
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        }
        const QFileInfo info(path);
        QVERIFY(info.exists());
        SafeFileIconProvider* provider = safeFileIconProvider();
        QFuture<QString> asked = QtConcurrent::run([provider, info]() {
            const QIcon icon = provider->icon(info);
            return provider->type(info) +
                   (icon.isNull() ? QStringLiteral(" (no icon)") : QString());
        });
        QDeadlineTimer deadline(5000);
        while (!asked.isFinished() && !deadline.hasExpired()) QThread::msleep(10);
        const bool returned = asked.isFinished();
        if (!returned && what == QLatin1String("fifo")) {
            const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) ::close(fd);
        }
        asked.waitForFinished();
        QVERIFY2(returned, qPrintable(path + QStringLiteral(": the icon provider blocked")));
        QCOMPARE(asked.result(), type);  // with an icon: no " (no icon)"
    }

    /// The Save dialog refuses a name that exists as a device or a FIFO at once, with a message
    /// naming the file and what it is, and never asks whether to replace it (it asked "null
    /// already exists. Do you want to replace it?" for /dev/null); the dialog stays open for
    /// another name. An existing regular file is still confirmed before it is replaced.
    void saveDialogRefusesNonRegularTargets_data() {
        QTest::addColumn<QString>("target");  // "fifo" and "file": made in a temporary folder
        QTest::addColumn<QString>("said");    // in the one message shown
        QTest::addColumn<bool>("askedToReplace");
        QTest::newRow("character device")
            << "/dev/null"
            << "/dev/null is a character device, not a regular file" << false;
        QTest::newRow("fifo") << "fifo"
                              << "is a FIFO (named pipe), not a regular file" << false;
        QTest::newRow("regular file") << "file"
                                      << "already exists" << true;
    }
    void saveDialogRefusesNonRegularTargets() {
        QFETCH(QString, target);
        QFETCH(QString, said);
        QFETCH(bool, askedToReplace);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString path = target;
        if (target == QLatin1String("fifo")) {
            path = dir.filePath(QStringLiteral("pipe"));
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        } else if (target == QLatin1String("file")) {
            path = dir.filePath(QStringLiteral("plan.sh"));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        QStringList messages;
        bool accepted = false, stayedOpen = false;
        QTimer poll;
        poll.setInterval(20);
        connect(&poll, &QTimer::timeout, &poll, [&]() {
            QWidget* modal = QApplication::activeModalWidget();
            if (auto* box = qobject_cast<QMessageBox*>(modal)) {
                messages << box->text();
                box->defaultButton() ? box->defaultButton()->click() : box->reject();  // "No"
            } else if (auto* d = qobject_cast<QFileDialog*>(modal)) {
                if (!accepted) {
                    accepted = true;
                    // Save pressed on the proposed name (outside this handler: a timer does
                    // not fire again while its handler runs, and a message box loops here).
                    QTimer::singleShot(0, d, [d]() { static_cast<QDialog*>(d)->accept(); });
                } else {
                    stayedOpen = true;
                    poll.stop();
                    d->reject();
                }
            }
        });
        poll.start();
        const QString chosen =
            saveFileName(nullptr, QStringLiteral("Save"), path, QStringLiteral("All files (*)"));
        poll.stop();
        QVERIFY(accepted);
        QCOMPARE(chosen, QString());
        QVERIFY(stayedOpen);
        QCOMPARE(messages.size(), 1);
        QVERIFY2(messages.front().contains(said), qPrintable(messages.front()));
        QCOMPARE(messages.front().contains(QStringLiteral("replace"), Qt::CaseInsensitive),
                 askedToReplace);
        QFileInfo info(path);
        QCOMPARE(info.exists(), true);  // nothing was replaced or removed
    }

    /// prepareFileDialog gives a dialog the shared provider, Qt's own dialog and no custom folder
    /// icons.
    void fileDialogSetUp() {
        QFileDialog dialog;
        prepareFileDialog(dialog);
        QCOMPARE(dialog.iconProvider(),
                 static_cast<QAbstractFileIconProvider*>(safeFileIconProvider()));
        QVERIFY(dialog.testOption(QFileDialog::DontUseNativeDialog));
        QVERIFY(dialog.testOption(QFileDialog::DontUseCustomDirectoryIcons));
    }
};

TANDEM_TEST_MAIN(TstUiHelpers)
#include "tst_ui_helpers.moc"
