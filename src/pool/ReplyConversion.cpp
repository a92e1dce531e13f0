#include "pool/ReplyConversion.h"

#include "base/RedisError.h"
#include "pool/PoolOperations.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <QString>

namespace poolscope {
namespace {

QString typeName(RedisReply::Type type) {
    switch (type) {
    case RedisReply::Type::Nil:
        return QStringLiteral("nil");
    case RedisReply::Type::Status:
        return QStringLiteral("a status");
    case RedisReply::Type::Error:
        return QStringLiteral("an error");
    case RedisReply::Type::Integer:
        return QStringLiteral("an integer");
    case RedisReply::Type::String:
        return QStringLiteral("a string");
    case RedisReply::Type::Array:
        return QStringLiteral("an array");
    }
    return QStringLiteral("an unknown type");
}

[[noreturn]] void malformed(const QString &what, const QString &problem) {
    throw RedisError(RedisError::Kind::Server,
                     QStringLiteral("unexpected reply to %1: %2").arg(what, problem));
}

void requireArray(const RedisReply &reply, const QString &what) {
    if (reply.isError())
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("%1 failed: %2").arg(what, QString::fromUtf8(reply.text)),
                         reply.errorCode());
    if (!reply.isArray())
        malformed(what, QStringLiteral("expected an array, got %1").arg(typeName(reply.type)));
}

// Members and hash fields are bulk strings; anything else would silently become an empty name.
const QByteArray &nameAt(const RedisReply &array, qsizetype index, const QString &what) {
    const RedisReply &name = array.elements[index];
    if (name.type != RedisReply::Type::String)
        malformed(what, QStringLiteral("element %1 should be a member name (a string), got %2")
                            .arg(index + 1)
                            .arg(typeName(name.type)));
    return name.text;
}

// [name, count, name, count, ...] as sent by WITHSCORES and by the scan commands.
QList<std::pair<QByteArray, double>> pairsFromFlatArray(const RedisReply &array,
                                                        const QString &what) {
    if (array.elements.size() % 2 != 0)
        malformed(
            what,
            QStringLiteral("%1 elements, expected name/count pairs").arg(array.elements.size()));
    QList<std::pair<QByteArray, double>> pairs;
    pairs.reserve(array.elements.size() / 2);
    for (qsizetype i = 0; i < array.elements.size(); i += 2) {
        const QByteArray &name = nameAt(array, i, what);
        pairs.append({name, countFromReply(array.elements[i + 1], name)});
    }
    return pairs;
}

} // namespace

double countFromReply(const RedisReply &reply, const QByteArray &member) {
    // Counts come as plain decimal strings ("42", "1.5", "inf"): read without QByteArray's
    // locale-free but slower parser, which stays the judge of anything else.
    if (reply.type == RedisReply::Type::String && !reply.text.isEmpty()) {
        double fast = 0;
        const char *end = reply.text.constData() + reply.text.size();
        const auto [at, error] = std::from_chars(reply.text.constData(), end, fast);
        if (error == std::errc() && at == end && !std::isnan(fast))
            return fast;
    }
    bool ok = false;
    const double value = reply.toDouble(&ok);
    if (!ok || std::isnan(value)) {
        const QString sent =
            reply.type == RedisReply::Type::String || reply.type == RedisReply::Type::Status
                ? QStringLiteral("\"%1\"").arg(QString::fromUtf8(reply.text))
                : typeName(reply.type);
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("member %1 has a count Redis sent as %2, not a number")
                             .arg(describeMember(member), sent));
    }
    return value;
}

QList<PoolMember> membersFromRangeReply(const RedisReply &reply) {
    const QString what = QStringLiteral("ZRANGE WITHSCORES");
    requireArray(reply, what);
    const QList<std::pair<QByteArray, double>> pairs = pairsFromFlatArray(reply, what);
    QList<PoolMember> members;
    members.reserve(pairs.size());
    for (const auto &[member, count] : pairs)
        members.append({member, count});
    return members;
}

namespace {

// The page of a ZSCAN or HSCAN reply, checked, and the cursor it gives.
const RedisReply &scanPage(const RedisReply &reply, QByteArray *cursor, const QString &what) {
    requireArray(reply, what);
    if (reply.elements.size() != 2)
        malformed(
            what,
            QStringLiteral("%1 elements, expected [cursor, page]").arg(reply.elements.size()));
    const RedisReply &next = reply.elements[0];
    // Sent back verbatim, and compared with "0" to end the scan: only plain digits will do.
    const bool numeric =
        !next.text.isEmpty() && std::all_of(next.text.cbegin(), next.text.cend(),
                                            [](char c) { return c >= '0' && c <= '9'; });
    if (next.type != RedisReply::Type::String || !numeric)
        malformed(what, QStringLiteral("the cursor should be a number as a string, got %1")
                            .arg(next.type == RedisReply::Type::String
                                     ? QStringLiteral("\"%1\"").arg(QString::fromUtf8(next.text))
                                     : typeName(next.type)));
    const RedisReply &page = reply.elements[1];
    if (!page.isArray())
        malformed(what,
                  QStringLiteral("the page should be an array, got %1").arg(typeName(page.type)));
    if (page.elements.size() % 2 != 0)
        malformed(
            what,
            QStringLiteral("%1 elements, expected name/count pairs").arg(page.elements.size()));
    if (cursor)
        *cursor = next.text;
    return page;
}

} // namespace

QList<std::pair<QByteArray, double>> scanPageFromReply(const RedisReply &reply,
                                                       QByteArray *cursor) {
    const QString what = QStringLiteral("a scan (ZSCAN/HSCAN)");
    QByteArray next;
    const QList<std::pair<QByteArray, double>> pairs =
        pairsFromFlatArray(scanPage(reply, &next, what), what);
    if (cursor)
        *cursor = next;
    return pairs;
}

void appendScanPage(const RedisReply &reply, QByteArray *cursor, QList<PoolMember> *members) {
    const QString what = QStringLiteral("a scan (ZSCAN/HSCAN)");
    QByteArray next;
    const RedisReply &page = scanPage(reply, &next, what);
    for (qsizetype i = 0; i < page.elements.size(); i += 2) {
        const QByteArray &name = nameAt(page, i, what);
        members->append({name, countFromReply(page.elements[i + 1], name)});
    }
    if (cursor)
        *cursor = next;
}

} // namespace poolscope
