#pragma once

#include "endpoint/Endpoint.h"
#include "history/PoolHistory.h"
#include "monitor/PoolMonitor.h"
#include "pool/PoolTypes.h"
#include "session/MemberColors.h"
#include "session/PoolFeed.h"
#include "session/RateTracker.h"

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QSet>
#include <QStringList>

namespace poolscope {

class PoolAlerts;
class PoolHealth;
class WriteLock;
struct LoadedRecording;

enum class LogSeverity { Info, Warning, Error };

// What is wrong with the pool's key, decided in the session on the server's code (never on
// words) and shown by the widgets.
struct KeyProblem {
    enum class Kind {
        None,
        // No such key yet (an empty pool, nothing evicted): a seed creates it.
        Missing,
        // The key, or a companion of it, holds another type: no pool command can work.
        WrongType,
        // The server's access rules refuse this user the reads a poll makes.
        NoPermission,
    };
    Kind kind = Kind::None;
    QString text; // for people: what and which key
    bool isNone() const { return kind == Kind::None; }
    // Seeding and test allocations cannot work (a missing key is what a seed creates; a refused
    // read says nothing about writes, which the server judges on their own).
    bool blocksPoolCommands() const { return kind == Kind::WrongType; }
    bool operator==(const KeyProblem &other) const {
        return kind == other.kind && text == other.text;
    }
};

// What a session shows now, as one state (PoolSession::mode).
enum class SessionMode {
    Idle,   // nothing watched: no pool chosen, or it was left before any poll answered
    Live,   // a pool watched: its figures are the latest poll's (or the first poll is on its way)
    Outage, // polls fail or the connection is down, and no poll of this pool answered yet
    // Polls fail, or the connection is down or was closed: every figure is the last good poll's
    // (lastGoodPollMs), not live.
    Stale,
    Recording, // a recording shown, read only: nothing is connected to
};

// One line of the events panel.
struct LogEntry {
    qint64 timeMs = 0;
    LogSeverity severity = LogSeverity::Info;
    QString kind; // "seed", "evict", "restore", "connection", "poll", "load", "export", ...
    QString text;
};

// The dashboard's model of one watched pool, without any widget: it owns its feed (by default a
// ServerFeed: the poller and the writer) and the history, turns the feed's observations and
// command results into history, rates and log entries, and decides whether writes are allowed.
// Panels observe it; PoolActions drives it. All Redis work happens on the feed's threads: nothing
// here ever waits on Redis.
class PoolSession : public QObject {
    Q_OBJECT

public:
    explicit PoolSession(QObject *parent = nullptr);
    // historyLimits: the history store's sizes (tests use small ones).
    PoolSession(PoolHistory::Limits historyLimits, QObject *parent = nullptr);
    // feed: where observations and command results come from (tests of widgets give a scripted
    // one); the other constructors give a ServerFeed.
    explicit PoolSession(std::unique_ptr<PoolFeed> feed, PoolHistory::Limits historyLimits = {},
                         QObject *parent = nullptr);
    ~PoolSession() override;

    // Read-only: every write is refused and every write control disabled.
    void setReadOnly(bool readOnly);
    bool isReadOnly() const { return m_readOnly; }
    // Why writes are impossible right now ("read-only mode (--read-only)", "not connected to
    // Redis"), or empty when they are allowed.
    QString writeBlockReason() const;
    bool canWrite() const { return writeBlockReason().isEmpty(); }
    // Production safety of the connection watched: locked writes are refused (writeBlockReason)
    // until unlocked for this session; its lockChanged also changes writeAvailabilityChanged.
    WriteLock &writeLock() { return *m_writeLock; }
    const WriteLock &writeLock() const { return *m_writeLock; }

