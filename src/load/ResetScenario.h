#pragma once

#include "audit/AuditActor.h"
#include "client/RedisConnection.h"
#include "endpoint/Endpoint.h"
#include "pool/PoolTypes.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>

#include <QByteArray>
#include <QJsonObject>
#include <QList>

namespace poolscope {

// The count-reset demo: seed a fresh pool, run steady allocations, evict one member halfway
// through `before`, restore it with `policy` at the end of `before`, keep allocating for `after`.
struct ResetScenarioSpec {
    Endpoint endpoint;
    ConnectionOptions connection; // the client name is always "poolscope-scenario"
    QByteArray poolKey;
    int members = 10;           // 2-1000, named proxy-00 .. proxy-09 (width grows with the count)
    double ratePerSecond = 500; // allocations per second, steady
    RestorePolicy policy = RestorePolicy::Zero;
    double startCount = 0; // the agreed starting count: for seeding and for the `start` policy
    std::chrono::milliseconds before{10000}; // load before the restore; evicted halfway
    std::chrono::milliseconds after{10000};  // load after the restore
    bool replace = false; // delete a pool already at poolKey (and its evicted hash) first
    // Who its seed, evict and restore name in the pool's audit trail (the reason says "count-reset
    // demo").
    AuditActor actor = AuditActor::thisProcess();
};

struct ResetScenarioProgress {
    enum class Phase { Running, Evicted, Restored, Finished };
    Phase phase = Phase::Running;
    double elapsedSeconds = 0;
    double totalSeconds = 0;
    qint64 allocations = 0;
    qint64 restoredMemberAllocations = 0; // since the restore
};

// Allocations per slice of the run, for charts.
struct ResetScenarioBucket {
    double startSeconds = 0;
    qint64 allocations = 0;
    qint64 toRestoredMember = 0;
};

struct ResetScenarioReport {
    QByteArray poolKey;
    int members = 0;
    QByteArray member; // the one evicted and restored
    RestorePolicy policy = RestorePolicy::Zero;
    double ratePerSecond = 0;         // asked for
    double achievedRatePerSecond = 0; // allocations / elapsed
    double startCount = 0;

    // Seconds since the start of the load, and wall-clock times (ms since the epoch) so a chart
    // of the pool can mark them.
    double evictedAtSeconds = -1;
    double restoredAtSeconds = -1;
    qint64 evictedAtEpochMs = 0;
    qint64 restoredAtEpochMs = 0;
    double savedCount = 0;           // the member's count when evicted
    double restoredCount = 0;        // its count after the restore
    double poolMinimumAtRestore = 0; // lowest count of the other members, read atomically with it

    // Forecast: min - restored count allocations in a row go to the restored member.
    double forecastRun = 0;
    // Observed, from the allocation replies in order after the restore:
    qint64 longestRun = 0;                // consecutive allocations to the restored member
    double shareWindowSeconds = 0;        // min(10 s, after)
    double shareInWindow = 0;             // its share of allocations in that window (0..1)
    double fairShare = 0;                 // 1 / members
    std::optional<double> catchUpSeconds; // until its count is within 1 of the others' minimum

    qint64 allocations = 0;
    qint64 allocationsAfterRestore = 0;
    qint64 toRestoredMemberAfterRestore = 0;
    qint64 empty = 0;
    double elapsedSeconds = 0;
    bool cancelled = false;
    QList<ResetScenarioBucket> timeline; // 250 ms buckets

    QJsonObject toJson() const;
};

using ResetScenarioProgressCallback = std::function<void(const ResetScenarioProgress &)>;

// Runs the whole scenario on the calling thread (one connection, one steady worker, so the
// allocation replies arrive in the server's order) and blocks until it ends; progress comes
// about every 100 ms and at each phase change. Setting *cancel ends it early with a partial
// report (cancelled = true). Throws RedisError: Usage for a bad spec or a pool key that already
// holds members (without `replace`), Server/Connection/Timeout when Redis fails.
// The pool is left in Redis afterwards for inspection.
ResetScenarioReport runResetScenario(const ResetScenarioSpec &spec,
                                     const ResetScenarioProgressCallback &progress = {},
                                     const std::atomic<bool> *cancel = nullptr);

} // namespace poolscope
