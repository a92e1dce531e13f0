#include "pool/LuaScript.h"

#include "base/RedisError.h"

#include <map>
#include <memory>
#include <mutex>

#include <QCryptographicHash>
#include <QFile>

// Static libraries need their resources registered by hand.
static void initPoolscopeResources() {
    Q_INIT_RESOURCE(poolscope);
}

namespace poolscope {

LuaScript::LuaScript(QString name, QByteArray source)
    : m_name(std::move(name))
    , m_source(std::move(source))
    , m_sha1(QCryptographicHash::hash(m_source, QCryptographicHash::Sha1).toHex()) {}

const LuaScript &LuaScript::byName(const QString &name) {
    static std::mutex mutex;
    static std::map<QString, std::unique_ptr<LuaScript>> scripts;
    const std::lock_guard lock(mutex);
    auto found = scripts.find(name);
    if (found == scripts.end()) {
        initPoolscopeResources();
        QFile file(QStringLiteral(":/lua/") + name);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("Lua script %s is missing from the resources", qPrintable(name));
        found =
            scripts.emplace(name, std::unique_ptr<LuaScript>(new LuaScript(name, file.readAll())))
                .first;
    }
    return *found->second;
}

static RedisCommand scriptCommand(const QByteArray &verb, const QByteArray &body,
                                  const QList<QByteArray> &keys, const QList<QByteArray> &args) {
    RedisCommand command{verb, body, QByteArray::number(keys.size())};
    command << keys << args;
    return command;
}

RedisCommand LuaScript::evalShaCommand(const QList<QByteArray> &keys,
                                       const QList<QByteArray> &args) const {
    return scriptCommand("EVALSHA", m_sha1, keys, args);
}

RedisCommand LuaScript::evalCommand(const QList<QByteArray> &keys,
                                    const QList<QByteArray> &args) const {
    return scriptCommand("EVAL", m_source, keys, args);
}

bool LuaScript::isNoScript(const RedisReply &reply) {
    return reply.isError() && reply.errorCode() == "NOSCRIPT";
}

bool LuaScript::lacksScripting(const RedisReply &reply) {
    if (!reply.isError() || reply.errorCode() != "ERR")
        return false;
    const QByteArray text = reply.text.toLower();
    for (const char *command : {"eval", "evalsha", "script", "eval_ro", "evalsha_ro"}) {
        if (text.startsWith("err unknown command '" + QByteArray(command) + "'") ||
            text.startsWith("err unknown command `" + QByteArray(command) + "`"))
            return true;
    }
    return text.contains("lua scripting disabled") || text.contains("scripting engine");
}

RedisError LuaScript::noScriptingError(const RedisReply &reply, const QString &during) {
    return RedisError(RedisError::Kind::Unsupported,
                      QStringLiteral("%1 needs Lua scripting, which this server does not offer "
                                     "(it runs without Lua, or EVAL/EVALSHA were renamed away): %2")
                          .arg(during, QString::fromUtf8(reply.text)),
                      reply.errorCode());
}

void LuaScript::load(RedisConnection &connection) const {
    const RedisReply reply = connection.command({"SCRIPT", "LOAD", m_source});
    if (lacksScripting(reply))
        throw noScriptingError(reply, QStringLiteral("loading script %1").arg(m_name));
    if (reply.isError())
        throw RedisError(
            RedisError::Kind::Server,
            QStringLiteral("cannot load script %1: %2").arg(m_name, QString::fromUtf8(reply.text)),
            reply.errorCode());
}

RedisReply LuaScript::run(RedisConnection &connection, const QList<QByteArray> &keys,
                          const QList<QByteArray> &args) const {
    RedisReply reply = connection.command(evalShaCommand(keys, args));
    if (!isNoScript(reply))
        return reply;
    // EVAL both runs the script and puts it back in the cache for the next EVALSHA.
    return connection.command(evalCommand(keys, args));
}

} // namespace poolscope
