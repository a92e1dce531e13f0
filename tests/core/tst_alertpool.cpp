// Each pool rule firing and resolving against a real pool on a redis-server the test starts,
// through the same facts conversion the dashboard's session uses (AlertWatch: a PoolMonitor
// feeding an AlertFactsBuilder and an AlertEngine): an emptied pool, a small one, evictions, the
// flood after a restore at zero under load, a starved member, spread and Jain, stopped workers
// and a changed rate, a killed server. Rules get short for and keep-firing times.
#include "AlertWatch.h"
#include "RedisFixture.h"

#include "load/LoadRunner.h"
#include "pool/PoolOperations.h"

#include <QtTest>

#include <memory>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

using Kind = AlertTransition::Kind;

AlertRule quick(AlertKind kind, QMap<QString, double> parameters = {}, qint64 forMs = 200,
                qint64 keepFiringMs = 300) {
    AlertRule rule = AlertRule::defaults(kind);
    rule.forMs = forMs;
    rule.keepFiringMs = keepFiringMs;
    for (auto it = parameters.cbegin(); it != parameters.cend(); ++it)
        rule.parameters[it.key()] = it.value();
    return rule;
}

// A window of 1 s for rates and shares, a baseline of 4 s before it.
constexpr AlertFactsBuilder::Options kOptions{1000, 4000, 5};

} // namespace

#define WAIT_FOR(watch, rule, kind, timeoutMs)                                                     \
    QTRY_VERIFY2_WITH_TIMEOUT((watch).saw(QStringLiteral(rule), kind), qPrintable((watch).log()),  \
                              timeoutMs)

class TestAlertPool : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;
    std::unique_ptr<LoadRunner> m_load;

    void startRedis(RedisServerOptions options = {}) {
        m_redis = std::make_unique<RedisFixture>(options);
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }
    void startLoad(const QByteArray &key, double ratePerSecond) {
        if (m_load)
            m_load->cancel();
        m_load = std::make_unique<LoadRunner>();
        LoadSpec spec;
        spec.endpoint = m_redis->endpoint();
        spec.poolKey = key;
        spec.ratePerSecond = ratePerSecond;
        spec.duration = 120s;
        QVERIFY(m_load->start(spec));
    }
    void stopLoad() {
        if (!m_load)
            return;
        QSignalSpy finished(m_load.get(), &LoadRunner::finished);
        m_load->cancel();
        QVERIFY(finished.count() == 1 || finished.wait(10000));
        m_load.reset();
    }