    void connectTo(const Endpoint &endpoint, const QByteArray &poolKey);
    // Shows a recording (RecordingLoader) instead of a live pool: no connection, read-only, its
    // history on the chart and its last poll in the table. connectTo() leaves it.
    void showRecording(LoadedRecording &&recording);
    bool isShowingRecording() const { return !m_recordingPath.isEmpty(); }
    const QString &recordingPath() const { return m_recordingPath; }
    // The recording shown, read again in full after its overview: takes the history's place.
    void takeFullRecording(std::unique_ptr<PoolHistory> history);
    // Live: the past of this pool read from its recording takes the history's place; the polls
    // that arrived while it loaded are appended to it.
    void adoptRecordedPast(std::unique_ptr<PoolHistory> past);
    void disconnectFromServer();
    ConnectionState state() const;
    bool isConnected() const { return state() == ConnectionState::Connected; }
    bool hasTarget() const { return m_hasTarget; }
    const Endpoint &endpoint() const { return m_endpoint; }
    const QByteArray &poolKey() const { return m_poolKey; }
    QString serverVersion() const { return m_serverVersion; }
    // Why the last poll failed (WRONGTYPE, a lost connection, ...); empty once a poll succeeds.
    QString pollFailure() const { return m_lastPollFailure; }
    // What is wrong with the pool's key, from the last poll (None once a poll finds a pool).
    const KeyProblem &keyProblem() const { return m_keyProblem; }
    SessionMode mode() const { return m_mode; }
    // mode() is Stale: every figure from polls is the last good poll's (at lastGoodPollMs).
    bool isStale() const { return m_mode == SessionMode::Stale; }
    qint64 lastGoodPollMs() const { return m_lastGoodPollMs; }

    void setPollInterval(std::chrono::milliseconds interval);
    std::chrono::milliseconds pollInterval() const;
    void setPaused(bool paused);
    bool isPaused() const;
    void pollNow();

    // Pools with more members than this are read as a summary (PoolObservation::summaryMode):
    // quantiles, top/bottom members, pinned members and the table rows on screen only.
    void setFullSnapshotThreshold(qint64 members);
    qint64 fullSnapshotThreshold() const { return m_fullSnapshotThreshold; }
    // Pinned members: always charted, tracked by the history past its limit, read on every poll
    // of a big pool and recorded in it. The session holds the one set (widgets ask it to change);
    // the pins stay when another pool is shown, they belong to the person watching.
    void pin(const QList<QByteArray> &members);
    void unpin(const QList<QByteArray> &members);
    // Pins the members unless all of them are pinned already, in which case unpins them.
    void togglePins(const QList<QByteArray> &members);
    void setPins(const QList<QByteArray> &members);
    QList<QByteArray> pins() const; // sorted
    bool isPinned(const QByteArray &member) const { return m_pins.contains(member); }
    // The members the chart shows now. A pool too big for the history to record whole (more than
    // PoolHistory::maxTrackedMembers) is recorded by its top and bottom members, the pinned ones
    // and these, so that every charted line keeps growing.
    void setChartedMembers(const QList<QByteArray> &members);
    // The rank range the members table shows now; read on every poll of a big pool.
    void setVisibleRows(qint64 fromRank, int count);
    bool isSummaryMode() const { return m_latest && m_latest->summaryMode; }
    // Summary mode: finds members by name in the background (PoolMonitor::setMemberSearch); an
    // empty text ends the search. The latest result, for the current search only.
    void setMemberSearch(const QByteArray &text);
    const std::optional<MemberSearchResult> &memberSearch() const { return m_search; }

    // Proxy credentials (`user:pass@`) are masked everywhere unless this is on (View menu; off at
    // every start, never saved). Shown members go through displayMember()/displayText().
    void setCredentialsShown(bool shown);
    bool credentialsShown() const { return m_credentialsShown; }
    QString displayMember(const QByteArray &member) const;
    QString displayText(const QString &text) const;

    // The "last window of rates, shares and the busiest member (default 10 s).
    void setRateWindowMs(qint64 windowMs);
    qint64 rateWindowMs() const { return m_rates.windowMs(); }

