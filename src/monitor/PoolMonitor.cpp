#include "monitor/PoolMonitor.h"

#include "topology/ClusterRouter.h"
#include "topology/SentinelResolver.h"
#include "topology/SentinelWatcher.h"

#include "base/BrokenPipe.h"
#include "base/RedisError.h"
#include "client/WorkerSupport.h"
#include "pool/AllocationLevels.h"
#include "pool/PoolOperations.h"
#include "pool/PoolSummary.h"

#include <algorithm>
#include <atomic>
#include <limits>

#include <QDateTime>
#include <QElapsedTimer>
#include <QMetaType>
#include <QThread>

#include <QTimer>

namespace poolscope {
namespace {

using worker::post;

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
// Stored in Worker::wanted by the destructor: matches no generation, so nothing new starts.
constexpr quint64 kShuttingDown = std::numeric_limits<quint64>::max();

void registerMonitorTypes() {
    static const bool registered = [] {
        qRegisterMetaType<poolscope::ConnectionState>("poolscope::ConnectionState");
        qRegisterMetaType<poolscope::PoolObservation>("poolscope::PoolObservation");
        qRegisterMetaType<poolscope::MemberSearchResult>("poolscope::MemberSearchResult");
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

// Lives on the monitor's thread and does every blocking call there. Reports back by posting to
// the monitor, stamped with the generation it is working for; the monitor drops stale reports.
class PoolMonitor::Worker : public QObject {
public:
    explicit Worker(PoolMonitor *monitor)
        : m_monitor(monitor)
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

    // The generation the GUI thread wants now, written there the moment it moves on. Checked
    // between blocking calls so a worker stuck behind a slow server starts nothing stale after.
    std::atomic<quint64> wanted{0};

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
    bool isCurrent() const { return m_active && wanted.load() == m_generation; }

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
                post(m_monitor, [monitor = m_monitor, generation = m_generation,
                                 message = describe(m_options, error)] {
                    monitor->handleAuthenticationFailure(generation, message);
                });
                reportState(ConnectionState::Disconnected, describe(m_options, error));
                return false;
            }
            reportFailure(describe(m_options, error));
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
            post(m_monitor,
                 [monitor = m_monitor, observation] { monitor->handleObservation(observation); });
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
        reportFailure(describe(m_options, error));
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
            post(m_monitor, [monitor = m_monitor, generation = m_generation, failed] {
                monitor->handleSearchResult(generation, failed);
            });
            if (error.connectionLost() || m_connection->isBroken())
                handleError(error);
        }
    }

    void reportSearch() {
        post(m_monitor,
             [monitor = m_monitor, generation = m_generation, result = m_search.result()] {
                 monitor->handleSearchResult(generation, result);
             });
    }

    static PoolObservation readFullSnapshot(PoolOperations &operations, qint64 size) {
        PoolObservation observation;
        observation.snapshot = operations.snapshotOfSize(size);
        QList<double> counts;
        counts.reserve(observation.snapshot.members.size());
        for (const PoolMember &member : std::as_const(observation.snapshot.members))
            counts.append(member.count);
        observation.stats = computePoolStats(counts, observation.snapshot.evicted.size());
        observation.mode =
            QStringLiteral("full snapshot (%1 members)").arg(observation.snapshot.members.size());
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
        post(m_monitor, [monitor = m_monitor, generation = m_generation, state, detail] {
            monitor->handleWorkerState(generation, state, detail);
        });
    }

