#pragma once

#include <QByteArray>
#include <QString>
#include <stdexcept>

namespace poolscope {

// Thrown by the core on anything that stops a Redis operation. The UI decides how to show it.
class RedisError : public std::runtime_error {
public:
    enum class Kind {
        Connection, // could not connect, connection lost, protocol error: the connection is
                    // unusable
        Timeout,    // no reply in time: whatever was sent may or may not have run
        Server,     // an error reply (WRONGTYPE, OOM, NOPERM, ...): the connection is still fine
        // The server refused the credentials (AUTH failed: WRONGPASS, NOPERM, ...) or wants some
        // (NOAUTH): trying again with the same ones cannot help.
        Authentication,
        Usage, // the caller asked for something that cannot be done (unknown member, bad count)
        // The server lacks something this needs and will refuse it again (a server run without
        // Lua scripting cannot allocate, seed, evict or restore).
        Unsupported,
    };

    RedisError(Kind kind, const QString &message, QByteArray serverCode = {})
        : std::runtime_error(message.toStdString())
        , m_kind(kind)
        , m_message(message)
        , m_serverCode(std::move(serverCode)) {}

    // The caller asked for something that cannot be done (Kind::Usage).
    static RedisError usage(const QString &message) { return RedisError(Kind::Usage, message); }

    Kind kind() const { return m_kind; }
    QString message() const { return m_message; }
    // For Server errors: the first word of the reply, e.g. "WRONGTYPE".
    QByteArray serverCode() const { return m_serverCode; }
    bool connectionLost() const { return m_kind == Kind::Connection || m_kind == Kind::Timeout; }
    // A connection error that the same settings meet again however often they try (the SSH host
    // refused our authentication, its host key is unknown and was declined, or changed): a
    // monitor stops retrying until the person changes something, rather than knock every few
    // seconds on a bastion that may lock the account out.
    bool retryCannotHelp() const { return m_retryCannotHelp; }
    RedisError &markRetryCannotHelp() {
        m_retryCannotHelp = true;
        return *this;
    }
    // The same error told with more context: kind, server code and retryCannotHelp carry over.
    RedisError withMessage(const QString &message) const {
        RedisError copy(m_kind, message, m_serverCode);
        copy.m_retryCannotHelp = m_retryCannotHelp;
        return copy;
    }

private:
    Kind m_kind;
    QString m_message;
    QByteArray m_serverCode;
    bool m_retryCannotHelp = false;
};

} // namespace poolscope
