#include "audit/AuditActor.h"

#include "text/CredentialMask.h"
#include "text/MemberText.h"
#include "client/RedisConnection.h"
#include "base/RedisError.h"

#include <QCoreApplication>
#include <QSysInfo>

namespace poolscope {

AuditActor AuditActor::thisProcess(const QString &program) {
    AuditActor actor;
    actor.host = QSysInfo::machineHostName();
    actor.pid = QCoreApplication::applicationPid();
    actor.program = program;
    if (actor.program.isEmpty()) {
        actor.program = QCoreApplication::applicationName();
        if (!QCoreApplication::applicationVersion().isEmpty())
            actor.program += u' ' + QCoreApplication::applicationVersion();
    }
    return actor;
}

AuditActor AuditActor::dashboard() {
    QString program = QStringLiteral("poolscope dashboard");
    if (!QCoreApplication::applicationVersion().isEmpty())
        program += u' ' + QCoreApplication::applicationVersion();
    return thisProcess(program);
}

QString redisUserOf(RedisConnection &connection) {
    const RedisReply reply = connection.command({"ACL", "WHOAMI"});
    if (!reply.isError() && !reply.text.isEmpty())
        return QString::fromUtf8(reply.text);
    // Refused (NOPERM) or unknown (ERR): the user this connection authenticated as.
    const QString named = connection.endpoint().username;
    return named.isEmpty() ? QStringLiteral("default") : named;
}

QString validateAuditReason(const QString &reason) {
    if (reason.size() > kMaxAuditReasonLength)
        return QStringLiteral("the reason is %1 characters long; at most %2 are recorded")
            .arg(reason.size())
            .arg(kMaxAuditReasonLength);
    return {};
}

QList<QByteArray> auditScriptArguments(const AuditActor &actor, const QString &reason,
                                       const QByteArray &guardId, qint64 cap) {
    if (const QString problem = validateAuditReason(reason); !problem.isEmpty())
        throw RedisError::usage(problem);
    return {QByteArray::number(cap),
            maskCredentialsInText(reason).toUtf8(),
            actor.user.toUtf8(),
            actor.host.toUtf8(),
            actor.program.toUtf8(),
            QByteArray::number(actor.pid),
            guardId};
}

QByteArray auditShownMember(const QByteArray &member) {
    const QByteArray shown = maskCredentials(memberText(member)).toUtf8();
    return shown == member ? QByteArray() : shown;
}

} // namespace poolscope
