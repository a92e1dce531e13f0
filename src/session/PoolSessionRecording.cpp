// PoolSession's recording side: showing a recording read-only, and a live pool's recorded past.
#include "session/PoolSession.h"

#include "session/RecordingLoader.h"
#include "pool/PoolStats.h"

#include <cmath>

namespace poolscope {

namespace {

// The rise of the sum of the counts over the last windowMs of a recording, per second. Only for
// recordings whose last poll has every member (a big pool's sum comes from a slow scan).
std::optional<double> lastRate(const PoolHistory &history, qint64 windowMs) {
    const qint64 toMs = history.latestTimeMs();
    const QList<HistoryPoint> totals = history.totalSeries(toMs - windowMs, toMs);
    // From the last line break (a gap, an outage) on: only polls in a row.
    qsizetype first = totals.size();
    while (first > 0 && !std::isnan(totals[first - 1].count))
        --first;
    if (totals.size() - first < 2)
        return std::nullopt;
    const HistoryPoint &from = totals[first];
    const HistoryPoint &to = totals.constLast();
    if (to.timeMs <= from.timeMs || to.count < from.count)
        return std::nullopt;
    return (to.count - from.count) * 1000.0 / double(to.timeMs - from.timeMs);
}

} // namespace

void PoolSession::showRecording(LoadedRecording &&recording) {
    if (m_hasTarget) {
        m_hasTarget = false;
        m_feed->disconnectFromServer();
    }
    keepCurrentPool(); // a live pool left for the recording is kept as when switching pools
    m_history = std::move(recording.history);
    m_history->setPinned(pins());
    m_colors.clear();
    // Its members get the palette in order, as when polled (unassigned ones would get colours
    // derived from their names, alike for alike names).
    m_colors.assign(m_history->trackedMembers());
    m_recordingPath = recording.path;
    // A big pool's sum comes from a slow scan: no rate from it.
    m_recordingHasEveryMember = recording.lastCounts.size() >= recording.lastMemberCount;
    m_recordingRate =
        m_recordingHasEveryMember ? lastRate(*m_history, m_rates.windowMs()) : std::nullopt;
    // The server it was recorded from, for the connection bar (connecting there leaves the
    // recording); nothing is connected to.
    const EndpointParseResult recorded = parseEndpoint(recording.info.server);
    m_endpoint = recorded.ok() ? *recorded.endpoint : Endpoint{};
    m_poolKey = recording.info.poolKey;
    m_serverVersion.clear();
    m_lastPollFailure.clear();
    setKeyProblem(KeyProblem::Kind::None);
    m_serverRefusesWrites.clear();
    m_rates.clear();
    m_counted.clear(); // the chart's pool rate comes from the recording's sums
    m_countedTotal = 0;
    m_charted.clear();
    m_search.reset();
    setMode(SessionMode::Recording);
    // The table and the pool panel show the recording's last poll.
    PoolObservation last;
    last.timeMs = recording.range.toMs;
    last.snapshot.members = recording.lastCounts;
    QList<double> counts;
    for (const PoolMember &member : recording.lastCounts)
        counts.append(member.count);
    last.stats = computePoolStats(counts);
    last.mode = tr("recording (read only)");
    m_latest = last;
    m_lastGoodPollMs = last.timeMs;
    m_firstObservation = false;
    log(LogSeverity::Info, QStringLiteral("recording"),
        tr("opened the recording %1 (pool %2 on %3, %L4 polls, read only)")
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
    history->setPinned(pins());
    m_history = std::move(history);
    m_colors.assign(m_history->trackedMembers());
    if (m_recordingHasEveryMember) // the overview's points may be too far apart at its end
        m_recordingRate = lastRate(*m_history, m_rates.windowMs());
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
    past->setPinned(pins());
    m_history = std::move(past);
    Q_EMIT historyLoaded();
}

} // namespace poolscope
