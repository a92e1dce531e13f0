#include "pool/CompanionMigration.h"

#include "base/RedisError.h"
#include "pool/LuaScript.h"
#include "pool/PoolKeys.h"
#include "pool/PoolOperations.h"

namespace poolscope {

CompanionMigration migrateCompanion(RedisConnection &connection, const QByteArray &poolKey,
                                    AuditActor actor, const QString &reason) {
    const PoolKeys keys(poolKey);
    CompanionMigration result;
    result.oldKey = keys.legacyEvicted();
    result.newKey = keys.evicted();
    const QList<QByteArray> sharers = keys.legacySharers();
    if (const QString problem = validateAuditReason(reason); !problem.isEmpty())
        throw RedisError::usage(problem);
    if (actor.user.isEmpty())
        actor.user = redisUserOf(connection);
    const RedisReply reply = LuaScript::migrateCompanion().run(
        connection,
        QList<QByteArray>{result.oldKey, result.newKey, poolKey, keys.audit()} + sharers,
        auditScriptArguments(actor, reason, {}));
    if (reply.isError())
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("moving %1 to %2 failed: %3")
                             .arg(describeMember(result.oldKey), describeMember(result.newKey),
                                  QString::fromUtf8(reply.text)),
                         reply.errorCode());
    const QByteArray status = reply.elements.value(0).text;
    const RedisReply &detail = reply.elements.value(1);
    if (status == "moved") {
        result.outcome = CompanionMigration::Outcome::Moved;
        result.fields = detail.integer;
    } else if (status == "nothing") {
        result.outcome = CompanionMigration::Outcome::Nothing;
    } else {
        result.outcome = CompanionMigration::Outcome::Refused;
        if (status == "not-hash")
            result.reason = QStringLiteral("key %1 holds a %2, not the hash of evicted members")
                                .arg(describeMember(result.oldKey), QString::fromUtf8(detail.text));
        else if (status == "shared")
            result.reason =
                QStringLiteral("key %1 was the evicted hash of pool %2 too, which exists: its "
                               "members cannot be told apart; split it by hand")
                    .arg(describeMember(result.oldKey), describeMember(detail.text));
        else if (status == "target-exists")
            result.reason = QStringLiteral("%1 already holds %2 evicted members; merge by hand")
                                .arg(describeMember(result.newKey))
                                .arg(detail.integer);
        else
            result.reason = QStringLiteral("unexpected reply %1").arg(reply.toDisplayString());
    }
    return result;
}

qint64 unmigratedCompanionMembers(RedisConnection &connection, const QByteArray &poolKey) {
    const QByteArray legacy = PoolKeys(poolKey).legacyEvicted();
    const QList<RedisReply> replies = connection.pipeline({{"TYPE", legacy}, {"HLEN", legacy}});
    // HLEN of a key of another type is an error reply: only a hash counts.
    if (replies.value(0).text != "hash" || replies.value(1).isError())
        return 0;
    return replies.value(1).integer;
}

} // namespace poolscope
