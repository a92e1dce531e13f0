// The poller and the writer services against a real redis-server started by the fixture.
#include "RedisFixture.h"

#include "monitor/PoolWriter.h"
#include "monitor/PoolMonitor.h"
#include "pool/PoolOperations.h"

#include <csignal>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

QList<QByteArray> names(int count, const char *prefix = "m") {
    QList<QByteArray> list;
    for (int i = 0; i < count; ++i)
        list << QByteArray(prefix) + QByteArray::number(i).rightJustified(4, '0');
    return list;
}

QList<QByteArray> memberNames(const PoolSnapshot &snapshot) {
    QList<QByteArray> list;
    for (const PoolMember &member : snapshot.members)
        list << member.member;
    return list;
}

PoolObservation lastObservation(const QSignalSpy &spy) {
    return spy.last().at(0).value<PoolObservation>();
}

ConnectionState stateAt(const QSignalSpy &spy, qsizetype i) {
    return spy.at(i).at(0).value<ConnectionState>();
}

} // namespace

class TestMonitor : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;

    void startRedis(RedisServerOptions options = {}) {
        m_redis = std::make_unique<RedisFixture>(std::move(options));
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }
    double score(const QByteArray &member) {
        return m_redis->run({"ZSCORE", "pool", member}).toDouble();
    }
    bool inPool(const QByteArray &member) {
        return !m_redis->run({"ZSCORE", "pool", member}).isNil();
    }

