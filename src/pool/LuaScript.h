#pragma once

#include "base/RedisError.h"
#include "client/RedisConnection.h"

#include <QByteArray>
#include <QString>

namespace poolscope {

// A Lua script compiled into the binary from resources/lua (through poolscope.qrc), called by
// EVALSHA. The script cache empties on restart, failover and SCRIPT FLUSH, so on NOSCRIPT the
// call is retried once with EVAL, which also caches it again: NOSCRIPT means it did not run, so the
// retry is safe.
class LuaScript {
public:
    // name: file name under :/lua, e.g. "allocate.lua". Aborts if the resource is missing
    // (a build error, not a runtime condition).
    static const LuaScript &byName(const QString &name);
    static const LuaScript &allocate() { return byName(QStringLiteral("allocate.lua")); }
    static const LuaScript &evict() { return byName(QStringLiteral("evict.lua")); }
    static const LuaScript &restore() { return byName(QStringLiteral("restore.lua")); }
    static const LuaScript &seed() { return byName(QStringLiteral("seed.lua")); }
    static const LuaScript &migrateCompanion() {
        return byName(QStringLiteral("migrate_companion.lua"));
    }

    const QByteArray &source() const { return m_source; }
    // Lower-case hex SHA1 of the source, as Redis names it.
    const QByteArray &sha1() const { return m_sha1; }
    const QString &name() const { return m_name; }

    // EVALSHA with one NOSCRIPT retry. Error replies are returned, not thrown.
    RedisReply run(RedisConnection &connection, const QList<QByteArray> &keys,
                   const QList<QByteArray> &args = {}) const;
    // The EVALSHA command, for pipelines.
    RedisCommand evalShaCommand(const QList<QByteArray> &keys,
                                const QList<QByteArray> &args = {}) const;
    RedisCommand evalCommand(const QList<QByteArray> &keys,
                             const QList<QByteArray> &args = {}) const;
    // SCRIPT LOAD; throws RedisError when the server refuses.
    void load(RedisConnection &connection) const;
    // NOSCRIPT by its code alone: Redis says "NOSCRIPT No matching script. Please use EVAL.",
    // Valkey "NOSCRIPT No matching script.".
    static bool isNoScript(const RedisReply &reply);
    // The server runs without Lua (EVAL/EVALSHA/SCRIPT unknown or renamed away, or a build or
    // configuration without the scripting engine): no script will ever run there, unlike a
    // NOSCRIPT, which a load fixes.
    static bool lacksScripting(const RedisReply &reply);
    // The error to report for such a reply, while doing `during` (Kind::Unsupported).
    static RedisError noScriptingError(const RedisReply &reply, const QString &during);

private:
    LuaScript(QString name, QByteArray source);
    QString m_name;
    QByteArray m_source;
    QByteArray m_sha1;
};

} // namespace poolscope
