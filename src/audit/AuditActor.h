#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {

class RedisConnection;

// The cap of every pool's audit trail: each script that writes an entry trims the stream with
// XADD MAXLEN ~ kAuditTrailCap. Redis trims whole listpack nodes (100 entries each by default),
// so the stream holds between the cap and about 100 entries more.
inline constexpr qint64 kAuditTrailCap = 100000;
// A longer reason is refused before anything is sent: entries stay small.
inline constexpr int kMaxAuditReasonLength = 500;

// Who acts on a pool, as its audit entries name it. The writer says it; Redis cannot check it,
// so the trail is a team's record of what its tools did, not a tamper-proof log: a user who may
// XADD to the trail may write anything there.
struct AuditActor {
    QString user;    // the Redis user; empty: asked of the connection before the first write
    QString host;    // this machine's host name
    QString program; // "poolscope-cli 0.9.0", "poolscope dashboard 0.9.0"
    qint64 pid = 0;

    // This process: host name, process id and program (default: the application's name and
    // version, "poolscope-cli 0.9.0"). The user is left empty for the connection to tell.
    static AuditActor thisProcess(const QString &program = {});
    // The dashboard's writes: "poolscope dashboard" and its version.
    static AuditActor dashboard();
    bool operator==(const AuditActor &) const = default;
};

// The Redis user a connection acts as: ACL WHOAMI; when the server refuses it (a user without
// the right) or lacks it (before Redis 6), the user name the connection logged in with, else
// "default". Throws RedisError only when the connection is lost.
QString redisUserOf(RedisConnection &connection);

// Empty when the reason can be recorded, else why not (too long).
QString validateAuditReason(const QString &reason);

// ARGV[1..7] of every script that writes an audit entry: the trail's cap, then the reason
// (credentials masked), Redis user, host, program, process id and guard id (empty for an
// operator). Throws RedisError(Usage) for a reason validateAuditReason() refuses.
QList<QByteArray> auditScriptArguments(const AuditActor &actor, const QString &reason,
                                       const QByteArray &guardId, qint64 cap = kAuditTrailCap);

// A member as the trail shows it: its text (MemberText.h) with credentials masked. Empty when
// that is the member's own bytes, so scripts are sent nothing twice.
QByteArray auditShownMember(const QByteArray &member);

} // namespace poolscope
