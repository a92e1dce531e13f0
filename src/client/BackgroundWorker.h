#pragma once

// The one way to run work off the owner's thread (the dashboard's GUI thread, the CLI's event
// loop): BackgroundWorker, a thread of its own that owns a blocking connection (or a file), and
// runInBackground() for a single job.
//
// The contract:
// - Thread: named (`top` and debuggers show "poolscope-poller"), started by the first post(),
//   with SIGPIPE blocked on it, so a server gone away is a failed write and not a dead process.
//   One owner on one thread drives it.
// - Context: one object lives on the thread (adopt(): a QObject holding the connection, its
//   timers and state; a plain one otherwise). It is deleted on the thread when the thread ends,
//   after the call under way: its destructor is where a lease is released or a file closed.
// - Posting: post() runs a call on the thread, in the order posted. Work on the thread answers
//   through its WorkerLink: deliver() runs a call on the owner's thread, and only while the
//   worker lives (a result for an owner already gone is dropped, never run).
// - Generations: retarget() starts a new generation (another server, key or run). A delivery
//   stamped with an older generation is dropped on arrival, and work in progress sees with
//   WorkerLink::isCurrent() that it was superseded, to stop between two blocking calls.
// - Stop: stop() (and the destructor) makes every generation stale and isStopping() true, drops
//   what is still queued, lets the call under way finish, and waits for the thread at most a
//   bound (kStopWait). Blocking calls are bounded by their command timeout, so the wait normally
//   ends long before; a thread still busy then (a longer timeout, a check round) is left to end
//   on its own and clean up after itself: the owner's thread never hangs on a dead server.
//
// The owner declares its BackgroundWorker after everything a delivery touches (members are
// destroyed in reverse order), or calls stop() first in its destructor.

#include "endpoint/ConnectionOptions.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <utility>

#include <QMetaObject>
#include <QMutex>
#include <QMutexLocker>
#include <QObject>
#include <QString>

class QThread;

namespace poolscope {

namespace worker {

constexpr std::chrono::milliseconds kDefaultCommandTimeout{1000};

// The worker's blocking calls bound how long a disconnect or a stop can wait for it, so a command
// timeout is mandatory, and connecting may take no longer than a command.
inline ConnectionOptions boundedOptions(ConnectionOptions options,
                                        const QString &defaultClientName) {
    if (options.clientName.isEmpty())
        options.clientName = defaultClientName;
    if (options.commandTimeout <= std::chrono::milliseconds::zero())
        options.commandTimeout = kDefaultCommandTimeout;
    if (options.connectTimeout <= std::chrono::milliseconds::zero() ||
        options.connectTimeout > options.commandTimeout)
        options.connectTimeout = options.commandTimeout;
    return options;
}

} // namespace worker

// What work on the worker's thread holds to answer its owner: copyable, and safe to keep and use
// after the owner (and the BackgroundWorker) are gone.
class WorkerLink {
public:
    // Not stopping, and `generation` is the owner's latest.
    bool isCurrent(quint64 generation) const {
        return m_shared->wanted.load(std::memory_order_acquire) == generation;
    }
    bool isStopping() const { return m_shared->stopping.load(std::memory_order_acquire); }
    // Set once the worker stops, for blocking calls that take a stop flag (a check round).
    const std::atomic<bool> *stopFlag() const { return &m_shared->stopping; }

