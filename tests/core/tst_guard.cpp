// The check command and the guard against one Redis server and one set of loopback proxies
// (initTestCase): results recorded but the pool untouched; evict after `fall`, restore after
// `rise` without a flood under a 4-worker load; the cap when the target is down; kill -9
// mid-round leaves every member whole. Whose eviction it is (the guard's marks) and one guard per
// pool are in tst_guardmarks.cpp.
#include "GuardFixture.h"
#include "LoopbackProxies.h"
#include "RedisFixture.h"

#include "audit/AuditTrail.h"
#include "base/BrokenPipe.h"
#include "base/RedisError.h"
#include "health/HealthGuard.h"
#include "health/HealthStore.h"
#include "load/LoadRunner.h"
#include "pool/PoolOperations.h"
#include "topology/HashSlot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QtTest>

#include <csignal>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

class TestGuard : public QObject, GuardFixture {
    Q_OBJECT

private slots:
    void initTestCase();
    void checkRecordsAndChangesNothing();
    void evictsAfterFallRestoresAfterRiseWithoutFlood();
    void targetDownEvictsNoMoreThanCap();
    void smallPoolCapAllowsOneEviction();
    void heldBackIsOneEventUntilItEnds();
    void checkNewEvictsNewMembersOnFirstFailure();
    void recordsOfRemovedMembersArePruned();
    void killNineMidRoundLeavesNoMemberHalfMoved();
    void signalStopsGuardAndReleasesLease_data();
    void signalStopsGuardAndReleasesLease();
    void stopMidRoundIsNotAnotherGuard_data();
    void stopMidRoundIsNotAnotherGuard();
    void guardOutlivesServerRestart();
    void cleanupTestCase();
};

void TestGuard::initTestCase() {
    QString error;
    QVERIFY2(startServers(&error), qPrintable(error));
}

void TestGuard::cleanupTestCase() {
    stopServers();
}

