#include "recording/PoolRecorder.h"

#include "client/BackgroundWorker.h"
#include "pool/MemberSubset.h"
#include "recording/RecordingWriter.h"

namespace poolscope {

namespace {

// Members at each end of a big pool that get a series on every poll (as in the history).
constexpr qsizetype kEdgeMembers = 10;

} // namespace

// The context of the recorder's BackgroundWorker: owns the writer on its thread; every call
// arrives queued, in order. The writer (and the file's lock) goes with it at the latest.
class PoolRecorder::Worker : public QObject {
public:
    Worker(PoolRecorder *recorder, WorkerLink link)
        : m_recorder(recorder)
        , m_link(std::move(link)) {}

    std::unique_ptr<RecordingWriter> writer;

    void writePoll(const RecordingPoll &poll) {
        if (!writer)
            return;
        QString error;
        if (writer->appendPoll(poll, &error))
            m_link.deliver([recorder = m_recorder, timeMs = poll.timeMs] {
                Q_EMIT recorder->pollWritten(timeMs);
            });
        else
            reportFailure(error);
    }

    void writeEvent(const RecordingEvent &event, bool once) {
        if (!writer)
            return;
        QString error;
        if (!(once ? writer->appendEventOnce(event, &error) : writer->appendEvent(event, &error)))
            reportFailure(error);
    }

private:
    void reportFailure(const QString &error) {
        m_link.deliver([recorder = m_recorder, error] { Q_EMIT recorder->writeFailed(error); });
    }

    PoolRecorder *m_recorder; // only named in deliveries
    WorkerLink m_link;
};

PoolRecorder::PoolRecorder(QObject *parent)
    : QObject(parent)
    , m_background(std::make_unique<BackgroundWorker>(QStringLiteral("poolscope-recorder"))) {
    m_worker = m_background->adopt(new Worker(this, m_background->link()));
}

PoolRecorder::~PoolRecorder() {
    close();
}

bool PoolRecorder::open(const QString &path, const RecordingInfo &info, QString *error) {
    close();
    bool opened = false;
    QString message;
    Worker *worker = m_worker;
    m_background->call([worker, &path, &info, &opened, &message] {
        worker->writer = RecordingWriter::open(path, info, &message);
        opened = worker->writer != nullptr;
    });
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
    m_background->call([worker] { worker->writer.reset(); });
    m_open = false;
    // The worker's last pollWritten / writeFailed are queued to this thread: emit them now.
    m_background->runDeliveries();
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
    const MemberSubset kept(pinned + charted); // rules out most members without a hash
    for (qsizetype i = 0; i < members.size(); ++i)
        if (i < edge || i >= members.size() - edge || kept.contains(members[i].member))
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
    m_background->post([worker = m_worker, poll] { worker->writePoll(poll); });
}

void PoolRecorder::recordEvent(const RecordingEvent &event) {
    if (!m_open)
        return;
    m_background->post([worker = m_worker, event] { worker->writeEvent(event, false); });
}

void PoolRecorder::recordEventOnce(const RecordingEvent &event) {
    if (!m_open)
        return;
    m_background->post([worker = m_worker, event] { worker->writeEvent(event, true); });
}

void PoolRecorder::markGap(qint64 timeMs, const QString &reason) {
    RecordingEvent event;
    event.timeMs = timeMs;
    event.kind = RecordingEventKind::Gap;
    event.label = reason;
    recordEvent(event);
}

} // namespace poolscope
