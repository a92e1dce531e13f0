#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {

// A Redis reply copied out of hiredis, so no hiredis type escapes the connection class.
struct RedisReply {
    enum class Type { Nil, Status, Error, Integer, String, Array };

    Type type = Type::Nil;
    QByteArray text; // Status, Error and String payloads (binary-safe)
    long long integer = 0;
    QList<RedisReply> elements;

    bool isNil() const { return type == Type::Nil; }
    bool isError() const { return type == Type::Error; }
    bool isArray() const { return type == Type::Array; }
    // The error code is the first word of an error reply: "WRONGTYPE", "NOSCRIPT", "OOM", ...
    QByteArray errorCode() const;
    // Integers and numeric strings as double (Redis sends scores as strings).
    double toDouble(bool *ok = nullptr) const;
    QString toDisplayString() const;
};

// Error codes of a command refused before it ran: cluster redirections and refusals (MOVED, ASK,
// TRYAGAIN, CLUSTERDOWN, CROSSSLOT), a server still loading or busy with a script, NOSCRIPT.
// Nothing such a command would have written was written.
bool refusedBeforeRunning(const QByteArray &errorCode);

} // namespace poolscope
