#include "pool/PoolOperations.h"

#include "audit/AuditActor.h"
#include "base/RedisError.h"
#include "pool/LuaScript.h"
#include "pool/ReplyConversion.h"
#include "pool/SnapshotOrder.h"
#include "text/MemberText.h"

#include <algorithm>

#include <QHash>

namespace poolscope {
namespace {

double scoreOf(const RedisReply &reply, const QByteArray &member) {
    return countFromReply(reply, member);
}

} // namespace

QString describeMember(const QByteArray &member) {
    // Show what people typed; escape what they cannot see, the one way the CLI does everywhere.
    return QLatin1Char('"') + memberText(member) + QLatin1Char('"');
}

PoolOperations::PoolOperations(RedisConnection &connection, const QByteArray &poolKey)
    : m_connection(connection)
    , m_keys(poolKey) {
    if (poolKey.isEmpty())
        throw RedisError::usage(
            QStringLiteral("the pool key is empty: name the sorted set to use"));
    // Using a pool's companion hash as a pool would mix members and saved counts in one key.
    if (const std::optional<QByteArray> owner = PoolKeys::poolOfCompanion(poolKey))
        throw RedisError::usage(
            QStringLiteral("key %1 is the evicted-members hash of pool %2, not a pool")
                .arg(quotedKey(poolKey), quotedKey(*owner)));
}

const AuditActor &PoolOperations::resolvedActor() {
    if (!m_actor)
        m_actor = AuditActor::thisProcess();
    if (m_actor->user.isEmpty())
        m_actor->user = redisUserOf(m_connection);
    return *m_actor;
}

QList<QByteArray> PoolOperations::auditArguments(const QString &reason, const QByteArray &guardId) {
    if (const QString problem = validateAuditReason(reason); !problem.isEmpty())
        throw RedisError::usage(problem); // before WHOAMI: nothing is sent for a bad reason
    return auditScriptArguments(resolvedActor(), reason, guardId, m_auditCap);
}

void PoolOperations::checkKeyTypes() {
    const QList<RedisReply> types = m_connection.pipeline(
        {{"TYPE", m_keys.pool()}, {"TYPE", m_keys.evicted()}, {"TYPE", m_keys.audit()}});
    const QByteArray poolType = types.value(0).text;
    const QByteArray evictedType = types.value(1).text;
    // A user whose rights predate the trail may not even ask its type: the scripts say so.
    const QByteArray auditType = types.value(2).isError() ? "none" : types.value(2).text;
    if (types.value(0).isError())
        throwServerError(types.value(0), QStringLiteral("reading the type of the pool key"));
    if (poolType != "zset" && poolType != "none")
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("key %1 holds a %2, not a sorted set: it is not a pool")
                             .arg(quotedKey(m_keys.pool()), QString::fromUtf8(poolType)),
                         "WRONGTYPE");
    if (evictedType != "hash" && evictedType != "none")
        throw RedisError(
            RedisError::Kind::Server,
            QStringLiteral("key %1 (where evicted members are kept) holds a %2, not a hash")
                .arg(quotedKey(m_keys.evicted()), QString::fromUtf8(evictedType)),
            "WRONGTYPE");
    if (auditType != "stream" && auditType != "none")
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("key %1 (the pool's audit trail) holds a %2, not a stream; "
                                        "nothing is written to the pool until it is one")
                             .arg(quotedKey(m_keys.audit()), QString::fromUtf8(auditType)),
                         "WRONGTYPE");
}

void PoolOperations::throwServerError(const RedisReply &reply, const QString &during) {
    if (LuaScript::lacksScripting(reply))
        throw LuaScript::noScriptingError(
            reply, QStringLiteral("%1 on pool %2").arg(during, quotedKey(m_keys.pool())));
    QByteArray code = reply.errorCode();
    // Redis 7.0 reports an ACL refusal inside a script as a plain ERR.
    if (code == "ERR" && (reply.text.contains("user executing the script can't run") ||
                          reply.text.contains("No permissions to access")))
        code = "NOPERM";
    if (code == "WRONGTYPE")
        checkKeyTypes(); // throws the precise message
    QString message = QString::fromUtf8(reply.text);
    // Errors raised inside scripts carry a trailer naming the script: keep the first line.
    const qsizetype scriptTrailer = message.indexOf(QStringLiteral(" script: "));
    if (scriptTrailer > 0)
        message = message.left(scriptTrailer);
    if (code == "OOM")
        message = QStringLiteral("Redis is out of memory (maxmemory reached) and refuses writes; "
                                 "reads still work (%1)")
                      .arg(message);
    else if (code == "READONLY")
        message = QStringLiteral("this server is a read-only replica; connect to the primary (%1)")
                      .arg(message);
    else if (code == "NOPERM" && reply.text.contains("keys used as arguments"))
        // Refused before the script ran: a user whose rules predate the audit trail, most often.
        message = QStringLiteral("this Redis user lacks the right to do this (%1); writers need "
                                 "the pool's keys and its audit trail %2 with XADD (see "
                                 "Access control in the documentation)")
                      .arg(message, quotedKey(m_keys.audit()));
    else if (code == "NOPERM")
        message = QStringLiteral("this Redis user lacks the right to do this (%1)").arg(message);
    throw RedisError(
        RedisError::Kind::Server,
        QStringLiteral("%1 on pool %2 failed: %3").arg(during, quotedKey(m_keys.pool()), message),
        code);
}