private Q_SLOTS:
    void cleanup() {
        m_load.reset();
        m_redis.reset();
    }

    // Fewer members, then none: "few members" fires, then "empty" at the first poll that sees
    // it (for 0) while "few" resolves (an empty pool is not a small one); seeded again, both
    // are quiet.
    void emptiedPool() {
        startRedis();
        const QList<QByteArray> members = documentationMembers(5);
        m_redis->makePool("pool", members);
        AlertWatch watch(m_redis->endpoint(), "pool",
                         {{quick(AlertKind::PoolEmpty, {}, 0),
                           quick(AlertKind::PoolSmall, {{QStringLiteral("minMembers"), 3}})}},
                         kOptions);
        QTRY_VERIFY_WITH_TIMEOUT(watch.polls() >= 3, 10000);
        QVERIFY2(watch.transitions().isEmpty(), qPrintable(watch.log()));
        m_redis->run({"ZREM", "pool", members[0], members[1], members[2]});
        WAIT_FOR(watch, "pool-small", Kind::Fired, 10000);
        QVERIFY(!watch.saw(QStringLiteral("pool-empty"), Kind::Pending)); // for 0: no pending
        m_redis->run({"DEL", "pool"});
        WAIT_FOR(watch, "pool-empty", Kind::Fired, 10000);
        WAIT_FOR(watch, "pool-small", Kind::Resolved, 10000);
        m_redis->makePool("pool", members);
        WAIT_FOR(watch, "pool-empty", Kind::Resolved, 10000);
        QCOMPARE(watch.count(QStringLiteral("pool-empty"), Kind::Fired), 1);
        QCOMPARE(watch.count(QStringLiteral("pool-small"), Kind::Fired), 1);
    }

    // Evictions through the pool's own script: 3 of 10 is 30% evicted; restored, it resolves.
    void evictedShare() {
        startRedis();
        const QList<QByteArray> members = documentationMembers(10);
        m_redis->makePool("pool", members);
        AlertWatch watch(m_redis->endpoint(), "pool", {{quick(AlertKind::EvictedShare)}}, kOptions);
        PoolOperations pool(m_redis->admin(), "pool");
        pool.evict(members[0]);
        pool.evict(members[1]);
        QTRY_VERIFY_WITH_TIMEOUT(watch.facts().evicted == 2, 10000);
        pool.evict(members[2]);
        WAIT_FOR(watch, "evicted-share", Kind::Fired, 10000);
        QCOMPARE(watch.transitions().constLast().check.value, std::optional(30.0));
        pool.restore(members[2], RestorePolicy::Min);
        WAIT_FOR(watch, "evicted-share", Kind::Resolved, 10000);
    }

    // The flood after a restore at count 0 under load: the restored member takes every
    // allocation until it has caught up, then the shares even out. One alert, fired and resolved.
    void floodAfterRestoreAtZero() {
        startRedis();
        const QList<QByteArray> members = documentationMembers(5);
        m_redis->makePool("pool", members, 600);
        PoolOperations pool(m_redis->admin(), "pool");
        pool.evict(members[0]);
        AlertWatch watch(m_redis->endpoint(), "pool", {{quick(AlertKind::MemberFlood)}}, kOptions);
        startLoad("pool", 400);
        QTRY_VERIFY_WITH_TIMEOUT(watch.facts().windowAllocations > 100, 10000);
        QVERIFY2(watch.transitions().isEmpty(), qPrintable(watch.log()));
        pool.restore(members[0], RestorePolicy::Zero);
        WAIT_FOR(watch, "member-flood", Kind::Fired, 10000);
        QCOMPARE(watch.transitions().constLast().check.member, members[0]);
        WAIT_FOR(watch, "member-flood", Kind::Resolved, 20000);
        QCOMPARE(watch.count(QStringLiteral("member-flood"), Kind::Fired), 1);
        stopLoad();
    }

    // A member far above the others gets nothing while the pool allocates; brought down to the
    // others' level, it is allocated again.
    void starvedMember() {
        startRedis();
        m_redis->makePool("pool", {"m0", "m1", "m2"});
        m_redis->run({"ZADD", "pool", "1000000", "high"});
        AlertWatch watch(
            m_redis->endpoint(), "pool",
            {{quick(AlertKind::MemberStarved, {{QStringLiteral("idleSeconds"), 0.5}})}}, kOptions);
        startLoad("pool", 300);
        WAIT_FOR(watch, "member-starved", Kind::Fired, 10000);
        QCOMPARE(watch.transitions().constLast().check.member, QByteArray("high"));
        // At the others' lowest count it joins their rotation (at 0 it would flood, and starve
        // them in turn).
        const RedisReply lowest = m_redis->run({"ZRANGE", "pool", "0", "0", "WITHSCORES"});
        m_redis->run({"ZADD", "pool", lowest.elements.value(1).text, "high"});
        WAIT_FOR(watch, "member-starved", Kind::Resolved, 10000);
        stopLoad();
    }

    void spreadAndJain() {
        startRedis();
        m_redis->makePool("pool", {"m0", "m1", "m2"});
        AlertWatch watch(m_redis->endpoint(), "pool",
                         {{quick(AlertKind::SpreadHigh), quick(AlertKind::JainLow)}}, kOptions);
        QTRY_VERIFY_WITH_TIMEOUT(watch.polls() >= 2, 10000);
        m_redis->run({"ZADD", "pool", "5000", "m3"}); // spread 5000, Jain 0.25
        WAIT_FOR(watch, "spread-high", Kind::Fired, 10000);
        WAIT_FOR(watch, "jain-low", Kind::Fired, 10000);
        m_redis->run({"ZADD", "pool", "5000", "m0", "5000", "m1", "5000", "m2"});
        WAIT_FOR(watch, "spread-high", Kind::Resolved, 10000);
        WAIT_FOR(watch, "jain-low", Kind::Resolved, 10000);
    }

    // Workers at 100/s for a baseline, then at 1000/s (ten times: the rate changed), then
    // stopped (workers stopped; the changed rate resolves), then back.
    void workersStoppedAndRateChanged() {
        startRedis();
        m_redis->makePool("pool", documentationMembers(5));
        AlertWatch watch(m_redis->endpoint(), "pool",
                         {{quick(AlertKind::WorkersStopped, {}, 300),
                           quick(AlertKind::RateChanged, {{QStringLiteral("factor"), 3}})}},
                         kOptions);
        startLoad("pool", 100);
        QTRY_VERIFY_WITH_TIMEOUT(watch.facts().baselineRate.has_value(), 20000);
        QVERIFY2(watch.transitions().isEmpty(), qPrintable(watch.log()));
        startLoad("pool", 1000);
        WAIT_FOR(watch, "rate-changed", Kind::Fired, 10000);
        stopLoad();
        WAIT_FOR(watch, "workers-stopped", Kind::Fired, 10000);
        WAIT_FOR(watch, "rate-changed", Kind::Resolved, 10000);
        startLoad("pool", 100);
        WAIT_FOR(watch, "workers-stopped", Kind::Resolved, 10000);
        stopLoad();
    }

    // kill -9 of the server by PID: unreachable after its for; restarted, it resolves.
    void killedServer() {
        RedisServerOptions options;
        options.useTcp = true; // restarted on the same port
        startRedis(options);
        m_redis->makePool("pool", documentationMembers(3));
        AlertWatch watch(m_redis->endpoint(), "pool", {{quick(AlertKind::Unreachable, {}, 500)}},
                         kOptions);
        QTRY_VERIFY_WITH_TIMEOUT(watch.polls() >= 2, 10000);
        m_redis->server().killHard();
        WAIT_FOR(watch, "unreachable", Kind::Fired, 10000);
        QCOMPARE_GE(watch.transitions().constLast().check.value, 0.5);
        QString error;
        QVERIFY2(m_redis->server().start(&error), qPrintable(error));
        WAIT_FOR(watch, "unreachable", Kind::Resolved, 20000);
        QCOMPARE(watch.count(QStringLiteral("unreachable"), Kind::Fired), 1);
    }
};

QTEST_GUILESS_MAIN(TestAlertPool)
#include "tst_alertpool.moc"
