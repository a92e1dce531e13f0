#include "health/HealthGuard.h"

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
    static const char *kinds[] = {"evict", "restore", "capped"};
    // Held back round after round is one state: the stream gets its start (and its end), not
    // one entry a round; every round still reports it.
    const bool repeated = action.kind == GuardAction::Kind::Capped && m_capped;
    if (action.kind == GuardAction::Kind::Capped)
        m_capped = true;
    if (!repeated)
        m_store.addEvent({{},
                          nowMs(),
                          QLatin1String(kinds[int(action.kind)]),
                          QString::fromUtf8(action.member),
                          action.reason});
    action.reason = maskCredentialsInText(action.reason);
    round.actions.append(action);
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
            const RestoreResult restored =
                m_pool.restore(member, m_options.restorePolicy, m_options.startCount, true);
            ++m_commands;
            record.evictedByGuard = false;
            --evictedCount;
            event(round, {GuardAction::Kind::Restore, member,
                          QStringLiteral("%1 consecutive successful checks; restored at count %2 "
                                         "(policy %3)")
                              .arg(record.successes)
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
    if (!capped && m_capped) {
        // The held-back state ends: one event for its end, as one for its start.
        m_capped = false;
        m_store.addEvent({{},
                          nowMs(),
                          QStringLiteral("uncapped"),
                          {},
                          QStringLiteral("no longer held back: %1 members failing, at most %2% "
                                         "of %3 members may be evicted")
                              .arg(candidates.size())
                              .arg(m_options.maxEvictedPercent)
                              .arg(total)});
    }
    if (capped) {
        event(round, {GuardAction::Kind::Capped,
                      {},
                      QStringLiteral("the target or the network looks down: %1 members failing, "
                                     "evicting %2 (at most %3% of %4 members may be evicted)")
                          .arg(candidates.size())
                          .arg(room)
                          .arg(m_options.maxEvictedPercent)
                          .arg(total)});
        candidates = candidates.mid(0, room);
    }
    for (const QByteArray &member : candidates) {
        HealthRecord &record = records[member];
        try {
            // Marked as the guard's in the same script as the move.
            m_pool.evict(member, m_options.guardId);
            ++m_commands;
            record.evictedByGuard = true;
            ++evictedCount;
            const bool isNew = !previous.contains(member) && record.failures < m_options.fall;
            event(round, {GuardAction::Kind::Evict, member,
                          QStringLiteral("%1 %2 (%3)")
                              .arg(isNew ? QStringLiteral("new member failed its first check:")
                                         : QStringLiteral("%1 consecutive failed checks, last:")
                                               .arg(record.failures),
                                   record.outcome, record.error)});
        } catch (const RedisError &e) {
            if (e.kind() != RedisError::Kind::Usage)
                throw;
            ++m_commands; // evicted or removed by someone else meanwhile
        }
    }
    round.evicted = evictedCount;
}

} // namespace poolscope