qint64 PoolOperations::size() {
    const RedisReply reply = m_connection.command({"ZCARD", m_keys.pool()});
    if (reply.isError())
        throwServerError(reply, QStringLiteral("counting members"));
    return reply.integer;
}

std::optional<double> PoolOperations::minimumCount() {
    const RedisReply reply =
        m_connection.command({"ZRANGE", m_keys.pool(), "(-inf", "(+inf", "BYSCORE", "LIMIT", "0",
                              "1", "WITHSCORES"}); // members at -inf (bad data) have no count
    if (reply.isError())
        throwServerError(reply, QStringLiteral("reading the lowest count"));
    const QList<PoolMember> lowest = membersFromRangeReply(reply);
    if (lowest.isEmpty())
        return std::nullopt;
    return lowest.first().count;
}

QList<PoolMember> PoolOperations::readMembers(qint64 size, qint64 &commands, SnapshotOrder *order,
                                              PoolSnapshot *snapshot) {
    if (size <= kChunkSize) {
        const RedisReply reply =
            m_connection.command({"ZRANGE", m_keys.pool(), "0", "-1", "WITHSCORES"});
        ++commands;
        if (reply.isError())
            throwServerError(reply, QStringLiteral("reading members"));
        // Already in allocation order; an order still says what changed.
        const QList<PoolMember> members = membersFromRangeReply(reply);
        return order ? order->order(members, snapshot) : members;
    }
    QList<PoolMember> read;
    read.reserve(size);
    QByteArray cursor = "0";
    do {
        const RedisReply reply = m_connection.command(
            {"ZSCAN", m_keys.pool(), cursor, "COUNT", QByteArray::number(kScanCount)});
        ++commands;
        if (reply.isError())
            throwServerError(reply, QStringLiteral("scanning members"));
        appendScanPage(reply, &cursor, &read);
    } while (cursor != "0");
    if (order)
        return order->order(read, snapshot);
    // A member a scan returned twice counts once, with its last count.
    QHash<QByteArray, double> seen;
    seen.reserve(read.size());
    for (const PoolMember &member : std::as_const(read))
        seen.insert(member.member, member.count);
    QList<PoolMember> members;
    members.reserve(seen.size());
    for (auto it = seen.cbegin(); it != seen.cend(); ++it)
        members.append({it.key(), it.value()});
    std::sort(members.begin(), members.end(), [](const PoolMember &a, const PoolMember &b) {
        return a.count != b.count ? a.count < b.count : a.member < b.member;
    });
    return members;
}

QList<EvictedMember> PoolOperations::readEvicted(qint64 &commands) {
    QList<EvictedMember> evicted;
    QHash<QByteArray, double> seen;
    QByteArray cursor = "0";
    do {
        const RedisReply reply = m_connection.command(
            {"HSCAN", m_keys.evicted(), cursor, "COUNT", QByteArray::number(kScanCount)});
        ++commands;
        if (reply.isError())
            throwServerError(reply, QStringLiteral("scanning evicted members"));
        for (const auto &[member, savedCount] : scanPageFromReply(reply, &cursor))
            seen.insert(member, savedCount);
    } while (cursor != "0");
    for (auto it = seen.cbegin(); it != seen.cend(); ++it)
        evicted.append({it.key(), it.value()});
    std::sort(evicted.begin(), evicted.end(),
              [](const EvictedMember &a, const EvictedMember &b) { return a.member < b.member; });
    return evicted;
}

PoolSnapshot PoolOperations::snapshot(bool includeMembers) {
    if (includeMembers)
        return snapshotOfSize(size());
    PoolSnapshot snapshot;
    snapshot.evicted = readEvicted(snapshot.commandsSent);
    return snapshot;
}

