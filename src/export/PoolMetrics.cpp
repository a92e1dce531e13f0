#include "export/PoolMetrics.h"

#include "base/RedisError.h"
#include "client/RedisConnection.h"
#include "pool/PoolKeys.h"
#include "pool/PoolOperations.h"
#include "pool/PoolStats.h"

#include <algorithm>

namespace poolscope {

PoolMetricsReader::PoolMetricsReader(const QByteArray &poolKey, qint64 memberLimit,
                                     int scanPagesPerRead)
    : m_key(poolKey)
    , m_memberLimit(std::max<qint64>(0, memberLimit))
    , m_scanPagesPerRead(std::max(1, scanPagesPerRead)) {}

PoolMetrics PoolMetricsReader::read(RedisConnection &connection, qint64 nowMs) {
    PoolMetrics metrics;
    metrics.key = m_key;
    const RedisReply size = connection.command({"ZCARD", m_key});
    metrics.commandsSent = 1;
    if (size.isError())
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("reading the size of pool \"%1\" failed: %2")
                             .arg(QString::fromUtf8(m_key), QString::fromUtf8(size.text)),
                         size.errorCode());
    metrics.members = size.integer;
    PoolMetrics result = metrics.members <= m_memberLimit
                             ? readFull(connection, std::move(metrics), nowMs)
                             : readSummary(connection, std::move(metrics));
    readGuardLease(connection, result);
    return result;
}

void PoolMetricsReader::readGuardLease(RedisConnection &connection, PoolMetrics &metrics) const {
    // O(1), and the key shares the pool's slot; a lost connection throws like any other read.
    const RedisReply held = connection.command({"EXISTS", PoolKeys(m_key).guardLease()});
    ++metrics.commandsSent;
    if (!held.isError())
        metrics.guardLeaseHeld = held.integer > 0;
}

PoolMetrics PoolMetricsReader::readFull(RedisConnection &connection, PoolMetrics metrics,
                                        qint64 nowMs) {
    // A pool that was big and shrank starts a fresh pass should it grow again.
    m_scan.reset();
    PoolOperations operations(connection, m_key);
    const PoolSnapshot snapshot = operations.snapshotOfSize(metrics.members);
    metrics.commandsSent += snapshot.commandsSent - 1; // snapshotOfSize counts our ZCARD
    metrics.mode = PoolMetrics::ReadMode::Full;
    metrics.members = snapshot.members.size();
    metrics.evicted = snapshot.evicted.size();
    metrics.exists = metrics.members > 0 || metrics.evicted > 0;

    QList<double> counts;
    counts.reserve(snapshot.members.size());
    for (const PoolMember &member : snapshot.members)
        counts.append(member.count);
    const PoolStats stats = computePoolStats(counts, metrics.evicted);
    metrics.min = stats.min;
    metrics.median = stats.median;
    metrics.max = stats.max;
    metrics.total = stats.total;
    metrics.jainIndex = stats.jainIndex;
    metrics.memberCounts = snapshot.members;
    metrics.memberSeriesExported = true;

    // Rises only: an evicted, reset or re-added member is not an allocation taken back.
    QHash<QByteArray, double> counted;
    counted.reserve(snapshot.members.size());
    double rises = 0;
    for (const PoolMember &member : snapshot.members) {
        counted.insert(member.member, member.count);
        const auto previous = m_previousCounts.constFind(member.member);
        if (previous != m_previousCounts.constEnd() && member.count > previous.value())
            rises += member.count - previous.value();
    }
    if (m_previousTimeMs >= 0 && nowMs > m_previousTimeMs)
        metrics.allocationRate = rises * 1000.0 / double(nowMs - m_previousTimeMs);
    m_previousCounts = std::move(counted);
    m_previousTimeMs = nowMs;
    return metrics;
}

PoolMetrics PoolMetricsReader::readSummary(RedisConnection &connection, PoolMetrics metrics) {
    forgetPrevious();
    PoolSummaryReader reader(connection, PoolKeys(m_key));
    const PoolSummary summary = reader.read(0, {}, {0.0, 0.5, 1.0});
    metrics.commandsSent += summary.commandsSent;
    metrics.mode = PoolMetrics::ReadMode::Summary;
    metrics.members = summary.size;
    metrics.evicted = summary.evictedCount;
    metrics.exists = metrics.members > 0 || metrics.evicted > 0;
    metrics.min = summary.quantile(0.0);
    metrics.median = summary.quantile(0.5);
    metrics.max = summary.quantile(1.0);

    m_scan.step(connection, m_key, m_scanPagesPerRead);
    if (const auto totals = m_scan.lastCompleted()) {
        metrics.total = totals->sum;
        metrics.jainIndex = totals->jainIndex();
    }
    metrics.scanProgress =
        metrics.members > 0
            ? std::clamp(double(m_scan.membersSeenThisPass()) / double(metrics.members), 0.0, 1.0)
            : 1.0;
    return metrics;
}

void PoolMetricsReader::forgetPrevious() {
    m_previousCounts.clear();
    m_previousTimeMs = -1;
}

} // namespace poolscope
