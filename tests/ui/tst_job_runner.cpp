// The coalescing worker: only the newest request is delivered, stale ones are cancelled or
// dropped, the GUI thread never blocks.
#include <QThread>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <thread>

#include "test_main.h"
#include "ui/shell/job_runner.h"

using tandem::ui::JobRunner;
using tandem::ui::TypedJobRunner;

class TstJobRunner : public QObject {
    Q_OBJECT
private slots:
    void deliversOnlyTheLatest() {
        JobRunner runner;
        QList<int> delivered;
        std::atomic<int> started{0};
        connect(&runner, &JobRunner::resultReady, this,
                [&](const std::any& v, quint64) { delivered.append(std::any_cast<int>(v)); });
        for (int i = 1; i <= 6; ++i) {
            runner.submit([i, &started](const tandem::CancelFlag* cancel) -> std::any {
                ++started;
                for (int k = 0; k < 50; ++k) {  // ~50 ms of polled work
                    tandem::throwIfCancelled(cancel);
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
                return i;
            });
        }
        QVERIFY(runner.isBusy());
        QVERIFY(runner.waitIdle(5000));
        QCOMPARE(delivered, QList<int>{6});
        QVERIFY(started.load() <= 2);  // the first (cancelled) and the last; 2..5 coalesced away
        QCOMPARE(runner.latestGeneration(), quint64(6));
    }
    void reportsFailures() {
        JobRunner runner;
        QSignalSpy failed(&runner, &JobRunner::failed);
        runner.submit(
            [](const tandem::CancelFlag*) -> std::any { throw std::runtime_error("bad input"); });
        QVERIFY(runner.waitIdle(5000));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.front().front().toString(), QStringLiteral("bad input"));
    }
    void busySignalPairs() {
        JobRunner runner;
        QSignalSpy busy(&runner, &JobRunner::busyChanged);
        runner.submit([](const tandem::CancelFlag*) -> std::any { return 1; });
        runner.submit([](const tandem::CancelFlag*) -> std::any { return 2; });
        QVERIFY(runner.waitIdle(5000));
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
    }
    /// The typed runner hands each result over as its own type, only the newest of a burst.
    void typedResults() {
        QObject owner;
        TypedJobRunner<std::pair<int, QString>> runner(&owner);
        QList<std::pair<int, QString>> got;
        runner.onResult(&owner, [&](const std::pair<int, QString>& r, quint64) { got.append(r); });
        std::atomic<bool> release{false};
        runner.submit([&release](const tandem::CancelFlag*) {
            while (!release) QThread::msleep(1);
            return std::pair<int, QString>(1, QStringLiteral("one"));
        });
        runner.submit([](const tandem::CancelFlag*) {
            return std::pair<int, QString>(2, QStringLiteral("two"));
        });
        release = true;
        QVERIFY(runner.runner()->waitIdle(5000));
        QCOMPARE(got.size(), qsizetype(1));
        QCOMPARE(got.front().first, 2);
        QCOMPARE(got.front().second, QStringLiteral("two"));
    }
};

TANDEM_TEST_MAIN(TstJobRunner)
#include "tst_job_runner.moc"
