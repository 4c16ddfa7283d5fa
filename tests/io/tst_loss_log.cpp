// Loss logs and the L(S) = L_inf + A (S + S0)^(-alpha) fit: the real llm.c GPT-2 124M log
// (fit within 0.05 of the last logged loss), exact recovery on synthetic curves, CSV variants and
// malformed inputs.
#include <QtTest>
#include <cmath>

#include "io/loss_fit.h"
#include "io/loss_log.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::io;

namespace {
bool anyIssue(const Diagnostics& d, const std::string& path, const std::string& fragment) {
    for (const auto& i : d.items())
        if (i.path == path && i.message.find(fragment) != std::string::npos) return true;
    return false;
}

double curve(double s) { return 2.0 + 5.0 * std::pow(s + 10.0, -0.5); }
}  // namespace

class TstLossLog : public QObject {
    Q_OBJECT
private slots:
    void llmcLogFit() {
        Diagnostics d("llmc");
        const auto log = loadLossLogFile(
            std::string(TANDEM_TEST_DATA) + "/losslogs/llmc-gpt2-124M-10B-8xH100.txt", d);
        QVERIFY2(log, d.str().c_str());
        QVERIFY(log->format == LossLogFormat::Llmc);
        QCOMPARE(log->series.size(), std::size_t(2));
        const LossSeries* val = log->preferred();
        QVERIFY(val && val->validation);
        QCOMPARE(val->step.size(), std::size_t(80));  // tel: every 250 steps plus the last
        QCOMPARE(val->step.back(), 19560.0);
        QCOMPARE(val->loss.back(), 3.2722);
        const auto fit = fitLossCurve(val->step, val->loss, d);
        QVERIFY2(fit, d.str().c_str());
        QVERIFY(fit->converged);
        QVERIFY(fit->rmse > 0 && fit->rmse < 0.1);
        QVERIFY(std::isfinite(fit->seLInf) && fit->seLInf > 0);
        QVERIFY(std::isfinite(fit->seAlpha) && fit->seAlpha > 0);
        const double last = predictLoss(*fit, val->step.back());
        QVERIFY2(std::abs(last - 3.2722) <= 0.05, qPrintable(QString::number(last)));
        // The train series (19,560 noisy points) also lands near the logged validation loss.
        const LossSeries* train = nullptr;
        for (const auto& s : log->series)
            if (!s.validation) train = &s;
        QVERIFY(train);
        QCOMPARE(train->step.size(), std::size_t(19560));
        const auto tf = fitLossCurve(train->step, train->loss, d);
        QVERIFY2(tf, d.str().c_str());
        QVERIFY(std::abs(predictLoss(*tf, 19560) - 3.2722) <= 0.05);
    }

    void exactRecoveryFromCsv() {
        std::string csv = "step,train_loss,val_loss\n";
        for (int s = 0; s <= 4000; s += 100)
            csv += std::to_string(s) + "," + std::to_string(curve(s)) + "," +
                   (s % 500 == 0 ? std::to_string(curve(s)) : "") + "\n";
        Diagnostics d;
        const auto log = parseLossLog(csv, d);
        QVERIFY2(log, d.str().c_str());
        QVERIFY(log->format == LossLogFormat::Csv);
        QCOMPARE(log->series.size(), std::size_t(2));
        const LossSeries* train = &log->series[0];
        QCOMPARE(train->name, std::string("train_loss"));
        QCOMPARE(train->step.size(), std::size_t(41));
        QCOMPARE(log->series[1].step.size(), std::size_t(9));  // blank cells skipped
        QVERIFY(log->series[1].validation);
        const auto fit = fitLossCurve(train->step, train->loss, d);
        QVERIFY2(fit, d.str().c_str());
        // std::to_string keeps 6 decimals, so recovery is to about that precision.
        QVERIFY(std::abs(fit->lInf - 2.0) < 2e-3);
        QVERIFY(std::abs(fit->alpha - 0.5) < 5e-3);
        QVERIFY(std::abs(fit->a - 5.0) < 0.05);
        QVERIFY(std::abs(fit->s0 - 10.0) < 0.2);
        QVERIFY(fit->rmse < 1e-5);
    }

