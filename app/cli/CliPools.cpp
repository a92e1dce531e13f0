// `poolscope-cli pools`: every pool on the server or cluster at a glance (HAProxy's stats page
// lists every backend the same way).
#include "CliApp.h"

#include "catalog/PoolCatalog.h"
#include "pool/PoolTypes.h"
#include "text/MemberText.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace poolscope::cli {
namespace {

QString rateText(const PoolOverview &pool) {
    if (!pool.allocationRate)
        return QStringLiteral("-");
    return (pool.rateEstimated ? QStringLiteral("~") : QString()) +
           QString::number(*pool.allocationRate, 'f', 1);
}

} // namespace

int Cli::pools(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("pools takes no arguments (it lists every pool; --key is not used)");
    const int intervalMs = wholeOption(QStringLiteral("interval"), 1000, 0, 60000);
    RedisConnection &redis = connection();
    const auto firstReadAt = std::chrono::steady_clock::now();
    // A cluster primary that hangs or is down is named; the others' pools are still listed.
    QList<UnreadNode> unread;
    QList<PoolOverview> pools = PoolCatalog::read(redis, PoolCatalog::kMaxKeys, &unread);
    if (intervalMs > 0) {
        const QList<PoolOverview> before = pools;
        std::this_thread::sleep_for(std::chrono::milliseconds(intervalMs));
        const auto secondReadAt = std::chrono::steady_clock::now();
        QList<UnreadNode> unreadAgain;
        pools = PoolCatalog::read(redis, PoolCatalog::kMaxKeys, &unreadAgain);
        for (const UnreadNode &node : unreadAgain) {
            const bool known =
                std::any_of(unread.cbegin(), unread.cend(),
                            [&node](const UnreadNode &n) { return n.node == node.node; });
            if (!known)
                unread.append(node);
        }
        PoolCatalog::addRates(pools, before,
                              std::chrono::duration<double>(secondReadAt - firstReadAt).count());
    }
    for (const UnreadNode &node : unread)
        m_err << "poolscope-cli: cluster node " << node.node
              << " could not be read, its pools are not listed: " << node.message << '\n';
    const int exitCode = unread.isEmpty() ? kExitOk : kExitFailure;
    if (m_json) {
        QJsonArray rows;
        for (const PoolOverview &pool : pools) {
            QJsonObject row{{QStringLiteral("key"), memberText(pool.key)},
                            {QStringLiteral("node"), pool.node},
                            {QStringLiteral("size"), pool.size},
                            {QStringLiteral("min"), pool.minimum},
                            {QStringLiteral("median"), pool.median},
                            {QStringLiteral("max"), pool.maximum},
                            {QStringLiteral("spread"), pool.spread()},
                            {QStringLiteral("evicted"), pool.evicted}};
            if (pool.allocationRate) {
                row.insert(QStringLiteral("rate_per_s"), *pool.allocationRate);
                row.insert(QStringLiteral("rate_estimated"), pool.rateEstimated);
            }
            rows.append(row);
        }
        QJsonArray unreadRows;
        for (const UnreadNode &node : unread)
            unreadRows.append(QJsonObject{{QStringLiteral("node"), node.node},
                                          {QStringLiteral("error"), node.message}});
        QJsonObject object{{QStringLiteral("pools"), rows}};
        if (!unreadRows.isEmpty())
            object.insert(QStringLiteral("unread_nodes"), unreadRows);
        printJson(object);
        return exitCode;
    }
    if (pools.isEmpty()) {
        m_out << "no pools found (no sorted set with whole, non-negative counts)\n";
        return exitCode;
    }
    m_out << "KEY\tNODE\tSIZE\tMIN\tMEDIAN\tMAX\tSPREAD\tEVICTED\tALLOC/S\n";
    for (const PoolOverview &pool : pools)
        m_out << memberText(pool.key) << '\t' << pool.node << '\t' << pool.size << '\t'
              << formatCount(pool.minimum) << '\t' << formatCount(pool.median) << '\t'
              << formatCount(pool.maximum) << '\t' << formatCount(pool.spread()) << '\t'
              << pool.evicted << '\t' << rateText(pool) << '\n';
    return exitCode;
}

} // namespace poolscope::cli
