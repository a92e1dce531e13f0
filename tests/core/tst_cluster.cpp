// Redis Cluster against three real primaries on loopback, created once for the file:
// routing to each key's owner, detection behind a plain URL, clear CROSSSLOT / database errors,
// and a load run that meets ASK and MOVED while its pool's slot moves to another primary (and an
// eviction that meets TRYAGAIN), with every allocation accounted for.
#include "ClusterFixture.h"

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

namespace {

QList<QByteArray> names(int count) {
    QList<QByteArray> list;
    for (int i = 0; i < count; ++i)
        list << "m" + QByteArray::number(i);
    return list;
}

QString describe(const LoadReport &report) {
    QJsonObject json = report.toJson();
    json.remove(QStringLiteral("per_member"));
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact));
}

} // namespace

class TestCluster : public QObject {
    Q_OBJECT

private:
    ClusterFixture m_cluster;

    Endpoint clusterEndpoint() const { return m_cluster.endpoint(); }
    std::unique_ptr<RedisConnection> openCluster() {
        ConnectionOptions options;
        options.commandTimeout = std::chrono::milliseconds(10000);
        return RedisConnection::open(clusterEndpoint(), options);
    }
    QByteArray keyOn(int node, const QByteArray &prefix, bool hashTag) {
        return m_cluster.keyOn(node, prefix, hashTag);
    }
    RedisFixture &primary(int index) { return m_cluster.node(index); }
    QByteArray nodeId(int node) { return primary(node).run({"CLUSTER", "MYID"}).text; }
    qint64 errorStat(int node, const QByteArray &code) {
        const QByteArray info = primary(node).run({"INFO", "errorstats"}).text;
        const qsizetype at = info.indexOf("errorstat_" + code + ":count=");
        if (at < 0)
            return 0;
        const qsizetype start = at + code.size() + 17;
        return info.mid(start, info.indexOf('\r', start) - start).toLongLong();
    }

private Q_SLOTS:
    void initTestCase() {
        qRegisterMetaType<poolscope::LoadReport>();
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.error()));
    }

    void routesEveryPoolToItsOwner_data() {
        QTest::addColumn<int>("node");
        QTest::addColumn<bool>("hashTag");
        for (int node = 0; node < 3; ++node) {
            QTest::addRow("shard %d, hash tag", node) << node << true;
            QTest::addRow("shard %d, no hash tag", node) << node << false;
        }
    }
    void routesEveryPoolToItsOwner() {
        QFETCH(int, node);
        QFETCH(bool, hashTag);
        const QByteArray key = keyOn(node, "route", hashTag);
        QVERIFY(!key.isEmpty());
        auto connection = openCluster();
        QVERIFY(connection->cluster());
        PoolOperations pool(*connection, key);
        const SeedResult seeded = pool.seed(names(20), {});
        QCOMPARE(seeded.added.size(), 20);
        QCOMPARE(pool.allocate().value(), QByteArray("m0"));
        pool.evict("m1", {}, QStringLiteral("cluster check")); // pool, companion and trail
        QCOMPARE(pool.size(), 19);
        // The three keys are on the owner itself, and nowhere else; the trail's slot is the
        // pool's, as the server computes it.
        const QByteArray trail = pool.keys().audit();
        QCOMPARE(primary(node).run({"CLUSTER", "KEYSLOT", trail}).integer,
                 primary(node).run({"CLUSTER", "KEYSLOT", key}).integer);
        for (int i = 0; i < 3; ++i) {
            const qint64 expected = i == node ? 3 : 0;
            QCOMPARE(primary(i).run({"EXISTS", key, pool.keys().evicted(), trail}).integer,
                     expected);
        }
        QCOMPARE(primary(node).run({"XLEN", trail}).integer, 2); // the seed and the eviction
        QCOMPARE(connection->cluster()->counters().moved, 0);    // the map was right: no redirects
        // Read back through the cluster connection, routed to the owner.
        const QList<AuditEntry> entries = AuditTrail(*connection, pool.keys()).after({}, 10);
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries[1].reason, QStringLiteral("cluster check"));
    }

    void plainUrlToAnyNodeRoutesToo() {
        const QByteArray key = keyOn(2, "plain", true);
        primary(2).makePool(key, names(5));
        // Node 0's own URL: poolscope finds out it is a cluster node and routes.
        ConnectionOptions options;
        auto connection = RedisConnection::open(primary(0).endpoint(), options);
        QVERIFY(connection->isClusterNode());
        QVERIFY(connection->cluster());
        PoolOperations pool(*connection, key);
        QCOMPARE(pool.size(), 5);
        QCOMPARE(pool.snapshot().members.size(), 5);
        // The same node with singleNode talks to that node alone, and meets MOVED.
        options.singleNode = true;
        auto single = RedisConnection::open(primary(0).endpoint(), options);
        QVERIFY(!single->cluster());
        QVERIFY(single->command({"ZCARD", key}).text.startsWith("MOVED"));
    }

    void databaseOtherThanZeroIsRefused() {
        Endpoint endpoint = primary(0).endpoint();
        endpoint.database = 2;
        try {
            RedisConnection::open(endpoint);
            QFAIL("a cluster node accepted database 2");
        } catch (const RedisError &error) {
            QVERIFY2(error.message().contains(QStringLiteral("a cluster has database 0 only")),
                     qPrintable(error.message()));
        }
    }

    void crossSlotIsAClearError() {
        auto connection = openCluster();
        const QByteArray a = keyOn(0, "cross", false);
        const QByteArray b = keyOn(0, "other", false);
        try {
            connection->command({"MGET", a, b});
            QFAIL("CROSSSLOT was not reported");
        } catch (const RedisError &error) {
            QCOMPARE(error.serverCode(), QByteArray("CROSSSLOT"));
            QVERIFY2(error.message().contains(QStringLiteral("different hash slots")),
                     qPrintable(error.message()));
        }
        QVERIFY(!connection->isBroken()); // an error reply, not a broken connection
    }

    void mapReadFromShardsMatchesSlots() {
        RedisConnection &node = primary(1).admin();
        const NodeAddress asked{node.endpoint().host, node.endpoint().port};
        const auto shards =
            topology::ClusterSlotMap::fromShards(node.command({"CLUSTER", "SHARDS"}), asked);
        const auto fromSlotList =
            topology::ClusterSlotMap::fromSlots(node.command({"CLUSTER", "SLOTS"}), asked);
        QCOMPARE(shards.unassignedSlots(), 0);
        QCOMPARE(shards.primaries().size(), 3);
        for (int slot = 0; slot < topology::ClusterSlotMap::kSlots; slot += 97)
            QCOMPARE(shards.ownerOf(slot), fromSlotList.ownerOf(slot));
    }

    void poolsCommandSeesEveryShard() {
        QList<QByteArray> keys;
        for (int node = 0; node < 3; ++node) {
            keys.append(keyOn(node, "listed", node != 1));
            primary(node).makePool(keys.last(), names(10 + node), node);
        }
        primary(0).run({"ZADD", keyOn(0, "notapool", false), "0.5", "x"}); // not counts
        const QString url = clusterEndpoint().toUrl();
        QVERIFY(url.startsWith(QStringLiteral("redis+cluster://")));
        const CliRun run =
            runCli({QStringLiteral("--url"), url, QStringLiteral("--json"), QStringLiteral("pools"),
                    QStringLiteral("--interval"), QStringLiteral("0")});
        QVERIFY2(run.exitCode == 0, run.err);
        const QJsonArray rows =
            QJsonDocument::fromJson(run.out).object().value(QStringLiteral("pools")).toArray();
        QHash<QString, QJsonObject> byKey;
        for (const QJsonValue &row : rows)
            byKey.insert(row[QStringLiteral("key")].toString(), row.toObject());
        for (int node = 0; node < 3; ++node) {
            const QJsonObject row = byKey.value(QString::fromUtf8(keys[node]));
            QVERIFY2(!row.isEmpty(), run.out);
            QCOMPARE(row[QStringLiteral("node")].toString(),
                     QStringLiteral("127.0.0.1:%1").arg(primary(node).endpoint().port));
            QCOMPARE(row[QStringLiteral("size")].toInt(), 10 + node);
            QCOMPARE(row[QStringLiteral("min")].toDouble(), double(node));
        }
        for (const QString &key : byKey.keys())
            QVERIFY2(!key.startsWith(QStringLiteral("notapool")), qPrintable(key));
        // The table form, through a plain URL to one node, with a rate over 200 ms.
        const CliRun table =
            runCli({QStringLiteral("--url"), primary(1).url(), QStringLiteral("pools"),
                    QStringLiteral("--interval"), QStringLiteral("200")});
        QVERIFY2(table.exitCode == 0, table.err);
        for (const QByteArray &key : keys)
            QVERIFY2(table.out.contains(key + '\t'), table.out);
    }

    // The dashboard's key finder (the writer thread) scans every primary with its own cursor.
    void keyFinderScansEveryPrimary() {
        QList<QByteArray> keys;
        for (int node = 0; node < m_cluster.size(); ++node) {
            keys.append(keyOn(node, "found", node == 0));
            primary(node).makePool(keys.last(), names(3));
        }
        PoolWriter writer;
        QSignalSpy found(&writer, &PoolWriter::poolKeysFound);
        QSignalSpy failed(&writer, &PoolWriter::commandFailed);
        writer.setTarget(clusterEndpoint(), keys.first());
        writer.findPoolKeys(1000);
        QVERIFY(found.wait(10000));
        QCOMPARE(failed.count(), 0);
        const QStringList listed = found.first().first().toStringList();
        for (const QByteArray &key : keys)
            QVERIFY2(listed.contains(QString::fromUtf8(key)), qPrintable(listed.join(u',')));
    }

    // On a plain server too. A big pool is read by single ranks only (three ZRANGEs of one or
    // two members: never the whole pool), its rate counted exactly from the members at the
    // levels above its minimum (ZCOUNTs).
    void catalogOfAPlainServerReadsBigPoolsByRank() {
        RedisFixture plain;
        QVERIFY2(plain.start(), qPrintable(plain.error()));
        plain.makePool("big", names(5000), 0);
        plain.makePool("small", names(10), 2);
        ConnectionOptions options;
        auto connection = RedisConnection::open(plain.endpoint(), options);
        QVERIFY(!connection->cluster());
        const auto zrangeCalls = [&plain] {
            const QByteArray info = plain.run({"INFO", "commandstats"}).text;
            const qsizetype at = info.indexOf("cmdstat_zrange:calls=");
            return at < 0 ? 0 : info.mid(at + 21, info.indexOf(',', at) - at - 21).toLongLong();
        };
        const qint64 before = zrangeCalls();
        const QList<PoolOverview> first = PoolCatalog::read(*connection);
        QCOMPARE(zrangeCalls() - before, 3 + 4); // big: min, max, median; small: the same + all
        QCOMPARE(first.size(), 2);
        QCOMPARE(first[0].key, QByteArray("big"));
        QVERIFY(!first[0].countSum);
        QCOMPARE(first[1].countSum.value_or(-1), 20.0);
        plain.makePool("big", names(5000), 1); // every member allocated once
        plain.makePool("small", names(10), 3);
        QList<PoolOverview> second = PoolCatalog::read(*connection);
        PoolCatalog::addRates(second, first, 2.0);
        QCOMPARE(second[0].allocationRate.value_or(-1), 2500.0);
        QVERIFY(!second[0].rateEstimated);
        QCOMPARE(second[1].allocationRate.value_or(-1), 5.0);
        QVERIFY(!second[1].rateEstimated);
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
        QVERIFY(reader->cluster()->counters().moved > 3);
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
        QVERIFY(evictor->cluster()->counters().tryAgain > 0);
        QVERIFY(evictor->cluster()->counters().ask > 0);

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

    // One primary that hangs (SIGSTOP) costs only its own pools: `pools` lists the others and
    // names it, exit code 1.
    void poolsNamesAHungPrimaryAndListsTheRest() {
        QList<QByteArray> keys;
        for (int node = 0; node < 3; ++node) {
            keys.append(keyOn(node, "hung", true));
            primary(node).makePool(keys.last(), names(3), 1);
        }
        const qint64 pid = primary(2).server().pid();
        QCOMPARE_GT(pid, 0);
        QCOMPARE(::kill(pid_t(pid), SIGSTOP), 0);
        // Resumed however this test ends.
        const auto resume = qScopeGuard([pid] { ::kill(pid_t(pid), SIGCONT); });
        const CliRun run =
            runCli({QStringLiteral("--url"), clusterEndpoint().toUrl(), QStringLiteral("--json"),
                    QStringLiteral("--connect-timeout"), QStringLiteral("500"),
                    QStringLiteral("--command-timeout"), QStringLiteral("500"),
                    QStringLiteral("pools"), QStringLiteral("--interval"), QStringLiteral("0")});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        QSet<QString> listedKeys;
        for (const QJsonValue &row : report.value(QStringLiteral("pools")).toArray())
            listedKeys.insert(row[QStringLiteral("key")].toString());
        QVERIFY2(listedKeys.contains(QString::fromUtf8(keys[0])), run.out);
        QVERIFY2(listedKeys.contains(QString::fromUtf8(keys[1])), run.out);
        QVERIFY2(!listedKeys.contains(QString::fromUtf8(keys[2])), run.out);
        const QJsonArray unread = report.value(QStringLiteral("unread_nodes")).toArray();
        QCOMPARE(unread.size(), 1);
        const QString hungNode = QStringLiteral("127.0.0.1:%1").arg(primary(2).endpoint().port);
        QCOMPARE(unread[0][QStringLiteral("node")].toString(), hungNode);
        QVERIFY2(run.err.contains(hungNode.toUtf8()), run.err);
        // The dashboard's reader the same way: the list, then the node it could not read.
        PoolCatalogReader reader;
        ConnectionOptions quick;
        quick.connectTimeout = std::chrono::milliseconds(500);
        quick.commandTimeout = std::chrono::milliseconds(500);
        reader.setTarget(clusterEndpoint(), quick);
        QSignalSpy read(&reader, &PoolCatalogReader::catalogRead);
        QSignalSpy failed(&reader, &PoolCatalogReader::readFailed);
        reader.read();
        QVERIFY(read.wait(20000));
        QSet<QByteArray> readKeys;
        for (const PoolOverview &pool : read.first().first().value<QList<PoolOverview>>())
            readKeys.insert(pool.key);
        QVERIFY(readKeys.contains(keys[0]) && readKeys.contains(keys[1]));
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.first().first().toString().contains(hungNode),
                 qPrintable(failed.first().first().toString()));
        ::kill(pid_t(pid), SIGCONT);
        QTRY_COMPARE_WITH_TIMEOUT(primary(2).run({"PING"}).text, QByteArray("PONG"), 10000);
        for (int node = 0; node < 3; ++node)
            primary(node).run({"DEL", keys[node]});
    }

    // Last, as it takes a slot away: with a slot not served, the cluster refuses every command
    // with CLUSTERDOWN, reported as what it is (not as a pool error). The slot is then given
    // back.
    void clusterDownIsAClearError() {
        const QByteArray key = keyOn(0, "down", true);
        const QByteArray slotText = QByteArray::number(topology::hashSlot(key));
        auto connection = openCluster();
        PoolOperations pool(*connection, key);
        QCOMPARE(pool.size(), 0);
        for (int i = 0; i < m_cluster.size(); ++i)
            QCOMPARE(primary(i).run({"CLUSTER", "DELSLOTS", slotText}).text, "OK");
        const auto refusal = [&]() -> QString {
            try {
                pool.size();
                return {};
            } catch (const RedisError &error) {
                return QString::fromUtf8(error.serverCode()) + u' ' + error.message();
            }
        };
        QTRY_VERIFY_WITH_TIMEOUT(refusal().startsWith(QStringLiteral("CLUSTERDOWN")), 10000);
        QVERIFY2(refusal().contains(QStringLiteral("the cluster is down")), qPrintable(refusal()));
        QVERIFY(!connection->isBroken());
        QCOMPARE(primary(0).run({"CLUSTER", "ADDSLOTS", slotText}).text, "OK");
        for (int i = 0; i < m_cluster.size(); ++i)
            QTRY_VERIFY_WITH_TIMEOUT(
                primary(i).run({"CLUSTER", "INFO"}).text.contains("cluster_state:ok"), 20000);
        QCOMPARE(pool.size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