    void wandbStyleExport() {
        const std::string csv =
            "\"Step\",\"run-7 - train/loss\",\"run-7 - train/loss__MIN\"\n"
            "0,\"10.9\",\"10.9\"\n10,\"8.1\",\"8.0\"\n20,,\n30,\"6.2\",\"6.1\"\n";
        Diagnostics d;
        const auto log = parseLossLog(csv, d);
        QVERIFY2(log, d.str().c_str());
        QCOMPARE(log->series.size(), std::size_t(2));
        QCOMPARE(log->series[0].name, std::string("run-7 - train/loss"));
        QCOMPARE(log->series[0].step, (std::vector<double>{0, 10, 30}));
        QCOMPARE(log->series[0].loss, (std::vector<double>{10.9, 8.1, 6.2}));
    }

    void formatNamesRoundTrip() {
        QCOMPARE(enumNames(lossLogFormatNames()),
                 (std::vector<std::string>{"llmc", "nanogpt", "csv"}));
        for (const auto& e : lossLogFormatNames())
            QVERIFY(enumFromName(lossLogFormatNames(), name(e.value)) == e.value);
        QVERIFY(!enumFromName(lossLogFormatNames(), "tsv"));
        QVERIFY(lossLogFormat({"s:0 trl:10.5", "s:1 tel:9.0"}) == LossLogFormat::Llmc);
        QVERIFY(lossLogFormat({"NCCL INFO x", "iter 3: loss 4.2"}) == LossLogFormat::NanoGpt);
        QVERIFY(lossLogFormat({"step,loss", "0,10"}) == LossLogFormat::Csv);
    }

    void tabSeparatedAndNanoGpt() {
        Diagnostics d;
        const auto tsv = parseLossLog("iter\tloss\n0\t10.5\n1\t9.5\n", d);
        QVERIFY2(tsv, d.str().c_str());
        QCOMPARE(tsv->series[0].loss, (std::vector<double>{10.5, 9.5}));
        const auto nano = parseLossLog(
            "step 0: train loss 10.9876, val loss 10.9912\n"
            "iter 0: loss 10.9811, time 1234.56ms, mfu -100.00%\n"
            "iter 10: loss 9.1234, time 100.00ms, mfu 30.00%\n"
            "step 250: train loss 5.1, val loss 5.2\n",
            d);
        QVERIFY2(nano, d.str().c_str());
        QVERIFY(nano->format == LossLogFormat::NanoGpt);
        const LossSeries* train = nullptr;
        const LossSeries* val = nullptr;
        const LossSeries* trainEval = nullptr;
        for (const auto& s : nano->series)
            (s.validation ? val : s.name == "train_eval" ? trainEval : train) = &s;
        QVERIFY(train && val && trainEval);
        QCOMPARE(val->step, (std::vector<double>{0, 250}));
        // The per-iteration loss and the periodic evaluation on training batches are separate
        // series (one series with both would repeat step 0).
        QCOMPARE(train->step, (std::vector<double>{0, 10}));
        QCOMPARE(trainEval->step, (std::vector<double>{0, 250}));
    }

