#pragma once
// Runs engine computations off the GUI thread, keeping only the latest request.
#include <QFutureWatcher>
#include <QObject>
#include <any>
#include <functional>
#include <memory>
#include <optional>

#include "common/cancel.h"

namespace tandem::ui {

/// Coalescing background runner for one engine call (one per workspace).
///
/// submit() hands a task (a closure that owns a *copy* of its inputs) to a QtConcurrent thread.
/// While a task runs, newer submissions replace each other (only the latest is kept) and the
/// running task's CancelFlag is raised so the engine can stop early (tandem::Cancelled).
/// When a task ends, the pending one starts. A result is delivered through resultReady() only if
/// no newer request exists (stale results are dropped), on the GUI thread. Never blocks.
class JobRunner : public QObject {
    Q_OBJECT
public:
    /// The task receives the cancel flag to poll; it returns the result (any copyable value) or
    /// throws (tandem::Cancelled, or std::exception whose what() becomes failed()'s message).
    using Task = std::function<std::any(const tandem::CancelFlag*)>;

    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override;

    /// Queues `task` as the latest request; starts it now if idle. Returns its generation number.
    quint64 submit(Task task);
    /// True while a task is running or pending.
    bool isBusy() const { return m_running || m_pending.has_value(); }
    /// Generation of the newest submitted request (0 before the first).
    quint64 latestGeneration() const { return m_latest; }
    /// Blocks (spinning the event loop) until idle or `timeoutMs` elapsed; for tests/exports.
    bool waitIdle(int timeoutMs);

signals:
    /// The newest request finished; `generation` is its number from submit().
    void resultReady(const std::any& result, quint64 generation);
    /// The newest request threw; `message` is the exception text.
    void failed(const QString& message, quint64 generation);
    /// Emitted when the runner goes from idle to busy and back.
    void busyChanged(bool busy);

private:
    struct Outcome {
        std::any value;
        QString error;
        bool cancelled = false;
    };
    void startNext();
    void onFinished();

    QFutureWatcher<Outcome> m_watcher;
    std::optional<Task> m_pending;
    quint64 m_pendingGen = 0;
    quint64 m_runningGen = 0;
    quint64 m_latest = 0;
    bool m_running = false;
    std::shared_ptr<tandem::CancelFlag> m_cancel;
};

}  // namespace tandem::ui

namespace tandem::ui {

/// A JobRunner whose tasks all return an `R`: submit() takes a task returning `R` and
/// onResult() hands `const R&` to its callback, so no caller casts a result. The runner itself
/// (its busy state, waitIdle, failed()) is runner(), owned by the `parent` given.
template <class R>
class TypedJobRunner {
public:
    explicit TypedJobRunner(QObject* parent) : m_runner(new JobRunner(parent)) {}
    JobRunner* runner() const { return m_runner; }
    /// As JobRunner::submit, for a task returning `R`.
    quint64 submit(std::function<R(const tandem::CancelFlag*)> task) {
        return m_runner->submit(
            [task = std::move(task)](const tandem::CancelFlag* cancel) -> std::any {
                return task(cancel);
            });
    }
    /// Calls `f(const R& result, quint64 generation)` for each result delivered (resultReady),
    /// in `context`'s thread while `context` lives.
    template <class F>
    void onResult(QObject* context, F f) {
        QObject::connect(m_runner, &JobRunner::resultReady, context,
                         [f = std::move(f)](const std::any& value, quint64 generation) {
                             f(std::any_cast<const R&>(value), generation);
                         });
    }

private:
    JobRunner* m_runner;
};

}  // namespace tandem::ui
