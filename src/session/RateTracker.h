#pragma once

#include "pool/PoolTypes.h"

#include <deque>
#include <optional>

#include <QByteArray>
#include <QHash>
#include <QList>

namespace poolscope {

// Allocation rates over a sliding window, from consecutive polls of the pool.
//
// Between two polls a member's allocations are the rise of its count. A count that went down
// (a member evicted and restored lower, or reset by a seed) and a member that was not in the
// previous poll (seeded or restored) count as no allocation: the tracker measures what workers
// took, not what operators wrote. Memory: the non-zero deltas of the polls inside the window.
// Cost: one poll is O(members) hash updates in place; per-member totals over the window are kept
// up to date as ticks enter and leave it, so memberRate() and memberAllocations() are O(1): the
// dashboard asks for every row's rate on every poll of pools of 10,000 members.
class RateTracker {
public:
    explicit RateTracker(qint64 windowMs = 10000);

    void setWindowMs(qint64 windowMs);
    qint64 windowMs() const { return m_windowMs; }

    // One poll: the members in the pool with their counts, read at timeMs. Returns the members
    // that were not in the previous poll (all of them on the first), so callers can do per-member
    // set-up for those only instead of looking up every member again.
    QList<QByteArray> record(qint64 timeMs, const QList<PoolMember> &members);
    // The same poll given by what changed since the poll recorded last (PoolSnapshot::changes,
    // which the caller has checked are against that poll): only the members that changed, came
    // or left are looked at, about as many as the allocations between two polls.
    QList<QByteArray> recordChanges(qint64 timeMs, const PoolChanges &changes);
    // A big pool, whose members are not all read: the pool's allocations since the previous
    // poll, counted by the poller (nullopt when unknown: that stretch is left out). While there
    // are such ticks in the window they give poolRate(); clearPoolAllocations() goes back to the
    // members' rises.
    void recordPoolAllocations(qint64 timeMs, std::optional<double> allocations);
    void clearPoolAllocations();
    // A rate counted for the whole pool (recordPoolAllocations) covers the window.
    bool hasPoolAllocations() const { return !m_poolTicks.empty(); }
    void clear();

    // Allocations per second over the window (0 until two polls are known).
    double poolRate() const;
    double memberRate(const QByteArray &member) const;
    struct Activity {
        bool followed = false; // in the last poll recorded
        // Followed over at least two polls in a row: the rate is known (possibly 0). A member
        // that has only just come into view (a big pool's new bottom member) has no rate yet.
        bool rateKnown = false;
        // Over the part of the window the member was followed for.
        double ratePerSecond = 0;
        // When the count was last seen changing between two polls; nullopt when it has not
        // changed since the member (re)appeared, or when it is not followed.
        std::optional<qint64> lastChangeMs;
    };
    // What the table shows of one member, in two lookups (it asks for 10,000 rows a poll).
    Activity activity(const QByteArray &member) const;
    // Allocations per member over the window (members with none are absent).
    const QHash<QByteArray, double> &memberAllocations() const { return m_windowAllocations; }
    double windowAllocations() const;
    // How much time the window actually covers, in ms (at most a little over windowMs).
    qint64 coveredMs() const;
    // Allocations seen since the tracker started (or was cleared).
    double totalAllocations() const { return m_totalAllocations; }
    // A poll has been recorded since the start (or clear()).
    bool hasPoll() const { return m_previousMs >= 0; }
    qint64 lastPollMs() const { return m_previousMs; } // -1: none
    // The allocations between the last two polls recorded (record()): the members' rises.
    double lastTickAllocations() const { return m_ticks.empty() ? 0.0 : m_ticks.back().total; }

private:
    struct Tick {
        qint64 fromMs = 0;
        qint64 toMs = 0;
        double total = 0;
        // Non-zero only, each member once (a list: nothing looks one up, and 500 inserts into a
        // hash a poll cost more than the rest of the tick).
        QList<std::pair<QByteArray, double>> deltas;
    };
    struct Previous {
        double count = 0;
        quint64 poll = 0;         // the poll that last saw the member
        qint64 lastChangeMs = -1; // -1: not seen changing
        qint64 sinceMs = 0;       // first poll of the current unbroken run of polls seeing it
    };
    void trim();
    void addTick(Tick &&tick);
    void dropOldestTick();

    qint64 m_windowMs;
    std::deque<Tick> m_ticks;
    QHash<QByteArray, Previous> m_previous;
    // Per member over the window: its allocations, and in how many ticks it had some (a count,
    // not a test of the sum for zero, says when it leaves: rounding leaves no ghosts).
    QHash<QByteArray, double> m_windowAllocations;
    QHash<QByteArray, int> m_windowTicks;
    quint64 m_polls = 0;
    // The poll after which every member in m_previous is known to be in the pool, though not
    // every entry was stamped with it (recordChanges stamps only the members that changed).
    quint64 m_allPresentAt = 0;
    qint64 m_previousMs = -1;
    double m_totalAllocations = 0;
    struct PoolTick {
        qint64 fromMs = 0;
        qint64 toMs = 0;
        double total = 0;
    };
    std::deque<PoolTick> m_poolTicks;
    qint64 m_previousPoolMs = -1;
};

} // namespace poolscope
