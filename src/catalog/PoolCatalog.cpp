#include "catalog/PoolCatalog.h"

#include "base/RedisError.h"
#include "client/NodeScan.h"
#include "pool/PoolKeys.h"
#include "pool/PoolStats.h"

#include <algorithm>
#include <cmath>

#include <QHash>
#include <QMap>
#include <QSet>

namespace poolscope {
namespace {

constexpr int kScanCalls = 1000; // per node: at most this many short SCANs
constexpr int kKeysPerPipeline = 100;

bool isWholeCount(double value) {
    return std::isfinite(value) && value >= 0 && std::floor(value) == value;
}

// The score of a one-member "ZRANGE key r r WITHSCORES" reply.
std::optional<double> rankScore(const RedisReply &reply) {
    if (reply.isError() || reply.elements.size() < 2)
        return std::nullopt;
    bool ok = false;
    const double score = reply.elements[1].toDouble(&ok);
    return ok ? std::optional<double>(score) : std::nullopt;
}

QList<QByteArray> scanSortedSets(NodeConnection &node, int maxKeys) {
    QList<QByteArray> keys;
    QByteArray cursor = "0";
    for (int call = 0; call < kScanCalls && keys.size() < maxKeys; ++call) {
        const RedisReply reply =
            node.command({"SCAN", cursor, "MATCH", "*", "COUNT", "1000", "TYPE", "zset"});
        if (reply.isError() || reply.elements.size() != 2)
            throw RedisError(
                RedisError::Kind::Server,
                QStringLiteral("looking for pools failed: %1").arg(QString::fromUtf8(reply.text)),
                reply.errorCode());
        cursor = reply.elements[0].text;
        for (const RedisReply &key : reply.elements[1].elements)
            if (keys.size() < maxKeys && !keys.contains(key.text))
                keys.append(key.text);
        if (cursor == "0")
            break;
    }
    return keys;
}

// Reads a batch of keys found on the node `nodeName`, two pipelines: sizes and extremes, then
// medians (and whole small pools for their sums). `routed` is the connection the caller opened:
// in a cluster it follows ASK and MOVED, which a key of a migrating slot answers on one node.
void readBatch(RedisConnection &routed, const QString &nodeName, const QList<QByteArray> &keys,
               QList<PoolOverview> &out) {
    QList<RedisCommand> first;
    for (const QByteArray &key : keys) {
        first.append({"ZCARD", key});
        first.append({"ZRANGE", key, "0", "0", "WITHSCORES"});
        first.append({"ZRANGE", key, "-1", "-1", "WITHSCORES"});
        first.append({"HLEN", PoolKeys(key).evicted()});
    }
    const QList<RedisReply> replies = routed.pipeline(first);
    QList<PoolOverview> found;
    QList<RedisCommand> second;
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const RedisReply &size = replies[4 * i];
        const std::optional<double> minimum = rankScore(replies[4 * i + 1]);
        const std::optional<double> maximum = rankScore(replies[4 * i + 2]);
        // Gone since the scan, moved mid-reshard, or not counts: not a pool (for now).
        if (size.isError() || size.integer <= 0 || !minimum || !maximum ||
            !isWholeCount(*minimum) || !isWholeCount(*maximum))
            continue;
        PoolOverview pool;
        pool.key = keys[i];
        pool.node = nodeName;
        pool.size = size.integer;
        pool.minimum = *minimum;
        pool.maximum = *maximum;
        pool.evicted = replies[4 * i + 3].isError() ? 0 : replies[4 * i + 3].integer;
        const qint64 low = (pool.size - 1) / 2;
        const qint64 high = pool.size / 2;
        second.append(
            {"ZRANGE", pool.key, QByteArray::number(low), QByteArray::number(high), "WITHSCORES"});
        if (pool.size <= PoolCatalog::kExactSumLimit)
            second.append({"ZRANGE", pool.key, "0", "-1", "WITHSCORES"});
        else
            second.append(AllocationLevels::commands(pool.key, pool.minimum));
        found.append(pool);
    }
    const QList<RedisReply> more = routed.pipeline(second);
    qsizetype at = 0;
    for (PoolOverview &pool : found) {
        const RedisReply &middle = more.value(at++);
        double sum = 0;
        int counted = 0;
        for (qsizetype j = 1; j < middle.elements.size(); j += 2, ++counted)
            sum += middle.elements[j].toDouble();
        pool.median = counted > 0 ? sum / counted : pool.minimum;
        if (pool.size <= PoolCatalog::kExactSumLimit) {
            const RedisReply &all = more.value(at++);
            QList<double> counts;
            counts.reserve(all.elements.size() / 2);
            double total = 0;
            for (qsizetype j = 1; j < all.elements.size(); j += 2) {
                counts.append(all.elements[j].toDouble());
                total += counts.last();
            }
            if (!all.isError()) {
                pool.countSum = total;
                pool.jainIndex = jainFairnessIndex(counts);
            }
        } else {
            pool.levels = AllocationLevels::fromReplies(pool.size, pool.minimum,
                                                        more.mid(at, AllocationLevels::kLevels));
            at += AllocationLevels::kLevels;
        }
        out.append(pool);
    }
}

} // namespace

