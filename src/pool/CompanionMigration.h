#pragma once

#include "audit/AuditActor.h"
#include "client/RedisConnection.h"

#include <QByteArray>
#include <QString>

namespace poolscope {

// Moving a pool's evicted hash from its pre-0.2 name to the current one (see PoolKeys).
struct CompanionMigration {
    enum class Outcome {
        Moved,   // the old hash now has the new name
        Nothing, // there was no old hash
        Refused, // nothing changed; reason says why
    };
    Outcome outcome = Outcome::Nothing;
    QByteArray oldKey;
    QByteArray newKey;
    qint64 fields = 0; // members in the hash after a move
    QString reason;
};

// One script call: the old hash is renamed only when it is a hash, no other pool key that
// shared its name exists, and the new name is free; a move adds its entry to the pool's audit
// trail in the same script, naming actor (its user asked of the connection when empty) and
// reason. Throws RedisError for server errors.
CompanionMigration migrateCompanion(RedisConnection &connection, const QByteArray &poolKey,
                                    AuditActor actor = AuditActor::thisProcess(),
                                    const QString &reason = {});

// Members in the pool's pre-0.2 evicted hash, which nothing reads until migrateCompanion() moves
// it: 0 when there is no such hash. Two O(1) commands. Throws RedisError.
qint64 unmigratedCompanionMembers(RedisConnection &connection, const QByteArray &poolKey);

} // namespace poolscope
