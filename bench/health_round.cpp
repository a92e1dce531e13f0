// The guard's round over 1,000 loopback proxies: round time at concurrency 200 next to the same
// round one check at a time (what a sequential checker does), in the same run, and the guard's
// Redis cost per round (commands, and its longest command from SLOWLOG). Everything runs on this
// machine: a private redis-server, 10 HTTP proxies on 127.0.0.1 with 100 members each (members
// differ by a user name the proxies ignore), one target. One proxy in ten is made to fail, so
// round 1 evicts 100 members (fall 1) and the later rounds are steady.
// Usage: bench_health_round [rounds, default 3]
#include "LoopbackProxies.h"
#include "RedisFixture.h"

#include "health/HealthChecker.h"
#include "health/HealthGuard.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

// The longest command the guard's connection sent since the last SLOWLOG RESET (threshold 0).
std::pair<double, QByteArray> longestCommand(RedisConnection &admin, const QByteArray &name) {
    const RedisReply log = admin.commandOrThrow({"SLOWLOG", "GET", "-1"});
    long long longest = -1;
    QByteArray command;
    for (const RedisReply &entry : log.elements) {
        if (entry.elements.value(5).text != name)
            continue;
        if (entry.elements.value(2).integer > longest) {
            longest = entry.elements.value(2).integer;
            command = entry.elements.value(3).elements.value(0).text;
        }
    }
    return {double(longest) / 1000.0, command};
}

} // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
    RedisFixture redis;
    if (!redis.start()) {
        std::fprintf(stderr, "%s\n", qPrintable(redis.error()));
        return 1;
    }
    LoopbackServer::Options targetOptions;
    targetOptions.kind = LoopbackServer::Kind::HttpTarget;
    LoopbackServer target(targetOptions);
    if (!target.start()) {
        std::fprintf(stderr, "%s\n", qPrintable(target.error()));
        return 1;
    }
    std::vector<std::unique_ptr<LoopbackServer>> proxies;
    QList<QByteArray> members;
    for (int p = 0; p < 10; ++p) {
        proxies.push_back(std::make_unique<LoopbackServer>(LoopbackServer::Options{}));
        if (!proxies.back()->start()) {
            std::fprintf(stderr, "%s\n", qPrintable(proxies.back()->error()));
            return 1;
        }
        for (int i = 0; i < 100; ++i)
            members << "http://u" + QByteArray::number(p * 100 + i) +
                           "@127.0.0.1:" + QByteArray::number(proxies.back()->port());
    }
    proxies[9]->setFailing(true);
    const QByteArray key = "pool";
    redis.makePool(key, members, 0);
    redis.run({"CONFIG", "SET", "slowlog-log-slower-than", "0"});
    redis.run({"CONFIG", "SET", "slowlog-max-len", "100000"});

    GuardOptions options;
    QString error;
    options.check.target =
        *CheckTarget::parse(QStringLiteral("http://127.0.0.1:%1/").arg(target.port()), &error);
    options.check.concurrency = 200;
    options.fall = 1;
    options.maxEvictedPercent = 30;
    ConnectionOptions connectionOptions;
    connectionOptions.clientName = QStringLiteral("poolscope-guard");
    auto connection = RedisConnection::open(redis.endpoint(), connectionOptions);
    HealthGuard guard(*connection, key, options);

    std::printf("| round | members | ok | failed | evicted | round time, concurrency 200 (ms) | "
                "guard's Redis commands | guard's longest command (ms) |\n|---|---|---|---|---|"
                "---|---|---|\n");
    for (int r = 1; r <= rounds; ++r) {
        redis.run({"SLOWLOG", "RESET"});
        const GuardRound round = guard.runRound();
        const CheckCounts counts = CheckCounts::of(round.checks.results);
        const auto [longest, command] = longestCommand(redis.admin(), "poolscope-guard");
        std::printf("| %d | %lld | %lld | %lld | %lld | %lld | %lld | %.3f (%s) |\n", r,
                    round.members, counts.ok, counts.failed, round.evicted, round.checks.elapsedMs,
                    round.redisCommands, longest, command.constData());
        std::fflush(stdout);
    }
    // The reference, same proxies and target: one check at a time.
    CheckOptions sequential = options.check;
    sequential.concurrency = 1;
    const CheckRound reference = runCheckRound(members, sequential);
    std::printf("\nreference: the same %lld checks one at a time: %lld ms\n",
                qint64(members.size()), reference.elapsedMs);
    CheckOptions defaults = options.check;
    defaults.concurrency = 50;
    const CheckRound standard = runCheckRound(members, defaults);
    std::printf("default concurrency 50: %lld ms\n", standard.elapsedMs);
    guard.releaseLease();
    return 0;
}