    const std::optional<PoolObservation> &latestObservation() const { return m_latest; }
    // The lowest count in the pool now; nullopt for an empty pool or before the first poll.
    std::optional<double> poolMinimum() const;
    // Allocations per second over the rate window.
    double poolRatePerSecond() const { return m_rates.poolRate(); }
    // A recording shown: its rate over its last rate window (from the rise of the sum of its
    // counts), nullopt when its polls do not tell (too few, a big pool's summary, a count that
    // went down).
    std::optional<double> recordingRatePerSecond() const { return m_recordingRate; }
    const RateTracker &rates() const { return m_rates; }
    // The allocations counted poll by poll since this pool was opened, cumulative (the members'
    // rises; a big pool's counted levels), for the chart's pool-rate line: NaN where a stretch
    // could not be counted. The last kCountedAllocationsKept polls.
    static constexpr int kCountedAllocationsKept = 3600;
    QList<HistoryPoint> countedAllocations(qint64 fromMs, qint64 toMs) const;
    const PoolHistory &history() const { return *m_history; }
    PoolHistory &history() { return *m_history; }
    const MemberColors &colors() const { return m_colors; }
    // The members' proxy health, the guard's actions, Check selected and the dashboard's guard.
    PoolHealth &health() { return *m_health; }
    const PoolHealth &health() const { return *m_health; }
    // The pool's alerts: its rules (the connection's profile's), what is pending and firing.
    PoolAlerts &alerts() { return *m_alerts; }
    const PoolAlerts &alerts() const { return *m_alerts; }
    // Members the history has series for, in the pool or evicted.
    QList<QByteArray> knownMembers() const;

    // Writes, all through the writer's thread. Refused (with a log entry) when !canWrite().
    bool seed(const QList<QByteArray> &members, const SeedOptions &options);
    // reason: why, for the pool's audit trail (optional; a seed's is options.reason).
    bool evict(const QList<QByteArray> &members, const QString &reason = {});
    bool restore(const QList<QByteArray> &members, RestorePolicy policy, double startCount,
                 const QString &reason = {});
    void findPoolKeys();
    // Writes of this dashboard made around the writer (the count-reset demo's own
    // connection): what they change, from begin to end and in the poll that spans the end, is
    // ours and not reported as an outside change. Calls nest.
    void beginOwnWrites();
    void endOwnWrites();

