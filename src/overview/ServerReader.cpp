#include "overview/ServerReader.h"

#include "health/HealthStore.h"
#include "client/BackgroundWorker.h"
#include "pool/PoolKeys.h"
#include "client/NodeScan.h"

#include <QDateTime>
#include <QSet>

namespace poolscope {
namespace {

constexpr qsizetype kPoolsPerPipeline = 100;

// Adds one health record's verdict to the counts.
void countRecord(const QByteArray &json, OverviewHealth &health) {
    ++health.records;
    const std::optional<HealthRecord> record = HealthRecord::fromJson(json);
    if (!record)
        return;
    const std::optional<CheckOutcome> outcome = parseOutcomeName(record->outcome);
    if (!outcome)
        return;
    if (*outcome == CheckOutcome::Ok)
        ++health.up;
    else if (isFailure(*outcome))
        ++health.down;
}

// Field, value, field, value...: the values counted.
void countRecords(const QList<RedisReply> &fieldsAndValues, OverviewHealth &health) {
    for (qsizetype i = 1; i < fieldsAndValues.size(); i += 2)
        countRecord(fieldsAndValues[i].text, health);
}

QString notPoolReason(const QByteArray &type, qint64 evicted) {
    if (type == "none")
        return evicted > 0 ? QStringLiteral("empty: every member is evicted (%1)").arg(evicted)
                           : QStringLiteral("no such key");
    if (type == "zset")
        return QStringLiteral("a sorted set whose scores are not allocation counts");
    return QStringLiteral("a %1, not a sorted set").arg(QString::fromUtf8(type));
}

} // namespace

ServerReader::ServerReader(const Endpoint &endpoint, const ConnectionOptions &options,
                           QList<QByteArray> pinned)
    : m_endpoint(endpoint)
    , m_options(worker::boundedOptions(options, QStringLiteral("poolscope-overview")))
    , m_pinned(std::move(pinned)) {}

ServerReader::~ServerReader() = default;

ServerReading ServerReader::read() {
    try {
        if (!m_connection || m_connection->isBroken())
            m_connection = RedisConnection::open(m_endpoint, m_options);
        const auto started = std::chrono::steady_clock::now();
        ServerReading reading;
        QList<PoolOverview> pools =
            PoolCatalog::read(*m_connection, PoolCatalog::kMaxKeys, &reading.unreadNodes);

        // Pinned pools the scan did not list: read by name, unless their node is unreadable.
        QSet<QByteArray> listed;
        for (const PoolOverview &pool : pools)
            listed.insert(pool.key);
        QSet<QString> unreadNodes;
        for (const UnreadNode &node : reading.unreadNodes)
            unreadNodes.insert(node.node);
        QList<QByteArray> missing;
        QList<PoolReading> onUnreadNodes;
        for (const QByteArray &key : m_pinned) {
            if (listed.contains(key) || missing.contains(key))
                continue;
            const QString node = nodeNameOf(*m_connection, key);
            if (!unreadNodes.contains(node)) {
                missing.append(key);
                continue;
            }
            PoolReading unread;
            unread.key = key;
            unread.isPool = false;
            unread.nodeUnread = true;
            unread.figures.key = key;
            unread.figures.node = node;
            onUnreadNodes.append(unread);
        }
        if (!missing.isEmpty()) {
            for (const PoolOverview &pool : PoolCatalog::readKeys(*m_connection, missing)) {
                pools.append(pool);
                listed.insert(pool.key);
                missing.removeAll(pool.key);
            }
        }

        const auto now = std::chrono::steady_clock::now();
        if (m_previous)
            PoolCatalog::addRates(pools, m_previous->pools,
                                  std::chrono::duration<double>(now - m_previous->at).count());
        m_previous = Previous{pools, now};

        for (const PoolOverview &pool : pools) {
            PoolReading read;
            read.key = pool.key;
            read.figures = pool;
            reading.pools.append(read);
        }
        reading.timeMs = QDateTime::currentMSecsSinceEpoch();
        readLeasesAndHealth(reading.pools, reading.timeMs);
        reading.pools += readPinnedMissing(missing);
        reading.pools += onUnreadNodes;

        // A cluster primary that went away keeps a broken connection in the router: start
        // afresh next time, so it is reached again as soon as it is back.
        for (const UnreadNode &node : reading.unreadNodes)
            if (node.kind == RedisError::Kind::Connection || node.kind == RedisError::Kind::Timeout)
                m_connection.reset();
        reading.serverVersion = m_connection ? m_connection->serverVersion() : QString();
        reading.elapsedMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                .count();
        return reading;
    } catch (const RedisError &error) {
        if (error.connectionLost() || (m_connection && m_connection->isBroken()))
            m_connection.reset();
        m_previous.reset(); // rates come from two readings in a row only
        throw;
    }
}

QList<PoolReading> ServerReader::readPinnedMissing(const QList<QByteArray> &keys) {
    QList<PoolReading> readings;
    if (keys.isEmpty())
        return readings;
    QList<RedisCommand> commands;
    for (const QByteArray &key : keys) {
        commands.append({"TYPE", key});
        commands.append({"HLEN", PoolKeys(key).evicted()});
    }
    const QList<RedisReply> replies = m_connection->pipeline(commands);
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const RedisReply &type = replies.value(2 * i);
        const RedisReply &evicted = replies.value(2 * i + 1);
        PoolReading reading;
        reading.key = keys[i];
        reading.isPool = false;
        reading.figures.key = keys[i];
        reading.figures.node = nodeNameOf(*m_connection, keys[i]);
        reading.figures.evicted = evicted.isError() ? 0 : evicted.integer;
        reading.notPoolReason =
            type.isError() ? QStringLiteral("cannot be read: %1").arg(QString::fromUtf8(type.text))
                           : notPoolReason(type.text, reading.figures.evicted);
        readings.append(reading);
    }
    return readings;
}

