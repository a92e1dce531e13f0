#include "client/BackgroundWorker.h"

#include "base/BrokenPipe.h"

#include <limits>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>

namespace poolscope {

namespace {

// Stored as the wanted generation once stopped: matches none, so nothing stale starts.
constexpr quint64 kStopped = std::numeric_limits<quint64>::max();

} // namespace

BackgroundWorker::BackgroundWorker(const QString &threadName)
    : m_shared(std::make_shared<WorkerLink::Shared>())
    , m_thread(new QThread)
    , m_receiver(std::make_unique<QObject>()) {
    m_shared->receiver = m_receiver.get();
    m_thread->setObjectName(threadName);
    // Runs on the new thread, before its event loop.
    QObject::connect(m_thread, &QThread::started, m_thread, &blockBrokenPipeOnThisThread,
                     Qt::DirectConnection);
    adoptObject(new QObject);
}

BackgroundWorker::~BackgroundWorker() {
    stop();
}

void BackgroundWorker::adoptObject(QObject *context) {
    context->moveToThread(m_thread);
    // finished is emitted on the thread itself, and its deferred deletions run there after it.
    QObject::connect(m_thread, &QThread::finished, context, &QObject::deleteLater);
    m_context = context;
}

quint64 BackgroundWorker::retarget() {
    m_shared->wanted.store(++m_generation, std::memory_order_release);
    return m_generation;
}

void BackgroundWorker::startThread() {
    if (m_thread && !m_thread->isRunning() && !m_thread->isFinished())
        m_thread->start();
}

void BackgroundWorker::call(const std::function<void()> &function) {
    if (!m_context)
        return;
    startThread();
    QMetaObject::invokeMethod(m_context, function, Qt::BlockingQueuedConnection);
}

void BackgroundWorker::runDeliveries() {
    if (m_receiver)
        QCoreApplication::sendPostedEvents(m_receiver.get(), QEvent::MetaCall);
}

void BackgroundWorker::requestStop() {
    if (!m_thread || m_shared->stopping.load(std::memory_order_acquire))
        return;
    m_shared->wanted.store(kStopped, std::memory_order_release);
    m_shared->stopping.store(true, std::memory_order_release);
    {
        const QMutexLocker lock(&m_shared->mutex);
        m_shared->receiver = nullptr;
    }
    // With it go the deliveries still queued; from within a delivery, once that one returns.
    if (m_shared->delivering > 0)
        m_receiver.release()->deleteLater();
    else
        m_receiver.reset();
    m_context = nullptr;
    startThread(); // never used: started all the same, so the context is deleted on it
    m_thread->quit();
}

void BackgroundWorker::stop(std::chrono::milliseconds bound) {
    if (!m_thread)
        return;
    requestStop();
    QThread *thread = std::exchange(m_thread, nullptr);
    if (thread->wait(QDeadlineTimer(bound))) {
        delete thread;
        return;
    }
    // Still in a blocking call: it ends on its own, deletes its context, then the thread object.
    QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    if (thread->isFinished()) { // finished between the wait and the connection
        thread->wait();
        delete thread;
    }
}

} // namespace poolscope
