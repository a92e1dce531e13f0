#pragma once

#include "redis/RedisReply.h"

#include <QByteArrayView>
#include <QList>

struct redisReply; // hiredis stays out of our headers

namespace poolscope {

// Bounds for parsing untrusted RESP: hiredis allocates an array's element slots as soon as it
// reads the header, so "*2000000000\r\n" alone would ask for 16 GB.
struct RespLimits {
    int maxDepth = 7; // nested arrays; a pool reply needs 2 (a scan page)
    // Reply objects in the whole buffer, nested ones included; arrays count their declared size.
    qsizetype maxReplies = 1'000'000;
};

// Parses a buffer holding complete RESP2 replies (bytes as a server sends them) into replies,
// using hiredis's reader. Throws RedisError(Kind::Connection) with a clear message on a protocol
// error, on trailing bytes that do not form a complete reply, and when a limit is exceeded.
QList<RedisReply> parseRespReplies(QByteArrayView bytes, const RespLimits &limits = {});

namespace detail {
// Deep copy out of hiredis; shared with NodeConnection so both paths convert the same way.
RedisReply copyHiredisReply(const redisReply &reply);
} // namespace detail

} // namespace poolscope
