#pragma once

#include "client/RedisConnection.h"
#include "pool/PoolKeys.h"
#include "pool/PoolTypes.h"

#include <optional>

#include <QByteArray>
#include <QList>

namespace poolscope {

struct RankedMember {
    qint64 rank = 0; // 0 = the next one to be allocated
    QByteArray member;
    double count = 0;
    bool operator==(const RankedMember &) const = default;
};

struct Quantile {
    double fraction = 0; // 0 = min, 0.5 = median, 1 = max
    double count = 0;
};

// What one poll of a big pool reads: never the whole set. The sorted set is ordered by count,
// so any quantile of the counts is one ZRANGE r r WITHSCORES, O(log N) at any pool size.
struct PoolSummary {
    qint64 size = 0;
    qint64 evictedCount = 0;
    QList<Quantile> quantiles;       // for the fractions asked, in order
    QList<RankedMember> bottom;      // the K next to be allocated
    QList<RankedMember> top;         // the K most allocated, highest first
    QList<PoolMember> pinned;        // pinned members still in the pool, with counts
    QList<QByteArray> pinnedMissing; // pinned members not in the pool (evicted or gone)
    qint64 commandsSent = 0;
    double quantile(double fraction) const;
};

// Reads summaries and rank ranges of a pool with short commands only: each command touches at
// most kMaxRange members, so none holds the server for more than about a millisecond.
class PoolSummaryReader {
public:
    static constexpr int kMaxRange = 1000;
    static QList<double> defaultFractions() { return {0.0, 0.1, 0.5, 0.9, 1.0}; }

    PoolSummaryReader(RedisConnection &connection, const PoolKeys &keys);

    // Two round trips: ZCARD + HLEN, then one pipeline of rank reads and ZMSCOREs.
    PoolSummary read(int topBottomCount, const QList<QByteArray> &pinned,
                     const QList<double> &fractions = defaultFractions());
    // Members at ranks [fromRank, fromRank + count), count capped at kMaxRange.
    QList<RankedMember> rows(qint64 fromRank, int count);

private:
    RedisConnection &m_connection;
    PoolKeys m_keys;
};

// A full pass over a big pool, a few small ZSCAN pages at a time, for totals that need every
// member (sum of counts, Jain's index). Call step() from the poller: at 10 pages of ~100 members
// a second, a pass over 1M members takes about 17 minutes and costs the server ~2 ms a second.
class IncrementalPoolScan {
public:
    struct Totals {
        qint64 members = 0;
        double sum = 0;
        double sumOfSquares = 0;
        double jainIndex() const;
    };

    // Reads up to maxPages pages of ZSCAN COUNT PoolOperations::kScanCount. Returns true when a
    // pass just completed.
    bool step(RedisConnection &connection, const QByteArray &poolKey, int maxPages);
    // Totals of the last completed pass; nullopt before the first one.
    std::optional<Totals> lastCompleted() const { return m_completed; }
    qint64 passesCompleted() const { return m_passes; }
    qint64 membersSeenThisPass() const { return m_current.members; }
    void reset();

private:
    QByteArray m_cursor = "0";
    Totals m_current;
    std::optional<Totals> m_completed;
    qint64 m_passes = 0;
};

} // namespace poolscope