    void malformedInputs_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("bad loss cell") << "step,loss\n0,10.1\n1,abc\n"
                                       << "line 3, column \"loss\""
                                       << "must be a finite number";
        QTest::newRow("negative step") << "step,loss\n0,10.1\n-5,9\n"
                                       << "line 3, column \"step\""
                                       << "must be a number >= 0";
        QTest::newRow("no step column") << "epoch,loss\n0,1\n"
                                        << "line 1"
                                        << "no step column";
        QTest::newRow("no loss column") << "step,accuracy\n0,1\n"
                                        << "line 1"
                                        << "no loss column";
        QTest::newRow("llmc bad step") << "s:0 trl:11.0\ns:x trl:10.0\n"
                                       << "line 2"
                                       << "after \"s:\"";
        QTest::newRow("llmc bad loss") << "s:0 trl:11.0\ns:1 trl:nan\n"
                                       << "line 2"
                                       << "after \"trl:\"";
        // Nonsense logs that must not be fitted (they were, with exit 0).
        QTest::newRow("steps backwards")
            << "step,loss\n100,5\n80,4.5\n60,4\n40,3.8\n20,3.6\n0,3.5\n"
            << "line 3"
            << "step 80 is not after step 100 (line 2)";
        QTest::newRow("steps backwards, count") << "step,loss\n100,5\n80,4.5\n60,4\n"
                                                << "line 3"
                                                << "(1 more such steps after it)";
        QTest::newRow("all steps 0") << "step,loss\n0,5\n0,4.5\n0,4\n0,3.8\n0,3.6\n"
                                     << "line 3"
                                     << "step 0 is not after step 0";
        QTest::newRow("negative loss") << "step,loss\n0,-5\n10,-6\n20,-7\n30,-8\n40,-9\n"
                                       << "line 2, column \"loss\""
                                       << "loss must be > 0 (got -5)";
        QTest::newRow("zero loss later") << "step,loss\n0,5\n10,4\n20,0\n"
                                         << "line 4, column \"loss\""
                                         << "loss must be > 0 (got 0)";
        QTest::newRow("llmc steps backwards") << "s:10 trl:5\ns:20 trl:4\ns:15 trl:3\n"
                                              << "line 3"
                                              << "step 15 is not after step 20 (line 2)";
        QTest::newRow("nanogpt negative loss") << "iter 0: loss 5.0\niter 1: loss -1.0\n"
                                               << "line 2"
                                               << "loss must be > 0 (got -1)";
        QTest::newRow("huge steps backwards") << "step,loss\n2e300,5\n1e300,4\n"
                                              << "line 3"
                                              << "step 1e+300 is not after step 2e+300";
        // Losses no cross-entropy takes: a 1e300 spike, and 1e-300 values that fitted a
        // negative floor (L_inf = -2.9e-303).
        QTest::newRow("loss beyond any cross-entropy")
            << "s:0 trl:11.0\ns:1 trl:1e300\ns:2 trl:10.5\n"
            << "line 2"
            << "loss must be at most 1000 (got 1e+300): a cross-entropy starts near ln(vocabulary)";
        QTest::newRow("loss just above the bound") << "step,loss\n0,10\n1,1000.5\n"
                                                   << "line 3, column \"loss\""
                                                   << "loss must be at most 1000 (got 1000.5)";
        QTest::newRow("losses below float32 rounding")
            << "step,loss\n1,5e-300\n2,4e-300\n3,3e-300\n"
            << "line 2, column \"loss\""
            << "loss must be at least 1e-20 (got 5e-300): a mean of float32 per-token losses is 0 "
               "or above it (2 more losses outside [1e-20, 1000] after it)";
        QTest::newRow("empty") << ""
                               << "file"
                               << "no loss values found";
        QTest::newRow("header only") << "step,loss\n"
                                     << "file"
                                     << "no loss values found";
    }
    void malformedInputs() {
        QFETCH(QString, text);
        QFETCH(QString, path);
        QFETCH(QString, fragment);
        Diagnostics d;
        QVERIFY(!parseLossLog(text.toStdString(), d));
        QVERIFY2(anyIssue(d, path.toStdString(), fragment.toStdString()), d.str().c_str());
    }

    void stepErrorReportedOncePerCsvLine() {
        // Two loss columns share the step column: one step error, not one per column.
        Diagnostics d;
        QVERIFY(!parseLossLog("step,train_loss,val_loss\n10,5,5.1\n5,4,4.1\n", d));
        QCOMPARE(d.items().size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(d.items()[0].path), QStringLiteral("line 3"));
    }

    void fitRejectsBadSeries() {
        Diagnostics d;
        QVERIFY(!fitLossCurve({0, 1, 2}, {3, 2, 1}, d));
        QVERIFY(anyIssue(d, "$", "at least 5 points at distinct steps (got 3)"));
        Diagnostics dd;  // six points on three steps: the count is of distinct steps
        QVERIFY(!fitLossCurve({0, 0, 1, 1, 2, 2}, {3, 2.9, 2, 1.9, 1, 0.9}, dd));
        QVERIFY2(anyIssue(dd, "$", "(got 3)"), dd.str().c_str());
        Diagnostics dn;
        QVERIFY(!fitLossCurve({0, 1, 2, 3, 4}, {3, 2, 1, -1, -2}, dn));
        QVERIFY2(anyIssue(dn, "$[3]", "loss finite and > 0"), dn.str().c_str());
        Diagnostics d2;
        QVERIFY(!fitLossCurve({0, 1, 2, 3, 4}, {2, 2, 2, 2, 2}, d2));
        QVERIFY(anyIssue(d2, "$", "all losses are equal"));
        Diagnostics d3;
        QVERIFY(!fitLossCurve({0, 1, 2, 3}, {2, 2, 2}, d3));
        QVERIFY(anyIssue(d3, "$", "differ in length"));
    }

    void risingLossFitIsNotUsable() {
        // A rising loss is not usable (it was fitted to alpha 1e-12, S0 7e21 with no word).
        Diagnostics d;
        const auto f = fitLossCurve({0, 10, 20, 30, 40, 50}, {3, 3.5, 4, 4.5, 5, 5.5}, d);
        QVERIFY2(f, d.str().c_str());
        QVERIFY(!f->usable);
        const auto has = [&](const char* frag) {
            for (const auto& w : f->warnings)
                if (w.find(frag) != std::string::npos) return true;
            return false;
        };
        QVERIFY(has("is at its lower bound"));
        QVERIFY(has("the loss does not fall over the log (first 3, last 5.5)"));
        const auto j = lossFitToJson(*f);
        QCOMPARE(j.at("usable").get<bool>(), false);
        QCOMPARE(j.at("warnings").size(), f->warnings.size());
    }

    void soundFitIsUsable() {
        std::vector<double> s, l;
        for (int i = 0; i < 40; ++i) {
            s.push_back(i * 25.0);
            l.push_back(curve(i * 25.0));
        }
        Diagnostics d;
        const auto f = fitLossCurve(s, l, d);
        QVERIFY(f);
        QVERIFY2(f->warnings.empty(), f->warnings.empty() ? "" : f->warnings.front().c_str());
        QVERIFY(f->usable);
        QCOMPARE(lossFitToJson(*f).at("warnings").size(), std::size_t(0));
    }

    void negativeFloorFitWarns() {
        // Losses from a curve with L_inf = -1: the fit finds the negative floor and says so.
        std::vector<double> s, l;
        for (int i = 0; i < 30; ++i) {
            s.push_back(i * 10.0);
            l.push_back(-1.0 + 20.0 * std::pow(i * 10.0 + 10.0, -0.5));
        }
        Diagnostics d;
        const auto f = fitLossCurve(s, l, d);
        QVERIFY2(f, d.str().c_str());
        QVERIFY(f->lInf < 0);
        QVERIFY(!f->usable);
        QVERIFY(!f->warnings.empty());
        QVERIFY(f->warnings.front().find("L_inf = ") == 0);
        QVERIFY(f->warnings.front().find("is below 0") != std::string::npos);
    }

    void fitIsDeterministic() {
        std::vector<double> s, l;
        for (int i = 0; i < 50; ++i) {
            s.push_back(i * 20.0);
            l.push_back(curve(i * 20.0) + ((i * 7919) % 13 - 6) * 1e-3);
        }
        Diagnostics d;
        const auto a = fitLossCurve(s, l, d), b = fitLossCurve(s, l, d);
        QVERIFY(a && b);
        QCOMPARE(lossFitToJson(*a).dump(), lossFitToJson(*b).dump());
    }
};

TANDEM_TEST_APPLESS_MAIN(TstLossLog)
#include "tst_loss_log.moc"