    void log(LogSeverity severity, const QString &kind, const QString &text);
    // Adds a marker to the chart (at timeMs, 0 = now).
    // sourceId: see HistoryEvent::sourceId.
    void addHistoryEvent(HistoryEvent::Kind kind, const QByteArray &member, const QString &label,
                         qint64 timeMs = 0, const QByteArray &sourceId = {});

Q_SIGNALS:
    // The pinned members changed (pins(), sorted).
    void pinsChanged(const QList<QByteArray> &pins);
    // The members the chart draws changed (the recorder keeps their series in big pools).
    void chartedMembersChanged(const QList<QByteArray> &members);
    void stateChanged(poolscope::ConnectionState state, const QString &detail);
    // mode() changed (live, stale, a recording shown...).
    void modeChanged(poolscope::SessionMode mode);
    void targetChanged();
    // After history and rates took the observation in.
    void observationApplied(const poolscope::PoolObservation &observation);
    void pollFailed(const poolscope::Failure &failure);
    // keyProblem() changed.
    void keyProblemChanged(const poolscope::KeyProblem &problem);
    // The server refused the credentials: no retrying; the target is dropped (hasTarget() false)
    // until connectTo() brings new ones.
    void authenticationFailed(const poolscope::Failure &failure);
    void historyEventAdded(const poolscope::HistoryEvent &event);
    // The history was replaced by one read from a recording (showRecording, adoptRecordedPast).
    void historyLoaded();
    void messageLogged(const poolscope::LogEntry &entry);
    void writeAvailabilityChanged(bool canWrite, const QString &reason);
    void poolKeysFound(const QStringList &keys);
    void seedProgressed(qint64 done, qint64 total);
    void seedFinished(const poolscope::SeedResult &result);
    void membersEvicted(const QList<poolscope::EvictResult> &results);
    void membersRestored(const QList<poolscope::RestoreResult> &results, double poolMinimumBefore);
    // operation: "seed", "evict", "restore", "scan". A refusal of this user's or this server's
    // (NOPERM, a read-only replica) also makes the session read-only (writeBlockReason()).
    void commandFailed(const QString &operation, const poolscope::Failure &failure);
    void memberSearchUpdated(const poolscope::MemberSearchResult &result);
    void credentialsShownChanged(bool shown);

private:
    void handleState(ConnectionState state, const QString &detail);
    void handleObservation(const PoolObservation &observation);
    void recordHistory(const PoolObservation &observation, const QList<PoolMember> &polled);
    void countAllocations(const PoolObservation &observation, bool afterAPoll);
    void handlePollFailure(const Failure &failure);
    void handleAuthenticationFailure(const Failure &failure);
    void setKeyProblem(KeyProblem::Kind kind, const QString &text = {});
    void handleSeedFinished(const SeedResult &result);
    void handleEvicted(const QList<EvictResult> &results);
    void handleRestored(const QList<RestoreResult> &results, double poolMinimumBefore);
    void handleCommandFailure(const QString &operation, const Failure &failure);
    // Switching pools: the pool left keeps its history (and colours) for when it comes back.
    void keepCurrentPool();
    void takeKeptPool(const Endpoint &endpoint, const QByteArray &poolKey);
    void setMode(SessionMode mode);
    // Polls failing from now on: one line break in the history per outage.
    void markOutage(const QString &reason);
    // Counts that went down, members that left and a pool that vanished with no action of ours
    // to explain it (a server restart, FLUSHALL, another client): an event and a chart marker.
    void reportOutsideChanges(const PoolObservation &before, const PoolObservation &now);
    bool refuseWrite(const QString &operation);
    void updateWriteAvailability();

    std::unique_ptr<PoolFeed> m_feed;
    std::unique_ptr<PoolHistory> m_history;
    std::unique_ptr<PoolHealth> m_health;
    std::unique_ptr<PoolAlerts> m_alerts;
    WriteLock *m_writeLock = nullptr; // a child: its signals are connected in the constructor
    PoolHistory::Limits m_historyLimits;
    struct KeptPool;
    std::vector<KeptPool> m_keptPools; // pools looked at before, most recently left last
    RateTracker m_rates;
    MemberColors m_colors;
    QSet<QByteArray> m_charted;
    QSet<QByteArray> m_pins;
    std::optional<PoolObservation> m_latest;
    Endpoint m_endpoint;
    QByteArray m_poolKey;
    QString m_serverVersion;
    QString m_lastPollFailure;
    KeyProblem m_keyProblem;
    qint64 m_fullSnapshotThreshold = 10000;
    bool m_hasTarget = false;
    bool m_readOnly = false;
    // Set when the server refused a write for this user (NOPERM, or a read-only replica).
    QString m_serverRefusesWrites;
    bool m_firstObservation = true;
    qint64 m_connectionFirstPollMs = 0; // the first poll since the last connectTo()
    SessionMode m_mode = SessionMode::Idle;
    int m_writesInFlight = 0; // seeds, evictions and restores asked for and not yet done
    int m_ownWrites = 0;      // beginOwnWrites() not yet ended
    qint64 m_ownWritesEndedMs = 0;
    qint64 m_lastGoodPollMs = 0;
    bool m_lastCanWrite = false;
    QString m_lastBlockReason;
    std::optional<MemberSearchResult> m_search;
    bool m_credentialsShown = false;
    QString m_recordingPath; // the recording shown (read-only), empty when live
    std::optional<double> m_recordingRate;
    std::deque<HistoryPoint> m_counted; // countedAllocations()
    double m_countedTotal = 0;
    bool m_recordingHasEveryMember = false;
};

} // namespace poolscope