    // Runs function on the owner's thread, unless the worker has stopped by then.
    template <typename Function> void deliver(Function &&function) const {
        const QMutexLocker lock(&m_shared->mutex);
        if (!m_shared->receiver)
            return;
        QMetaObject::invokeMethod(
            m_shared->receiver,
            [shared = m_shared, function = std::forward<Function>(function)]() mutable {
                if (shared->stopping.load(std::memory_order_acquire))
                    return; // stopped by a delivery that ran just before
                ++shared->delivering;
                function();
                --shared->delivering;
            },
            Qt::QueuedConnection);
    }
    // The same, and only if generation is still the owner's latest when it arrives.
    template <typename Function> void deliver(quint64 generation, Function &&function) const {
        deliver(
            [shared = m_shared, generation, function = std::forward<Function>(function)]() mutable {
                if (shared->wanted.load(std::memory_order_acquire) == generation)
                    function();
            });
    }

private:
    friend class BackgroundWorker;
    struct Shared {
        QMutex mutex;
        QObject *receiver = nullptr; // on the owner's thread; null once stopped
        std::atomic<quint64> wanted{0};
        std::atomic<bool> stopping{false};
        int delivering = 0; // owner's thread: a delivery is running (and may stop the worker)
    };
    explicit WorkerLink(std::shared_ptr<Shared> shared)
        : m_shared(std::move(shared)) {}
    std::shared_ptr<Shared> m_shared;
};

class BackgroundWorker {
public:
    static constexpr std::chrono::milliseconds kStopWait{2000};

    explicit BackgroundWorker(const QString &threadName);
    ~BackgroundWorker(); // stop()
    BackgroundWorker(const BackgroundWorker &) = delete;
    BackgroundWorker &operator=(const BackgroundWorker &) = delete;

    // Takes context (a QObject without parent, made on the owner's thread) to live on the thread:
    // post() runs there from now on, and it is deleted on the thread when the thread ends.
    template <typename Context> Context *adopt(Context *context) {
        adoptObject(context);
        return context;
    }
    WorkerLink link() const { return WorkerLink(m_shared); }

    // Owner's thread: a new generation; deliveries stamped with an older one are dropped.
    quint64 retarget();
    quint64 generation() const { return m_generation; }

    // Runs function on the thread, after what was posted before (nothing once stopped).
    template <typename Function> void post(Function &&function) {
        if (!m_context)
            return;
        startThread();
        QMetaObject::invokeMethod(m_context, std::forward<Function>(function),
                                  Qt::QueuedConnection);
    }
    // Runs function on the thread and waits for it. Only for work bounded by the disk (opening or
    // closing a file), never for the network.
    void call(const std::function<void()> &function);
    // Runs the deliveries that have arrived, now (before a close that reports them).
    void runDeliveries();

    // See the contract above. After it, nothing is posted or delivered.
    void stop(std::chrono::milliseconds bound = kStopWait);
    // The same without the wait: several workers asked at once end together (then stop() each).
    void requestStop();

private:
    void adoptObject(QObject *context);
    void startThread();

    std::shared_ptr<WorkerLink::Shared> m_shared;
    QThread *m_thread;                   // deleted by stop() once joined
    std::unique_ptr<QObject> m_receiver; // deliveries run as its events, on the owner's thread
    QObject *m_context = nullptr;        // lives on m_thread
    quint64 m_generation = 0;
};

// Runs work() on a thread of its own, then done(result) on receiver's thread, unless receiver is
// destroyed first: then the job runs to its end on its own (work() must not touch receiver) and
// its result is dropped. For work bounded by the disk or the CPU (reading a file, parsing).
template <typename Work, typename Done>
void runInBackground(QObject *receiver, const QString &threadName, Work work, Done done);

namespace worker_detail {

// Owns a single job's worker; a child of the job's receiver, deleted after the result.
class Job : public QObject {
public:
    Job(QObject *receiver, const QString &threadName)
        : QObject(receiver)
        , worker(threadName) {}
    ~Job() override { worker.stop(std::chrono::milliseconds::zero()); }
    BackgroundWorker worker;
};

} // namespace worker_detail

template <typename Work, typename Done>
void runInBackground(QObject *receiver, const QString &threadName, Work work, Done done) {
    auto *job = new worker_detail::Job(receiver, threadName);
    job->worker.post(
        [link = job->worker.link(), work = std::move(work), done = std::move(done), job]() mutable {
            auto result = std::make_shared<decltype(work())>(work());
            link.deliver([done = std::move(done), result, job]() mutable {
                done(std::move(*result));
                job->deleteLater();
            });
        });
}

} // namespace poolscope
