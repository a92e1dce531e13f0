#pragma once

#include "base/Failure.h"
#include "client/RedisConnection.h"
#include "endpoint/Endpoint.h"
#include "pool/MemberSearch.h"
#include "pool/PoolStats.h"
#include "pool/PoolSummary.h"
#include "pool/PoolTypes.h"

#include <chrono>
#include <memory>
#include <optional>

#include <QByteArray>
#include <QObject>
#include <QString>

namespace poolscope {

class BackgroundWorker;

enum class ConnectionState { Disconnected, Connecting, Connected, Reconnecting };
QString connectionStateName(ConnectionState state);

// One poll's worth of what the pool looked like.
struct PoolObservation {
    qint64 timeMs = 0;      // when the reply arrived, ms since the epoch
    quint64 generation = 0; // which connectTo() this belongs to
    PoolSnapshot snapshot;
    PoolStats stats;
    double roundTripMs = 0; // wall time of the whole poll
    QString serverVersion;
    // Sentinel endpoints: the primary read ("host:port") and the sentinel that named it.
    QString primary;
    QString primaryNamedBy;
    // Redis Cluster: the primary that owns the pool's slot ("host:port"), as the slot map says
    // after this poll (a migrated slot: the node it moved to, once a MOVED was followed).
    QString servedBy;
    QString mode; // how it was read, for the UI: "full snapshot (12 members)"

    // Big pools (more members than the full-snapshot threshold) are read as a summary instead:
    // snapshot.members is then empty, and these say what was read.
    bool summaryMode = false;
    PoolSummary summary;             // size, quantiles, top/bottom K, pinned members
    QList<RankedMember> visibleRows; // the rows the table shows (setVisibleRows)
    qint64 visibleFrom = 0;
    // The background full scan for totals: members seen so far in the current pass, and the
    // totals of the last completed pass (stats.total and stats.jainIndex come from it).
    qint64 scanProgress = 0;
    bool scanCompleted = false;
    // Summary mode: the allocations since the previous poll (AllocationLevels); nullopt on the
    // first poll and when other writes make them unknown.
    std::optional<double> allocationsSincePrevious;
};

// The poller: polls one pool from its own thread (a BackgroundWorker), over its own connection,
// so the GUI thread never waits on Redis. A single-shot timer is re-armed only after a poll has
// finished: polls never overlap. Every observation carries the generation of the connectTo() it
// answers, and replies from an older generation (before a reconnect or key change) are dropped,
// never emitted.
class PoolMonitor : public QObject {
    Q_OBJECT

public:
    explicit PoolMonitor(QObject *parent = nullptr);
    ~PoolMonitor() override; // stops polling; the thread ends within about a command timeout

    // Starts a new generation: state Connecting at once, then Connected (detail: server
    // version) or Reconnecting (detail: why), retried with backoff from 50 ms doubling to 2 s;
    // an authentication failure is not retried (authenticationFailed, then Disconnected).
    // options: clientName defaults to "poolscope-poller"; a command timeout is enforced (1 s when
    // unset) and the connect timeout is capped at it, so disconnecting or destroying the monitor
    // never waits on a dead server for longer than about one command timeout.
    void connectTo(const Endpoint &endpoint, const QByteArray &poolKey,
                   const ConnectionOptions &options = {});
    void disconnectFromServer();
    void setPollInterval(std::chrono::milliseconds interval);
    std::chrono::milliseconds pollInterval() const;
    // Paused: no polls (reconnecting goes on); resuming polls at once.
    void setPaused(bool paused);
    bool isPaused() const;
    // Pools with more members than this are read as a summary (see PoolObservation).
    void setFullSnapshotThreshold(qint64 members);
    // Members to read on every poll in summary mode (ZMSCORE), e.g. those pinned to the chart.
    void setPinnedMembers(const QList<QByteArray> &members);
    // Rows by rank that the table shows now; read on every poll in summary mode.
    void setVisibleRows(qint64 fromRank, int count);
    // Looks members of the pool up by name, in the background on the poller's thread: the
    // member typed exactly (ZSCORE, ZRANK) and those starting with text (ZSCAN MATCH, a few short
    // pages every 50 ms until the pool has been scanned or MemberSearch::kMaxMatches are found).
    // The counts of the members found are read again on every poll. Results arrive through
    // memberSearchUpdated; an empty text ends the search. Returns the search's id.
    quint64 setMemberSearch(const QByteArray &text);
    // Polls as soon as the current poll (if any) is done, also while paused (once); while
    // reconnecting, retries the connection at once.
    void pollNow();
    ConnectionState state() const { return m_state; }
    quint64 generation() const;

Q_SIGNALS:
    // detail: the server version when connected, the reason otherwise.
    void stateChanged(poolscope::ConnectionState state, const QString &detail);
    void observationArrived(const poolscope::PoolObservation &observation);
    // A poll failed: WRONGTYPE, NOPERM, a lost connection (then state Reconnecting)...
    void pollFailed(const poolscope::Failure &failure);
    // The server refused the credentials (or wants some): the monitor stops (state
    // Disconnected) instead of retrying, until connectTo() is called with new ones.
    void authenticationFailed(const poolscope::Failure &failure);
    // Progress or refreshed counts of the current member search (setMemberSearch).
    void memberSearchUpdated(const poolscope::MemberSearchResult &result);

private:
    class Worker;
    void handleWorkerState(poolscope::ConnectionState state, const QString &detail);
    void handleSearchResult(const poolscope::MemberSearchResult &result);

    ConnectionState m_state = ConnectionState::Disconnected;
    QString m_stateDetail; // stateChanged is emitted when the state or its detail changes
    std::chrono::milliseconds m_interval{1000};
    bool m_paused = false;
    quint64 m_searchId = 0;
    // Last: stopped before anything a delivery touches goes away. Its generation is connectTo()'s.
    std::unique_ptr<BackgroundWorker> m_background;
    Worker *m_worker = nullptr; // the background worker's context, on its thread
};

} // namespace poolscope