PoolSnapshot PoolOperations::snapshotOfSize(qint64 members, SnapshotOrder *order) {
    PoolSnapshot snapshot;
    snapshot.commandsSent = 1; // the ZCARD that gave the size
    snapshot.members = readMembers(members, snapshot.commandsSent, order, &snapshot);
    snapshot.evicted = readEvicted(snapshot.commandsSent);
    return snapshot;
}

PoolStats PoolOperations::stats() {
    const PoolSnapshot current = snapshot();
    QList<double> counts;
    counts.reserve(current.members.size());
    for (const PoolMember &member : current.members)
        counts.append(member.count);
    return computePoolStats(counts, current.evicted.size());
}

SeedResult PoolOperations::seed(const QList<QByteArray> &members, const SeedOptions &options,
                                const Progress &progress) {
    SeedResult result;
    result.startCount = options.startCount;
    if (options.startAtPoolMinimum)
        result.startCount = minimumCount().value_or(options.startCount);
    result.highestStartCount = result.startCount;
    if (const QString problem = validateCount(result.startCount); !problem.isEmpty())
        throw RedisError::usage(QStringLiteral("cannot seed: %1").arg(problem));
    for (const QByteArray &member : members)
        if (member.isEmpty())
            throw RedisError::usage(QStringLiteral("cannot seed an empty member name"));
    checkKeyTypes(); // before the first write, so a wrong key changes nothing
    const QList<QByteArray> audit =
        options.dryRun ? QList<QByteArray>() : auditArguments(options.reason);

    const int batchSize = std::clamp(options.batchSize, 1, 1000);
    // With startAtPoolMinimum each batch reads the minimum itself, in its script: startCount is
    // only the fallback for a pool without one.
    const QByteArray count =
        options.startAtPoolMinimum ? QByteArray("min") : formatCount(result.startCount).toUtf8();
    const QByteArray fallback = formatCount(options.startCount).toUtf8();
    bool firstBatch = true;
    const QByteArray overwrite = options.overwrite ? "1" : "0";
    const LuaScript &script = LuaScript::seed();
    const QList<QByteArray> seedKeys{m_keys.pool(), m_keys.evicted(), m_keys.audit()};
    // ARGV: the audit block, the count, overwrite, the fallback, then each member and its id as
    // the trail shows it (empty: the same).
    const auto seedArguments = [&](const QList<QByteArray> &auditBlock,
                                   const QList<QByteArray> &batch) {
        QList<QByteArray> arguments = auditBlock;
        arguments << count << overwrite << fallback;
        for (const QByteArray &member : batch)
            arguments << member << auditShownMember(member);
        return arguments;
    };

    // Several batches in flight at once: the server sees short calls, we avoid a round trip each.
    constexpr int kBatchesInFlight = 8;
    qint64 done = 0;
    qint64 inFlight = 0; // members in batches sent whose statuses are not yet counted
    try {
        for (qsizetype start = 0; start < members.size();
             start += qsizetype(batchSize) * kBatchesInFlight) {
            QList<QList<QByteArray>> batches;
            for (int b = 0; b < kBatchesInFlight; ++b) {
                const qsizetype from = start + qsizetype(b) * batchSize;
                if (from >= members.size())
                    break;
                batches.append(members.mid(from, batchSize));
            }
            QList<RedisReply> replies;
            if (options.dryRun) {
                // Read-only classification with the same rules as the script.
                QList<RedisCommand> commands;
                for (const QList<QByteArray> &batch : batches) {
                    commands.append(RedisCommand{"HMGET", m_keys.evicted()} + batch);
                    commands.append(RedisCommand{"ZMSCORE", m_keys.pool()} + batch);
                }
                const QList<RedisReply> raw = m_connection.pipeline(commands);
                for (qsizetype b = 0; b < batches.size(); ++b) {
                    const RedisReply &evicted = raw[2 * b];
                    const RedisReply &scores = raw[2 * b + 1];
                    if (evicted.isError())
                        throwServerError(evicted, QStringLiteral("checking evicted members"));
                    if (scores.isError())
                        throwServerError(scores, QStringLiteral("checking members"));
                    RedisReply statuses;
                    statuses.type = RedisReply::Type::Array;
                    for (qsizetype i = 0; i < batches[b].size(); ++i) {
                        RedisReply status;
                        status.type = RedisReply::Type::Integer;
                        status.integer = !evicted.elements[i].isNil() ? 3
                                         : scores.elements[i].isNil() ? 0
                                         : options.overwrite          ? 2
                                                                      : 1;
                        statuses.elements.append(status);
                    }
                    replies.append(statuses);
                }
            } else {
                QList<RedisCommand> commands;
                for (const QList<QByteArray> &batch : batches)
                    commands.append(script.evalShaCommand(seedKeys, seedArguments(audit, batch)));
                for (const QList<QByteArray> &batch : batches)
                    inFlight += batch.size();
                replies = m_connection.pipeline(commands);
            }
            std::optional<RedisReply> failure;
            for (qsizetype b = 0; b < batches.size(); ++b) {
                RedisReply reply = replies[b];
                if (LuaScript::isNoScript(reply)) { // flushed between our load and this call
                    try {
                        reply =
                            script.run(m_connection, seedKeys, seedArguments(audit, batches[b]));
                    } catch (const RedisError &e) {
                        if (e.kind() != RedisError::Kind::Server ||
                            !refusedBeforeRunning(e.serverCode()))
                            throw;
                        reply = RedisReply{RedisReply::Type::Error,
                                           e.serverCode() + ' ' + e.message().toUtf8(),
                                           0,
                                           {}};
                    }
                }
                // Refused: it never ran, or it stopped at the rights it checks before its first
                // write (NOPERM: the audit trail); nothing was written.
                if (reply.isError() &&
                    (refusedBeforeRunning(reply.errorCode()) || reply.errorCode() == "NOPERM"))
                    inFlight -= batches[b].size();
                if (reply.isError()) {
                    // The other batches of this round have answered: count them before stopping.
                    if (!failure)
                        failure = reply;
                    continue; // else its members stay in inFlight: a script may stop half-way
                }
                RedisReply statuses = reply;
                if (!options.dryRun) {
                    const double used = scoreOf(reply.elements.value(0), "(start count)");
                    if (firstBatch || used < result.startCount)
                        result.startCount = used;
                    result.highestStartCount =
                        firstBatch ? used : std::max(result.highestStartCount, used);
                    firstBatch = false;
                    statuses = reply.elements.value(1);
                    inFlight -= batches[b].size();
                }
                for (qsizetype i = 0; i < batches[b].size() && i < statuses.elements.size(); ++i) {
                    const QByteArray &member = batches[b][i];
                    switch (statuses.elements[i].integer) {
                    case 0:
                        result.added.append(member);
                        break;
                    case 1:
                        result.alreadyPresent.append(member);
                        break;
                    case 2:
                        result.overwritten.append(member);
                        break;
                    default:
                        result.evicted.append(member);
                        break;
                    }
                }
                done += batches[b].size();
            }
            if (failure)
                throwServerError(*failure,
                                 QStringLiteral("seeding (after %1 of %2 members were written)")
                                     .arg(done)
                                     .arg(members.size()));
            if (progress)
                progress(done, members.size());
        }
    } catch (const RedisError &e) {
        if (options.dryRun || e.kind() == RedisError::Kind::Usage)
            throw;
        throw PartialSeedError(e, result, inFlight);
    }
    return result;
}

