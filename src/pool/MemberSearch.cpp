#include "pool/MemberSearch.h"

#include "base/RedisError.h"
#include "pool/PoolOperations.h"

#include <algorithm>

#include <QSet>

namespace poolscope {
namespace {

void throwIfError(const RedisReply &reply, const QByteArray &poolKey, const char *during) {
    if (reply.isError())
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("%1 in pool \"%2\" failed: %3")
                             .arg(QLatin1String(during), QString::fromUtf8(poolKey),
                                  QString::fromUtf8(reply.text)),
                         reply.errorCode());
}

} // namespace

void MemberSearch::start(quint64 id, const QByteArray &text) {
    m_result = {};
    m_result.id = id;
    m_result.text = text;
    m_cursor = "0";
    m_exactDone = false;
}

QByteArray MemberSearch::prefixPattern(const QByteArray &text) {
    QByteArray pattern;
    pattern.reserve(text.size() + 2);
    for (const char c : text) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            pattern += '\\';
        pattern += c;
    }
    pattern += '*';
    return pattern;
}

void MemberSearch::lookUpExact(RedisConnection &connection, const QByteArray &poolKey) {
    const QList<RedisReply> replies = connection.pipeline(
        {{"ZSCORE", poolKey, m_result.text}, {"ZRANK", poolKey, m_result.text}});
    throwIfError(replies[0], poolKey, "looking a member up");
    throwIfError(replies[1], poolKey, "looking a member's rank up");
    m_result.exactFound = !replies[0].isNil() && !replies[1].isNil();
    if (m_result.exactFound)
        m_result.exact = {replies[1].integer, m_result.text, replies[0].toDouble()};
    else
        m_result.exact = {};
    m_exactDone = true;
}

void MemberSearch::step(RedisConnection &connection, const QByteArray &poolKey, int maxPages) {
    if (!isActive())
        return;
    m_result.error.clear();
    if (!m_exactDone) {
        lookUpExact(connection, poolKey);
        if (m_result.exactFound)
            m_result.matches.append({m_result.exact.member, m_result.exact.count});
    }
    QSet<QByteArray> seen;
    for (const PoolMember &member : std::as_const(m_result.matches))
        seen.insert(member.member);
    const QByteArray pattern = prefixPattern(m_result.text);
    for (int page = 0; page < maxPages && needsScan(); ++page) {
        const RedisReply reply =
            connection.command({"ZSCAN", poolKey, m_cursor, "MATCH", pattern, "COUNT",
                                QByteArray::number(PoolOperations::kScanCount)});
        throwIfError(reply, poolKey, "searching members");
        if (reply.elements.size() != 2)
            throw RedisError(RedisError::Kind::Server, QStringLiteral("unexpected ZSCAN reply"));
        ++m_result.pagesRead;
        m_cursor = reply.elements[0].text;
        const QList<RedisReply> &pairs = reply.elements[1].elements;
        for (qsizetype i = 0; i + 1 < pairs.size(); i += 2) {
            const QByteArray &member = pairs[i].text;
            if (seen.contains(member)) // met twice while the set was rehashed, or the exact one
                continue;
            if (m_result.matches.size() >= kMaxMatches) {
                m_result.truncated = true;
                break;
            }
            seen.insert(member);
            m_result.matches.append({member, pairs[i + 1].toDouble()});
        }
        if (m_cursor == "0")
            m_result.complete = true;
    }
}

void MemberSearch::refresh(RedisConnection &connection, const QByteArray &poolKey) {
    if (!isActive())
        return;
    m_result.error.clear();
    lookUpExact(connection, poolKey);
    QList<PoolMember> kept;
    if (!m_result.matches.isEmpty()) {
        RedisCommand zmscore{"ZMSCORE", poolKey};
        for (const PoolMember &member : std::as_const(m_result.matches))
            zmscore.append(member.member);
        const RedisReply reply = connection.command(zmscore);
        throwIfError(reply, poolKey, "reading the members found");
        for (qsizetype i = 0; i < m_result.matches.size() && i < reply.elements.size(); ++i)
            if (!reply.elements[i].isNil())
                kept.append({m_result.matches[i].member, reply.elements[i].toDouble()});
    }
    // The member typed exactly, back in the pool (restored) after it was dropped: first again.
    if (m_result.exactFound &&
        std::none_of(kept.cbegin(), kept.cend(),
                     [this](const PoolMember &m) { return m.member == m_result.text; }))
        kept.prepend({m_result.exact.member, m_result.exact.count});
    m_result.matches = kept;
}

} // namespace poolscope
