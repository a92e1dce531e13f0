#pragma once

#include "client/RedisConnection.h"
#include "health/HealthTypes.h"
#include "pool/PoolKeys.h"

#include <QHash>
#include <QSet>

namespace poolscope {

// A member's health as kept in Redis, in the pool's health hash (PoolKeys::health()): one field
// per member, its value a small JSON object
//   {"t": last check (ms since the epoch), "o": outcome name, "l": latency ms (-1: none),
//    "s": HTTP status, "up": consecutive successes, "down": consecutive failures,
//    "e": last error text (credentials masked)}
// so every dashboard, `check` and guard sees the same state. Whether a guard holds the member
// evicted is not in this record (a guard writes records from a read made before its checks, which
// would undo an operator's action in between) but in PoolKeys::guardMarks(), which only the evict
// and restore scripts change.
struct HealthRecord {
    qint64 checkedAtMs = 0;
    QString outcome; // outcomeName(); empty: never checked
    qint64 latencyMs = -1;
    int status = 0;
    int successes = 0;
    int failures = 0;
    QString error;
    bool evictedByGuard = false; // from the guard's marks hash, not from the JSON

    QByteArray toJson() const;
    static std::optional<HealthRecord> fromJson(const QByteArray &json);
    // The record after one more check.
    HealthRecord after(const CheckResult &result, qint64 nowMs) const;
    bool operator==(const HealthRecord &) const = default;
};

// One action of a guard, as the pool's guard-events stream kept it before the audit trail
// (src/audit) took its place: nothing writes that stream any more, and it is still read until it
// is deleted. The dashboard shows a guard's audit entries in the same form.
struct GuardEvent {
    QByteArray id; // the stream entry id ("1712345678901-0"): the same event read again has it too
    qint64 timeMs = 0;
    QString kind;   // "evict", "restore", "capped" (held back starts), "uncapped" (ends), "lease"
    QString member; // credentials masked; empty for pool-wide events
    QString reason;
    // A restore read from the audit trail: the count it came back at and the policy.
    std::optional<double> restoredCount;
    QString policy;
};

// Reads and writes health state with bounded commands only: HMGET / HSET of at most kChunk
// fields, XRANGE / XREVRANGE with COUNT. Counts the commands it sends.
class HealthStore {
public:
    static constexpr int kChunk = 500;

    HealthStore(RedisConnection &connection, PoolKeys keys);

    // The records, with evictedByGuard from the marks hash (a marked member without a record
    // gets an empty record with the mark).
    QHash<QByteArray, HealthRecord> read(const QList<QByteArray> &members);
    void write(const QHash<QByteArray, HealthRecord> &records);
    // One step of a walk over the health hash (HSCAN COUNT kChunk, then one HDEL): drops the
    // records of members that are neither in the pool nor evicted, so the hash does not keep
    // every member that ever passed through. Returns the cursor to go on from ("0": the walk is
    // complete); *removed: records dropped by this step.
    QByteArray pruneStep(const QByteArray &cursor, const QSet<QByteArray> &members,
                         qint64 *removed = nullptr);
    // Events added after the stream entry afterId, oldest first, at most count (XRANGE with an
    // exclusive start); with an empty afterId the newest `count` events, oldest first. *lastId:
    // the id of the last event returned (unchanged when none).
    QList<GuardEvent> eventsAfter(const QByteArray &afterId, int count, QByteArray *lastId);
    // Who holds the lease and whether the guard is held back at its cap, in one round trip: GET
    // of the lease and the newest `scanned` entries of the audit trail, where a guard notes its
    // held-back episodes' start and end (so the cap is known while fewer than `scanned` actions
    // came after its last note).
    GuardStatus guardStatus(int scanned = 200);

    const PoolKeys &keys() const { return m_keys; }
    qint64 commandsSent() const { return m_commands; }

private:
    RedisConnection &m_connection;
    PoolKeys m_keys;
    qint64 m_commands = 0;
};

} // namespace poolscope
