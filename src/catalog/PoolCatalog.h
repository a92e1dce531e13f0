#pragma once

#include "base/RedisError.h"
#include "client/RedisConnection.h"
#include "pool/AllocationLevels.h"

#include <optional>

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

namespace poolscope {

// One sorted set that looks like a pool, as the Pools panel and `poolscope-cli pools` show it.
struct PoolOverview {
    QByteArray key;
    QString node; // "host:port" of the primary holding it (or the server / socket)
    qint64 size = 0;
    double minimum = 0;
    double median = 0;
    double maximum = 0;
    qint64 evicted = 0; // members in the companion hash
    // Pools of up to PoolCatalog::kExactSumLimit members: the sum of their counts and Jain's
    // fairness index, from the one whole read. Bigger pools: nullopt (not read whole).
    std::optional<double> countSum;
    std::optional<double> jainIndex;
    // Bigger pools: the counts of members at the levels above the minimum, whose change between
    // two readings is the exact number of allocations (AllocationLevels).
    AllocationLevels levels;
    // Allocations per second between two readings; estimated (size x rise of the median) only
    // when neither the sums nor the levels tell them (other writes in between).
    std::optional<double> allocationRate;
    bool rateEstimated = false;

    double spread() const { return maximum - minimum; }
};

// A cluster primary the catalog could not read (hung, down, refused): named, with why.
struct UnreadNode {
    QString node; // "host:port"
    RedisError::Kind kind = RedisError::Kind::Connection;
    QString message;
};

// Finds every pool on a server or on every primary of a cluster, reading each with the bounded
// commands the poller uses: SCAN (TYPE zset, one cursor per primary), ZCARD, and single ranks
// by ZRANGE for min, median and max (O(log N) at any size); the full ZRANGE only for pools of
// up to kExactSumLimit members. Never a whole big pool in one command.
class PoolCatalog {
public:
    static constexpr int kMaxKeys = 1000;
    static constexpr int kExactSumLimit = 1000;

    // Sorted by key. A sorted set "looks like a pool" when its scores are whole numbers >= 0
    // (allocation counts). Each pool is read through the connection's routing, so a pool whose
    // slot is migrating (found by SCAN on the importing node, or its companion already moved) is
    // still read, by ASK. Throws RedisError; with `unread`, a cluster primary that cannot be read
    // is listed there instead and the others' pools are returned.
    static QList<PoolOverview> read(RedisConnection &connection, int maxKeys = kMaxKeys,
                                    QList<UnreadNode> *unread = nullptr);
    // The same reading of the keys named (pools pinned by name, which a scan may not reach):
    // those that hold a pool now, in the order given. Throws RedisError.
    static QList<PoolOverview> readKeys(RedisConnection &connection, const QList<QByteArray> &keys);
    // Fills allocationRate from a reading taken `seconds` earlier.
    static void addRates(QList<PoolOverview> &now, const QList<PoolOverview> &before,
                         double seconds);
};

} // namespace poolscope

Q_DECLARE_METATYPE(poolscope::PoolOverview)
