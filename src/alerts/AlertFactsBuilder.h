#pragma once

#include "alerts/AlertFacts.h"
#include "health/HealthTypes.h"
#include "monitor/PoolMonitor.h"

#include <deque>

#include <QHash>

namespace poolscope {

// Turns a pool's polls into AlertFacts: the same conversion for the dashboard's session (one
// builder per watched pool, fed from its PoolMonitor) and for `poolscope-cli alert-check`.
//
// Feed it, in time order: every observation (observe), every loss of the connection
// (observeUnreachable: the monitor's Reconnecting or Disconnected state), and, where a guard may
// run, the guard's state now and then (observeGuard). facts(now) then says what is known.
//
// Allocations are the rises of the members' counts between two polls in a row (a member that
// was not in the previous poll, seeded or restored, starts afresh: a restore is no allocation),
// and in summary mode the pool's counted levels (PoolObservation::allocationsSincePrevious).
// It keeps its own window rather than the session's RateTracker because it also needs, per
// member, when it was last allocated and how much the pool made since (starvation), and a
// longer baseline; memory: one entry per followed member, the ticks of the window, and the
// baseline at one point a second at most.
class AlertFactsBuilder {
public:
    struct Options {
        qint64 windowMs = 10000;        // the rate window (flood, workers stopped, the rate)
        qint64 baselineMs = 15 * 60000; // the stretch before it that the rate is compared to
        int idleListed = 5;             // members listed in AlertFacts::idle
    };

    explicit AlertFactsBuilder(QByteArray poolKey);
    AlertFactsBuilder(QByteArray poolKey, Options options);

    void observe(const PoolObservation &observation);
    void observeUnreachable(qint64 timeMs, const QString &reason);
    void observeGuard(qint64 timeMs, const GuardStatus &status);
    // Forgets everything (another server or pool).
    void clear();

    // Worked out once after each thing fed; the timer's evaluations between polls only copy it.
    AlertFacts facts(qint64 nowMs) const;
    const Options &options() const { return m_options; }

private:
    struct Followed {
        double count = 0;
        quint64 poll = 0;        // the last poll that saw it
        qint64 sinceMs = 0;      // its last allocation, or when it was first followed
        double cumulativeAt = 0; // the pool's allocations so far at sinceMs
    };
    struct Tick {
        qint64 fromMs = 0;
        qint64 toMs = 0;
        std::optional<double> total; // the pool's allocations; nullopt: not counted
        // Members' allocations, non-zero only, each member once (nothing looks one up).
        QList<std::pair<QByteArray, double>> deltas;
    };
    struct Level {
        qint64 timeMs = 0;
        double cumulative = 0; // the pool's allocations counted so far
        qint64 countedMs = 0;  // the time those were counted over
    };
    // observe() for a whole pool read whose changes are against the read observed last: only the
    // members that changed, came or left are looked at. False (nothing done) when not possible.
    // observe() looking at every member this poll read.
    void observeAll(const PoolObservation &observation, quint64 poll, Tick &tick, double &rises,
                    QList<QByteArray> &marked);
    bool observeChanges(const PoolObservation &observation, quint64 poll, Tick &tick, double &rises,
                        QList<QByteArray> &marked);
    void recordTick(Tick tick);
    void trimWindow();
    void noteServer(FailoverFact::Kind kind, QString &previous, const QString &now, qint64 timeMs);

    AlertFacts workOutFacts() const;

    QByteArray m_poolKey;
    Options m_options;
    mutable std::optional<AlertFacts> m_facts; // facts() since the last thing fed
    AlertFacts m_last; // the figures of the last poll, reachability, guard and failover
    quint64 m_polls = 0;
    qint64 m_previousMs = -1;
    QHash<QByteArray, Followed> m_followed;
    // Every followed member was in the last poll, which read the whole pool: an unchanged
    // member's Followed::poll is left behind rather than written for all of them each poll.
    bool m_allSeen = false;
    quint64 m_readId = 0; // the last poll's PoolSnapshot::readId when it read the whole pool
    std::deque<Tick> m_ticks;
    struct InWindow {
        double allocations = 0;
        int ticks = 0; // a count, not a test of the sum for zero, says when a member leaves
    };
    QHash<QByteArray, InWindow> m_windowMembers; // per member over the ticks of the window
    double m_cumulative = 0;
    qint64 m_countedMs = 0;
    std::deque<Level> m_levels;
    QString m_primary;  // Sentinel: the primary of the last poll that named one
    QString m_servedBy; // Cluster: the slot's owner likewise
    bool m_leaseSeen = false;
};

} // namespace poolscope
