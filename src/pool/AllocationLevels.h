#pragma once

#include "client/RedisConnection.h"
#include "pool/PoolKeys.h"

#include <optional>

#include <QList>

namespace poolscope {

// The allocations of a pool too big to sum, from a few bounded reads per poll.
//
// The sum of the counts is the sum over whole numbers x of N(x), the members whose count is at
// least x. One allocation raises one member from c to c + 1, so exactly one N(x) (the x in
// (c, c + 1]) goes up by one. Least-used allocation only ever takes the lowest member: between
// two polls only N(x) for x from the first poll's minimum to the second's minimum + 1 can change.
// Reading N(x) for the kLevels whole numbers above the minimum (one ZCOUNT each, O(log N)) gives
// the exact number of allocations between two polls, as long as the minimum rose by fewer than
// kLevels and no member came or went.
struct AllocationLevels {
    static constexpr int kLevels = 32;

    qint64 size = 0;
    qint64 base = 0;       // floor of the lowest count
    QList<qint64> atLeast; // atLeast[j] = members with count >= base + 1 + j
    bool valid() const { return atLeast.size() == kLevels; }

    // One pipeline of kLevels ZCOUNTs. minimum: the lowest count just read. Throws RedisError.
    static AllocationLevels read(RedisConnection &connection, const PoolKeys &keys, qint64 size,
                                 double minimum);
    // The same, for a pipeline of one's own: the commands, then their replies (in order).
    static QList<RedisCommand> commands(const QByteArray &poolKey, double minimum);
    // Invalid (valid() false) when a reply is an error.
    static AllocationLevels fromReplies(qint64 size, double minimum,
                                        const QList<RedisReply> &replies);
};

// Allocations between two readings; nullopt when they cannot be told apart from other writes (the
// size changed, a count went down) or the minimum rose past the levels read.
std::optional<double> allocationsBetween(const AllocationLevels &before,
                                         const AllocationLevels &after);

} // namespace poolscope
