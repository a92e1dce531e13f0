// Redis Cluster against three real primaries on loopback, created once for the file:
// routing to each key's owner, detection behind a plain URL, clear CROSSSLOT / database errors,
// and a load run that meets ASK and MOVED while its pool's slot moves to another primary (and an
// eviction that meets TRYAGAIN), with every allocation accounted for.
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

class TestCluster : public QObject, public ClusterCase {
    Q_OBJECT

private Q_SLOTS:
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