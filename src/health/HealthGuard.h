#pragma once

#include "audit/AuditEntry.h"
#include "health/HealthStore.h"
#include "health/HealthTypes.h"
#include "pool/PoolOperations.h"

#include <atomic>
#include <chrono>

namespace poolscope {

struct GuardOptions {
    CheckOptions check;
    int fall = 3; // consecutive failures before an eviction
    int rise = 2; // consecutive successes before a restore
    RestorePolicy restorePolicy = RestorePolicy::Min;
    double startCount = 0;         // for RestorePolicy::Start
    double maxEvictedPercent = 30; // the evicted share never goes above this
    bool checkNew = false;         // a member never checked before is evicted on its first failure
    std::chrono::milliseconds leaseTtl{30000};
    QByteArray guardId; // who holds the lease: host, pid and a random part
    // The program its audit entries name (with the guard's id); the dashboard's Guard panel
    // names the dashboard.
    AuditActor actor = AuditActor::thisProcess();
};

struct GuardAction {
    enum class Kind { Evict, Restore, Capped };
    Kind kind = Kind::Evict;
    QByteArray member; // empty for Capped
    QString reason;    // credentials masked
};

struct GuardRound {
    bool leaseHeld = false;
    QByteArray leaseHolder; // the other guard's id when not held
    bool stopped = false;   // stop was set mid-round: nothing acted on (the lease is still ours)
    CheckRound checks;
    QList<GuardAction> actions;
    qint64 members = 0; // in the pool and evicted, at the start of the round
    qint64 evicted = 0; // evicted at the end of the round
    qint64 redisCommands = 0;
    qint64 recordsPruned = 0; // health records of members gone for good, dropped this round
    // The health records this round wrote, with the guard's marks as it left them: what a
    // dashboard shows without reading them back.
    QHash<QByteArray, HealthRecord> records;
};

// How long a guard's lease lasts: beyond a round and the pause after it, so it lapses only when
// the guard is gone (3 pauses and 2 checks' time, at least 3 s).
std::chrono::milliseconds guardLeaseTtl(std::chrono::milliseconds interval,
                                        std::chrono::milliseconds checkTimeout);

// The guard: checks every member (evicted ones too) each round, records the results in the health
// hash, evicts after `fall` failures and restores after `rise` successes through the pool's atomic
// evict and restore scripts, never lets the evicted share exceed the cap, and records each action
// in the pool's audit trail (the evict and restore scripts write their entries with its failed or
// passed checks as the reason; a held-back episode's start and end are entries of their own).
// Holds a lease in Redis so that only one guard acts on a pool.
// Blocking: run it on a worker thread. Restores only what a guard evicted and no operator acted on
// since: the evict and restore scripts keep the guard's mark (PoolKeys::guardMarks()), so the
// last action decides whose eviction it is.
class HealthGuard {
public:
    HealthGuard(RedisConnection &connection, const QByteArray &poolKey, GuardOptions options);

    // Takes or renews the lease; false when another guard holds it (holder says which).
    bool holdLease(QByteArray *holder = nullptr);
    void releaseLease();
    // One round; does nothing but report the holder when the lease is another guard's.
    GuardRound runRound(const std::atomic<bool> *stop = nullptr);

    static QByteArray makeGuardId();
    const GuardOptions &options() const { return m_options; }

private:
    void act(GuardRound &round, const QList<QByteArray> &inPool,
             const QList<QByteArray> &evictedMembers, QHash<QByteArray, HealthRecord> &records,
             const QHash<QByteArray, HealthRecord> &previous);
    void event(GuardRound &round, GuardAction action);
    // A held-back episode's start or end in the audit trail (while we hold the lease).
    void note(AuditAction action, qint64 failing, const QString &reason);
    qint64 nowMs() const;

    RedisConnection &m_connection;
    PoolOperations m_pool;
    HealthStore m_store;
    GuardOptions m_options;
    qint64 m_commands = 0;
    QByteArray m_pruneCursor = "0"; // one HSCAN step of the health hash per round
    bool m_capped = false;          // the last round was held back by the cap
};

} // namespace poolscope
