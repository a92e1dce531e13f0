// Whose eviction it is and whose pool, against one Redis server and one set of loopback proxies
// (initTestCase): an operator's restore or evict by hand makes an eviction the operator's and the
// guard leaves it alone; the restore script itself checks the guard's mark; one guard per pool
// holds the lease, another (in-process or a CLI process) waits and takes over once it is free.
#include "GuardFixture.h"
#include "LoopbackProxies.h"
#include "RedisFixture.h"

#include "base/RedisError.h"
#include "health/HealthGuard.h"
#include "pool/PoolOperations.h"

#include <QProcess>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

class TestGuardMarks : public QObject, GuardFixture {
    Q_OBJECT

private slots:
    void initTestCase();
    void operatorsActionMakesTheEvictionTheirs();
    void restoreByGuardNeedsTheGuardsMark();
    void twoGuardsOneActs();
    void cleanupTestCase();
};

void TestGuardMarks::initTestCase() {
    QString error;
    QVERIFY2(startServers(&error), qPrintable(error));
}

void TestGuardMarks::cleanupTestCase() {
    stopServers();
}

// The guard evicts M; an operator restores and evicts M by hand: the eviction is the operator's
// now, and M stays out however well it answers. After an operator's restore, a new eviction by
// the guard is the guard's again.
void TestGuardMarks::operatorsActionMakesTheEvictionTheirs() {
    const QByteArray key = "operated";
    const QByteArray m = proxyMember(4);
    m_redis.makePool(key, {proxyMember(0), proxyMember(1), proxyMember(2), m}, 100);
    const PoolKeys keys(key);
    auto connection = m_redis.connect();
    GuardOptions options = guardOptions();
    options.fall = 1;
    options.rise = 1;
    options.maxEvictedPercent = 50;
    HealthGuard guard(*connection, key, options);
    const auto inPool = [&] { return !m_redis.run({"ZSCORE", key, m}).isNil(); };
    m_proxies[4]->setFailing(true);
    GuardRound round = guard.runRound();
    QCOMPARE(round.actions.size(), 1);
    QVERIFY(!inPool());
    QCOMPARE(m_redis.run({"HGET", keys.guardMarks(), m}).text, guard.options().guardId);

    CliRun run = runCli(cliBase(key) +
                        QStringList{"restore", QString::fromUtf8(m), "--policy", "min", "--yes"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    run = runCli(cliBase(key) + QStringList{"evict", QString::fromUtf8(m), "--yes"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(m_redis.run({"HGET", keys.guardMarks(), m}).isNil());
    m_proxies[4]->setFailing(false);
    for (int i = 0; i < 2; ++i) {
        round = guard.runRound();
        QVERIFY(round.leaseHeld);
        QVERIFY2(round.actions.isEmpty(), qPrintable(round.actions.value(0).reason));
        QVERIFY(!inPool());
    }

    // Restored by hand, then evicted by the guard: the guard's, so the guard brings it back.
    PoolOperations pool(*connection, key);
    pool.restore(m, RestorePolicy::Min);
    m_proxies[4]->setFailing(true);
    round = guard.runRound();
    QCOMPARE(round.actions.size(), 1);
    QCOMPARE(round.actions[0].kind, GuardAction::Kind::Evict);
    m_proxies[4]->setFailing(false);
    round = guard.runRound();
    QCOMPARE(round.actions.size(), 1);
    QCOMPARE(round.actions[0].kind, GuardAction::Kind::Restore);
    QVERIFY(inPool());
    QVERIFY(m_redis.run({"HGET", keys.guardMarks(), m}).isNil());
    guard.releaseLease();
}

// Whose eviction it is, is decided inside the restore script: a guard's restore of a member
// without the guard's mark (an operator evicted it after the guard read the mark) changes nothing.
void TestGuardMarks::restoreByGuardNeedsTheGuardsMark() {
    const QByteArray key = "marks";
    m_redis.makePool(key, {"127.0.0.1:1", "127.0.0.1:2"}, 7);
    auto connection = m_redis.connect();
    PoolOperations pool(*connection, key);
    pool.evict("127.0.0.1:1"); // an operator's
    try {
        pool.restore("127.0.0.1:1", RestorePolicy::Min, 0, "guard-x");
        QFAIL("a guard restored an operator's eviction");
    } catch (const RedisError &e) {
        QCOMPARE(e.kind(), RedisError::Kind::Usage);
    }
    QVERIFY(m_redis.run({"ZSCORE", key, "127.0.0.1:1"}).isNil());
    pool.evict("127.0.0.1:2", "guard-x"); // a guard's
    QCOMPARE(m_redis.run({"HGET", PoolKeys(key).guardMarks(), "127.0.0.1:2"}).text,
             QByteArray("guard-x"));
    QCOMPARE(pool.restore("127.0.0.1:2", RestorePolicy::Keep, 0, "guard-x").restoredCount, 7.0);
    QVERIFY(m_redis.run({"HGET", PoolKeys(key).guardMarks(), "127.0.0.1:2"}).isNil());
}

void TestGuardMarks::twoGuardsOneActs() {
    const QByteArray key = "leased";
    m_redis.makePool(key, {proxyMember(0), proxyMember(1)}, 0);
    auto first = m_redis.connect();
    auto second = m_redis.connect();
    HealthGuard a(*first, key, guardOptions());
    HealthGuard b(*second, key, guardOptions());
    QVERIFY(a.runRound().leaseHeld);
    const GuardRound refused = b.runRound();
    QVERIFY(!refused.leaseHeld);
    QCOMPARE(refused.leaseHolder, a.options().guardId);
    QVERIFY(refused.checks.results.isEmpty()); // a waiting guard checks nothing
    QVERIFY(a.runRound().leaseHeld);           // renewal

    // A guard process waits, says so, and takes over once the lease is free.
    QProcess cli;
    cli.start(QStringLiteral(POOLSCOPE_CLI_PATH),
              cliBase(key) + QStringList{"guard", "--target", targetUrl(), "--interval", "0.1",
                                         "--rounds", "1"});
    QVERIFY(cli.waitForStarted());
    QByteArray errors;
    QTRY_VERIFY_WITH_TIMEOUT((errors += cli.readAllStandardError()).contains("holds the lease"),
                             10000);
    QCOMPARE(cli.state(), QProcess::Running);
    a.releaseLease();
    QVERIFY(cli.waitForFinished(20000));
    QCOMPARE(cli.exitCode(), 0);
    QVERIFY(cli.readAllStandardOutput().contains("round 1: 2 members, 2 ok"));
    QVERIFY(a.holdLease()); // the process released it on exit
    a.releaseLease();
}

QTEST_GUILESS_MAIN(TestGuardMarks)
#include "tst_guardmarks.moc"
