#include "pool/AllocationLevels.h"

#include "base/RedisError.h"

#include <cmath>

namespace poolscope {

QList<RedisCommand> AllocationLevels::commands(const QByteArray &poolKey, double minimum) {
    const auto base = static_cast<qint64>(std::floor(minimum));
    QList<RedisCommand> commands;
    for (int j = 0; j < kLevels; ++j)
        commands.append({"ZCOUNT", poolKey, QByteArray::number(base + 1 + j), "+inf"});
    return commands;
}

AllocationLevels AllocationLevels::fromReplies(qint64 size, double minimum,
                                               const QList<RedisReply> &replies) {
    AllocationLevels levels;
    levels.size = size;
    levels.base = static_cast<qint64>(std::floor(minimum));
    for (const RedisReply &reply : replies) {
        if (reply.isError())
            return {};
        levels.atLeast.append(reply.integer);
    }
    return levels;
}

AllocationLevels AllocationLevels::read(RedisConnection &connection, const PoolKeys &keys,
                                        qint64 size, double minimum) {
    if (size == 0)
        return {};
    const QList<RedisReply> replies = connection.pipeline(commands(keys.pool(), minimum));
    for (const RedisReply &reply : replies)
        if (reply.isError())
            throw RedisError(
                RedisError::Kind::Server,
                QStringLiteral("counting the levels of pool \"%1\" failed: %2")
                    .arg(QString::fromUtf8(keys.pool()), QString::fromUtf8(reply.text)),
                reply.errorCode());
    return fromReplies(size, minimum, replies);
}
std::optional<double> allocationsBetween(const AllocationLevels &before,
                                         const AllocationLevels &after) {
    if (!before.valid() || !after.valid() || before.size != after.size ||
        after.base < before.base || after.base + 1 > before.base + AllocationLevels::kLevels)
        return std::nullopt;
    // N(x) at or below the minimum is the whole pool.
    const auto at = [](const AllocationLevels &levels, qint64 x) {
        return x <= levels.base ? levels.size : levels.atLeast[x - levels.base - 1];
    };
    double total = 0;
    for (qint64 x = before.base + 1; x <= before.base + AllocationLevels::kLevels; ++x)
        total += double(at(after, x) - at(before, x));
    if (total < 0)
        return std::nullopt; // a count went down: a write, not allocations
    return total;
}

} // namespace poolscope
