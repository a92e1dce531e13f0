#include "health/HealthGuard.h"

#include "audit/AuditTrail.h"
#include "base/BrokenPipe.h"
#include "health/HealthChecker.h"
#include "pool/LuaScript.h"
#include "text/CredentialMask.h"
#include "text/MemberText.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QSysInfo>

#include <algorithm>
#include <cmath>

#include <unistd.h>

namespace poolscope {

HealthGuard::HealthGuard(RedisConnection &connection, const QByteArray &poolKey,
                         GuardOptions options)
    : m_connection(connection)
    , m_pool(connection, poolKey)
    , m_store(connection, PoolKeys(poolKey))
    , m_options(std::move(options)) {
    if (m_options.guardId.isEmpty())
        m_options.guardId = makeGuardId();
    m_pool.setActor(m_options.actor);
}

std::chrono::milliseconds guardLeaseTtl(std::chrono::milliseconds interval,
                                        std::chrono::milliseconds checkTimeout) {
    return std::max(std::chrono::milliseconds(3000), 3 * interval + 2 * checkTimeout);
}

QByteArray HealthGuard::makeGuardId() {
    return QSysInfo::machineHostName().toUtf8() + ':' + QByteArray::number(::getpid()) + ':' +
           QByteArray::number(QRandomGenerator::global()->generate(), 16);
}

qint64 HealthGuard::nowMs() const {
    return QDateTime::currentMSecsSinceEpoch();
}

bool HealthGuard::holdLease(QByteArray *holder) {
    ++m_commands;
    const RedisReply reply =
        LuaScript::byName(QStringLiteral("guard_lease.lua"))
            .run(m_connection, {m_store.keys().guardLease()},
                 {m_options.guardId, QByteArray::number(qint64(m_options.leaseTtl.count())),
                  "hold"});
    if (reply.isError())
        m_pool.throwServerError(reply, QStringLiteral("taking the guard lease"));
    if (holder)
        *holder = reply.elements.value(1).text;
    return reply.elements.value(0).integer == 1;
}

void HealthGuard::releaseLease() {
    ++m_commands;
    LuaScript::byName(QStringLiteral("guard_lease.lua"))
        .run(m_connection, {m_store.keys().guardLease()}, {m_options.guardId, "0", "release"});
}

void HealthGuard::event(GuardRound &round, GuardAction action) {
    // The evict and restore scripts wrote their audit entries; the round reports every action.
    action.reason = maskCredentialsInText(action.reason);
    round.actions.append(action);
}

void HealthGuard::note(AuditAction action, qint64 failing, const QString &reason) {
    ++m_commands;
    addGuardNote(m_connection, m_store.keys(), m_pool.resolvedActor(), action, failing, reason,
                 m_options.guardId);
}

GuardRound HealthGuard::runRound(const std::atomic<bool> *stop) {
    const BrokenPipeGuard brokenPipe; // a server gone away is a lost connection, not SIGPIPE
    GuardRound round;
    const qint64 storeBefore = m_store.commandsSent();
    const qint64 commandsBefore = m_commands;
    round.leaseHeld = holdLease(&round.leaseHolder);
    if (!round.leaseHeld) {
        round.redisCommands = m_commands - commandsBefore;
        return round;
    }
    const PoolSnapshot snapshot = m_pool.snapshot();
    QList<QByteArray> inPool, evictedMembers, all;
    for (const PoolMember &member : snapshot.members)
        inPool << member.member;
    for (const EvictedMember &member : snapshot.evicted)
        evictedMembers << member.member;
    all = inPool + evictedMembers;
    round.members = all.size();
    const QHash<QByteArray, HealthRecord> previous = m_store.read(all);
    round.checks = runCheckRound(all, m_options.check, stop);
    QHash<QByteArray, HealthRecord> records;
    const qint64 now = nowMs();
    for (const CheckResult &result : round.checks.results)
        records.insert(result.member, previous.value(result.member).after(result, now));
    m_store.write(records);
    // Act only while we still hold the lease (a long round may have outlived it). A stop is
    // not a lost lease: the holder would be our own id.
    if (stop && stop->load()) {
        round.stopped = true;
    } else if (holdLease(&round.leaseHolder)) {
        act(round, inPool, evictedMembers, records, previous);
        m_pruneCursor = m_store.pruneStep(m_pruneCursor, QSet<QByteArray>(all.cbegin(), all.cend()),
                                          &round.recordsPruned);
    } else {
        round.leaseHeld = false;
    }
    round.redisCommands = (m_commands - commandsBefore) + (m_store.commandsSent() - storeBefore) +
                          snapshot.commandsSent;
    round.records = std::move(records);
    return round;
}

void HealthGuard::act(GuardRound &round, const QList<QByteArray> &inPool,
                      const QList<QByteArray> &evictedMembers,
                      QHash<QByteArray, HealthRecord> &records,
                      const QHash<QByteArray, HealthRecord> &previous) {
    qint64 evictedCount = evictedMembers.size();
    const qint64 total = inPool.size() + evictedMembers.size();
    // Restores first: they make room under the cap.
    for (const QByteArray &member : evictedMembers) {
        HealthRecord &record = records[member];
        if (!record.evictedByGuard || record.successes < m_options.rise)
            continue;
        try {
            // Restored only if the guard's mark is still on it, in the same script: an operator's
            // restore or evict since then made the eviction theirs.
            // The audit entry has the counts and the policy; its reason is the checks.
            const QString why =
                QStringLiteral("%1 consecutive successful checks").arg(record.successes);
            const RestoreResult restored = m_pool.restore(
                member, m_options.restorePolicy, m_options.startCount, m_options.guardId, why);
            ++m_commands;
            record.evictedByGuard = false;
            --evictedCount;
            event(round, {GuardAction::Kind::Restore, member,
                          QStringLiteral("%1; restored at count %2 (policy %3)")
                              .arg(why)
                              .arg(restored.restoredCount)
                              .arg(restorePolicyName(m_options.restorePolicy))});
        } catch (const RedisError &e) {
            if (e.kind() != RedisError::Kind::Usage)
                throw;
            ++m_commands; // restored, or made an operator's, by someone else meanwhile
            record.evictedByGuard = false;
        }
    }
    // A mark on a member in the pool (put back by a seed, or left by an older guard) belongs to
    // no eviction. Only the lease holder sets marks, so dropping it races with nothing.
    RedisCommand unmark{"HDEL", m_store.keys().guardMarks()};
    for (const QByteArray &member : inPool) {
        HealthRecord &record = records[member];
        if (record.evictedByGuard) {
            record.evictedByGuard = false;
            unmark << member;
        }
    }
    if (unmark.size() > 2) {
        ++m_commands;
        m_connection.commandOrThrow(unmark);
    }
    QList<QByteArray> candidates;
    for (const QByteArray &member : inPool) {
        const HealthRecord &record = records[member];
        const bool isNew = !previous.contains(member);
        if (record.failures >= m_options.fall ||
            (m_options.checkNew && isNew && record.failures >= 1))
            candidates << member;
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&records](const QByteArray &a, const QByteArray &b) {
                         return records[a].failures > records[b].failures;
                     });
    // At least one whenever evicting is allowed at all (as Envoy's outlier detection does):
    // rounded down, a small pool's cap would be zero and its dead members would stay.
    qint64 cap = qint64(std::floor(double(total) * m_options.maxEvictedPercent / 100.0));
    if (m_options.maxEvictedPercent > 0)
        cap = std::max<qint64>(cap, 1);
    const qint64 room = std::max<qint64>(0, cap - evictedCount);
    const bool capped = candidates.size() > room;
    // Held back round after round is one state: the trail gets its start and its end, not one
    // entry a round; every round still reports it.
    if (!capped && m_capped) {
        m_capped = false;
        note(AuditAction::Uncapped, candidates.size(),
             QStringLiteral("no longer held back: %1 members failing, at most %2% of %3 members "
                            "may be evicted")
                 .arg(candidates.size())
                 .arg(m_options.maxEvictedPercent)
                 .arg(total));
    }
    if (capped) {
        const QString why = QStringLiteral("the target or the network looks down: %1 members "
                                           "failing, evicting %2 (at most %3% of %4 members may "
                                           "be evicted)")
                                .arg(candidates.size())
                                .arg(room)
                                .arg(m_options.maxEvictedPercent)
                                .arg(total);
        if (!m_capped)
            note(AuditAction::Capped, candidates.size(), why);
        m_capped = true;
        event(round, {GuardAction::Kind::Capped, {}, why});
        candidates = candidates.mid(0, room);
    }
    for (const QByteArray &member : candidates) {
        HealthRecord &record = records[member];
        const bool isNew = !previous.contains(member) && record.failures < m_options.fall;
        // The failed checks are the audit entry's reason, written by the evict script.
        const QString why = QStringLiteral("%1 %2 (%3)")
                                .arg(isNew ? QStringLiteral("new member failed its first check:")
                                           : QStringLiteral("%1 consecutive failed checks, last:")
                                                 .arg(record.failures),
                                     record.outcome, record.error)
                                .left(kMaxAuditReasonLength);
        try {
            // Marked as the guard's in the same script as the move.
            m_pool.evict(member, m_options.guardId, why);
            ++m_commands;
            record.evictedByGuard = true;
            ++evictedCount;
            event(round, {GuardAction::Kind::Evict, member, why});
        } catch (const RedisError &e) {
            if (e.kind() != RedisError::Kind::Usage)
                throw;
            ++m_commands; // evicted or removed by someone else meanwhile
        }
    }
    round.evicted = evictedCount;
}

} // namespace poolscope
