#include "session/PoolSession.h"

#include "session/PoolAlerts.h"
#include "session/WriteLock.h"
#include "session/PoolHealth.h"
#include "session/DisplayFormat.h"
#include "session/PoolHealth.h"
#include "session/ServerFeed.h"
#include "session/Forecast.h"
#include "session/OutsideChanges.h"
#include "pool/MemberSubset.h"
#include "text/CredentialMask.h"
#include "topology/HashSlot.h"

#include <algorithm>
#include <limits>

#include <QDateTime>
#include <QSet>

namespace poolscope {

namespace {

// Members at each end of a big pool that get a history on every poll (the chart shows up to 5).
constexpr qsizetype kHistoryEdgeMembers = 10;
// Pools whose history is kept after switching away, and the bytes all of them may hold.
constexpr size_t kMaxKeptPools = 4;
constexpr qint64 kMaxKeptBytes = 512LL * 1024 * 1024;

// The members of a summary that have counts: bottom, top and pinned, each once.
QList<PoolMember> summaryMembers(const PoolSummary &summary) {
    QList<PoolMember> members;
    QSet<QByteArray> seen;
    const auto add = [&](const QByteArray &member, double count) {
        if (!seen.contains(member)) {
            seen.insert(member);
            members.append({member, count});
        }
    };
    for (const RankedMember &member : summary.bottom)
        add(member.member, member.count);
    for (const RankedMember &member : summary.top)
        add(member.member, member.count);
    for (const PoolMember &member : summary.pinned)
        add(member.member, member.count);
    return members;
}

} // namespace

struct PoolSession::KeptPool {
    Endpoint endpoint;
    QByteArray poolKey;
    std::unique_ptr<PoolHistory> history;
    MemberColors colors;
};

PoolSession::PoolSession(QObject *parent)
    : PoolSession(PoolHistory::Limits{}, parent) {}

PoolSession::PoolSession(PoolHistory::Limits historyLimits, QObject *parent)
    : PoolSession(std::make_unique<ServerFeed>(), historyLimits, parent) {}

PoolSession::PoolSession(std::unique_ptr<PoolFeed> feed, PoolHistory::Limits historyLimits,
                         QObject *parent)
    : QObject(parent)
    , m_feed(std::move(feed))
    , m_history(std::make_unique<PoolHistory>(historyLimits))
    , m_historyLimits(historyLimits) {
    PoolFeed *feedSignals = m_feed.get();
    connect(feedSignals, &PoolFeed::stateChanged, this, &PoolSession::handleState);
    connect(feedSignals, &PoolFeed::observationArrived, this, &PoolSession::handleObservation);
    connect(feedSignals, &PoolFeed::pollFailed, this, &PoolSession::handlePollFailure);
    connect(feedSignals, &PoolFeed::authenticationFailed, this,
            &PoolSession::handleAuthenticationFailure);
    connect(feedSignals, &PoolFeed::memberSearchUpdated, this,
            [this](const MemberSearchResult &result) {
                m_search = result;
                Q_EMIT memberSearchUpdated(result);
            });

    connect(feedSignals, &PoolFeed::seedProgressed, this, &PoolSession::seedProgressed);
    connect(feedSignals, &PoolFeed::seedFinished, this, &PoolSession::handleSeedFinished);
    connect(feedSignals, &PoolFeed::membersEvicted, this, &PoolSession::handleEvicted);
    connect(feedSignals, &PoolFeed::membersRestored, this, &PoolSession::handleRestored);
    connect(feedSignals, &PoolFeed::poolKeysFound, this, &PoolSession::poolKeysFound);
    connect(feedSignals, &PoolFeed::commandFailed, this, &PoolSession::handleCommandFailure);
    connect(feedSignals, &PoolFeed::commandsSettled, this,
            [this] { m_writesInFlight = 0; }); // every request answered
    m_health = std::make_unique<PoolHealth>(this);
    m_alerts = std::make_unique<PoolAlerts>(this);
    m_writeLock = new WriteLock(this);
    connect(m_writeLock, &WriteLock::lockChanged, this, &PoolSession::updateWriteAvailability);
    m_lastBlockReason = writeBlockReason();
}

PoolSession::~PoolSession() {
    // Members are destroyed in reverse order; stop the guard, the health reads and the feed first
    // so nothing arrives while the history is going away.
    m_alerts.reset();
    m_health.reset();
    m_feed.reset();
}

void PoolSession::setReadOnly(bool readOnly) {
    m_readOnly = readOnly;
    updateWriteAvailability();
}

QString PoolSession::writeBlockReason() const {
    if (isShowingRecording())
        return tr("a recording, opened read only: there is no pool to write to");
    if (m_readOnly)
        return tr("read-only mode (--read-only): poolscope only watches this pool");
    if (m_writeLock->isLocked())
        return WriteLock::lockedReason();
    if (!m_hasTarget || state() != ConnectionState::Connected)
        return tr("not connected to Redis: connect first");
    if (!m_serverRefusesWrites.isEmpty())
        return tr("read-only: the server refuses writes for this user (%1)")
            .arg(m_serverRefusesWrites);
    return {};
}

void PoolSession::updateWriteAvailability() {
    const QString reason = writeBlockReason();
    const bool can = reason.isEmpty();
    if (can == m_lastCanWrite && reason == m_lastBlockReason)
        return;
    m_lastCanWrite = can;
    m_lastBlockReason = reason;
    Q_EMIT writeAvailabilityChanged(can, reason);
}

void PoolSession::connectTo(const Endpoint &endpoint, const QByteArray &poolKey) {
    if (isShowingRecording()) { // its history stays with the file, not among the kept pools
        m_recordingPath.clear();
        m_poolKey.clear();
        m_latest.reset();
    }
    const bool sameTarget = m_hasTarget && endpoint == m_endpoint && poolKey == m_poolKey;
    if (!sameTarget) {
        keepCurrentPool(); // under the pool being left
        takeKeptPool(endpoint, poolKey);
    }
    m_endpoint = endpoint;
    m_poolKey = poolKey;
    m_hasTarget = true;
    m_serverRefusesWrites.clear();
    m_firstObservation = true;
    m_lastPollFailure.clear();
    setKeyProblem(KeyProblem::Kind::None); // a new key: known again after its first poll
    m_search.reset();
    if (!sameTarget) {
        m_rates.clear();
        m_counted.clear();
        m_countedTotal = 0;
        m_latest.reset();
        m_charted.clear();
        setMode(SessionMode::Live);
    } else {
        m_history->markGap(QDateTime::currentMSecsSinceEpoch(), QStringLiteral("reconnect"));
        m_rates.clear();
    }
    m_feed->connectTo(endpoint, poolKey);
    log(LogSeverity::Info, QStringLiteral("connection"),
        tr("connecting to %1, pool \"%2\"")
            .arg(endpoint.toDisplayString(), QString::fromUtf8(poolKey)));
    Q_EMIT targetChanged();
    updateWriteAvailability();
}

void PoolSession::keepCurrentPool() {
    if (m_poolKey.isEmpty() || m_history->latestTimeMs() == 0)
        return; // nothing seen yet: nothing to keep
    KeptPool kept;
    kept.endpoint = m_endpoint;
    kept.poolKey = m_poolKey;
    kept.history = std::move(m_history);
    kept.colors = m_colors;
    m_keptPools.push_back(std::move(kept));
    // Bounded: the pools left longest ago go first.
    qint64 bytes = 0;
    for (const KeptPool &pool : m_keptPools)
        bytes += pool.history->bytesHeld();
    while (m_keptPools.size() > kMaxKeptPools ||
           (m_keptPools.size() > 1 && bytes > kMaxKeptBytes)) {
        bytes -= m_keptPools.front().history->bytesHeld();
        m_keptPools.erase(m_keptPools.begin());
    }
}

void PoolSession::takeKeptPool(const Endpoint &endpoint, const QByteArray &poolKey) {
    const auto kept =
        std::find_if(m_keptPools.begin(), m_keptPools.end(), [&](const KeptPool &pool) {
            return pool.endpoint == endpoint && pool.poolKey == poolKey;
        });
    if (kept == m_keptPools.end()) {
        m_history = std::make_unique<PoolHistory>(m_historyLimits);
        m_colors.clear();
    } else {
        m_history = std::move(kept->history);
        m_colors = kept->colors;
        m_keptPools.erase(kept);
        // Not watched while away: the lines must not join across that time.
        m_history->markGap(QDateTime::currentMSecsSinceEpoch(), tr("back to this pool"));
    }
    m_history->setPinned(pins()); // pins belong to the person watching, not to one pool
}

void PoolSession::setMode(SessionMode mode) {
    if (mode == m_mode)
        return;
    m_mode = mode;
    Q_EMIT modeChanged(mode);
}

void PoolSession::markOutage(const QString &reason) {
    // Once per outage (its gap is marked); nothing to mark when no pool is watched.
    if (!m_hasTarget || m_mode == SessionMode::Outage || m_mode == SessionMode::Stale)
        return;
    setMode(m_latest ? SessionMode::Stale : SessionMode::Outage);
    if (m_history->latestTimeMs() > 0) // no line yet (a key that never read): nothing to break
        m_history->markGap(QDateTime::currentMSecsSinceEpoch(), reason);
}

void PoolSession::disconnectFromServer() {
    if (!m_hasTarget)
        return;
    m_hasTarget = false;
    setMode(m_latest ? SessionMode::Stale : SessionMode::Idle);
    m_history->markGap(QDateTime::currentMSecsSinceEpoch(), QStringLiteral("disconnected"));
    m_feed->disconnectFromServer();
    log(LogSeverity::Info, QStringLiteral("connection"),
        tr("disconnected from %1").arg(m_endpoint.toDisplayString()));
    updateWriteAvailability();
}

ConnectionState PoolSession::state() const {
    return m_feed->state();
}

void PoolSession::setPollInterval(std::chrono::milliseconds interval) {
    m_feed->setPollInterval(interval);
}

std::chrono::milliseconds PoolSession::pollInterval() const {
    return m_feed->pollInterval();
}

void PoolSession::setPaused(bool paused) {
    if (paused == m_feed->isPaused())
        return;
    m_feed->setPaused(paused);
    // Nothing was read while paused: the lines must not join straight across that time, as they
    // do not across an outage.
    if (!paused && m_hasTarget && m_history->latestTimeMs() > 0)
        m_history->markGap(QDateTime::currentMSecsSinceEpoch(), tr("polling paused"));
    log(LogSeverity::Info, QStringLiteral("poll"),
        paused ? tr("polling paused") : tr("polling resumed"));
}

bool PoolSession::isPaused() const {
    return m_feed->isPaused();
}

void PoolSession::pollNow() {
    if (m_hasTarget)
        m_feed->pollNow();
}

void PoolSession::setFullSnapshotThreshold(qint64 members) {
    m_fullSnapshotThreshold = std::max<qint64>(members, 1);
    m_feed->setFullSnapshotThreshold(m_fullSnapshotThreshold);
}

void PoolSession::setChartedMembers(const QList<QByteArray> &members) {
    QSet<QByteArray> charted(members.cbegin(), members.cend());
    if (charted == m_charted)
        return;
    m_colors.assign(members);
    m_charted = std::move(charted);
    Q_EMIT chartedMembersChanged(members);
}

void PoolSession::setVisibleRows(qint64 fromRank, int count) {
    m_feed->setVisibleRows(fromRank, count);
}

void PoolSession::setMemberSearch(const QByteArray &text) {
    m_search.reset();
    m_feed->setMemberSearch(text);
}

void PoolSession::setCredentialsShown(bool shown) {
    if (shown == m_credentialsShown)
        return;
    m_credentialsShown = shown;
    Q_EMIT credentialsShownChanged(shown);
}

QString PoolSession::displayMember(const QByteArray &member) const {
    const QString text = QString::fromUtf8(member);
    return m_credentialsShown ? text : maskCredentials(text);
}

QString PoolSession::displayText(const QString &text) const {
    return m_credentialsShown ? text : maskCredentialsInText(text);
}

void PoolSession::setRateWindowMs(qint64 windowMs) {
    m_rates.setWindowMs(windowMs);
}

std::optional<double> PoolSession::poolMinimum() const {
    if (!m_latest)
        return std::nullopt;
    if (m_latest->summaryMode)
        return m_latest->summary.size > 0 ? std::optional<double>(m_latest->stats.min)
                                          : std::nullopt;
    if (m_latest->snapshot.members.isEmpty())
        return std::nullopt;
    return m_latest->stats.min;
}

QList<QByteArray> PoolSession::knownMembers() const {
    return m_history->trackedMembers();
}

void PoolSession::findPoolKeys() {
    if (m_hasTarget)
        m_feed->findPoolKeys();
}

void PoolSession::log(LogSeverity severity, const QString &kind, const QString &text) {
    LogEntry entry;
    entry.timeMs = QDateTime::currentMSecsSinceEpoch();
    entry.severity = severity;
    entry.kind = kind;
    entry.text = text;
    Q_EMIT messageLogged(entry);
}

void PoolSession::addHistoryEvent(HistoryEvent::Kind kind, const QByteArray &member,
                                  const QString &label, qint64 timeMs, const QByteArray &sourceId) {
    HistoryEvent event;
    event.timeMs = timeMs > 0 ? timeMs : QDateTime::currentMSecsSinceEpoch();
    if (!sourceId.isEmpty()) // read again, e.g. after the recording's past came in: shown once
        for (const HistoryEvent &known : m_history->events(event.timeMs, event.timeMs))
            if (known.kind == kind && known.member == member && known.label == label)
                return;
    event.kind = kind;
    event.member = member;
    event.label = label;
    event.sourceId = sourceId;
    m_history->addEvent(event);
    Q_EMIT historyEventAdded(event);
}

void PoolSession::handleState(ConnectionState state, const QString &detail) {
    if (state == ConnectionState::Connected) {
        m_serverVersion = detail;
        m_lastPollFailure.clear();
        log(LogSeverity::Info, QStringLiteral("connection"),
            tr("connected to %1 (%2)").arg(m_endpoint.toDisplayString(), detail));
    } else if (state == ConnectionState::Reconnecting) {
        markOutage(detail);
        log(LogSeverity::Warning, QStringLiteral("connection"),
            tr("connection lost, reconnecting: %1").arg(detail));
    }
    Q_EMIT stateChanged(state, detail);
    updateWriteAvailability();
}

void PoolSession::handleObservation(const PoolObservation &observation) {
    if (!m_hasTarget)
        return;
    // The members with a count in this poll: all of them in a full snapshot; in summary mode
    // (a big pool, never read whole) the top, bottom and pinned ones, the quantiles giving the
    // pool-wide band.
    const QList<PoolMember> polled = observation.summaryMode ? summaryMembers(observation.summary)
                                                             : observation.snapshot.members;
    if (m_latest && !observation.primary.isEmpty() && !m_latest->primary.isEmpty() &&
        observation.primary != m_latest->primary) {
        const QString text =
            tr("failover: the primary moved from %1 to %2 (named by "
               "sentinel %3)")
                .arg(m_latest->primary, observation.primary, observation.primaryNamedBy);
        log(LogSeverity::Warning, QStringLiteral("connection"), text);
        addHistoryEvent(HistoryEvent::Kind::Note, {}, text);
    }
    if (m_latest && !observation.servedBy.isEmpty() && !m_latest->servedBy.isEmpty() &&
        observation.servedBy != m_latest->servedBy) {
        const QString text = tr("cluster: the pool's slot %1 moved from node %2 to node %3")
                                 .arg(topology::hashSlot(m_poolKey))
                                 .arg(m_latest->servedBy, observation.servedBy);
        log(LogSeverity::Info, QStringLiteral("connection"), text);
        addHistoryEvent(HistoryEvent::Kind::Note, {}, text);
    }
    if (m_latest)
        reportOutsideChanges(*m_latest, observation);
    // The rate tracker looks every member up once per poll anyway; colours are handed out to
    // the members it saw arrive, and to evicted members, not looked up again for all 10,000.
    const bool hadPoll = m_rates.hasPoll();
    // What changed since the last poll, when the read says it (a full read following the one
    // recorded last): the tracker then looks at those members only, not at every member.
    const std::optional<PoolChanges> &changes = observation.snapshot.changes;
    const bool changesKnown = !observation.summaryMode && changes && m_latest &&
                              m_latest->snapshot.readId != 0 &&
                              changes->sinceReadId == m_latest->snapshot.readId &&
                              m_rates.lastPollMs() == m_latest->timeMs;
    QList<QByteArray> arrived = changesKnown ? m_rates.recordChanges(observation.timeMs, *changes)
                                             : m_rates.record(observation.timeMs, polled);
    if (observation.summaryMode)
        m_rates.recordPoolAllocations(observation.timeMs, observation.allocationsSincePrevious);
    else
        m_rates.clearPoolAllocations();
    countAllocations(observation, hadPoll);
    for (const EvictedMember &member : observation.snapshot.evicted)
        arrived.append(member.member);
    m_colors.assign(arrived);
    recordHistory(observation, polled);
    if (!observation.serverVersion.isEmpty())
        m_serverVersion = observation.serverVersion;
    m_latest = observation;
    m_lastPollFailure.clear();
    const bool noKey = !observation.summaryMode && observation.snapshot.members.isEmpty() &&
                       observation.snapshot.evicted.isEmpty();
    if (noKey)
        setKeyProblem(
            KeyProblem::Kind::Missing,
            tr("no pool at \"%1\" yet: Seed… to add proxies").arg(QString::fromUtf8(m_poolKey)));
    else
        setKeyProblem(KeyProblem::Kind::None);
    m_lastGoodPollMs = observation.timeMs;
    setMode(SessionMode::Live);
    if (m_firstObservation) {
        m_firstObservation = false;
        m_connectionFirstPollMs = observation.timeMs;
        const auto &snapshot = observation.snapshot;
        if (noKey)
            log(LogSeverity::Info, QStringLiteral("poll"), m_keyProblem.text);
        else
            log(LogSeverity::Info, QStringLiteral("poll"),
                observation.summaryMode ? tr("pool \"%1\": %L2 members, %L3 evicted · %4",
                                             "%4: how the big pool was read (a summary)")
                                              .arg(QString::fromUtf8(m_poolKey))
                                              .arg(observation.summary.size)
                                              .arg(observation.summary.evictedCount)
                                              .arg(observation.mode)
                                        : tr("pool \"%1\": %L2 members, %L3 evicted")
                                              .arg(QString::fromUtf8(m_poolKey))
                                              .arg(snapshot.members.size())
                                              .arg(snapshot.evicted.size()));
    }
    Q_EMIT observationApplied(observation);
}

void PoolSession::countAllocations(const PoolObservation &observation, bool afterAPoll) {
    if (!m_counted.empty() && observation.timeMs <= m_counted.back().timeMs)
        return;
    std::optional<double> counted;
    if (m_counted.empty())
        counted = 0; // the first point: the count starts here
    else if (!afterAPoll)
        counted.reset(); // the first poll after a reconnect: not counted across the gap
    else if (observation.summaryMode)
        counted = observation.allocationsSincePrevious;
    else
        counted = m_rates.lastTickAllocations();
    if (counted)
        m_countedTotal += *counted;
    m_counted.push_back(
        {observation.timeMs, counted ? m_countedTotal : std::numeric_limits<double>::quiet_NaN()});
    while (m_counted.size() > kCountedAllocationsKept)
        m_counted.pop_front();
}

QList<HistoryPoint> PoolSession::countedAllocations(qint64 fromMs, qint64 toMs) const {
    QList<HistoryPoint> points;
    for (const HistoryPoint &point : m_counted)
        if (point.timeMs >= fromMs && point.timeMs <= toMs)
            points.append(point);
    return points;
}

void PoolSession::recordHistory(const PoolObservation &observation,
                                const QList<PoolMember> &polled) {
    if (!observation.summaryMode && polled.size() <= m_history->maxTrackedMembers()) {
        m_history->record(observation.timeMs, polled); // every member, and the band from them
        return;
    }
    // Too many to record whole: the ends of the pool (a snapshot is in rank order), the pinned
    // and the charted members get series (a summary's members are already the ends and the
    // pinned ones); the band comes from the poll's statistics.
    QList<PoolMember> recorded;
    if (!observation.summaryMode) {
        const qsizetype edge = std::min<qsizetype>(kHistoryEdgeMembers, polled.size());
        const MemberSubset kept(m_pins + m_charted); // rules out most members without a hash
        for (qsizetype i = 0; i < polled.size(); ++i)
            if (i < edge || i >= polled.size() - edge || kept.contains(polled[i].member))
                recorded.append(polled[i]);
    }
    const PoolStats &stats = observation.stats;
    m_history->record(observation.timeMs, observation.summaryMode ? polled : recorded);
    m_history->recordBand(observation.timeMs, stats.min, stats.median, stats.max, stats.total);
}

void PoolSession::reportOutsideChanges(const PoolObservation &before, const PoolObservation &now) {
    // Our own writes explain changes: a seed (pool-wide), evictions and restores since the last
    // poll, and any write still under way.
    if (m_writesInFlight > 0 || m_ownWrites > 0 || before.timeMs <= m_ownWritesEndedMs)
        return;
    QSet<QByteArray> explained;
    for (const HistoryEvent &event :
         m_history->events(before.timeMs, std::numeric_limits<qint64>::max())) {
        if (event.kind == HistoryEvent::Kind::Seed)
            return;
        if (event.kind == HistoryEvent::Kind::Evict || event.kind == HistoryEvent::Kind::Restore)
            explained.insert(event.member);
    }
    for (const QString &text : describeOutsideChanges(before, now, explained)) {
        log(LogSeverity::Warning, QStringLiteral("pool"), text);
        addHistoryEvent(HistoryEvent::Kind::Note, {}, text);
    }
}

void PoolSession::handlePollFailure(const Failure &failure) {
    // A dead server fails every poll: log each distinct failure once, the status bar shows all.
    if (failure.text != m_lastPollFailure) {
        m_lastPollFailure = failure.text;
        log(LogSeverity::Error, QStringLiteral("poll"), failure.text);
    }
    // A key of another type fails every pool command: its text says which key holds what. A
    // refused read names the key and the user; other failures say nothing about the key.
    if (failure.wrongType())
        setKeyProblem(KeyProblem::Kind::WrongType, failure.text);
    else if (failure.noPermission())
        setKeyProblem(KeyProblem::Kind::NoPermission, failure.text);
    markOutage(tr("poll failed: %1").arg(failure.text));
    Q_EMIT pollFailed(failure);
}

void PoolSession::setKeyProblem(KeyProblem::Kind kind, const QString &text) {
    KeyProblem problem;
    problem.kind = kind;
    problem.text = kind == KeyProblem::Kind::None ? QString() : text;
    if (problem == m_keyProblem)
        return;
    m_keyProblem = std::move(problem);
    Q_EMIT keyProblemChanged(m_keyProblem);
}

void PoolSession::handleAuthenticationFailure(const Failure &failure) {
    const QString &message = failure.text;
    m_hasTarget = false;
    setMode(m_latest ? SessionMode::Stale : SessionMode::Idle);
    m_serverVersion.clear();
    m_history->markGap(QDateTime::currentMSecsSinceEpoch(), QStringLiteral("authentication"));
    log(LogSeverity::Error, QStringLiteral("connection"),
        tr("%1 · not retrying: enter the password in the Redis URL field").arg(message));
    Q_EMIT authenticationFailed(failure);
    updateWriteAvailability();
}

} // namespace poolscope
