#include "load/FailoverLoss.h"

#include "base/RedisError.h"

#include <cmath>

namespace poolscope::loadrunner_detail {

namespace {
constexpr qint64 kPage = 1000;
}

PoolCountsRead readPoolCounts(const Endpoint &endpoint, const ConnectionOptions &options,
                              const QByteArray &poolKey) {
    PoolCountsRead read;
    try {
        ConnectionOptions named = options;
        named.clientName = QStringLiteral("poolscope-load");
        const std::unique_ptr<RedisConnection> connection = RedisConnection::open(endpoint, named);
        read.primary =
            connection->endpoint().host + u':' + QString::number(connection->endpoint().port);
        const RedisReply size = connection->commandOrThrow({"ZCARD", poolKey});
        if (size.integer > kMaxLossCheckMembers) {
            read.error = QStringLiteral("the pool has %1 members, more than the %2 read for the "
                                        "loss check")
                             .arg(size.integer)
                             .arg(kMaxLossCheckMembers);
            return read;
        }
        for (qint64 start = 0; start < size.integer; start += kPage) {
            const RedisReply page =
                connection->commandOrThrow({"ZRANGE", poolKey, QByteArray::number(start),
                                            QByteArray::number(start + kPage - 1), "WITHSCORES"});
            for (qsizetype i = 0; i + 1 < page.elements.size(); i += 2)
                read.counts.insert(page.elements.at(i).text,
                                   page.elements.at(i + 1).text.toDouble());
        }
    } catch (const RedisError &error) {
        read.error = error.message();
    }
    return read;
}

FailoverLoss compareCounts(const PoolCountsRead &before, const QHash<QByteArray, qint64> &acked,
                           const PoolCountsRead &after) {
    FailoverLoss loss;
    for (const double count : before.counts)
        loss.baselineSum += count;
    for (const double count : after.counts)
        loss.finalSum += count;
    QHash<QByteArray, double> expected = before.counts;
    for (auto it = acked.cbegin(); it != acked.cend(); ++it)
        expected[it.key()] += double(it.value());
    for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
        const double missing = it.value() - after.counts.value(it.key(), 0);
        if (missing >= 0.5) {
            loss.lost += std::llround(missing);
            ++loss.lostMembers;
        }
    }
    return loss;
}

} // namespace poolscope::loadrunner_detail
