#include "monitor/PoolMonitor.h"

#include "topology/ClusterRouter.h"
#include "topology/SentinelResolver.h"
#include "topology/SentinelWatcher.h"

#include "base/Failure.h"
#include "base/RedisError.h"
#include "client/BackgroundWorker.h"
#include "pool/AllocationLevels.h"
#include "pool/PoolOperations.h"
#include "pool/PoolSummary.h"
#include "pool/SnapshotOrder.h"

#include <algorithm>

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QLocale>
#include <QMetaType>
#include <QTimer>

namespace poolscope {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kFirstRetry{50};
constexpr milliseconds kMaxRetry{2000};
constexpr qint64 kDefaultFullSnapshotThreshold = 10000;
constexpr int kTopBottomCount = 10;
// Pages of the background totals scan per poll: ~100 members each, ~0.2 ms of server time.
constexpr int kScanPagesPerPoll = 10;
// A member search reads this many ZSCAN MATCH pages, then lets the poller and the server breathe
// for kSearchStepPause: at most ~1 ms of server time per step.
constexpr int kSearchPagesPerStep = 5;
constexpr milliseconds kSearchStepPause{50};
// The evicted list is read whole while it is small; beyond that only its size.
constexpr qint64 kMaxEvictedListed = 1000;

void registerMonitorTypes() {
    static const bool registered = [] {
        qRegisterMetaType<poolscope::ConnectionState>("poolscope::ConnectionState");
        qRegisterMetaType<poolscope::PoolObservation>("poolscope::PoolObservation");
        qRegisterMetaType<poolscope::MemberSearchResult>("poolscope::MemberSearchResult");
        Failure::registerMetaType();
        return true;
    }();
    Q_UNUSED(registered);
}

} // namespace

QString connectionStateName(ConnectionState state) {
    switch (state) {
    case ConnectionState::Disconnected:
        return QStringLiteral("disconnected");
    case ConnectionState::Connecting:
        return QStringLiteral("connecting");
    case ConnectionState::Connected:
        return QStringLiteral("connected");
    case ConnectionState::Reconnecting:
        return QStringLiteral("reconnecting");
    }
    return {};
}

// The context of the monitor's BackgroundWorker: lives on its thread and does every blocking call
// there. Reports are delivered to the monitor stamped with the generation they answer; those of a
// generation the monitor has left are dropped.
class PoolMonitor::Worker : public QObject {
public:
    Worker(PoolMonitor *monitor, WorkerLink link)
        : m_monitor(monitor)
        , m_link(std::move(link))
        , m_timer(new QTimer(this))
        , m_searchTimer(new QTimer(this)) {
        m_timer->setSingleShot(true);
        // A coarse timer may fire 5% early: two 1 s polls would then land 950 ms apart.
        m_timer->setTimerType(Qt::PreciseTimer);
        connect(m_timer, &QTimer::timeout, this, &Worker::step);
        m_searchTimer->setSingleShot(true);
        connect(m_searchTimer, &QTimer::timeout, this, &Worker::searchStep);
    }
    ~Worker() override { m_watcher.reset(); } // joined while this object is still whole

    void start(quint64 generation, const Endpoint &endpoint, const QByteArray &poolKey,
               const ConnectionOptions &options) {
        m_generation = generation;
        m_endpoint = endpoint;
        m_poolKey = poolKey;
        m_options = options;
        m_connection.reset();
        m_scan.reset();
        m_lastMembers = -1;
        m_levels = {};
        m_search.clear();
        m_searchTimer->stop();
        watchSentinels(generation, endpoint, options);
        m_active = true;
        m_pollRequested = false;
        m_retryDelay = kFirstRetry;
        m_timer->start(0);
    }

    void stop() {
        m_watcher.reset();
        m_active = false;
        m_timer->stop();
        m_searchTimer->stop();
        m_search.clear();
        m_connection.reset();
    }

    void setInterval(milliseconds interval) {
        m_interval = interval;
        if (m_connection && m_timer->isActive() && !m_paused)
            m_timer->start(m_interval);
    }

    void setPaused(bool paused) {
        m_paused = paused;
        if (!m_connection)
            return; // reconnecting goes on; the first poll after it waits for the unpause
        if (paused)
            m_timer->stop();
        else
            m_timer->start(0);
    }

