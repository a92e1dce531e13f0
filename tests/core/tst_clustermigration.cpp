// Redis Cluster against three real primaries on loopback, created once for the file, while a
// pool's slot moves between them: the poller and a load run follow it through ASK and MOVED (and
// an eviction meets TRYAGAIN) with every allocation accounted for, and a half-migrated pool is
// listed while a seed into it is refused.
#include "ClusterCase.h"

#include "audit/AuditTrail.h"
#include "catalog/PoolCatalog.h"
#include "catalog/PoolCatalogReader.h"
#include "load/LoadRunner.h"
#include "monitor/PoolWriter.h"
#include "monitor/PoolMonitor.h"
#include "pool/PoolKeys.h"
#include "pool/PoolOperations.h"
#include "topology/ClusterRouter.h"
#include "topology/ClusterSlotMap.h"
#include "topology/HashSlot.h"

#include <csignal>
#include <future>

#include <signal.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

Q_DECLARE_METATYPE(poolscope::LoadReport)

class TestClusterMigration : public QObject, public ClusterCase {
    Q_OBJECT

private Q_SLOTS:
private Q_SLOTS:
    void initTestCase() {
        qRegisterMetaType<poolscope::LoadReport>();
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.error()));
    }

    // The poller's connection routes every command: after the pool's slot has moved (both
    // keys), its next polls read the new owner, with no failed poll.
    void pollerFollowsAPoolWhoseSlotMoved() {
        const int source = 1;
        const int target = 2;
        const QByteArray key = keyOn(source, "polled", true);
        primary(source).makePool(key, names(4));
        PoolMonitor monitor;
        QSignalSpy failed(&monitor, &PoolMonitor::pollFailed);
        QList<PoolObservation> seen;
        connect(&monitor, &PoolMonitor::observationArrived, this,
                [&seen](const PoolObservation &observation) { seen.append(observation); });
        monitor.setPollInterval(std::chrono::milliseconds(50));
        monitor.connectTo(clusterEndpoint(), key);
        QTRY_VERIFY_WITH_TIMEOUT(!seen.isEmpty(), 10000);

        const QByteArray slotText = QByteArray::number(topology::hashSlot(key));
        const QByteArray sourceId = nodeId(source);
        const QByteArray targetId = nodeId(target);
        RedisFixture &from = primary(source);
        RedisFixture &to = primary(target);
        QCOMPARE(to.run({"CLUSTER", "SETSLOT", slotText, "IMPORTING", sourceId}).text, "OK");
        QCOMPARE(from.run({"CLUSTER", "SETSLOT", slotText, "MIGRATING", targetId}).text, "OK");
        QCOMPARE(from.run({"MIGRATE", "127.0.0.1", QByteArray::number(to.endpoint().port), "", "0",
                           "5000", "KEYS", key})
                     .text,
                 "OK");
        QCOMPARE(to.run({"CLUSTER", "SETSLOT", slotText, "NODE", targetId}).text, "OK");
        for (int i = 0; i < m_cluster.size(); ++i)
            if (i != target)
                QCOMPARE(primary(i).run({"CLUSTER", "SETSLOT", slotText, "NODE", targetId}).text,
                         "OK");
        QCOMPARE(to.run({"ZINCRBY", key, "5", "m0"}).text, "5");
        const auto m0CountIsFive = [&seen] {
            for (const PoolMember &member : seen.last().snapshot.members)
                if (member.member == "m0")
                    return member.count == 5;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(m0CountIsFive(), 10000);
        QCOMPARE(failed.count(), 0);
        // Each observation names the node that served it: the old owner, then the new one.
        const auto nodeOf = [](RedisFixture &node) {
            return QStringLiteral("127.0.0.1:%1").arg(node.endpoint().port);
        };
        QCOMPARE(seen.constFirst().servedBy, nodeOf(from));
        QCOMPARE(seen.constLast().servedBy, nodeOf(to));
        monitor.disconnectFromServer();
    }

    // SETSLOT NODE reaches the nodes one by one: told first, the old owner answers MOVED to the
    // new one, which (still importing, asked without ASKING) answers MOVED back. The router
    // pauses instead of giving up after a burst of hops, and answers once the nodes agree.
    void movedBackAndForthUntilTheNodesAgree() {
        const int source = 2;
        const int target = 0;
        const QByteArray key = keyOn(source, "pingpong", true);
        primary(source).makePool(key, names(7));
        const QByteArray slotText = QByteArray::number(topology::hashSlot(key));
        const QByteArray sourceId = nodeId(source);
        const QByteArray targetId = nodeId(target);
        RedisFixture &from = primary(source);
        RedisFixture &to = primary(target);
        QCOMPARE(to.run({"CLUSTER", "SETSLOT", slotText, "IMPORTING", sourceId}).text, "OK");
        QCOMPARE(from.run({"CLUSTER", "SETSLOT", slotText, "MIGRATING", targetId}).text, "OK");
        const QByteArray targetPort = QByteArray::number(to.endpoint().port);
        QCOMPARE(from.run({"MIGRATE", "127.0.0.1", targetPort, "", "0", "5000", "KEYS", key}).text,
                 "OK");
        QCOMPARE(from.run({"CLUSTER", "SETSLOT", slotText, "NODE", targetId}).text, "OK");

        const auto movedAnswers = [&] {
            return errorStat(source, "MOVED") + errorStat(target, "MOVED");
        };
        const qint64 movedBefore = movedAnswers();
        std::unique_ptr<RedisConnection> reader = openCluster();
        auto size = std::async(std::launch::async, [&reader, key] {
            return reader->command({"ZCARD", key}).integer;
        });
        QTRY_VERIFY_WITH_TIMEOUT(movedAnswers() > movedBefore + 3, 10000); // bouncing
        for (int i = 0; i < m_cluster.size(); ++i)
            if (i != source)
                QCOMPARE(primary(i).run({"CLUSTER", "SETSLOT", slotText, "NODE", targetId}).text,
                         "OK");
        QCOMPARE(size.get(), 7);
        QCOMPARE_GT(reader->cluster()->counters().moved, 3);
    }

    // The pool's slot moves to another primary during a 4-worker run: first the pool key
    // (allocations meet ASK), then, while an eviction meets TRYAGAIN (its two keys on two
    // nodes), the companion hash, then SETSLOT NODE everywhere (allocations meet MOVED and the
    // workers follow the pool). No allocation is lost or doubled.
    void loadRunFollowsThePoolThroughASlotMigration() {
        const int source = 0;
        const int target = 1;
        const QByteArray key = keyOn(source, "moving", true);
        const int slot = topology::hashSlot(key);
        const QByteArray companion = PoolKeys(key).evicted();
        const QByteArray trail = PoolKeys(key).audit(); // moves with the companion
        auto setup = openCluster();
        PoolOperations pool(*setup, key);
        pool.seed(names(40), {});
        pool.evict("m39"); // the companion hash exists from the start, saved count 0

        LoadRunner runner;
        qint64 done = 0;
        connect(&runner, &LoadRunner::progressed, this,
                [&done](qint64 progress, qint64, double) { done = progress; });
        QSignalSpy finished(&runner, &LoadRunner::finished);
        LoadSpec spec;
        spec.endpoint = primary(2).endpoint(); // a plain URL, and not the owner's
        spec.poolKey = key;
        spec.workers = 4;
        spec.pipeline = 4;
        spec.total = 100000000;
        spec.ratePerSecond = 4000; // gentle on a shared CI machine; plenty of ASK and MOVED
        spec.connection.commandTimeout = std::chrono::milliseconds(5000);
        QVERIFY(runner.start(spec));
        QTRY_VERIFY_WITH_TIMEOUT(done > 300, 20000);

        // 1. Open the slot and move the pool key: the source answers ASK from now on.
        const QByteArray sourceId = nodeId(source);
        const QByteArray targetId = nodeId(target);
        RedisFixture &from = primary(source);
        RedisFixture &to = primary(target);
        const QByteArray slotText = QByteArray::number(slot);
        QCOMPARE(to.run({"CLUSTER", "SETSLOT", slotText, "IMPORTING", sourceId}).text, "OK");
        QCOMPARE(from.run({"CLUSTER", "SETSLOT", slotText, "MIGRATING", targetId}).text, "OK");
        const QByteArray targetPort = QByteArray::number(to.endpoint().port);
        QCOMPARE(from.run({"MIGRATE", "127.0.0.1", targetPort, "", "0", "5000", "KEYS", key}).text,
                 "OK");
        const qint64 afterFirstMigrate = done;
        QTRY_VERIFY_WITH_TIMEOUT(done > afterFirstMigrate + 300, 20000);

        // 2. An eviction now finds its pool on the target and its companion and audit trail on the
        // source: TRYAGAIN, retried with a pause until they have moved too.
        // (Which of the two answers TRYAGAIN depends on the server version: count both.)
        const auto tryAgains = [&] {
            return errorStat(source, "TRYAGAIN") + errorStat(target, "TRYAGAIN");
        };
        const qint64 tryAgainBefore = tryAgains();
        std::unique_ptr<RedisConnection> evictor = openCluster();
        auto eviction = std::async(std::launch::async, [&evictor, key] {
            PoolOperations evictPool(*evictor, key);
            return evictPool.evict("m38");
        });
        QTRY_VERIFY_WITH_TIMEOUT(tryAgains() > tryAgainBefore, 10000);
        QCOMPARE(from.run({"MIGRATE", "127.0.0.1", targetPort, "", "0", "5000", "KEYS", companion,
                           trail})
                     .text,
                 "OK");
        const EvictResult evicted = eviction.get();
        QCOMPARE(evicted.member, QByteArray("m38"));
        QCOMPARE_GT(evictor->cluster()->counters().tryAgain, 0);
        QCOMPARE_GT(evictor->cluster()->counters().ask, 0);

        // 3. The slot belongs to the target: the source answers MOVED, the workers follow.
        // The target first, as the cluster specification recommends, then the others.
        QCOMPARE(to.run({"CLUSTER", "SETSLOT", slotText, "NODE", targetId}).text, "OK");
        for (int i = 0; i < m_cluster.size(); ++i)
            if (i != target)
                QCOMPARE(primary(i).run({"CLUSTER", "SETSLOT", slotText, "NODE", targetId}).text,
                         "OK");
        const qint64 afterMove = done;
        QTRY_VERIFY_WITH_TIMEOUT(done > afterMove + 600, 20000);
        runner.cancel();
        QVERIFY(finished.wait(20000));
        const LoadReport report = finished.first().first().value<LoadReport>();

        // Counts on the new owner: pool scores plus saved counts of the evicted members.
        QCOMPARE(from.run({"EXISTS", key, companion, trail}).integer, 0);
        QCOMPARE(to.run({"XLEN", trail}).integer, 3); // the seed, and the two evictions
        qint64 onTarget = 0;
        QHash<QByteArray, qint64> actual;
        const RedisReply members = to.run({"ZRANGE", key, "0", "-1", "WITHSCORES"});
        for (qsizetype i = 0; i + 1 < members.elements.size(); i += 2)
            actual[members.elements[i].text] = qint64(members.elements[i + 1].toDouble());
        const RedisReply saved = to.run({"HGETALL", companion});
        for (qsizetype i = 0; i + 1 < saved.elements.size(); i += 2)
            actual[saved.elements[i].text] = qint64(saved.elements[i + 1].toDouble());
        for (const qint64 count : actual)
            onTarget += count;
        qInfo("slot %d moved from node %d to node %d during the run: %s; sum of counts on the "
              "new owner %lld",
              slot, source, target, qPrintable(describe(report)), onTarget);
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE(report.errors(), 0);
        QVERIFY2(report.askRedirects > 0, qPrintable(describe(report)));
        QVERIFY2(report.movedRedirects > 0, qPrintable(describe(report)));
        QCOMPARE_GT(report.allocated, afterMove);
        QVERIFY2(onTarget >= report.allocated && onTarget <= report.allocated + report.unknown,
                 qPrintable(describe(report)));
        if (report.unknown == 0) {
            // Per member: nothing lost, nothing doubled.
            for (auto it = actual.cbegin(); it != actual.cend(); ++it)
                QCOMPARE(report.perMember.value(it.key()), it.value());
        }
        // Every worker followed the pool: one reconnection each (to the new owner), no losses.
        QCOMPARE(report.connectionLosses, 0);
        QVERIFY2(report.reconnects >= spec.workers, qPrintable(describe(report)));
    }

    // Half-way through a slot migration (the pool key MIGRATEd, its companion not yet), `pools`
    // still lists the pool (found by SCAN on the importing node, read there by ASK), and a seed
    // refused with TRYAGAIN until the router gives up is counted as not written, not as unknown.
    void aHalfMigratedPoolIsListedAndARefusedSeedIsNotWritten() {
        const int source = 0;
        const int target = 1;
        const QByteArray key = keyOn(source, "halfway", true);
        const QByteArray companion = PoolKeys(key).evicted();
        const QByteArray trail = PoolKeys(key).audit(); // moves with the companion
        const QByteArray slotText = QByteArray::number(topology::hashSlot(key));
        auto setup = openCluster();
        PoolOperations pool(*setup, key);
        pool.seed(names(5), {});
        pool.evict("m4");
        RedisFixture &from = primary(source);
        RedisFixture &to = primary(target);
        const QByteArray targetPort = QByteArray::number(to.endpoint().port);
        QCOMPARE(to.run({"CLUSTER", "SETSLOT", slotText, "IMPORTING", nodeId(source)}).text, "OK");
        QCOMPARE(from.run({"CLUSTER", "SETSLOT", slotText, "MIGRATING", nodeId(target)}).text,
                 "OK");
        QCOMPARE(from.run({"MIGRATE", "127.0.0.1", targetPort, "", "0", "5000", "KEYS", key}).text,
                 "OK");
        const auto listed = [&]() -> QJsonObject {
            const CliRun run = runCli({QStringLiteral("--url"), clusterEndpoint().toUrl(),
                                       QStringLiteral("--json"), QStringLiteral("pools"),
                                       QStringLiteral("--interval"), QStringLiteral("0")});
            if (run.exitCode != 0)
                qWarning("pools: %s", run.err.constData());
            for (const QJsonValue &row :
                 QJsonDocument::fromJson(run.out).object().value(QStringLiteral("pools")).toArray())
                if (row[QStringLiteral("key")].toString() == QString::fromUtf8(key))
                    return row.toObject();
            return {};
        };
        QJsonObject row = listed();
        QVERIFY2(!row.isEmpty(), "pools dropped the pool whose slot is migrating");
        QCOMPARE(row[QStringLiteral("size")].toInt(), 4);
        QCOMPARE(row[QStringLiteral("evicted")].toInt(), 1);

        // The seed script names both keys, now on two nodes: TRYAGAIN to the end.
        auto seeder = openCluster();
        PoolOperations seeding(*seeder, key);
        try {
            seeding.seed({"n1", "n2", "n3"}, {});
            QFAIL("a seed across a half-migrated slot succeeded");
        } catch (const PartialSeedError &e) {
            QCOMPARE(e.serverCode(), QByteArray("TRYAGAIN"));
            QCOMPARE(e.unknown(), 0);
            QCOMPARE(e.partial().added.size(), 0);
        }
        // The importing node serves the key only after ASKING.
        QCOMPARE(to.admin().pipeline({{"ASKING"}, {"ZCARD", key}}).value(1).integer, 4);

        // The companion follows: still listed, with its evicted member.
        QCOMPARE(from.run({"MIGRATE", "127.0.0.1", targetPort, "", "0", "5000", "KEYS", companion,
                           trail})
                     .text,
                 "OK");
        row = listed();
        QVERIFY2(!row.isEmpty(), "pools dropped the pool after its companion moved");
        QCOMPARE(row[QStringLiteral("size")].toInt(), 4);
        QCOMPARE(row[QStringLiteral("evicted")].toInt(), 1);

        QCOMPARE(to.run({"CLUSTER", "SETSLOT", slotText, "NODE", nodeId(target)}).text, "OK");
        for (int i = 0; i < m_cluster.size(); ++i)
            if (i != target)
                QCOMPARE(
                    primary(i).run({"CLUSTER", "SETSLOT", slotText, "NODE", nodeId(target)}).text,
                    "OK");
        QCOMPARE(listed()[QStringLiteral("size")].toInt(), 4);
    }
};

QTEST_GUILESS_MAIN(TestClusterMigration)
#include "tst_clustermigration.moc"
