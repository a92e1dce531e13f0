// What a failover took back from a load run: the pool's counts read before and after the run,
// compared with the allocations the run saw acknowledged (private to src/load).
#pragma once

#include "client/RedisConnection.h"
#include "endpoint/Endpoint.h"

#include <QByteArray>
#include <QHash>
#include <QString>

namespace poolscope::loadrunner_detail {

// Pools bigger than this are not read whole for the loss check (it would take too long); the
// report then says the loss was not checked.
constexpr qint64 kMaxLossCheckMembers = 100000;

struct PoolCountsRead {
    QHash<QByteArray, double> counts;
    QString primary; // "host:port" of the server read
    QString error;   // non-empty: not read (too big, unreachable, not a sorted set)
    bool ok() const { return error.isEmpty(); }
};

// Reads the whole pool by rank, 1,000 members per command (the poller's bound). Opens its own
// connection, so a Sentinel endpoint is resolved to the current primary.
PoolCountsRead readPoolCounts(const Endpoint &endpoint, const ConnectionOptions &options,
                              const QByteArray &poolKey);

struct FailoverLoss {
    qint64 lost = 0;        // acknowledged allocations the pool does not have
    qint64 lostMembers = 0; // members that lost some
    double baselineSum = 0; // sum of counts before the run
    double finalSum = 0;    // sum of counts after it
};

// Per member: max(0, before + acknowledged - after). An allocation whose reply never came but
// which ran (an "unknown" that landed) can hide a loss on the same member, never create one.
FailoverLoss compareCounts(const PoolCountsRead &before, const QHash<QByteArray, qint64> &acked,
                           const PoolCountsRead &after);

} // namespace poolscope::loadrunner_detail