    void setFullSnapshotThreshold(qint64 members) { m_threshold = std::max<qint64>(members, 1); }
    void setPinned(const QList<QByteArray> &members) { m_pinned = members; }
    void setVisibleRows(qint64 fromRank, int count) {
        m_visibleFrom = std::max<qint64>(fromRank, 0);
        m_visibleCount = std::clamp(count, 0, PoolSummaryReader::kMaxRange);
    }

    void setSearch(quint64 id, const QByteArray &text) {
        m_search.start(id, text);
        m_searchTimer->stop();
        if (m_search.isActive())
            m_searchTimer->start(0);
    }

    void pollNow() {
        if (!m_active)
            return;
        m_pollRequested = true;
        if (!m_connection)
            m_retryDelay = kFirstRetry; // the user asked: try again now, not after the backoff
        m_timer->start(0);
    }

private:
    // The generation the owner wants now is checked between blocking calls, so a worker stuck
    // behind a slow server starts nothing stale after it.
    bool isCurrent() const { return m_active && m_link.isCurrent(m_generation); }

    void step() {
        if (!isCurrent())
            return;
        if (!m_connection && !connectNow())
            return;
        if (!m_paused || m_pollRequested)
            poll();
    }

    bool connectNow() {
        try {
            auto connection = RedisConnection::open(m_endpoint, m_options);
            if (!isCurrent())
                return false; // superseded while we were connecting
            m_connection = std::move(connection);
            m_retryDelay = kFirstRetry;
            reportState(ConnectionState::Connected, m_connection->serverVersion());
            if (m_search.needsScan())
                m_searchTimer->start(0);
            return true;
        } catch (const RedisError &error) {
            if (!isCurrent())
                return false;
            if (error.kind() == RedisError::Kind::Authentication) {
                // Retrying with the same credentials cannot help: stop until new ones come.
                stop();
                m_link.deliver(m_generation, [monitor = m_monitor, failure = failureOf(error)] {
                    Q_EMIT monitor->authenticationFailed(failure);
                });
                reportState(ConnectionState::Disconnected, describe(m_options, error));
                return false;
            }
            reportFailure(error);
            if (error.retryCannotHelp()) {
                stop(); // until the person changes the settings and connects again
                reportState(ConnectionState::Disconnected, describe(m_options, error));
                return false;
            }
            reportState(ConnectionState::Reconnecting, describe(m_options, error));
            retryLater();
            return false;
        }
    }

    void retryLater() {
        m_timer->start(m_retryDelay);
        m_retryDelay = std::min(m_retryDelay * 2, kMaxRetry);
    }

    void scheduleNextPoll() {
        if (m_paused)
            m_timer->stop();
        else
            m_timer->start(m_interval);
    }

    void poll(bool retried = false) {
        m_pollRequested = false;
        QElapsedTimer clock;
        clock.start();
        try {
            PoolOperations operations(*m_connection, m_poolKey);
            // A whole read of a big pool would hold the server and every worker behind it.
            const qint64 size = operations.size();
            // The background totals scan belongs to one pool: when the key was deleted and
            // created again (it shrank, vanished or changed type) or was read whole, a pass
            // under way or completed would mix the old pool's counts into the new one's totals.
            if (size <= m_threshold) {
                m_scan.reset();
                m_levels = {};
            }
            PoolObservation observation =
                size > m_threshold ? readSummary(operations) : readFullSnapshot(operations, size);
            if (!isCurrent())
                return;
            observation.roundTripMs = double(clock.nsecsElapsed()) / 1e6;
            observation.timeMs = QDateTime::currentMSecsSinceEpoch();
            observation.generation = m_generation;
            observation.serverVersion = m_connection->serverVersion();
            if (const auto &sentinel = m_connection->resolvedBy()) {
                observation.primary = topology::nodeText(
                    {m_connection->endpoint().host, m_connection->endpoint().port});
                observation.primaryNamedBy = topology::nodeText(*sentinel);
            }
            if (const topology::ClusterRouter *router = m_connection->cluster())
                observation.servedBy = topology::nodeText(router->ownerOf(m_poolKey));
            m_link.deliver(m_generation, [monitor = m_monitor, observation] {
                Q_EMIT monitor->observationArrived(observation);
            });
            // The members found by a search that is done scanning: their counts of now.
            if (m_search.isActive() && !m_search.needsScan()) {
                m_search.refresh(*m_connection, m_poolKey);
                reportSearch();
            }
            scheduleNextPoll();
        } catch (const RedisError &error) {
            if (!retried && reopenAfterIdleClose(error)) {
                poll(true);
                return;
            }
            handleError(error);
        }
    }