    void reportFailure(const QString &message) {
        post(m_monitor, [monitor = m_monitor, generation = m_generation, message] {
            monitor->handleFailure(generation, message);
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
                post(this, [this, generation, primary] { followSwitch(generation, primary); });
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

    PoolMonitor *m_monitor; // only a context for posting: never touched from this thread
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
    AllocationLevels m_levels; // the last poll's, for the allocations since
    MemberSearch m_search;
};

PoolMonitor::PoolMonitor(QObject *parent)
    : QObject(parent)
    , m_thread(std::make_unique<QThread>()) {
    registerMonitorTypes();
    m_thread->setObjectName(QStringLiteral("poolscope-poller"));
    m_worker = new Worker(this); // no parent: it moves to m_thread and is deleted there
    m_worker->moveToThread(m_thread.get());
    connect(m_thread.get(), &QThread::started, m_worker, &blockBrokenPipeOnThisThread);
    connect(m_thread.get(), &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

PoolMonitor::~PoolMonitor() {
    // Whatever the worker is waiting for ends within the command timeout; nothing starts after.
    m_worker->wanted.store(kShuttingDown);
    m_thread->quit();
    m_thread->wait();
}

void PoolMonitor::connectTo(const Endpoint &endpoint, const QByteArray &poolKey,
                            const ConnectionOptions &options) {
    const quint64 generation = ++m_generation;
    m_worker->wanted.store(generation);
    const ConnectionOptions bounded =
        worker::boundedOptions(options, QStringLiteral("poolscope-poller"));
    post(m_worker, [worker = m_worker, generation, endpoint, poolKey, bounded] {
        worker->start(generation, endpoint, poolKey, bounded);
    });
    handleWorkerState(generation, ConnectionState::Connecting, endpoint.toDisplayString());
}

void PoolMonitor::disconnectFromServer() {
    const quint64 generation = ++m_generation;
    m_worker->wanted.store(generation);
    post(m_worker, [worker = m_worker] { worker->stop(); });
    handleWorkerState(generation, ConnectionState::Disconnected, QStringLiteral("disconnected"));
}

void PoolMonitor::setPollInterval(std::chrono::milliseconds interval) {
    m_interval = std::max(interval, std::chrono::milliseconds(1));
    post(m_worker, [worker = m_worker, interval = m_interval] { worker->setInterval(interval); });
}

std::chrono::milliseconds PoolMonitor::pollInterval() const {
    return m_interval;
}

void PoolMonitor::setPaused(bool paused) {
    m_paused = paused;
    post(m_worker, [worker = m_worker, paused] { worker->setPaused(paused); });
}

bool PoolMonitor::isPaused() const {
    return m_paused;
}

void PoolMonitor::setFullSnapshotThreshold(qint64 members) {
    post(m_worker, [worker = m_worker, members] { worker->setFullSnapshotThreshold(members); });
}

void PoolMonitor::setPinnedMembers(const QList<QByteArray> &members) {
    post(m_worker, [worker = m_worker, members] { worker->setPinned(members); });
}

void PoolMonitor::setVisibleRows(qint64 fromRank, int count) {
    post(m_worker,
         [worker = m_worker, fromRank, count] { worker->setVisibleRows(fromRank, count); });
}

quint64 PoolMonitor::setMemberSearch(const QByteArray &text) {
    const quint64 id = ++m_searchId;
    post(m_worker, [worker = m_worker, id, text] { worker->setSearch(id, text); });
    return id;
}

void PoolMonitor::pollNow() {
    post(m_worker, [worker = m_worker] { worker->pollNow(); });
}

void PoolMonitor::handleWorkerState(quint64 generation, ConnectionState state,
                                    const QString &detail) {
    if (generation != m_generation)
        return; // about a connection the user has already left
    if (state == m_state && detail == m_stateDetail)
        return;
    m_state = state;
    m_stateDetail = detail;
    Q_EMIT stateChanged(state, detail);
}

void PoolMonitor::handleObservation(const PoolObservation &observation) {
    if (observation.generation != m_generation)
        return; // read before a reconnect or key change
    Q_EMIT observationArrived(observation);
}

void PoolMonitor::handleAuthenticationFailure(quint64 generation, const QString &message) {
    if (generation != m_generation)
        return;
    Q_EMIT authenticationFailed(message);
}

void PoolMonitor::handleSearchResult(quint64 generation, const MemberSearchResult &result) {
    if (generation != m_generation || result.id != m_searchId)
        return; // for a connection left, or a search replaced since
    Q_EMIT memberSearchUpdated(result);
}

void PoolMonitor::handleFailure(quint64 generation, const QString &message) {
    if (generation != m_generation)
        return;
    Q_EMIT pollFailed(message);
}

} // namespace poolscope
