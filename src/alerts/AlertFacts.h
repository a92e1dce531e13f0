#pragma once

#include <optional>

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace poolscope {

// A member as alerts show it: one line, escaped (memberText), credentials masked.
QString alertMemberText(const QByteArray &member);

// A member's part of the allocations over the window.
struct MemberAllocations {
    QByteArray member;
    double allocations = 0;
};

// A member that has had no allocation for a while, and what the pool made meanwhile.
struct IdleMember {
    QByteArray member;
    qint64 idleMs = 0;               // since its last allocation, or since it was first followed
    double poolAllocationsSince = 0; // the pool's allocations in that time (at least)
};

// The pool moved: the Sentinel primary changed, or the cluster slot's owner did.
struct FailoverFact {
    enum class Kind { PrimaryChanged, SlotMoved };
    Kind kind = Kind::PrimaryChanged;
    qint64 timeMs = 0; // the first poll that saw the new server
    QString from;      // "host:port"
    QString to;
};

// What a guard on the pool looks like from outside (its lease and its notes in the audit trail).
struct GuardFacts {
    bool seen = false;      // a guard held the lease since we watch, or wrote an event in a day
    bool leaseHeld = false; // some guard holds the lease now
    QByteArray holder;      // its id
    bool capped = false;    // it holds back evictions at its cap (and still holds the lease)
    QString capReason;      // the guard's own words, credentials masked
};

// What is known about one pool at one moment, built poll by poll (AlertFactsBuilder) and judged
// by the rules (AlertEngine). Optional figures are unknown until the polls could tell them.
struct AlertFacts {
    qint64 timeMs = 0;           // now, ms since the epoch
    QByteArray poolKey;          // for the messages
    qint64 observedSinceMs = -1; // the first poll fed to the builder (-1: none yet)

    // Reachability: unknown (both false/nullopt) before the first answer or failure.
    bool reachable = false;
    std::optional<qint64> unreachableSinceMs; // the first failure since the last good poll
    QString unreachableReason;

    // The last good poll (polled false: none yet).
    bool polled = false;
    qint64 pollTimeMs = 0;
    qint64 members = 0;
    qint64 evicted = 0;
    double min = 0;
    double median = 0;
    double max = 0;
    double spread = 0;
    std::optional<double> jain; // a big pool's before its first complete totals scan: unknown
    bool summaryMode = false;   // members' figures only for the top, bottom and pinned ones

    // Allocations over the rate window (the last windowMs), from consecutive polls: members'
    // rises in full snapshots, the pool's counted levels in summary mode.
    qint64 windowMs = 0;                 // the window asked for
    qint64 coveredMs = 0;                // the part of it the polls cover
    std::optional<double> ratePerSecond; // nullopt until two polls
    double windowAllocations = 0;
    // The members' shares: every member's in a full snapshot, the followed ones' in a summary.
    std::optional<MemberAllocations> busiest;
    // The members longest without an allocation, longest first (a few).
    QList<IdleMember> idle;
    // The rate over the baseline (the stretch before the window), once it covers half of it.
    std::optional<double> baselineRate;
    qint64 baselineCoveredMs = 0;

    std::optional<GuardFacts> guard; // nullopt: not read (or not readable)
    std::optional<FailoverFact> lastFailover;

    // For the CLI's --json report.
    QJsonObject toJson() const;
};

} // namespace poolscope
