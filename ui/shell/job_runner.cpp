#include "ui/shell/job_runner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace tandem::ui {

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &JobRunner::onFinished);
}

JobRunner::~JobRunner() {
    if (m_cancel) m_cancel->store(true);
    m_pending.reset();
    m_watcher.waitForFinished();
}

quint64 JobRunner::submit(Task task) {
    const bool wasBusy = isBusy();
    m_latest += 1;
    m_pending = std::move(task);
    m_pendingGen = m_latest;
    if (m_running) {
        if (m_cancel) m_cancel->store(true);  // the running request is stale now
    } else {
        startNext();
    }
    if (!wasBusy) emit busyChanged(true);
    return m_latest;
}

void JobRunner::startNext() {
    if (!m_pending) return;
    Task task = std::move(*m_pending);
    m_pending.reset();
    m_runningGen = m_pendingGen;
    m_cancel = std::make_shared<tandem::CancelFlag>(false);
    m_running = true;
    std::shared_ptr<tandem::CancelFlag> flag = m_cancel;
    m_watcher.setFuture(QtConcurrent::run([task = std::move(task), flag]() {
        Outcome out;
        try {
            out.value = task(flag.get());
        } catch (const tandem::Cancelled&) {
            out.cancelled = true;
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

void JobRunner::onFinished() {
    const Outcome out = m_watcher.result();
    const quint64 gen = m_runningGen;
    m_running = false;
    const bool fresh = gen == m_latest;
    if (!fresh) {
        startNext();
    } else if (!out.cancelled) {
        if (out.error.isEmpty())
            emit resultReady(out.value, gen);
        else
            emit failed(out.error, gen);
    }
    if (!isBusy()) emit busyChanged(false);
}

bool JobRunner::waitIdle(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (isBusy() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (isBusy()) QThread::msleep(2);
    }
    return !isBusy();
}

}  // namespace tandem::ui
