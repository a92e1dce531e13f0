// The guard and failover rules firing and resolving against real servers, through the facts
// conversion the dashboard's session uses (AlertWatch): a real HealthGuard held back at its cap
// when the target goes down and no longer when it is back, its lease released and taken again;
// a Sentinel failover (SENTINEL FAILOVER) that moves the pool to the replica.
#include "AlertWatch.h"
#include "GuardFixture.h"
#include "SentinelTopology.h"

#include "health/HealthGuard.h"

#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

using Kind = AlertTransition::Kind;

AlertRule quick(AlertKind kind, qint64 forMs, qint64 keepFiringMs) {
    AlertRule rule = AlertRule::defaults(kind);
    rule.forMs = forMs;
    rule.keepFiringMs = keepFiringMs;
    return rule;
}

constexpr AlertFactsBuilder::Options kOptions{1000, 4000, 5};

} // namespace

#define WAIT_FOR(watch, rule, kind, timeoutMs)                                                     \
    QTRY_VERIFY2_WITH_TIMEOUT((watch).saw(QStringLiteral(rule), kind), qPrintable((watch).log()),  \
                              timeoutMs)

class TestAlertGuard : public QObject, GuardFixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QString error;
        QVERIFY2(startServers(&error), qPrintable(error));
    }
    void cleanupTestCase() { stopServers(); }

    void guardCappedAndLeaseLost() {
        const QByteArray key = "guarded";
        QList<QByteArray> members;
        for (int i = 0; i < 10; ++i)
            members << proxyMember(i);
        m_redis.makePool(key, members, 0);
        AlertWatch watch(
            m_redis.endpoint(), key,
            {{quick(AlertKind::GuardCapped, 0, 300), quick(AlertKind::GuardLeaseLost, 300, 300)}},
            kOptions);
        watch.watchGuard(m_redis.connect());
        QTRY_VERIFY_WITH_TIMEOUT(watch.facts().guard.has_value(), 10000);
        QVERIFY(!watch.facts().guard->seen); // no guard yet: both rules quiet

        auto connection = m_redis.connect();
        GuardOptions options = guardOptions();
        options.fall = 1;
        options.rise = 100; // nothing comes back during the test
        options.maxEvictedPercent = 30;
        HealthGuard guard(*connection, key, options);
        guard.runRound(); // the target is up: the guard holds its lease, nothing to do
        QTRY_VERIFY_WITH_TIMEOUT(watch.facts().guard->leaseHeld, 10000);

        m_target->stop(); // every member fails: 3 evicted, the other 7 held back by the cap
        guard.runRound();
        WAIT_FOR(watch, "guard-capped", Kind::Fired, 10000);
        QVERIFY2(watch.transitions().constLast().check.message.contains(QStringLiteral("cap")),
                 qPrintable(watch.log()));
        m_target->start();
        guard.runRound(); // back: nothing held back, "uncapped" in the stream
        WAIT_FOR(watch, "guard-capped", Kind::Resolved, 10000);

        guard.releaseLease(); // a guard that stopped: nobody on duty
        WAIT_FOR(watch, "guard-lease-lost", Kind::Fired, 10000);
        guard.runRound();
        WAIT_FOR(watch, "guard-lease-lost", Kind::Resolved, 10000);
        guard.releaseLease();
        QCOMPARE(watch.count(QStringLiteral("guard-capped"), Kind::Fired), 1);
        QCOMPARE(watch.count(QStringLiteral("guard-lease-lost"), Kind::Fired), 1);
    }

    // The sentinels move the primary to the replica: the poller follows, and the failover rule
    // reports the move for its recentSeconds.
    void sentinelFailover() {
        SentinelTopology topology;
        QVERIFY2(topology.start(), qPrintable(topology.error()));
        QTRY_VERIFY_WITH_TIMEOUT(topology.replicaHealthy(1), 30000);
        {
            const auto primary = RedisConnection::open(topology.endpoint());
            primary->commandOrThrow({"ZADD", "sentinel:pool", "0", "m0", "0", "m1"});
            primary->commandOrThrow({"WAIT", "1", "2000"}); // on the replica too
        }
        AlertRule failover = quick(AlertKind::Failover, 0, 0);
        failover.parameters[QStringLiteral("recentSeconds")] = 2;
        AlertWatch watch(topology.endpoint(), "sentinel:pool",
                         {{failover, quick(AlertKind::PoolEmpty, 0, 0)}}, kOptions);
        QTRY_VERIFY_WITH_TIMEOUT(watch.polls() >= 2, 10000);
        const QString before = QStringLiteral("127.0.0.1:%1").arg(topology.serverPort(0));
        const RedisReply reply =
            topology.sentinel(0)->command({"SENTINEL", "FAILOVER", SentinelTopology::kMasterName});
        QVERIFY2(!reply.isError(), reply.text.constData());
        WAIT_FOR(watch, "failover", Kind::Fired, 30000);
        const AlertFacts facts = watch.facts();
        QCOMPARE(facts.lastFailover->from, before);
        QCOMPARE(facts.lastFailover->to,
                 QStringLiteral("127.0.0.1:%1").arg(topology.serverPort(1)));
        WAIT_FOR(watch, "failover", Kind::Resolved, 10000);
        // The pool came along (replicated): it never looked empty.
        QVERIFY2(!watch.saw(QStringLiteral("pool-empty"), Kind::Fired), qPrintable(watch.log()));
    }
};

QTEST_GUILESS_MAIN(TestAlertGuard)
#include "tst_alertguard.moc"