    // The server's `timeout` closed the connection while it sat between polls: no outage. A
    // poll only reads, so it may run again on a fresh connection; down only if that fails too.
    bool reopenAfterIdleClose(const RedisError &error) {
        if (!isCurrent() || error.kind() != RedisError::Kind::Connection || !m_connection ||
            !m_connection->closedWhileIdle())
            return false;
        try {
            auto connection = RedisConnection::open(m_endpoint, m_options);
            if (!isCurrent())
                return false;
            m_connection = std::move(connection);
            return true;
        } catch (const RedisError &) {
            return false; // the original loss is reported; the reconnect loop takes over
        }
    }

    void handleError(const RedisError &error) {
        if (!isCurrent())
            return;
        reportFailure(error);
        m_scan.reset(); // WRONGTYPE, a lost connection...: whatever comes next starts afresh
        m_lastMembers = -1;
        m_levels = {};
        if (error.connectionLost() || m_connection->isBroken()) {
            // A broken context would read a late reply as the next answer: start afresh.
            m_connection.reset();
            m_searchTimer->stop(); // goes on after the reconnect (see step)
            reportState(ConnectionState::Reconnecting, describe(m_options, error));
            m_retryDelay = kFirstRetry;
            m_timer->stop();
            retryLater();
        } else if (!m_timer->isActive()) {
            scheduleNextPoll(); // WRONGTYPE, NOPERM, ...: the connection is fine, keep watching
        }
    }

    // One step of the member search; re-armed until the scan is through or full.
    void searchStep() {
        if (!isCurrent() || !m_connection || !m_search.needsScan())
            return;
        try {
            m_search.step(*m_connection, m_poolKey, kSearchPagesPerStep);
            if (!isCurrent())
                return;
            reportSearch();
            if (m_search.needsScan())
                m_searchTimer->start(kSearchStepPause);
        } catch (const RedisError &error) {
            if (!isCurrent())
                return;
            MemberSearchResult failed = m_search.result();
            failed.error = describe(m_options, error);
            m_link.deliver(m_generation,
                           [monitor = m_monitor, failed] { monitor->handleSearchResult(failed); });
            if (error.connectionLost() || m_connection->isBroken())
                handleError(error);
        }
    }

    void reportSearch() {
        m_link.deliver(m_generation, [monitor = m_monitor, result = m_search.result()] {
            monitor->handleSearchResult(result);
        });
    }

    PoolObservation readFullSnapshot(PoolOperations &operations, qint64 size) {
        PoolObservation observation;
        // In order by merging with the previous read, which also gives what changed since.
        observation.snapshot = operations.snapshotOfSize(size, &m_order);
        QList<double> counts;
        counts.reserve(observation.snapshot.members.size());
        for (const PoolMember &member : std::as_const(observation.snapshot.members))
            counts.append(member.count);
        observation.stats = computePoolStats(counts, observation.snapshot.evicted.size());
        // Shown by the dashboard (in its language); the CLI installs no translation.
        observation.mode = QCoreApplication::translate("PoolMonitor", "full snapshot (%1 members)")
                               .arg(QLocale().toString(observation.snapshot.members.size()));
        return observation;
    }

