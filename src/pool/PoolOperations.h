#pragma once

#include "audit/AuditActor.h"
#include "base/RedisError.h"
#include "client/RedisConnection.h"
#include "pool/PoolKeys.h"
#include "pool/PoolStats.h"
#include "pool/PoolTypes.h"

#include <functional>
#include <optional>

namespace poolscope {

class SnapshotOrder;

// Every pool operation, on one blocking connection. Each method sends only short commands
// (at most ~1,000 members per command, O(log N) scripts), so none of them holds the server.
// Errors throw RedisError with a message that names the key or member concerned.
class PoolOperations {
public:
    // Reports progress of long operations: (done, total).
    using Progress = std::function<void(qint64, qint64)>;
    static constexpr int kChunkSize = 1000;
    // ZSCAN costs about twice ZRANGE per member (measured: COUNT 1000 on 1M members ~2 ms,
    // ZRANGE of 1,000 ranks ~1 ms), so scan pages are small: ~0.2 ms each.
    static constexpr int kScanCount = 100;

    PoolOperations(RedisConnection &connection, const QByteArray &poolKey);

    const PoolKeys &keys() const { return m_keys; }

    // Who the audit entries of this object's writes name (PoolKeys::audit(): every seed batch,
    // evict and restore adds its entry in its own script). Default: this process as
    // AuditActor::thisProcess() names it; an empty user is asked of the connection (ACL WHOAMI)
    // before the first write.
    void setActor(const AuditActor &actor) { m_actor = actor; }
    // The actor with its Redis user, asked of the connection once. Throws RedisError.
    const AuditActor &resolvedActor();
    // The trail's cap (kAuditTrailCap); tests lower it to see it trimmed.
    void setAuditCap(qint64 cap) { m_auditCap = cap; }
    // ARGV[1..7] of a script that writes an audit entry, for this actor (see AuditActor.h).
    // Throws RedisError(Usage) for a reason that cannot be recorded.
    QList<QByteArray> auditArguments(const QString &reason, const QByteArray &guardId = {});

    // All members with counts, plus the evicted members with their saved counts. Pools of up to
    // kChunkSize members are read in one ZRANGE; bigger ones with ZSCAN (COUNT kScanCount),
    // which, unlike rank chunks, misses no member while workers change the ranks under it.
    // includeMembers = false reads only the evicted members (for big pools).
    PoolSnapshot snapshot(bool includeMembers = true);
    // snapshot() for a caller that has just read the pool's size (ZCARD) itself: no second ZCARD.
    // order: the caller's order of its previous reads of this pool, which puts the members in
    // order by merging and sets the snapshot's readId and changes (SnapshotOrder).
    PoolSnapshot snapshotOfSize(qint64 members, SnapshotOrder *order = nullptr);
    PoolStats stats();
    qint64 size();
    // The lowest count in the pool; nullopt for an empty pool.
    std::optional<double> minimumCount();

    // Throws PartialSeedError when it stops after its first write. Each batch that changes the
    // pool adds one audit entry with options.reason.
    SeedResult seed(const QList<QByteArray> &members, const SeedOptions &options,
                    const Progress &progress = {});
    // The seed's script: the member chosen, or nullopt when the pool is empty.
    std::optional<QByteArray> allocate();
    // Throws RedisError(Usage) for a member that is not in the pool. guardId: a guard's
    // eviction, marked as that guard's (PoolKeys::guardMarks()); empty: an operator's, which
    // drops any guard's mark in the same script. reason: why, for the audit entry (optional).
    EvictResult evict(const QByteArray &member, const QByteArray &guardId = {},
                      const QString &reason = {});
    // Throws RedisError(Usage) for a member that is not evicted. Every restore drops the guard's
    // mark; a guard's restore (guardId not empty) happens only while the mark is there (Usage
    // otherwise: an operator acted on the member since the guard evicted it).
    RestoreResult restore(const QByteArray &member, RestorePolicy policy, double startCount = 0,
                          const QByteArray &guardId = {}, const QString &reason = {});

    // Checks that the pool key is a sorted set (or absent) and the companion key a hash (or
    // absent); throws a RedisError that names the key and its actual type otherwise.
    void checkKeyTypes();
    // Turns an error reply into a RedisError that says what and where.
    [[noreturn]] void throwServerError(const RedisReply &reply, const QString &during);

private:
    // Whether a guard's mark is on the member; nullopt when this user may not read the marks.
    std::optional<bool> guardMarkOf(const QByteArray &member);
    // The evict and restore scripts' keys; *markKept: the marks could not be read.
    QList<QByteArray> scriptKeys(const QByteArray &member, bool byGuard, bool *markKept);
    QList<PoolMember> readMembers(qint64 size, qint64 &commands, SnapshotOrder *order,
                                  PoolSnapshot *snapshot);
    QList<EvictedMember> readEvicted(qint64 &commands);

    RedisConnection &m_connection;
    PoolKeys m_keys;
    std::optional<AuditActor> m_actor; // made when a write needs it: reads never ask
    qint64 m_auditCap = kAuditTrailCap;
};

QString describeMember(const QByteArray &member);

// A seed that stopped part-way (connection lost, timeout, server error after the first write):
// what was confirmed written before, and how many members were in batches whose outcome is
// unknown (sent, no reply: they may or may not have been written).
class PartialSeedError : public RedisError {
public:
    PartialSeedError(const RedisError &cause, SeedResult partial, qint64 unknown)
        : RedisError(cause.kind(), cause.message(), cause.serverCode())
        , m_partial(std::move(partial))
        , m_unknown(unknown) {}
    const SeedResult &partial() const { return m_partial; }
    qint64 unknown() const { return m_unknown; }

private:
    SeedResult m_partial;
    qint64 m_unknown = 0;
};

} // namespace poolscope