private Q_SLOTS:
    void cleanup() {
        if (m_redis && m_redis->server().pid() > 0)
            ::kill(pid_t(m_redis->server().pid()), SIGCONT); // in case a test stopped it
        m_redis.reset();
    }

    // --- PoolMonitor ---

    void bigPoolsAreReadAsSummaries() {
        startRedis();
        // 500 members "m0000".."m0499" with count = index, so rank = index.
        for (int i = 0; i < 500; ++i)
            m_redis->run({"ZADD", "pool", QByteArray::number(i), names(500)[i]});
        m_redis->run({"HSET", PoolKeys("pool").evicted(), "gone", "7"});

        PoolMonitor monitor;
        monitor.setFullSnapshotThreshold(100);
        monitor.setPinnedMembers({"m0042", "gone"});
        monitor.setVisibleRows(250, 5);
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        monitor.connectTo(m_redis->endpoint(), "pool");
        QVERIFY(observations.wait(5000));
        const PoolObservation observation = lastObservation(observations);
        QVERIFY(observation.summaryMode);
        QVERIFY(observation.snapshot.members.isEmpty()); // never the whole set
        QVERIFY2(observation.mode.startsWith(QStringLiteral("summary (500 members > 100")),
                 qPrintable(observation.mode));
        QCOMPARE(observation.stats.size, 500);
        QCOMPARE(observation.stats.evicted, 1);
        QCOMPARE(observation.stats.min, 0.0);
        QCOMPARE(observation.stats.max, 499.0);
        QCOMPARE(observation.stats.median, 250.0);
        QCOMPARE(observation.summary.bottom.first().member, QByteArray("m0000"));
        QCOMPARE(observation.summary.top.first().member, QByteArray("m0499"));
        QCOMPARE(observation.summary.pinned, (QList<PoolMember>{{"m0042", 42}}));
        QCOMPARE(observation.summary.pinnedMissing, QList<QByteArray>{"gone"});
        QCOMPARE(observation.visibleFrom, 250);
        QCOMPARE(observation.visibleRows.size(), 5);
        QCOMPARE(observation.visibleRows.first(), (RankedMember{250, "m0250", 250}));
        QCOMPARE(observation.snapshot.evicted, (QList<EvictedMember>{{"gone", 7}}));
        // The totals scan finishes within a few polls of a small pool; then Jain's index shows.
        monitor.setPollInterval(10ms);
        QTRY_VERIFY_WITH_TIMEOUT(lastObservation(observations).scanCompleted ||
                                     lastObservation(observations).stats.total > 0,
                                 5000);
        QTRY_COMPARE_WITH_TIMEOUT(lastObservation(observations).stats.total, 499.0 * 500 / 2, 5000);
    }

    // Issue 10.7: a pool deleted and created again gets totals of its own, not the old pool's.
    void totalsScanStartsAfreshForANewPool() {
        startRedis();
        // Big enough that one totals pass takes several polls (10 pages of ~100 a poll).
        RedisCommand add{"ZADD", "pool"};
        for (int i = 0; i < 20000; ++i)
            add << "1000"
                << "m" + QByteArray::number(i);
        m_redis->run(add);
        PoolMonitor monitor;
        monitor.setFullSnapshotThreshold(100);
        monitor.setPollInterval(10ms);
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        monitor.connectTo(m_redis->endpoint(), "pool");
        QVERIFY(observations.wait(5000));
        QTRY_COMPARE_WITH_TIMEOUT(lastObservation(observations).stats.total, 20000.0 * 1000, 10000);
        // Recreate the pool while the next pass is under way (what a real pool of any size
        // looks like: a pass of 1M members takes minutes): pause the poller mid-pass.
        bool midPass = false;
        for (int attempt = 0; attempt < 50 && !midPass; ++attempt) {
            monitor.setPaused(true);
            observations.wait(200); // a poll already under way still reports
            const PoolObservation last = lastObservation(observations);
            midPass = last.scanProgress > 0 && !last.scanCompleted;
            if (!midPass) {
                monitor.setPaused(false);
                QVERIFY(observations.wait(5000));
            }
        }
        QVERIFY(midPass);
        // The key deleted and created again at once, smaller (still above the threshold),
        // with counts of 1.
        RedisCommand recreate{"ZADD", "pool"};
        for (int i = 0; i < 300; ++i)
            recreate << "1"
                     << "n" + QByteArray::number(i);
        m_redis->run({"MULTI"});
        m_redis->run({"DEL", "pool"});
        m_redis->run(recreate);
        m_redis->run({"EXEC"});
        monitor.setPaused(false);
        QTRY_VERIFY_WITH_TIMEOUT(lastObservation(observations).stats.size == 300, 5000);
        qsizetype first = 0; // the first poll of the new pool
        while (observations.at(first).at(0).value<PoolObservation>().stats.size != 300)
            ++first;
        QTRY_VERIFY_WITH_TIMEOUT(lastObservation(observations).stats.total == 300.0, 5000);
        // From the first poll of the new pool on, no total mixes in the old pool's counts
        // (any one of them, 1000, would show).
        for (qsizetype i = first; i < observations.size(); ++i) {
            const PoolStats stats = observations.at(i).at(0).value<PoolObservation>().stats;
            QVERIFY2(stats.total < 1000.0, qPrintable(QStringLiteral("poll %1: size %2, total %3")
                                                          .arg(i)
                                                          .arg(stats.size)
                                                          .arg(stats.total)));
        }
    }

    void observesSeededMembers() {
        startRedis();
        m_redis->makePool("pool", {"b", "a", "c"}, 3);
        m_redis->run({"ZINCRBY", "pool", "2", "c"});
        m_redis->run({"HSET", PoolKeys("pool").evicted(), "gone", "4"});

        PoolMonitor monitor;
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        monitor.connectTo(m_redis->endpoint(), "pool");
        QVERIFY(observations.wait(5000));

        const PoolObservation observation = lastObservation(observations);
        QCOMPARE(memberNames(observation.snapshot), (QList<QByteArray>{"a", "b", "c"}));
        QCOMPARE(observation.snapshot.members.last().count, 5.0);
        QCOMPARE(observation.snapshot.evicted, (QList<EvictedMember>{{"gone", 4}}));
        QCOMPARE(observation.stats.size, 3);
        QCOMPARE(observation.stats.evicted, 1);
        QCOMPARE(observation.stats.total, 11.0);
        QCOMPARE(observation.mode, QStringLiteral("full snapshot (3 members)"));
        QCOMPARE(observation.generation, monitor.generation());
        QCOMPARE(observation.serverVersion, m_redis->admin().serverVersion());
        QVERIFY(!observation.serverVersion.isEmpty());
        QCOMPARE_GT(observation.roundTripMs, 0);
        QCOMPARE_LT(qAbs(observation.timeMs - QDateTime::currentMSecsSinceEpoch()), 60000);
        QCOMPARE(monitor.state(), ConnectionState::Connected);
        // Operators can tell the poller's connection apart.
        QVERIFY(m_redis->run({"CLIENT", "LIST"}).text.contains("name=poolscope-poller"));
    }

    void reportsStateChanges() {
        startRedis();
        PoolMonitor monitor;
        QSignalSpy states(&monitor, &PoolMonitor::stateChanged);
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        QCOMPARE(monitor.state(), ConnectionState::Disconnected);

        monitor.connectTo(m_redis->endpoint(), "pool");
        QCOMPARE(monitor.state(), ConnectionState::Connecting); // at once, without waiting
        QCOMPARE(states.size(), 1);
        QTRY_COMPARE(monitor.state(), ConnectionState::Connected);
        QCOMPARE(stateAt(states, 1), ConnectionState::Connected);
        const QString version = states.at(1).at(1).toString();
        QCOMPARE(version, m_redis->admin().serverVersion());

        QVERIFY(observations.wait(5000));
        monitor.disconnectFromServer();
        QCOMPARE(monitor.state(), ConnectionState::Disconnected);
        QCOMPARE(stateAt(states, states.size() - 1), ConnectionState::Disconnected);
        const qsizetype seen = observations.size();
        monitor.pollNow(); // nothing to poll once disconnected
        QVERIFY(!observations.wait(300));
        QCOMPARE(observations.size(), seen);
        QCOMPARE(monitor.state(), ConnectionState::Disconnected);
        QTRY_VERIFY(!m_redis->run({"CLIENT", "LIST"}).text.contains("name=poolscope-poller"));
    }

    void pauseStopsObservationsAndPollNowStillPolls() {
        startRedis();
        m_redis->makePool("pool", {"a"});
        PoolMonitor monitor;
        monitor.setPollInterval(20ms);
        QCOMPARE(monitor.pollInterval(), 20ms);
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        monitor.connectTo(m_redis->endpoint(), "pool");
        QTRY_VERIFY(observations.size() >= 3); // polling every 20 ms

        monitor.setPaused(true);
        QVERIFY(monitor.isPaused());
        // At most the poll already under way when the pause arrived, then silence.
        observations.wait(200);
        const qsizetype paused = observations.size();
        QVERIFY(!observations.wait(400)); // 20 intervals
        QCOMPARE(observations.size(), paused);

        monitor.pollNow(); // a manual refresh works while paused, once
        QTRY_COMPARE(observations.size(), paused + 1);
        QVERIFY(!observations.wait(300));
        QCOMPARE(observations.size(), paused + 1);

        monitor.setPaused(false);
        QTRY_VERIFY(observations.size() >= paused + 4);
    }

    void pollNowPollsAtOnce() {
        startRedis();
        m_redis->makePool("pool", {"a"});
        PoolMonitor monitor;
        monitor.setPollInterval(1h); // only pollNow can cause a second poll within the test
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        monitor.connectTo(m_redis->endpoint(), "pool");
        QVERIFY(observations.wait(5000));
        QCOMPARE(observations.size(), 1);

        m_redis->run({"ZINCRBY", "pool", "5", "a"});
        monitor.pollNow();
        QTRY_COMPARE(observations.size(), 2);
        QCOMPARE(lastObservation(observations).snapshot.members.value(0).count, 5.0);
    }

    void staleRepliesAreDropped() {
        startRedis();
        m_redis->makePool("first", names(50, "first-"));
        m_redis->makePool("second", names(50, "second-"));
        PoolMonitor monitor;
        monitor.setPollInterval(1ms); // a poll is nearly always under way when the key changes

        QByteArray currentKey = "first";
        int stale = 0;
        int fresh = 0;
        connect(&monitor, &PoolMonitor::observationArrived, this,
                [&](const PoolObservation &observation) {
                    const bool matches =
                        observation.generation == monitor.generation() &&
                        observation.snapshot.members.value(0).member.startsWith(currentKey + '-');
                    matches ? ++fresh : ++stale;
                });

        for (int round = 0; round < 20; ++round) {
            currentKey = round % 2 == 0 ? "first" : "second";
            const int before = fresh;
            monitor.connectTo(m_redis->endpoint(), currentKey);
            QTRY_VERIFY(fresh >= before + 2);
        }
        QCOMPARE(stale, 0);
        QCOMPARE(monitor.generation(), quint64(20));
    }

    void reconnectsAfterTheServerDies() {
        RedisServerOptions options;
        options.useTcp = true; // restart on the same port
        startRedis(options);
        m_redis->makePool("pool", {"a", "b"});

        PoolMonitor monitor;
        monitor.setPollInterval(50ms);
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        QSignalSpy failures(&monitor, &PoolMonitor::pollFailed);
        QSignalSpy states(&monitor, &PoolMonitor::stateChanged);
        monitor.connectTo(m_redis->endpoint(), "pool");
        QVERIFY(observations.wait(5000));

        m_redis->server().killHard();
        QTRY_COMPARE(monitor.state(), ConnectionState::Reconnecting);
        QCOMPARE_GE(failures.size(), 1);
        const QString reason = failures.first().at(0).toString();
        QVERIFY2(reason.contains(QStringLiteral("127.0.0.1")), qPrintable(reason));
        // Keeps trying (with backoff) while the server is down.
        QTRY_VERIFY(failures.size() >= 3);
        QCOMPARE(monitor.state(), ConnectionState::Reconnecting);

        QString error;
        QVERIFY2(m_redis->server().start(&error), qPrintable(error));
        observations.clear();
        QTRY_COMPARE_WITH_TIMEOUT(monitor.state(), ConnectionState::Connected, 10000);
        QVERIFY(observations.wait(5000));
        // A fresh server without persistence: the pool is empty now.
        QCOMPARE(lastObservation(observations).snapshot.members.size(), 0);
        QCOMPARE(lastObservation(observations).generation, quint64(1));
        QCOMPARE_GE(states.size(), 4); // connecting, connected, reconnecting, connected
    }

    void hungServerNeverBlocksTheCaller() {
        startRedis();
        m_redis->makePool("pool", {"a"});
        auto monitor = std::make_unique<PoolMonitor>();
        ConnectionOptions options;
        options.commandTimeout = 1000ms;
        QSignalSpy observations(monitor.get(), &PoolMonitor::observationArrived);
        QSignalSpy failures(monitor.get(), &PoolMonitor::pollFailed);
        monitor->connectTo(m_redis->endpoint(), "pool", options);
        QVERIFY(observations.wait(5000));

        ::kill(pid_t(m_redis->server().pid()), SIGSTOP); // alive but silent
        monitor->pollNow();
        monitor->setPaused(true);
        monitor->setPollInterval(100ms);
        monitor->setPaused(false);
        // Had any of these waited for the worker, they would have returned only after its
        // command timed out, with the failure already reported (the spy records it at once, on
        // the worker's thread). No wall-clock bound: a loaded machine cannot fail this.
        QVERIFY2(failures.isEmpty(), "a call on the caller's thread waited for the stuck worker");

        QVERIFY(failures.wait(5000));
        QVERIFY2(failures.first().at(0).toString().contains(QStringLiteral("no reply")),
                 qPrintable(failures.first().at(0).toString()));
        QTRY_COMPARE(monitor->state(), ConnectionState::Reconnecting);

        // Whatever the worker is stuck in ends within the command timeout: deleting the monitor
        // joins its thread. The bound is ten command timeouts, so that only a worker that keeps
        // waiting (a reconnect loop, a second command) can miss it, not a busy machine.
        monitor->pollNow();
        QElapsedTimer clock;
        clock.start();
        monitor.reset();
        QCOMPARE_LT(clock.elapsed(), 10 * options.commandTimeout.count());
    }

    // --- PoolWriter ---

    void seedReportsProgressAndResult() {
        startRedis();
        PoolWriter writer;
        QSignalSpy progress(&writer, &PoolWriter::seedProgressed);
        QSignalSpy finished(&writer, &PoolWriter::seedFinished);
        QSignalSpy busy(&writer, &PoolWriter::busyChanged);
        writer.setTarget(m_redis->endpoint(), "pool");
        SeedOptions options;
        options.startCount = 3;
        options.batchSize = 100; // 800 members a round trip: three progress steps
        writer.seed(names(2000), options);
        QVERIFY(writer.isBusy());
        QVERIFY(finished.wait(10000));

        const SeedResult result = finished.first().at(0).value<SeedResult>();
        QCOMPARE(result.added.size(), 2000);
        QCOMPARE(result.startCount, 3.0);
        QCOMPARE(progress.size(), 3);
        QCOMPARE(progress.at(0).at(0).toLongLong(), 800);
        QCOMPARE(progress.last().at(0).toLongLong(), 2000);
        QCOMPARE(progress.last().at(1).toLongLong(), 2000);
        QCOMPARE(m_redis->run({"ZCARD", "pool"}).integer, 2000LL);
        QCOMPARE(score("m1999"), 3.0);
        QTRY_VERIFY(!writer.isBusy());
        QCOMPARE(busy.size(), 2);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
        QVERIFY(m_redis->run({"CLIENT", "LIST"}).text.contains("name=poolscope-writer"));
    }

    void requestsRunInOrder() {
        startRedis();
        PoolWriter writer;
        QSignalSpy evicted(&writer, &PoolWriter::membersEvicted);
        QSignalSpy failed(&writer, &PoolWriter::commandFailed);
        writer.setTarget(m_redis->endpoint(), "pool");
        // Queued back to back: the evict must see what the seed wrote.
        writer.seed({"x", "y"}, SeedOptions{});
        writer.evict({"x"});
        QVERIFY(evicted.wait(5000));
        QCOMPARE(failed.size(), 0);
        QVERIFY(!inPool("x"));
        QVERIFY(inPool("y"));
    }

    void evictThenRestoreReportsPoolMinimum() {
        startRedis();
        m_redis->run({"ZADD", "pool", "5", "a", "7", "b", "9", "c"});
        PoolWriter writer;
        QSignalSpy evicted(&writer, &PoolWriter::membersEvicted);
        QSignalSpy restored(&writer, &PoolWriter::membersRestored);
        writer.setTarget(m_redis->endpoint(), "pool");

        writer.evict({"a"});
        QVERIFY(evicted.wait(5000));
        const auto evictResults = evicted.first().at(0).value<QList<EvictResult>>();
        QCOMPARE(evictResults.size(), 1);
        QCOMPARE(evictResults[0].member, QByteArray("a"));
        QCOMPARE(evictResults[0].savedCount, 5.0);
        QVERIFY(!inPool("a"));
        QCOMPARE(m_redis->run({"HGET", PoolKeys("pool").evicted(), "a"}).toDouble(), 5.0);

        writer.restore({"a"}, RestorePolicy::Zero, 0);
        QVERIFY(restored.wait(5000));
        const auto restoreResults = restored.first().at(0).value<QList<RestoreResult>>();
        QCOMPARE(restoreResults.size(), 1);
        QCOMPARE(restoreResults[0].savedCount, 5.0);
        QCOMPARE(restoreResults[0].restoredCount, 0.0);
        QCOMPARE(restored.first().at(1).toDouble(), 7.0); // b was the lowest while a was out
        QCOMPARE(score("a"), 0.0);
    }

    void restoreIntoEmptyPoolReportsNoMinimum() {
        startRedis();
        m_redis->run({"HSET", PoolKeys("pool").evicted(), "a", "4"});
        PoolWriter writer;
        QSignalSpy restored(&writer, &PoolWriter::membersRestored);
        writer.setTarget(m_redis->endpoint(), "pool");
        writer.restore({"a"}, RestorePolicy::Keep, 0);
        QVERIFY(restored.wait(5000));
        QCOMPARE(restored.first().at(1).toDouble(), -1.0);
        QCOMPARE(score("a"), 4.0);
    }

    void unknownMembersFailTheWholeRequest_data() {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<QList<QByteArray>>("members");
        QTest::addColumn<QString>("named");
        QTest::newRow("evict") << QStringLiteral("evict") << QList<QByteArray>{"a", "ghost", "b"}
                               << QStringLiteral("\"ghost\"");
        QTest::newRow("restore") << QStringLiteral("restore") << QList<QByteArray>{"gone", "a"}
                                 << QStringLiteral("\"a\"");
    }
    void unknownMembersFailTheWholeRequest() {
        QFETCH(QString, operation);
        QFETCH(QList<QByteArray>, members);
        QFETCH(QString, named);
        startRedis();
        m_redis->makePool("pool", {"a", "b"}, 2);
        m_redis->run({"HSET", PoolKeys("pool").evicted(), "gone", "1"});
        PoolWriter writer;
        QSignalSpy failed(&writer, &PoolWriter::commandFailed);
        QSignalSpy evicted(&writer, &PoolWriter::membersEvicted);
        QSignalSpy restored(&writer, &PoolWriter::membersRestored);
        writer.setTarget(m_redis->endpoint(), "pool");
        if (operation == QLatin1String("evict"))
            writer.evict(members);
        else
            writer.restore(members, RestorePolicy::Keep, 0);
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.first().at(0).toString(), operation);
        const QString message = failed.first().at(1).toString();
        QVERIFY2(message.contains(named), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("nothing was")), qPrintable(message));
        QCOMPARE(evicted.size(), 0);
        QCOMPARE(restored.size(), 0);
        // Nothing changed.
        QVERIFY(inPool("a"));
        QVERIFY(inPool("b"));
        QCOMPARE(m_redis->run({"HGET", PoolKeys("pool").evicted(), "gone"}).toDouble(), 1.0);
        QTRY_VERIFY(!writer.isBusy());
    }

    void findsSortedSetKeysOnly() {
        startRedis();
        m_redis->makePool("pool-b", {"x"});
        m_redis->makePool("pool-a", {"x"});
        m_redis->makePool("{tagged}:pool", {"x"});
        m_redis->run({"SET", "a-string", "1"});
        m_redis->run({"HSET", PoolKeys("pool-a").evicted(), "y", "1"});
        m_redis->run({"RPUSH", "a-list", "1"});
        PoolWriter writer;
        QSignalSpy found(&writer, &PoolWriter::poolKeysFound);
        writer.setTarget(m_redis->endpoint(), QByteArray());
        writer.findPoolKeys();
        QVERIFY(found.wait(5000));
        QCOMPARE(found.first().at(0).toStringList(),
                 (QStringList{QStringLiteral("pool-a"), QStringLiteral("pool-b"),
                              QStringLiteral("{tagged}:pool")}));
    }

    void findPoolKeysIsBounded() {
        startRedis();
        for (int i = 0; i < 30; ++i)
            m_redis->makePool("z" + QByteArray::number(i), {"x"});
        m_redis->run({"SET", "s", "1"});
        PoolWriter writer;
        QSignalSpy found(&writer, &PoolWriter::poolKeysFound);
        writer.setTarget(m_redis->endpoint(), "z0");
        writer.findPoolKeys(10);
        QVERIFY(found.wait(5000));
        const QStringList keys = found.first().at(0).toStringList();
        QCOMPARE(keys.size(), 10);
        QStringList sorted = keys;
        sorted.sort();
        QCOMPARE(keys, sorted);
        for (const QString &key : keys)
            QVERIFY2(key.startsWith(QLatin1Char('z')), qPrintable(key));
    }

    void reconnectsLazilyAfterALostConnection() {
        startRedis();
        m_redis->makePool("pool", {"a", "b"});
        PoolWriter writer;
        QSignalSpy evicted(&writer, &PoolWriter::membersEvicted);
        QSignalSpy failed(&writer, &PoolWriter::commandFailed);
        writer.setTarget(m_redis->endpoint(), "pool");
        writer.evict({"a"});
        QVERIFY(evicted.wait(5000));

        // The server drops the writer's connection behind its back.
        m_redis->run({"CLIENT", "KILL", "SKIPME", "yes", "TYPE", "normal"});
        writer.evict({"b"});
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("evict"));
        QVERIFY(inPool("b")); // the lost request did not run
        writer.evict({"b"});  // a new connection, opened by this request
        QVERIFY(evicted.wait(5000));
        QVERIFY(!inPool("b"));
    }

    void requestWithoutTargetFails() {
        PoolWriter writer;
        QSignalSpy failed(&writer, &PoolWriter::commandFailed);
        writer.findPoolKeys();
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("scan"));
        QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("connect first")));
    }

    // Redis's `timeout` closes the poller's connection between polls spaced beyond it: no
    // outage. The poll runs again on a fresh connection (no failure, no reconnecting state);
    // a server really gone between polls is still reported.
    void idleCloseByTheServerIsNoOutage() {
        RedisServerOptions options;
        options.useTcp = true;
        options.extraArguments = {QStringLiteral("--timeout"), QStringLiteral("1")};
        startRedis(options);
        m_redis->makePool("pool", {"a", "b"});
        PoolMonitor monitor;
        monitor.setPollInterval(1h); // polls only when asked: each one after an idle close
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        QSignalSpy failures(&monitor, &PoolMonitor::pollFailed);
        QSignalSpy states(&monitor, &PoolMonitor::stateChanged);
        monitor.connectTo(m_redis->endpoint(), "pool");
        QVERIFY(observations.wait(5000));
        const auto pollerConnected = [this] {
            return m_redis->run({"CLIENT", "LIST"}).text.contains("name=poolscope-poller");
        };
        QTRY_VERIFY_WITH_TIMEOUT(!pollerConnected(), 10000); // closed by the server
        const qsizetype seen = observations.size();
        monitor.pollNow();
        QTRY_COMPARE_WITH_TIMEOUT(observations.size(), seen + 1, 5000);
        QCOMPARE(lastObservation(observations).snapshot.members.size(), 2);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.value(0).value(0).toString()));
        for (qsizetype i = 0; i < states.size(); ++i)
            QVERIFY(stateAt(states, i) != ConnectionState::Reconnecting);

        // Down for real while idle: the second try fails too, and that is reported.
        QTRY_VERIFY_WITH_TIMEOUT(!pollerConnected(), 10000);
        m_redis->server().killHard();
        monitor.pollNow();
        QTRY_COMPARE_WITH_TIMEOUT(monitor.state(), ConnectionState::Reconnecting, 5000);
        QVERIFY(!failures.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestMonitor)
#include "tst_monitor.moc"