std::optional<QByteArray> PoolOperations::allocate() {
    const RedisReply reply = LuaScript::allocate().run(m_connection, {m_keys.pool()});
    if (reply.isError())
        throwServerError(reply, QStringLiteral("allocating"));
    if (reply.isNil())
        return std::nullopt;
    return reply.text;
}

std::optional<bool> PoolOperations::guardMarkOf(const QByteArray &member) {
    const RedisReply reply = m_connection.command({"HEXISTS", m_keys.guardMarks(), member});
    if (reply.isError()) {
        if (reply.errorCode() == "NOPERM")
            return std::nullopt;
        throwServerError(
            reply, QStringLiteral("reading the guard's mark on %1").arg(describeMember(member)));
    }
    return reply.integer == 1;
}

QList<QByteArray> PoolOperations::scriptKeys(const QByteArray &member, bool byGuard,
                                             bool *markKept) {
    *markKept = false;
    if (byGuard)
        return {m_keys.pool(), m_keys.evicted(), m_keys.audit(), m_keys.guardMarks()};
    // An operator's action names the marks hash only when the member has a mark: a key that does
    // not exist makes the script a multi-key command with a missing key, which a cluster refuses
    // (TRYAGAIN) while the slot migrates. A mark set after this read needs the member evicted by
    // the guard first, which the script then finds.
    const std::optional<bool> marked = guardMarkOf(member);
    *markKept = !marked;
    if (marked.value_or(false))
        return {m_keys.pool(), m_keys.evicted(), m_keys.audit(), m_keys.guardMarks()};
    return {m_keys.pool(), m_keys.evicted(), m_keys.audit()};
}