    PoolObservation readSummary(PoolOperations &operations) {
        PoolObservation observation;
        observation.summaryMode = true;
        PoolSummaryReader reader(*m_connection, operations.keys());
        observation.summary = reader.read(kTopBottomCount, m_pinned);
        if (m_visibleCount > 0) {
            observation.visibleFrom = m_visibleFrom;
            observation.visibleRows = reader.rows(m_visibleFrom, m_visibleCount);
        }
        if (observation.summary.evictedCount <= kMaxEvictedListed)
            observation.snapshot.evicted = operations.snapshot(/*includeMembers=*/false).evicted;
        // The scan belongs to one pool: when it lost members (deleted and created again, members
        // removed) a pass would mix the old pool's counts into the new one's totals. An eviction
        // moves a member to the companion hash and keeps the pass going.
        const qint64 members = observation.summary.size + observation.summary.evictedCount;
        if (members < m_lastMembers)
            m_scan.reset();
        m_lastMembers = members;
        const AllocationLevels levels =
            AllocationLevels::read(*m_connection, operations.keys(), observation.summary.size,
                                   observation.summary.quantile(0.0));
        observation.allocationsSincePrevious = allocationsBetween(m_levels, levels);
        m_levels = levels;
        observation.scanCompleted = m_scan.step(*m_connection, m_poolKey, kScanPagesPerPoll);
        observation.scanProgress = m_scan.membersSeenThisPass();

        PoolStats &stats = observation.stats;
        const PoolSummary &summary = observation.summary;
        stats.size = summary.size;
        stats.evicted = summary.evictedCount;
        stats.min = summary.quantile(0.0);
        stats.median = summary.quantile(0.5);
        stats.max = summary.quantile(1.0);
        stats.spread = stats.max - stats.min;
        if (const auto totals = m_scan.lastCompleted()) {
            stats.total = totals->sum;
            stats.jainIndex = totals->jainIndex();
        } else {
            stats.total = 0;
            stats.jainIndex = 0; // unknown until the first full pass: the UI says so
        }
        const QString totals =
            m_scan.lastCompleted()
                ? QStringLiteral("totals from scan pass %1").arg(m_scan.passesCompleted())
                : QStringLiteral("first totals scan %1% done")
                      .arg(summary.size ? 100 * m_scan.membersSeenThisPass() / summary.size : 0);
        observation.mode = QStringLiteral("summary (%1 members > %2: quantiles, top/bottom %3, "
                                          "%4 pinned, rows on screen; %5)")
                               .arg(summary.size)
                               .arg(m_threshold)
                               .arg(kTopBottomCount)
                               .arg(m_pinned.size())
                               .arg(totals);
        return observation;
    }

    void reportState(ConnectionState state, const QString &detail) {
        m_link.deliver(m_generation, [monitor = m_monitor, state, detail] {
            monitor->handleWorkerState(state, detail);
        });
    }

    Failure failureOf(const RedisError &error) const {
        return Failure(error, describe(m_options, error));
    }

    void reportFailure(const RedisError &error) {
        m_link.deliver(m_generation, [monitor = m_monitor, failure = failureOf(error)] {
            Q_EMIT monitor->pollFailed(failure);
        });
    }

    // Sentinel endpoints: +switch-master moves the poller to the new primary at once.
    void watchSentinels(quint64 generation, const Endpoint &endpoint,
                        const ConnectionOptions &options) {
        m_watcher.reset();
        if (endpoint.topology != Endpoint::Topology::Sentinel)
            return;
        m_watcher = std::make_unique<topology::SentinelWatcher>(
            endpoint, options, [this, generation](const QString &primary) {
                QMetaObject::invokeMethod(
                    this, [this, generation, primary] { followSwitch(generation, primary); },
                    Qt::QueuedConnection);
            });
    }
    void followSwitch(quint64 generation, const QString &primary) {
        if (generation != m_generation || !isCurrent())
            return;
        if (m_connection) {
            const Endpoint &now = m_connection->endpoint();
            if (topology::nodeText({now.host, now.port}) == primary)
                return; // already there
            m_connection.reset();
            reportState(ConnectionState::Reconnecting,
                        QStringLiteral("the sentinels switched the primary to %1").arg(primary));
        }
        m_retryDelay = kFirstRetry;
        m_timer->start(0);
    }

