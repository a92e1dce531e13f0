#pragma once

#include "pool/PoolTypes.h"
#include "redis/RedisReply.h"

#include <utility>

#include <QByteArray>
#include <QList>

namespace poolscope {

// Pure conversions from the replies a pool read gets to pool data. Kept apart from
// PoolOperations so that they can be unit-tested and fuzzed without a server. Each throws
// RedisError(Kind::Server) with a message saying what was wrong when the reply is malformed
// (wrong type, odd element count, a count that is not a number); callers turn error replies
// into their own, more precise messages before calling these.

// A member's count as Redis sends it (a string, or an integer from a script). Infinite counts
// pass (a sorted set may hold +inf/-inf); NaN and text do not.
double countFromReply(const RedisReply &reply, const QByteArray &member);

// ZRANGE ... WITHSCORES: [member, score, member, score, ...], kept in the reply's order.
QList<PoolMember> membersFromRangeReply(const RedisReply &reply);

// One ZSCAN or HSCAN page: [cursor, [field, value, field, value, ...]]. Sets *cursor to the
// cursor for the next call ("0" when the scan is complete); pairs come in the reply's order.
QList<std::pair<QByteArray, double>> scanPageFromReply(const RedisReply &reply, QByteArray *cursor);
// The same page appended to *members (a whole read of a pool, without a list per page).
void appendScanPage(const RedisReply &reply, QByteArray *cursor, QList<PoolMember> *members);

} // namespace poolscope
