#include "recording/PoolRecorder.h"

#include "recording/RecordingWriter.h"

#include <QCoreApplication>
#include <QThread>

namespace poolscope {

namespace {

// Members at each end of a big pool that get a series on every poll (as in the history).
constexpr qsizetype kEdgeMembers = 10;

} // namespace

// Owns the writer on the recorder's thread; every call arrives queued, in order.
class PoolRecorder::Worker : public QObject {
    Q_OBJECT

public:
    std::unique_ptr<RecordingWriter> writer;

    void writePoll(const RecordingPoll &poll) {
        if (!writer)
            return;
        QString error;
        if (writer->appendPoll(poll, &error))
            Q_EMIT pollWritten(poll.timeMs);
        else
            Q_EMIT writeFailed(error);
    }

    void writeEvent(const RecordingEvent &event, bool once) {
        if (!writer)
            return;
        QString error;
        if (!(once ? writer->appendEventOnce(event, &error) : writer->appendEvent(event, &error)))
            Q_EMIT writeFailed(error);
    }

Q_SIGNALS:
    void pollWritten(qint64 timeMs);
    void writeFailed(const QString &message);
};

PoolRecorder::PoolRecorder(QObject *parent)
    : QObject(parent)
    , m_thread(std::make_unique<QThread>()) {
    m_thread->setObjectName(QStringLiteral("poolscope-recorder"));
    m_worker = new Worker; // deleted on its thread when the thread finishes
    m_worker->moveToThread(m_thread.get());
    connect(m_thread.get(), &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &Worker::pollWritten, this, &PoolRecorder::pollWritten);
    connect(m_worker, &Worker::writeFailed, this, &PoolRecorder::writeFailed);
    m_thread->start();
}

PoolRecorder::~PoolRecorder() {
    close();
    m_thread->quit();
    m_thread->wait();
}

bool PoolRecorder::open(const QString &path, const RecordingInfo &info, QString *error) {
    close();
    bool opened = false;
    QString message;
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(
        m_worker,
        [worker, &path, &info, &opened, &message] {
            worker->writer = RecordingWriter::open(path, info, &message);
            opened = worker->writer != nullptr;
        },
        Qt::BlockingQueuedConnection);
    if (!opened) {
        if (error)
            *error = message;
        return false;
    }
    m_open = true;
    m_path = path;
    return true;
}

void PoolRecorder::close() {
    if (!m_open)
        return;
    Worker *worker = m_worker;
    // Queued after every poll and event already sent: they are written first.
    QMetaObject::invokeMethod(
        m_worker, [worker] { worker->writer.reset(); }, Qt::BlockingQueuedConnection);
    m_open = false;
    // The worker's last pollWritten / writeFailed are queued to this thread: emit them now.
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

void PoolRecorder::setWholePoolLimit(int members) {
    m_wholePoolLimit = std::max(0, members);
}

void PoolRecorder::setPinnedMembers(const QList<QByteArray> &members) {
    m_pinned = QSet<QByteArray>(members.begin(), members.end());
}

void PoolRecorder::setChartedMembers(const QList<QByteArray> &members) {
    m_charted = QSet<QByteArray>(members.begin(), members.end());
}

RecordingPoll PoolRecorder::pollFrom(const PoolObservation &observation, int wholePoolLimit,
                                     const QSet<QByteArray> &pinned,
                                     const QSet<QByteArray> &charted) {
    RecordingPoll poll;
    poll.timeMs = observation.timeMs;
    const PoolStats &stats = observation.stats;
    poll.min = stats.min;
    poll.median = stats.median;
    poll.max = stats.max;
    poll.total = stats.total;
    poll.memberCount = stats.size;
    poll.evictedCount = stats.evicted;
    if (observation.summaryMode) {
        // A big pool's summary already holds only the ends and the pinned members.
        QSet<QByteArray> seen;
        const auto add = [&](const QByteArray &member, double count) {
            if (!seen.contains(member)) {
                seen.insert(member);
                poll.members.append({member, count});
            }
        };
        for (const RankedMember &member : observation.summary.bottom)
            add(member.member, member.count);
        for (const RankedMember &member : observation.summary.top)
            add(member.member, member.count);
        for (const PoolMember &member : observation.summary.pinned)
            add(member.member, member.count);
        return poll;
    }
    const QList<PoolMember> &members = observation.snapshot.members;
    if (members.size() <= wholePoolLimit) {
        poll.members = members;
        return poll;
    }
    // Too many to record whole: the ends of the pool (a snapshot is in rank order), the pinned
    // and the charted members.
    const qsizetype edge = std::min<qsizetype>(kEdgeMembers, members.size());
    for (qsizetype i = 0; i < members.size(); ++i)
        if (i < edge || i >= members.size() - edge || pinned.contains(members[i].member) ||
            charted.contains(members[i].member))
            poll.members.append(members[i]);
    return poll;
}

void PoolRecorder::recordObservation(const PoolObservation &observation) {
    if (m_open)
        recordPoll(pollFrom(observation, m_wholePoolLimit, m_pinned, m_charted));
}

void PoolRecorder::recordPoll(const RecordingPoll &poll) {
    if (!m_open)
        return;
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(
        m_worker, [worker, poll] { worker->writePoll(poll); }, Qt::QueuedConnection);
}

void PoolRecorder::recordEvent(const RecordingEvent &event) {
    if (!m_open)
        return;
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(
        m_worker, [worker, event] { worker->writeEvent(event, false); }, Qt::QueuedConnection);
}

void PoolRecorder::recordEventOnce(const RecordingEvent &event) {
    if (!m_open)
        return;
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(
        m_worker, [worker, event] { worker->writeEvent(event, true); }, Qt::QueuedConnection);
}

void PoolRecorder::markGap(qint64 timeMs, const QString &reason) {
    RecordingEvent event;
    event.timeMs = timeMs;
    event.kind = RecordingEventKind::Gap;
    event.label = reason;
    recordEvent(event);
}

} // namespace poolscope

#include "PoolRecorder.moc"
