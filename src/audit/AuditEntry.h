#pragma once

#include "audit/AuditActor.h"

#include <optional>

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace poolscope {

struct RedisReply;

// What an audit entry records.
enum class AuditAction {
    Seed,             // one seed batch that changed the pool (a seed writes one per batch)
    Evict,            // one member moved to the evicted hash
    Restore,          // one member moved back into the pool
    MigrateCompanion, // the evicted hash moved from its pre-0.2 name
    Capped,           // a guard's cap started holding evictions back
    Uncapped,         // ...and stopped
    Other,            // written by a newer version: actionName says what
};

// "seed", "evict", "restore", "migrate-companion", "capped", "uncapped".
QString auditActionName(AuditAction action);
std::optional<AuditAction> parseAuditAction(const QString &name);
QList<AuditAction> allAuditActions();

// One member an action changed, with its count before and after. A count is the member's
// wherever it was (in the pool or saved in the evicted hash): an eviction keeps it, a restore
// shows the saved count and the count it got back. nullopt: it had none (new to the pool).
struct AuditMemberChange {
    QString member; // its text, credentials masked
    std::optional<double> before;
    std::optional<double> after;
    bool operator==(const AuditMemberChange &) const = default;
};

// One entry of a pool's audit trail ({TAG}:audit:KEY), as every script that changes a pool writes
// it in the same script as the change. The stream entry's fields, always all of them and always
// in this order (so Redis keeps the names once per listpack node, not once per entry):
//   action   auditActionName()
//   members  JSON array of [member, before, after]: counts as Redis prints them, null for none
//   count    how many members the action concerns
//   policy   restore policy; a seed's "start" or "min" (" overwrite" when it reset counts)
//   detail   a seed's "kept K, evicted E" (members named but left as they were); migrate's keys
//   reason   why (optional; a guard's failed checks), credentials masked
//   user host program pid   who (AuditActor)
//   guard    the acting guard's id; empty for an operator
// The entry id is the time: the server's clock when the script ran.
struct AuditEntry {
    QByteArray id; // the stream entry id, "1712345678901-0"
    qint64 timeMs = 0;
    AuditAction action = AuditAction::Other;
    QString actionName;
    QList<AuditMemberChange> members;
    qint64 count = 0;
    QString policy;
    QString detail;
    QString reason;
    AuditActor actor;
    QString guardId;
    // Read from the guard-events stream the guard wrote before the audit trail existed: its
    // actor is a guard, its counts are unknown.
    bool fromGuardEvents = false;

    // An element of an XRANGE/XREVRANGE reply on the trail; nullopt when it is not an entry.
    static std::optional<AuditEntry> fromStreamEntry(const RedisReply &entry);
    // An element of an XRANGE reply on the old guard-events stream (fields t, kind, member,
    // reason).
    static std::optional<AuditEntry> fromGuardEvent(const RedisReply &entry);

    bool byGuard() const { return !guardId.isEmpty() || fromGuardEvents; }
    // Who, in one line: "alice@build-7 (poolscope-cli 0.9.0, pid 4242)", with "guard ID" after
    // it for a guard's entry.
    QString actorText() const;
    // The stable JSON form `poolscope-cli audit --json` prints (see the README).
    QJsonObject toJson() const;
};

// Stream entry ids ("ms-seq") in stream order: negative, zero or positive as a is before, equal
// to or after b. An empty id is before every other.
int compareStreamIds(const QByteArray &a, const QByteArray &b);

} // namespace poolscope