void ServerReader::readLeasesAndHealth(QList<PoolReading> &pools, qint64 nowMs) {
    QSet<QByteArray> present;
    for (qsizetype start = 0; start < pools.size(); start += kPoolsPerPipeline) {
        const qsizetype end = std::min(pools.size(), start + kPoolsPerPipeline);
        QList<RedisCommand> first;
        for (qsizetype i = start; i < end; ++i) {
            const PoolKeys keys(pools[i].key);
            first.append({"GET", keys.guardLease()});
            first.append({"HLEN", keys.health()});
        }
        const QList<RedisReply> sizes = m_connection->pipeline(first);
        // Small hashes whole, big ones one page of their walk: never more than ~500 records.
        QList<RedisCommand> second;
        QList<qsizetype> asked;
        for (qsizetype i = start; i < end; ++i) {
            PoolReading &pool = pools[i];
            const RedisReply &lease = sizes.value(2 * (i - start));
            const RedisReply &records = sizes.value(2 * (i - start) + 1);
            pool.guardKnown = !lease.isError();
            if (pool.guardKnown && !lease.isNil())
                pool.guardHolder = lease.text;
            if (records.isError())
                continue; // health unknown: an ACL without the hash, or not a hash
            const QByteArray health = PoolKeys(pool.key).health();
            if (records.integer == 0) {
                pool.health = {OverviewHealth::Source::Whole, 0, 0, 0, nowMs};
                m_walks.remove(pool.key);
            } else if (records.integer <= kHealthWholeLimit) {
                second.append({"HGETALL", health});
                asked.append(i);
                m_walks.remove(pool.key);
            } else {
                present.insert(pool.key);
                second.append({"HSCAN", health, m_walks[pool.key].cursor, "COUNT",
                               QByteArray::number(kHealthPage)});
                asked.append(i);
            }
        }
        const QList<RedisReply> pages = m_connection->pipeline(second);
        for (qsizetype j = 0; j < asked.size(); ++j) {
            PoolReading &pool = pools[asked[j]];
            const RedisReply &page = pages.value(j);
            if (page.isError())
                continue;
            const auto walk = m_walks.find(pool.key);
            if (walk == m_walks.end()) {
                pool.health = {OverviewHealth::Source::Whole, 0, 0, 0, nowMs};
                countRecords(page.elements, pool.health);
                continue;
            }
            if (page.elements.size() != 2)
                continue;
            walk->cursor = page.elements[0].text;
            countRecords(page.elements[1].elements, walk->counting);
            if (walk->cursor == "0") {
                walk->completed = walk->counting;
                walk->completed.source = OverviewHealth::Source::Walk;
                walk->completed.asOfMs = nowMs;
                walk->counting = {};
            }
            pool.health = walk->completed;
        }
    }
    // Walks of pools no longer listed (or whose hash shrank) are forgotten.
    for (auto walk = m_walks.begin(); walk != m_walks.end();)
        walk = present.contains(walk.key()) ? std::next(walk) : m_walks.erase(walk);
}

} // namespace poolscope
