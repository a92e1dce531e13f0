// PoolSession's recording side: showing a recording read-only, and a live pool's recorded past.
#include "session/PoolSession.h"

#include "session/RecordingLoader.h"
#include "pool/PoolStats.h"

namespace poolscope {

void PoolSession::showRecording(LoadedRecording &&recording) {
    if (m_hasTarget) {
        m_hasTarget = false;
        m_monitor->disconnectFromServer();
    }
    // Read before keepCurrentPool(), which may move the history away into the kept pools.
    const QList<QByteArray> pinned = m_history->pinnedMembers();
    keepCurrentPool(); // a live pool left for the recording is kept as when switching pools
    m_history = std::move(recording.history);
    m_history->setPinned(pinned);
    m_colors.clear();
    m_recordingPath = recording.path;
    // The server it was recorded from, for the connection bar (connecting there leaves the
    // recording); nothing is connected to.
    const EndpointParseResult recorded = parseEndpoint(recording.info.server);
    m_endpoint = recorded.ok() ? *recorded.endpoint : Endpoint{};
    m_poolKey = recording.info.poolKey;
    m_serverVersion.clear();
    m_lastPollFailure.clear();
    m_serverRefusesWrites.clear();
    m_rates.clear();
    m_charted.clear();
    m_search.reset();
    m_outage = false;
    setStale(false);
    // The table and the pool panel show the recording's last poll.
    PoolObservation last;
    last.timeMs = recording.range.toMs;
    last.snapshot.members = recording.lastCounts;
    QList<double> counts;
    for (const PoolMember &member : recording.lastCounts)
        counts.append(member.count);
    last.stats = computePoolStats(counts);
    last.mode = QStringLiteral("recording (read only)");
    m_latest = last;
    m_lastGoodPollMs = last.timeMs;
    m_firstObservation = false;
    log(LogSeverity::Info, QStringLiteral("recording"),
        QStringLiteral("opened the recording %1 (pool %2 on %3, %4 polls, read only)")
            .arg(recording.path, QString::fromUtf8(recording.info.poolKey), recording.info.server)
            .arg(recording.frames));
    Q_EMIT targetChanged();
    Q_EMIT historyLoaded();
    Q_EMIT observationApplied(*m_latest);
    updateWriteAvailability();
}

void PoolSession::takeFullRecording(std::unique_ptr<PoolHistory> history) {
    if (!history || !isShowingRecording())
        return;
    history->setPinned(m_history->pinnedMembers());
    m_history = std::move(history);
    Q_EMIT historyLoaded();
}

void PoolSession::adoptRecordedPast(std::unique_ptr<PoolHistory> past) {
    if (!past || isShowingRecording())
        return;
    // The recording ends before this connection's first poll (or none came yet): the pool was
    // not watched in between, and no line may join across that time.
    const qint64 pastEnd = past->latestTimeMs();
    if (pastEnd > 0 && (m_firstObservation || m_connectionFirstPollMs > pastEnd))
        past->markGap(pastEnd + 1, tr("not watched"));
    appendNewerHistory(*past, *m_history, pastEnd);
    past->setPinned(m_history->pinnedMembers());
    m_history = std::move(past);
    Q_EMIT historyLoaded();
}

} // namespace poolscope