    PoolMonitor *m_monitor; // only named in deliveries: never touched from this thread
    WorkerLink m_link;
    std::unique_ptr<topology::SentinelWatcher> m_watcher;
    QTimer *m_timer;
    QTimer *m_searchTimer; // steps of the member search, between polls
    std::unique_ptr<RedisConnection> m_connection;
    Endpoint m_endpoint;
    QByteArray m_poolKey;
    ConnectionOptions m_options;
    quint64 m_generation = 0;
    bool m_active = false;
    bool m_paused = false;
    bool m_pollRequested = false;
    milliseconds m_interval{1000};
    milliseconds m_retryDelay{kFirstRetry};
    qint64 m_threshold = kDefaultFullSnapshotThreshold;
    QList<QByteArray> m_pinned;
    qint64 m_visibleFrom = 0;
    int m_visibleCount = 0;
    IncrementalPoolScan m_scan;
    // Members and evicted members at the last poll of a big pool: a drop resets m_scan.
    qint64 m_lastMembers = -1;
    SnapshotOrder m_order;     // the last full read's order (readFullSnapshot)
    AllocationLevels m_levels; // the last poll's, for the allocations since
    MemberSearch m_search;
};

PoolMonitor::PoolMonitor(QObject *parent)
    : QObject(parent)
    , m_background(std::make_unique<BackgroundWorker>(QStringLiteral("poolscope-poller"))) {
    registerMonitorTypes();
    m_worker = m_background->adopt(new Worker(this, m_background->link()));
}

// The background worker stops first: whatever the worker waits for ends within the command
// timeout, and nothing starts after.
PoolMonitor::~PoolMonitor() = default;

void PoolMonitor::connectTo(const Endpoint &endpoint, const QByteArray &poolKey,
                            const ConnectionOptions &options) {
    const quint64 generation = m_background->retarget();
    const ConnectionOptions bounded =
        worker::boundedOptions(options, QStringLiteral("poolscope-poller"));
    m_background->post([worker = m_worker, generation, endpoint, poolKey, bounded] {
        worker->start(generation, endpoint, poolKey, bounded);
    });
    handleWorkerState(ConnectionState::Connecting, endpoint.toDisplayString());
}

void PoolMonitor::disconnectFromServer() {
    m_background->retarget();
    m_background->post([worker = m_worker] { worker->stop(); });
    handleWorkerState(ConnectionState::Disconnected, QStringLiteral("disconnected"));
}

void PoolMonitor::setPollInterval(std::chrono::milliseconds interval) {
    m_interval = std::max(interval, std::chrono::milliseconds(1));
    m_background->post(
        [worker = m_worker, interval = m_interval] { worker->setInterval(interval); });
}

std::chrono::milliseconds PoolMonitor::pollInterval() const {
    return m_interval;
}

void PoolMonitor::setPaused(bool paused) {
    m_paused = paused;
    m_background->post([worker = m_worker, paused] { worker->setPaused(paused); });
}

bool PoolMonitor::isPaused() const {
    return m_paused;
}

quint64 PoolMonitor::generation() const {
    return m_background->generation();
}

void PoolMonitor::setFullSnapshotThreshold(qint64 members) {
    m_background->post([worker = m_worker, members] { worker->setFullSnapshotThreshold(members); });
}

void PoolMonitor::setPinnedMembers(const QList<QByteArray> &members) {
    m_background->post([worker = m_worker, members] { worker->setPinned(members); });
}

void PoolMonitor::setVisibleRows(qint64 fromRank, int count) {
    m_background->post(
        [worker = m_worker, fromRank, count] { worker->setVisibleRows(fromRank, count); });
}

quint64 PoolMonitor::setMemberSearch(const QByteArray &text) {
    const quint64 id = ++m_searchId;
    m_background->post([worker = m_worker, id, text] { worker->setSearch(id, text); });
    return id;
}

void PoolMonitor::pollNow() {
    m_background->post([worker = m_worker] { worker->pollNow(); });
}

void PoolMonitor::handleWorkerState(ConnectionState state, const QString &detail) {
    if (state == m_state && detail == m_stateDetail)
        return;
    m_state = state;
    m_stateDetail = detail;
    Q_EMIT stateChanged(state, detail);
}

void PoolMonitor::handleSearchResult(const MemberSearchResult &result) {
    if (result.id != m_searchId)
        return; // a search replaced since
    Q_EMIT memberSearchUpdated(result);
}

} // namespace poolscope
