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
    // What the person can do about it. message() says it in the command line's words (a flag);
    // a dashboard says it in its own (a field, a button) after bareMessage().
    enum class Remedy {
        None,
        TlsCaFile,       // the server's CA is not trusted: name its CA file
        TlsServerName,   // the certificate is for another name: connect by it or expect it
        TrustSshHostKey, // the bastion's host key is unknown: check it, then trust it
    };

    RedisError(Kind kind, const QString &message, QByteArray serverCode = {})
        : std::runtime_error(message.toStdString())
        , m_kind(kind)
        , m_message(message)
        , m_serverCode(std::move(serverCode)) {}

    // The caller asked for something that cannot be done (Kind::Usage).
    static RedisError usage(const QString &message) { return RedisError(Kind::Usage, message); }

    Kind kind() const { return m_kind; }
    // The whole text, with the remedy in the command line's words (--tls-ca FILE, ...).
    QString message() const { return withRemedyText(m_message, m_remedy, remedyText(m_remedy)); }
    // The text without the remedy: for a wrapping message (withMessage), which keeps the remedy.
    QString bareMessage() const { return m_message; }
    Remedy remedy() const { return m_remedy; }
    RedisError &withRemedy(Remedy remedy) {
        m_remedy = remedy;
        return *this;
    }
    // The remedy in the command line's words ("give the CA with --tls-ca FILE"); empty for None.
    static QString remedyText(Remedy remedy);
    // text with a remedy's words appended the way that remedy reads ("… (give the CA with …)").
    static QString withRemedyText(const QString &text, Remedy remedy, const QString &words);
    // For Server errors: the first word of the reply, e.g. "WRONGTYPE".
    QByteArray serverCode() const { return m_serverCode; }
    bool connectionLost() const { return m_kind == Kind::Connection || m_kind == Kind::Timeout; }
    // A connection error that the same settings meet again however often they try (the SSH host
    // refused our authentication, its host key is unknown and was declined, or changed): a
    // poller stops retrying until the person changes something, rather than knock every few
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
        copy.m_remedy = m_remedy;
        return copy;
    }

private:
    Kind m_kind;
    QString m_message;
    QByteArray m_serverCode;
    bool m_retryCannotHelp = false;
    Remedy m_remedy = Remedy::None;
};

} // namespace poolscope
