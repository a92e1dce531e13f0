#pragma once

#include "base/RedisError.h"

#include <QByteArray>
#include <QMetaType>
#include <QString>

namespace poolscope {

// An error as a value: what a signal carries and what crosses a thread. Code decides on the
// kind, the server's code and retryCannotHelp; the text is for people, already worded for where
// it is shown (a dashboard's fields, or the command line's flags), and nothing decides on it.
struct Failure {
    RedisError::Kind kind = RedisError::Kind::Connection;
    // The first word of the server's error reply ("NOPERM", "WRONGTYPE", "READONLY", "OOM"...),
    // when a server refused something; also WRONGTYPE when our own type check found the pool's
    // key (or a companion) holding another type.
    QByteArray serverCode;
    QString text;
    RedisError::Remedy remedy = RedisError::Remedy::None;
    bool retryCannotHelp = false;

    Failure() = default;
    // text: the error in the words of where it is shown (describe(options, error)); empty:
    // error.message(), the command line's.
    explicit Failure(const RedisError &error, const QString &text = {});
    Failure(RedisError::Kind kind, const QString &text)
        : kind(kind)
        , text(text) {}
    static Failure usage(const QString &text) { return Failure(RedisError::Kind::Usage, text); }

    // The connection is gone (or timed out): whatever was sent may or may not have run.
    bool connectionLost() const {
        return kind == RedisError::Kind::Connection || kind == RedisError::Kind::Timeout;
    }
    // The pool's key, or one of its companions, holds the wrong type: no pool command can work.
    bool wrongType() const { return serverCode == "WRONGTYPE"; }
    // The server's access rules refuse this user the command or the key.
    bool noPermission() const { return serverCode == "NOPERM"; }
    // A read-only replica: it refuses every write.
    bool readOnlyReplica() const { return serverCode == "READONLY"; }
    // The same error to throw again (the CLI reports a worker's failure as its own).
    RedisError toError() const;

    // The type for queued signals and QVariant (a QVariant's toString() is the text). Called by
    // whatever emits it; safe to call again.
    static void registerMetaType();
};

} // namespace poolscope

Q_DECLARE_METATYPE(poolscope::Failure)
