// A pool's figures for an exporter: read fresh on every call, with the poller's bounded commands.
#pragma once

#include "pool/PoolSummary.h"
#include "pool/PoolTypes.h"

#include <optional>

#include <QByteArray>
#include <QHash>
#include <QList>

namespace poolscope {

class RedisConnection;

struct PoolMetrics {
    enum class ReadMode { Full, Summary };

    QByteArray key;
    bool exists = false; // false: no such key (or not a sorted set: reading throws instead)
    ReadMode mode = ReadMode::Full;
    qint64 members = 0;
    qint64 evicted = 0;
    double min = 0;
    double median = 0;
    double max = 0;
    // Sum of counts and Jain's index: from this read for a full read; from the last complete
    // background pass for a summary read (nullopt until the first pass has finished).
    std::optional<double> total;
    std::optional<double> jainIndex;
    // Allocations per second since the previous read, from the members' count rises (a member
    // evicted or reset does not make it negative); nullopt on the first read and in summary mode.
    std::optional<double> allocationRate;
    // Share of the current background pass done (summary mode), in [0, 1].
    double scanProgress = 1;
    // Each member's count when the pool has at most the member limit; empty otherwise.
    QList<PoolMember> memberCounts;
    bool memberSeriesExported = false;
    // Whether a guard holds the pool's lease now; nullopt when the lease key cannot be read (an
    // ACL without it): then no series rather than a wrong 0.
    std::optional<bool> guardLeaseHeld;
    qint64 commandsSent = 0;
};

// Reads one pool's metrics. Pools of up to memberLimit members are read whole (at most
// PoolOperations::kChunkSize members a command) and export one series per member; bigger ones
// are read as a summary (size, min / median / max by rank: O(log N) each) and their totals come
// from an incremental ZSCAN that advances a few pages on every read, like the dashboard's.
// Not thread-safe: one reader per pool, used from one thread at a time.
class PoolMetricsReader {
public:
    PoolMetricsReader(const QByteArray &poolKey, qint64 memberLimit, int scanPagesPerRead = 50);

    // Throws RedisError (connection lost, wrong type, ...).
    PoolMetrics read(RedisConnection &connection, qint64 nowMs);
    qint64 memberLimit() const { return m_memberLimit; }

private:
    PoolMetrics readFull(RedisConnection &connection, PoolMetrics metrics, qint64 nowMs);
    PoolMetrics readSummary(RedisConnection &connection, PoolMetrics metrics);
    void readGuardLease(RedisConnection &connection, PoolMetrics &metrics) const;
    void forgetPrevious();

    QByteArray m_key;
    qint64 m_memberLimit;
    int m_scanPagesPerRead;
    IncrementalPoolScan m_scan;
    QHash<QByteArray, double> m_previousCounts; // full mode: for the allocation rate
    qint64 m_previousTimeMs = -1;
};

} // namespace poolscope
