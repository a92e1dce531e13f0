#include "pool/PoolSummary.h"

#include "pool/PoolOperations.h"

#include "base/RedisError.h"

#include <algorithm>
#include <cmath>

namespace poolscope {
namespace {

[[noreturn]] void fail(const RedisReply &reply, const PoolKeys &keys, const char *during) {
    throw RedisError(RedisError::Kind::Server,
                     QStringLiteral("%1 of pool \"%2\" failed: %3")
                         .arg(QLatin1String(during), QString::fromUtf8(keys.pool()),
                              QString::fromUtf8(reply.text)),
                     reply.errorCode());
}

QList<RankedMember> rankedFrom(const RedisReply &reply, qint64 firstRank, int step) {
    QList<RankedMember> members;
    for (qsizetype i = 0; i + 1 < reply.elements.size(); i += 2)
        members.append(
            {firstRank + step * (i / 2), reply.elements[i].text, reply.elements[i + 1].toDouble()});
    return members;
}

} // namespace

double PoolSummary::quantile(double fraction) const {
    for (const Quantile &q : quantiles)
        if (q.fraction == fraction)
            return q.count;
    return 0;
}

PoolSummaryReader::PoolSummaryReader(RedisConnection &connection, const PoolKeys &keys)
    : m_connection(connection)
    , m_keys(keys) {}

PoolSummary PoolSummaryReader::read(int topBottomCount, const QList<QByteArray> &pinned,
                                    const QList<double> &fractions) {
    PoolSummary summary;
    const QList<RedisReply> sizes =
        m_connection.pipeline({{"ZCARD", m_keys.pool()}, {"HLEN", m_keys.evicted()}});
    summary.commandsSent += 2;
    if (sizes[0].isError())
        fail(sizes[0], m_keys, "counting members");
    if (sizes[1].isError())
        fail(sizes[1], m_keys, "counting evicted members");
    summary.size = sizes[0].integer;
    summary.evictedCount = sizes[1].integer;
    if (summary.size == 0 && pinned.isEmpty())
        return summary;

    const int k = std::clamp(topBottomCount, 0, kMaxRange);
    QList<RedisCommand> commands;
    QList<qint64> quantileRanks;
    for (const double fraction : fractions) {
        // Nearest rank: the member at that position of the ordered counts.
        const auto rank = static_cast<qint64>(std::llround(
            std::clamp(fraction, 0.0, 1.0) * double(std::max<qint64>(summary.size - 1, 0))));
        quantileRanks.append(rank);
        const QByteArray r = QByteArray::number(rank);
        commands.append({"ZRANGE", m_keys.pool(), r, r, "WITHSCORES"});
    }
    if (k > 0) { // with k = 0 these would read "0 -1": the whole pool
        commands.append({"ZRANGE", m_keys.pool(), "0", QByteArray::number(k - 1), "WITHSCORES"});
        commands.append({"ZRANGE", m_keys.pool(), QByteArray::number(-k), "-1", "WITHSCORES"});
    }
    for (qsizetype start = 0; start < pinned.size(); start += kMaxRange)
        commands.append(RedisCommand{"ZMSCORE", m_keys.pool()} + pinned.mid(start, kMaxRange));

    const QList<RedisReply> replies = m_connection.pipeline(commands);
    summary.commandsSent += commands.size();
    for (const RedisReply &reply : replies)
        if (reply.isError())
            fail(reply, m_keys, "reading a summary");
    qsizetype next = 0;
    for (const double fraction : fractions) {
        const RedisReply &reply = replies[next++];
        if (reply.elements.size() >= 2)
            summary.quantiles.append({fraction, reply.elements[1].toDouble()});
    }
    if (k > 0) {
        summary.bottom = rankedFrom(replies[next], 0, 1);
        QList<RankedMember> top = rankedFrom(replies[next + 1], summary.size - k, 1);
        std::reverse(top.begin(), top.end());
        for (qsizetype i = 0; i < top.size(); ++i)
            top[i].rank = summary.size - 1 - i;
        summary.top = top;
        next += 2;
    }
    qsizetype pinnedIndex = 0;
    for (; next < replies.size(); ++next) {
        for (const RedisReply &score : replies[next].elements) {
            const QByteArray &member = pinned[pinnedIndex++];
            if (score.isNil())
                summary.pinnedMissing.append(member);
            else
                summary.pinned.append({member, score.toDouble()});
        }
    }
    return summary;
}

QList<RankedMember> PoolSummaryReader::rows(qint64 fromRank, int count) {
    const int n = std::clamp(count, 0, kMaxRange);
    if (n == 0 || fromRank < 0)
        return {};
    const RedisReply reply =
        m_connection.command({"ZRANGE", m_keys.pool(), QByteArray::number(fromRank),
                              QByteArray::number(fromRank + n - 1), "WITHSCORES"});
    if (reply.isError())
        fail(reply, m_keys, "reading rows");
    return rankedFrom(reply, fromRank, 1);
}

double IncrementalPoolScan::Totals::jainIndex() const {
    if (members == 0 || sumOfSquares == 0)
        return 1.0;
    return (sum * sum) / (double(members) * sumOfSquares);
}

bool IncrementalPoolScan::step(RedisConnection &connection, const QByteArray &poolKey,
                               int maxPages) {
    for (int page = 0; page < maxPages; ++page) {
        const RedisReply reply = connection.command(
            {"ZSCAN", poolKey, m_cursor, "COUNT", QByteArray::number(PoolOperations::kScanCount)});
        if (reply.isError())
            throw RedisError(RedisError::Kind::Server,
                             QStringLiteral("scanning pool \"%1\" failed: %2")
                                 .arg(QString::fromUtf8(poolKey), QString::fromUtf8(reply.text)),
                             reply.errorCode());
        if (reply.elements.size() != 2)
            throw RedisError(RedisError::Kind::Server, QStringLiteral("unexpected ZSCAN reply"));
        m_cursor = reply.elements[0].text;
        const QList<RedisReply> &pairs = reply.elements[1].elements;
        for (qsizetype i = 0; i + 1 < pairs.size(); i += 2) {
            const double count = pairs[i + 1].toDouble();
            // A member may be seen twice in one pass while the set is rehashed; totals are an
            // estimate for display, not an accounting figure.
            ++m_current.members;
            m_current.sum += count;
            m_current.sumOfSquares += count * count;
        }
        if (m_cursor == "0") {
            m_completed = m_current;
            m_current = {};
            ++m_passes;
            return true;
        }
    }
    return false;
}

void IncrementalPoolScan::reset() {
    m_cursor = "0";
    m_current = {};
    m_completed.reset();
    m_passes = 0;
}

} // namespace poolscope
