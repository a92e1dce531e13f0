// Fuzzes the path a pool read takes: raw RESP bytes -> hiredis's reader (parseRespReplies) ->
// RedisReply -> members (ZRANGE WITHSCORES) and scan pages (ZSCAN/HSCAN). Malformed input must
// end in a RedisError, never in a crash, a hang or a NaN count.
#include "base/RedisError.h"
#include "pool/ReplyConversion.h"
#include "redis/RespParser.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>

using namespace poolscope;

namespace {

void check(bool condition, const char *what) {
    if (condition)
        return;
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
}

void convert(const RedisReply &reply) {
    // Cheap calls every caller makes on any reply.
    (void)reply.errorCode();
    (void)reply.toDisplayString();
    try {
        const QList<PoolMember> members = membersFromRangeReply(reply);
        check(reply.isArray() && members.size() * 2 == reply.elements.size(),
              "a member per name/count pair");
        for (qsizetype i = 0; i < members.size(); ++i) {
            check(!std::isnan(members[i].count), "no NaN count");
            check(members[i].member == reply.elements[2 * i].text, "members keep the reply order");
        }
    } catch (const RedisError &error) {
        check(error.kind() == RedisError::Kind::Server && !error.message().isEmpty(),
              "conversion errors are server errors with a message");
    }
    try {
        QByteArray cursor = "unchanged";
        const auto pairs = scanPageFromReply(reply, &cursor);
        check(cursor != "unchanged", "a page sets the cursor");
        QHash<QByteArray, double> seen; // what readEvicted/readMembers fold the pages into
        for (const auto &[member, count] : pairs) {
            check(!std::isnan(count), "no NaN count");
            seen.insert(member, count);
        }
        check(seen.size() <= pairs.size(), "folding never adds members");
    } catch (const RedisError &error) {
        check(error.kind() == RedisError::Kind::Server && !error.message().isEmpty(),
              "conversion errors are server errors with a message");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    RespLimits limits;
    limits.maxReplies = 100'000; // keeps each input's memory small for the fuzzer
    QList<RedisReply> replies;
    try {
        replies = parseRespReplies(bytes, limits);
    } catch (const RedisError &error) {
        check(error.kind() == RedisError::Kind::Connection && !error.message().isEmpty(),
              "protocol errors are connection errors with a message");
        return 0;
    }
    for (const RedisReply &reply : replies)
        convert(reply);
    return 0;
}