EvictResult PoolOperations::evict(const QByteArray &member, const QByteArray &guardId,
                                  const QString &reason) {
    const QList<QByteArray> audit = auditArguments(reason, guardId);
    bool markKept = false;
    const QList<QByteArray> keys = scriptKeys(member, !guardId.isEmpty(), &markKept);
    const RedisReply reply = LuaScript::evict().run(
        m_connection, keys, audit + QList<QByteArray>{member, auditShownMember(member)});
    if (reply.isError())
        throwServerError(reply, QStringLiteral("evicting %1").arg(describeMember(member)));
    const QByteArray status = reply.elements.value(0).text;
    if (status == "unknown")
        throw RedisError::usage(QStringLiteral("cannot evict %1: it is not a member of pool %2")
                                    .arg(describeMember(member), quotedKey(m_keys.pool())));
    if (status == "already-evicted")
        throw RedisError::usage(
            QStringLiteral("cannot evict %1: it is already evicted (saved count %2)")
                .arg(describeMember(member),
                     formatCount(scoreOf(reply.elements.value(1), member))));
    if (status == "conflict")
        throw RedisError::usage(
            QStringLiteral("cannot evict %1: it is in pool %2 (count %3) and also has a saved "
                           "count (%4) in %5; nothing changed, resolve it by hand")
                .arg(describeMember(member), quotedKey(m_keys.pool()),
                     QString::fromUtf8(reply.elements.value(1).text),
                     QString::fromUtf8(reply.elements.value(2).text), quotedKey(m_keys.evicted())));
    return {member, scoreOf(reply.elements.value(1), member),
            markKept || reply.elements.value(2).text == "mark-kept"};
}

RestoreResult PoolOperations::restore(const QByteArray &member, RestorePolicy policy,
                                      double startCount, const QByteArray &guardId,
                                      const QString &reason) {
    if (const QString problem = validateCount(startCount); !problem.isEmpty())
        throw RedisError::usage(
            QStringLiteral("cannot restore with starting count: %1").arg(problem));
    const QList<QByteArray> audit = auditArguments(reason, guardId);
    bool markKept = false;
    const QList<QByteArray> keys = scriptKeys(member, !guardId.isEmpty(), &markKept);
    const RedisReply reply =
        LuaScript::restore().run(m_connection, keys,
                                 audit + QList<QByteArray>{member, auditShownMember(member),
                                                           restorePolicyName(policy).toUtf8(),
                                                           formatCount(startCount).toUtf8()});
    if (reply.isError())
        throwServerError(reply, QStringLiteral("restoring %1").arg(describeMember(member)));
    const QByteArray status = reply.elements.value(0).text;
    if (status == "in-pool")
        throw RedisError::usage(QStringLiteral("cannot restore %1: it is in the pool, not evicted")
                                    .arg(describeMember(member)));
    if (status == "unknown")
        throw RedisError::usage(
            QStringLiteral("cannot restore %1: it is not an evicted member of pool %2")
                .arg(describeMember(member), quotedKey(m_keys.pool())));
    if (status == "conflict")
        throw RedisError::usage(
            QStringLiteral("cannot restore %1: it is in pool %2 (count %3) and also has a saved "
                           "count (%4) in %5; nothing changed, resolve it by hand")
                .arg(describeMember(member), quotedKey(m_keys.pool()),
                     QString::fromUtf8(reply.elements.value(1).text),
                     QString::fromUtf8(reply.elements.value(2).text), quotedKey(m_keys.evicted())));
    if (status == "not-guards")
        throw RedisError::usage(
            QStringLiteral("not restoring %1: its eviction is no longer a guard's (an operator "
                           "evicted or restored it since)")
                .arg(describeMember(member)));
    if (status == "invalid-count")
        throw RedisError::usage(
            QStringLiteral("cannot restore %1 with policy %2: it would get the count \"%3\", "
                           "which is not a finite number (saved count \"%4\"); nothing changed")
                .arg(describeMember(member), restorePolicyName(policy),
                     QString::fromUtf8(reply.elements.value(1).text),
                     QString::fromUtf8(reply.elements.value(2).text)));
    RestoreResult result;
    result.member = member;
    result.policy = policy;
    result.restoredCount = scoreOf(reply.elements.value(1), member);
    result.savedCount = scoreOf(reply.elements.value(2), member);
    if (reply.elements.size() > 3 && !reply.elements[3].isNil())
        result.poolMinimumBefore = scoreOf(reply.elements[3], member);
    result.guardMarkKept = markKept || reply.elements.value(4).text == "mark-kept";
    return result;
}

} // namespace poolscope