QList<PoolOverview> PoolCatalog::read(RedisConnection &connection, int maxKeys,
                                      QList<UnreadNode> *unread) {
    QList<PoolOverview> pools;
    // A key MIGRATEd between two SCANs is seen on both nodes: listed once.
    QSet<QByteArray> seen;
    const auto visit = [&](NodeConnection &node, const QString &nodeName) {
        QList<QByteArray> keys;
        for (const QByteArray &key : scanSortedSets(node, maxKeys))
            if (!seen.contains(key))
                keys.append(key);
        QList<PoolOverview> found;
        for (qsizetype start = 0; start < keys.size(); start += kKeysPerPipeline)
            readBatch(connection, nodeName, keys.mid(start, kKeysPerPipeline), found);
        // Only once the node was read whole: a node that fails half-way adds nothing.
        for (const QByteArray &key : keys)
            seen.insert(key);
        pools += found;
    };
    if (unread) {
        forEachPrimary(connection, visit,
                       [unread](const QString &nodeName, const RedisError &error) {
                           unread->append({nodeName, error.kind(), error.message()});
                       });
    } else {
        forEachPrimary(connection, visit);
    }
    std::sort(pools.begin(), pools.end(),
              [](const PoolOverview &a, const PoolOverview &b) { return a.key < b.key; });
    if (pools.size() > maxKeys)
        pools.resize(maxKeys);
    return pools;
}

QList<PoolOverview> PoolCatalog::readKeys(RedisConnection &connection,
                                          const QList<QByteArray> &keys) {
    QList<PoolOverview> pools;
    for (qsizetype start = 0; start < keys.size(); start += kKeysPerPipeline) {
        // Grouped by the node that holds each key, so every pool names its own.
        QMap<QString, QList<QByteArray>> byNode;
        for (const QByteArray &key : keys.mid(start, kKeysPerPipeline))
            byNode[nodeNameOf(connection, key)].append(key);
        for (auto node = byNode.cbegin(); node != byNode.cend(); ++node)
            readBatch(connection, node.key(), node.value(), pools);
    }
    QHash<QByteArray, qsizetype> order;
    for (qsizetype i = 0; i < keys.size(); ++i)
        order.insert(keys[i], i);
    std::sort(pools.begin(), pools.end(), [&order](const PoolOverview &a, const PoolOverview &b) {
        return order.value(a.key) < order.value(b.key);
    });
    return pools;
}

void PoolCatalog::addRates(QList<PoolOverview> &now, const QList<PoolOverview> &before,
                           double seconds) {
    if (seconds <= 0)
        return;
    QHash<QByteArray, const PoolOverview *> earlier;
    for (const PoolOverview &pool : before)
        earlier.insert(pool.key, &pool);
    for (PoolOverview &pool : now) {
        const PoolOverview *old = earlier.value(pool.key);
        if (!old)
            continue;
        const std::optional<double> counted = allocationsBetween(old->levels, pool.levels);
        if (pool.countSum && old->countSum) {
            pool.allocationRate = std::max(0.0, (*pool.countSum - *old->countSum) / seconds);
            pool.rateEstimated = false;
        } else if (counted) {
            pool.allocationRate = *counted / seconds;
            pool.rateEstimated = false;
        } else {
            // Least-used allocation raises every count alike: the median rises by rate / size.
            pool.allocationRate = std::max(0.0, (pool.median - old->median) * pool.size / seconds);
            pool.rateEstimated = true;
        }
    }
}

} // namespace poolscope