void TestGuard::checkRecordsAndChangesNothing() {
    const QByteArray key = "checkpool";
    const QByteArray withCredentials =
        "http://alice:topsecret@127.0.0.1:" + QByteArray::number(m_closedPort);
    m_redis.makePool(key, {proxyMember(0), proxyMember(1), withCredentials, "192.0.2.1:8080"}, 5);
    const RedisReply before = m_redis.run({"ZRANGE", key, "0", "-1", "WITHSCORES"});

    CliRun run = runCli(cliBase(key) + QStringList{"--json", "check", "--all", "--target",
                                                   targetUrl(), "--proxy-timeout", "500"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(!run.out.contains("topsecret"), run.out.constData());
    const QJsonObject report = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(report.value("ok").toInt(), 2);
    QCOMPARE(report.value("failed").toInt(), 1);
    QCOMPARE(report.value("not_checkable").toInt(), 1);
    QHash<QString, QString> results;
    for (const QJsonValue &row : report.value("results").toArray())
        results.insert(row["member"].toString(), row["result"].toString());
    QCOMPARE(results.value("http://alice:****~53336a@127.0.0.1:" + QString::number(m_closedPort)),
             QStringLiteral("refused"));
    QCOMPARE(results.value("192.0.2.1:8080"), QStringLiteral("not-checkable"));

    // The pool is untouched; the health hash has one record per member.
    const RedisReply after = m_redis.run({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    QCOMPARE(after.elements.size(), before.elements.size());
    for (qsizetype i = 0; i < after.elements.size(); ++i)
        QCOMPARE(after.elements[i].text, before.elements[i].text);
    QCOMPARE(m_redis.run({"HLEN", PoolKeys(key).evicted()}).integer, 0);
    const PoolKeys keys(key);
    QCOMPARE(topology::hashSlot(keys.health()), topology::hashSlot(key));
    QCOMPARE(m_redis.run({"HLEN", keys.health()}).integer, 4);
    const auto record =
        HealthRecord::fromJson(m_redis.run({"HGET", keys.health(), withCredentials}).text);
    QVERIFY(record);
    QCOMPARE(record->outcome, QStringLiteral("refused"));
    QCOMPARE(record->failures, 1);
    QVERIFY(!m_redis.run({"HGET", keys.health(), withCredentials}).text.contains("topsecret"));

    // A second round carries the counts on; the table form shows the same.
    run = runCli(cliBase(key) +
                 QStringList{"check", proxyMember(0), withCredentials, "--target", targetUrl()});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.contains("refused"));
    QVERIFY(!run.out.contains("topsecret"));
    QCOMPARE(HealthRecord::fromJson(m_redis.run({"HGET", keys.health(), withCredentials}).text)
                 ->failures,
             2);
    QCOMPARE(HealthRecord::fromJson(m_redis.run({"HGET", keys.health(), proxyMember(0)}).text)
                 ->successes,
             2);

    // Unknown members are refused by name, nothing checked.
    run = runCli(cliBase(key) + QStringList{"check", "127.0.0.1:1", "--target", targetUrl()});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("127.0.0.1:1"));
}

void TestGuard::evictsAfterFallRestoresAfterRiseWithoutFlood() {
    const QByteArray key = "guarded";
    QList<QByteArray> members;
    for (int i = 0; i < 8; ++i)
        members << proxyMember(i);
    // Counts well above zero, as in a pool that has run for a while: a restore at zero would
    // hand the member every allocation until it caught up (the flood).
    m_redis.makePool(key, members, 10000);
    const QByteArray failing = proxyMember(3);

    LoadSpec load;
    load.endpoint = m_redis.endpoint();
    load.poolKey = key;
    load.workers = 4;
    load.duration = 120s;
    load.ratePerSecond = 4000;
    LoadRunner runner;
    QSignalSpy finished(&runner, &LoadRunner::finished);
    QVERIFY(runner.start(load));

    auto connection = m_redis.connect();
    HealthGuard guard(*connection, key, guardOptions());
    const auto inPool = [&](const QByteArray &member) {
        return !m_redis.run({"ZSCORE", key, member}).isNil();
    };
    QVERIFY(guard.runRound().leaseHeld);
    m_proxies[3]->setFailing(true);
    GuardRound round = guard.runRound();
    QVERIFY(round.actions.isEmpty()); // one failure: fall is 2
    QVERIFY(inPool(failing));
    round = guard.runRound();
    QCOMPARE(round.actions.size(), 1);
    QCOMPARE(round.actions[0].kind, GuardAction::Kind::Evict);
    QCOMPARE(round.actions[0].member, failing);
    QVERIFY(!inPool(failing));
    QVERIFY(!m_redis.run({"HGET", PoolKeys(key).evicted(), failing}).isNil());

    m_proxies[3]->setFailing(false);
    round = guard.runRound(); // checked while evicted: one success, rise is 2
    QVERIFY(round.actions.isEmpty());
    QVERIFY(!inPool(failing));
    round = guard.runRound();
    QCOMPARE(round.actions.size(), 1);
    QCOMPARE(round.actions[0].kind, GuardAction::Kind::Restore);
    QVERIFY(inPool(failing));

    // Both actions in the pool's audit trail, written by the scripts that did them, oldest
    // first: the guard as the actor, its checks as the reason, the counts and the policy.
    AuditTrail trail(*connection, PoolKeys(key));
    const QList<AuditEntry> events = trail.after({}, 10);
    QCOMPARE(events.size(), 2);
    QCOMPARE(events[0].action, AuditAction::Evict);
    QVERIFY2(events[0].reason.contains(u"2 consecutive failed checks"),
             qPrintable(events[0].reason));
    QCOMPARE(events[1].action, AuditAction::Restore);
    QCOMPARE(events[1].policy, restorePolicyName(guard.options().restorePolicy));
    QVERIFY2(events[1].reason.contains(u"2 consecutive successful checks"),
             qPrintable(events[1].reason));
    for (const AuditEntry &event : events) {
        QCOMPARE(event.guardId, QString::fromUtf8(guard.options().guardId));
        QCOMPARE(event.members.size(), 1);
        QCOMPARE(event.members[0].member, QString::fromUtf8(failing));
        QCOMPARE(event.actor.pid, QCoreApplication::applicationPid());
        QCOMPARE(event.actor.user, QStringLiteral("default"));
    }
    QCOMPARE_GE(events[0].members[0].before, 10000); // it took allocations before it failed
    QCOMPARE(events[1].members[0].before, events[0].members[0].after); // its saved count
    // The old stream is no longer written.
    QCOMPARE(m_redis.run({"EXISTS", PoolKeys(key).guardEvents()}).integer, 0);

    // The restored member's share of the next allocations: within 2x of fair (no flood).
    const RedisReply before = m_redis.run({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    QHash<QByteArray, double> start;
    for (qsizetype i = 0; i + 1 < before.elements.size(); i += 2)
        start.insert(before.elements[i].text, before.elements[i + 1].toDouble());
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            double total = 0;
            const RedisReply now = m_redis.run({"ZRANGE", key, "0", "-1", "WITHSCORES"});
            for (qsizetype i = 0; i + 1 < now.elements.size(); i += 2)
                total += now.elements[i + 1].toDouble() - start.value(now.elements[i].text);
            return total >= 4000;
        }(),
        20000);
    runner.cancel();
    QVERIFY(finished.wait(10000));
    const RedisReply after = m_redis.run({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    double total = 0;
    double restoredShare = 0;
    for (qsizetype i = 0; i + 1 < after.elements.size(); i += 2) {
        const double delta = after.elements[i + 1].toDouble() - start.value(after.elements[i].text);
        total += delta;
        if (after.elements[i].text == failing)
            restoredShare = delta;
    }
    restoredShare /= total;
    QVERIFY2(
        restoredShare <= 2.0 / 8 && restoredShare >= 0.5 / 8,
        qPrintable(
            QStringLiteral("restored member's share %1, fair %2").arg(restoredShare).arg(1.0 / 8)));
    guard.releaseLease();
}

void TestGuard::targetDownEvictsNoMoreThanCap() {
    const QByteArray key = "capped";
    QList<QByteArray> members;
    for (int i = 0; i < 10; ++i)
        members << proxyMember(i);
    m_redis.makePool(key, members, 0);
    auto connection = m_redis.connect();
    GuardOptions options = guardOptions();
    options.fall = 1;
    options.maxEvictedPercent = 30;
    HealthGuard guard(*connection, key, options);
    m_target->stop();
    GuardRound round = guard.runRound();
    m_target->start();
    int evictions = 0;
    bool capped = false;
    for (const GuardAction &action : round.actions) {
        evictions += action.kind == GuardAction::Kind::Evict;
        if (action.kind == GuardAction::Kind::Capped) {
            capped = true;
            QVERIFY2(action.reason.contains(u"the target or the network looks down"),
                     qPrintable(action.reason));
        }
    }
    QCOMPARE(evictions, 3);
    QVERIFY(capped);
    QCOMPARE(m_redis.run({"ZCARD", key}).integer, 7);
    QCOMPARE(m_redis.run({"HLEN", PoolKeys(key).evicted()}).integer, 3);
    guard.releaseLease();
}

// Rounded down, 30 % of 3 members is 0: a small pool's dead member would never go. As Envoy's
// outlier detection does, one eviction is always allowed when the percentage is above 0.
void TestGuard::smallPoolCapAllowsOneEviction() {
    const QByteArray key = "smallcap";
    m_redis.makePool(key, {proxyMember(0), proxyMember(1), proxyMember(2)}, 0);
    auto connection = m_redis.connect();
    GuardOptions options = guardOptions();
    options.fall = 1;
    options.maxEvictedPercent = 30;
    HealthGuard guard(*connection, key, options);
    m_proxies[1]->setFailing(true);
    const GuardRound round = guard.runRound();
    m_proxies[1]->setFailing(false);
    QCOMPARE(round.actions.size(), 1);
    QCOMPARE(round.actions[0].kind, GuardAction::Kind::Evict);
    QCOMPARE(round.actions[0].member, proxyMember(1));
    QCOMPARE(m_redis.run({"ZCARD", key}).integer, 2);
    guard.releaseLease();
}

// Held back round after round: the stream (and so the dashboard's markers) gets one event when
// the state starts and one when it ends, while every round still reports it.
void TestGuard::heldBackIsOneEventUntilItEnds() {
    const QByteArray key = "held-back";
    QList<QByteArray> members;
    for (int i = 0; i < 10; ++i)
        members << proxyMember(i);
    m_redis.makePool(key, members, 0);
    auto connection = m_redis.connect();
    GuardOptions options = guardOptions();
    options.fall = 1;
    options.rise = 100; // nothing comes back during the test
    options.maxEvictedPercent = 30;
    HealthGuard guard(*connection, key, options);
    const auto kinds = [&] {
        QStringList names;
        const RedisReply reply = m_redis.run({"XRANGE", PoolKeys(key).audit(), "-", "+"});
        for (const RedisReply &entry : reply.elements)
            names << AuditEntry::fromStreamEntry(entry)->actionName;
        return names;
    };
    m_target->stop();
    for (int round = 0; round < 3; ++round) {
        const GuardRound result = guard.runRound();
        QVERIFY(
            std::any_of(result.actions.cbegin(), result.actions.cend(),
                        [](const GuardAction &a) { return a.kind == GuardAction::Kind::Capped; }));
    }
    m_target->start();
    QCOMPARE(kinds().count(QStringLiteral("capped")), 1);
    QCOMPARE(kinds().count(QStringLiteral("evict")), 3);
    guard.runRound(); // the target is back: nothing more to evict, the cap holds nothing back
    QCOMPARE(kinds().count(QStringLiteral("capped")), 1);
    QCOMPARE(kinds().constLast(), QStringLiteral("uncapped"));
    guard.runRound();
    QCOMPARE(kinds().count(QStringLiteral("uncapped")), 1);
    guard.releaseLease();
}

void TestGuard::checkNewEvictsNewMembersOnFirstFailure() {
    const QByteArray key = "fresh";
    const QByteArray known = "http://known@127.0.0.1:" + QByteArray::number(m_closedPort);
    const QByteArray seeded = "http://seeded@127.0.0.1:" + QByteArray::number(m_closedPort);
    m_redis.makePool(key, {proxyMember(0), known}, 0);
    auto connection = m_redis.connect();
    GuardOptions options = guardOptions();
    options.fall = 3;
    options.maxEvictedPercent = 100;
    options.checkNew = true;
    HealthGuard guard(*connection, key, options);
    // On the guard's first round every member is new: the failing one goes at once.
    GuardRound round = guard.runRound();
    QCOMPARE(round.actions.size(), 1);
    QCOMPARE(round.actions[0].member, known);
    QVERIFY(round.actions[0].reason.contains(u"new member failed its first check"));
    // A member seeded later is checked before it takes traffic: evicted on its first failure.
    m_redis.makePool(key, {seeded}, 0);
    round = guard.runRound();
    QCOMPARE(round.actions.size(), 1);
    QCOMPARE(round.actions[0].member, seeded);
    QVERIFY(m_redis.run({"ZSCORE", key, seeded}).isNil());
    // Without --check-new a new failing member waits for `fall` failures.
    const QByteArray later = "http://later@127.0.0.1:" + QByteArray::number(m_closedPort);
    m_redis.makePool(key, {later}, 0);
    options.checkNew = false;
    HealthGuard plain(*connection, key, options);
    guard.releaseLease();
    round = plain.runRound();
    QVERIFY(round.leaseHeld);
    QVERIFY(round.actions.isEmpty());
    QVERIFY(!m_redis.run({"ZSCORE", key, later}).isNil());
    plain.releaseLease();
}

// Records of members removed for good (ZREM by a worker's admin, not evicted) go: each round
// walks one HSCAN page of the health hash, so a big hash is cleaned over several rounds. The
// records of members in the pool or evicted stay.
void TestGuard::recordsOfRemovedMembersArePruned() {
    const QByteArray key = "pruned";
    const QByteArray kept = proxyMember(0), evicted = proxyMember(1);
    m_redis.makePool(key, {kept, evicted}, 0);
    auto connection = m_redis.connect();
    HealthGuard guard(*connection, key, guardOptions());
    QVERIFY(guard.runRound().leaseHeld);
    PoolOperations(*connection, key).evict(evicted);
    // 1,200 members that left: more than one HSCAN page (500).
    RedisCommand hset{"HSET", PoolKeys(key).health()};
    for (int i = 0; i < 1200; ++i)
        hset << "http://gone" + QByteArray::number(i) + "@127.0.0.1:9"
             << R"({"o":"refused"})";
    m_redis.run(hset);
    qint64 pruned = 0;
    for (int round = 0; round < 10 && pruned < 1200; ++round) {
        const GuardRound result = guard.runRound();
        QVERIFY(result.leaseHeld);
        pruned += result.recordsPruned;
    }
    QCOMPARE(pruned, 1200);
    QCOMPARE(m_redis.run({"HLEN", PoolKeys(key).health()}).integer, 2);
    QCOMPARE(m_redis.run({"HEXISTS", PoolKeys(key).health(), kept}).integer, 1);
    QCOMPARE(m_redis.run({"HEXISTS", PoolKeys(key).health(), evicted}).integer, 1);
    guard.releaseLease();
}

void TestGuard::killNineMidRoundLeavesNoMemberHalfMoved() {
    const QByteArray key = "killed";
    QList<QByteArray> members;
    double sum = 0;
    for (int i = 0; i < 10000; ++i) {
        members << "http://u" + QByteArray::number(i) +
                       "@127.0.0.1:" + QByteArray::number(m_closedPort);
        sum += i;
    }
    RedisCommand zadd{"ZADD", key};
    for (int i = 0; i < members.size(); ++i)
        zadd << QByteArray::number(i) << members[i];
    m_redis.run(zadd);
    QProcess cli;
    cli.start(QStringLiteral(POOLSCOPE_CLI_PATH),
              cliBase(key) + QStringList{"guard", "--target", targetUrl(), "--fall", "1",
                                         "--max-evicted-percent", "100", "--concurrency", "200"});
    QVERIFY(cli.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(m_redis.run({"HLEN", PoolKeys(key).evicted()}).integer > 0, 30000);
    ::kill(pid_t(cli.processId()), SIGKILL);
    QVERIFY(cli.waitForFinished(10000));
    const qint64 inPool = m_redis.run({"ZCARD", key}).integer;
    const qint64 evicted = m_redis.run({"HLEN", PoolKeys(key).evicted()}).integer;
    qInfo("killed with %lld of %lld members evicted", evicted, qint64(members.size()));
    QVERIFY2(inPool > 0, "the guard finished before the kill: the test proves nothing");
    QCOMPARE(inPool + evicted, qint64(members.size()));
    // Every member is in exactly one place, with its count.
    double seen = 0;
    const RedisReply pool = m_redis.run({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    for (qsizetype i = 0; i + 1 < pool.elements.size(); i += 2)
        seen += pool.elements[i + 1].toDouble();
    const RedisReply saved = m_redis.run({"HGETALL", PoolKeys(key).evicted()});
    for (qsizetype i = 0; i + 1 < saved.elements.size(); i += 2) {
        QVERIFY(m_redis.run({"ZSCORE", key, saved.elements[i].text}).isNil());
        seen += saved.elements[i + 1].toDouble();
    }
    QCOMPARE(seen, sum);
    // The lease of the dead guard lapses on its own; a new guard then acts.
    QCOMPARE_GT(m_redis.run({"PTTL", PoolKeys(key).guardLease()}).integer, 0);
}

void TestGuard::signalStopsGuardAndReleasesLease_data() {
    QTest::addColumn<int>("signal");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("Ctrl+C") << int(SIGINT) << 130;
    QTest::newRow("SIGTERM (systemd's stop)") << int(SIGTERM) << 0;
}

// A stopped guard hands its lease back at once; after a SIGTERM it used to linger until it
// lapsed, and no other guard could act for that long.
void TestGuard::signalStopsGuardAndReleasesLease() {
    QFETCH(int, signal);
    QFETCH(int, exitCode);
    const QByteArray key = "signalled";
    m_redis.makePool(key, {proxyMember(0)}, 0);
    QProcess cli;
    cli.start(QStringLiteral(POOLSCOPE_CLI_PATH),
              cliBase(key) + QStringList{"guard", "--target", targetUrl(), "--interval", "5"});
    QVERIFY(cli.waitForStarted());
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += cli.readAllStandardOutput()).contains("round 1:"), 10000);
    QVERIFY(!m_redis.run({"GET", PoolKeys(key).guardLease()}).isNil());
    ::kill(pid_t(cli.processId()), signal);
    QVERIFY(cli.waitForFinished(10000)); // not after the 5 s pause: the signal cuts it short
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QCOMPARE(cli.exitCode(), exitCode);
    QVERIFY(m_redis.run({"GET", PoolKeys(key).guardLease()}).isNil());
}

void TestGuard::stopMidRoundIsNotAnotherGuard_data() {
    signalStopsGuardAndReleasesLease_data();
}

// A stop in the middle of a round (its checks waiting on a proxy that never answers) used to print
// "another guard (<its own id>) holds the lease".
void TestGuard::stopMidRoundIsNotAnotherGuard() {
    QFETCH(int, signal);
    QFETCH(int, exitCode);
    LoopbackServer::Options silentOptions;
    silentOptions.kind = LoopbackServer::Kind::Silent;
    LoopbackServer silent(silentOptions);
    QVERIFY2(silent.start(), qPrintable(silent.error()));
    const QByteArray key = "stoppedmidround";
    m_redis.makePool(key, {"127.0.0.1:" + QByteArray::number(silent.port())}, 0);
    QProcess cli;
    cli.start(QStringLiteral(POOLSCOPE_CLI_PATH),
              cliBase(key) +
                  QStringList{"guard", "--target", targetUrl(), "--proxy-timeout", "2000"});
    QVERIFY(cli.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(silent.accepted() > 0, 10000); // the round is checking
    ::kill(pid_t(cli.processId()), signal);
    QVERIFY(cli.waitForFinished(10000)); // a check under way ends at its 2 s timeout
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QCOMPARE(cli.exitCode(), exitCode);
    const QByteArray errors = cli.readAllStandardError();
    QVERIFY2(!errors.contains("another guard"), errors.constData());
    QVERIFY(m_redis.run({"GET", PoolKeys(key).guardLease()}).isNil());
}

void TestGuard::guardOutlivesServerRestart() {
    // Its own server, so the restart disturbs no other test.
    RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("restarted", {proxyMember(0)}, 0);
    QProcess cli;
    cli.start(QStringLiteral(POOLSCOPE_CLI_PATH),
              QStringList{"--url", redis.url(), "--key", "restarted", "guard", "--target",
                          targetUrl(), "--interval", "0.1", "--rounds", "50"});
    QVERIFY(cli.waitForStarted());
    QByteArray out, errors;
    QTRY_VERIFY_WITH_TIMEOUT((out += cli.readAllStandardOutput()).contains("round 1:"), 10000);
    redis.server().stop();
    QTRY_VERIFY_WITH_TIMEOUT((errors += cli.readAllStandardError()).contains("trying again"),
                             10000);
    QVERIFY(redis.server().start());
    {
        const BrokenPipeGuard brokenPipe; // the admin connection finds its server gone
        redis.run({"PING"});              // reconnects the admin connection
        redis.makePool("restarted", {proxyMember(0)}, 0); // no persistence: the pool was gone
    }
    out.clear();
    QTRY_VERIFY_WITH_TIMEOUT((out += cli.readAllStandardOutput()).contains("1 members, 1 ok"),
                             15000);
    cli.kill();
    QVERIFY(cli.waitForFinished(5000));
}

QTEST_GUILESS_MAIN(TestGuard)
#include "tst_guard.moc"
