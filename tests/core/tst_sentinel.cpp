// Sentinel: resolution, its errors, and a kill -9 of the primary during a load run. One
// topology (primary, replica, three sentinels) for the whole file; the failover test runs last.
#include "RedisFixture.h"
#include "SentinelTopology.h"

#include "base/RedisError.h"
#include "load/FailoverLoss.h"
#include "load/LoadRunner.h"
#include "monitor/PoolMonitor.h"
#include "topology/SentinelResolver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

Q_DECLARE_METATYPE(poolscope::LoadReport)

using namespace poolscope;

namespace {

Endpoint direct(int port) {
    Endpoint endpoint;
    endpoint.host = QStringLiteral("127.0.0.1");
    endpoint.port = port;
    return endpoint;
}

QString errorOf(const Endpoint &endpoint) {
    try {
        RedisConnection::open(endpoint);
    } catch (const RedisError &error) {
        return error.message();
    }
    return {};
}

double sumOfCounts(RedisConnection &connection, const QByteArray &key) {
    const RedisReply reply = connection.commandOrThrow({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    double sum = 0;
    for (qsizetype i = 1; i < reply.elements.size(); i += 2)
        sum += reply.elements.at(i).text.toDouble();
    return sum;
}

} // namespace

class TestSentinel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        qRegisterMetaType<LoadReport>();
        QVERIFY2(m_topology.start(), qPrintable(m_topology.error()));
    }

    void resolvesThePrimaryAndNamesTheSentinel() {
        const auto connection = RedisConnection::open(m_topology.endpoint());
        QCOMPARE(connection->endpoint().port, m_topology.serverPort(0));
        QCOMPARE(connection->endpoint().topology, Endpoint::Topology::Direct);
        QVERIFY(connection->resolvedBy().has_value());
        QCOMPARE(connection->resolvedBy()->port, m_topology.sentinelPort(0));
        QCOMPARE(connection->command({"ROLE"}).elements.value(0).text, QByteArray("master"));
    }

    void firstSentinelThatAnswersMovesToTheFront() {
        // A dead sentinel first: asked, skipped; the one that answered is asked first next time.
        Endpoint endpoint = m_topology.endpoint();
        const NodeAddress dead{QStringLiteral("127.0.0.1"), RedisServerProcess::pickFreeTcpPort()};
        endpoint.seeds.prepend(dead);
        QCOMPARE(topology::sentinelOrder(endpoint).first(), dead);
        const auto connection = RedisConnection::open(endpoint);
        QCOMPARE(connection->resolvedBy()->port, m_topology.sentinelPort(0));
        const QList<NodeAddress> order = topology::sentinelOrder(endpoint);
        QCOMPARE(order.first().port, m_topology.sentinelPort(0));
        QVERIFY(order.contains(dead));
        QCOMPARE(order.size(), endpoint.seeds.size());
    }

    void allSentinelsDown() {
        Endpoint endpoint = m_topology.endpoint();
        endpoint.seeds = {{QStringLiteral("127.0.0.1"), RedisServerProcess::pickFreeTcpPort()},
                          {QStringLiteral("127.0.0.1"), RedisServerProcess::pickFreeTcpPort()}};
        const QString error = errorOf(endpoint);
        QVERIFY2(error.startsWith(QStringLiteral("no sentinel reachable (tried 127.0.0.1:%1, "
                                                 "127.0.0.1:%2)")
                                      .arg(endpoint.seeds[0].port)
                                      .arg(endpoint.seeds[1].port)),
                 qPrintable(error));
    }

    void wrongMasterName() {
        const QString error = errorOf(m_topology.endpoint(QStringLiteral("nosuchmaster")));
        QVERIFY2(error.startsWith(QStringLiteral("no sentinel knows master \"nosuchmaster\"")),
                 qPrintable(error));
        QVERIFY2(!error.contains(QStringLiteral("reachable")), qPrintable(error));
    }

    void replicaNamedAsPrimaryIsRefused() {
        // A sentinel told to monitor the replica under another name names it as that master's
        // primary: the ROLE check must refuse it.
        const QByteArray name = "replica-as-primary";
        for (int i = 0; i < 3; ++i) {
            const RedisReply reply = m_topology.sentinel(i)->command(
                {"SENTINEL", "MONITOR", name, "127.0.0.1",
                 QByteArray::number(m_topology.serverPort(1)), "2"});
            QVERIFY2(!reply.isError(), reply.text.constData());
        }
        const QString error = errorOf(m_topology.endpoint(QString::fromLatin1(name)));
        for (int i = 0; i < 3; ++i)
            m_topology.sentinel(i)->command({"SENTINEL", "REMOVE", name});
        QVERIFY2(error.contains(QStringLiteral("but its ROLE is slave")), qPrintable(error));
        QVERIFY2(error.contains(QString::number(m_topology.serverPort(1))), qPrintable(error));
    }

    // The loss check's arithmetic, with the losses a real failover may or may not produce here.
    void lossIsWhatTheNewPrimaryDoesNotHave_data() {
        QTest::addColumn<QList<double>>("before");
        QTest::addColumn<QList<qint64>>("acked");
        QTest::addColumn<QList<double>>("after");
        QTest::addColumn<qint64>("lost");
        QTest::addColumn<qint64>("lostMembers");
        QTest::newRow("nothing lost") << QList<double>{5, 5} << QList<qint64>{3, 2}
                                      << QList<double>{8, 7} << qint64(0) << qint64(0);
        QTest::newRow("last acknowledged ones lost")
            << QList<double>{5, 5} << QList<qint64>{3, 2} << QList<double>{6, 6} << qint64(3)
            << qint64(2);
        QTest::newRow("an unknown that landed hides nothing elsewhere")
            << QList<double>{0, 0} << QList<qint64>{4, 4} << QList<double>{5, 2} << qint64(2)
            << qint64(1);
        QTest::newRow("member gone after the switch")
            << QList<double>{1, 0} << QList<qint64>{0, 3} << QList<double>{1, -1} << qint64(3)
            << qint64(1);
    }
    void lossIsWhatTheNewPrimaryDoesNotHave() {
        QFETCH(QList<double>, before);
        QFETCH(QList<qint64>, acked);
        QFETCH(QList<double>, after);
        QFETCH(qint64, lost);
        QFETCH(qint64, lostMembers);
        loadrunner_detail::PoolCountsRead beforeRead, afterRead;
        QHash<QByteArray, qint64> ackedCounts;
        for (qsizetype i = 0; i < before.size(); ++i) {
            const QByteArray member = "m" + QByteArray::number(i);
            beforeRead.counts.insert(member, before[i]);
            if (acked[i] > 0)
                ackedCounts.insert(member, acked[i]);
            if (after[i] >= 0) // -1: not in the pool any more
                afterRead.counts.insert(member, after[i]);
        }
        const loadrunner_detail::FailoverLoss loss =
            loadrunner_detail::compareCounts(beforeRead, ackedCounts, afterRead);
        QCOMPARE(loss.lost, lost);
        QCOMPARE(loss.lostMembers, lostMembers);
    }

    void cliSpeaksSentinel() {
        const auto primary = RedisConnection::open(direct(m_topology.serverPort(0)));
        primary->commandOrThrow({"ZADD", "sentinel:cli", "0", "a", "0", "b"});
        const QString url = m_topology.endpoint().toUrl();
        const testing::CliRun run =
            testing::runCli({"--url", url, "--key", "sentinel:cli", "--json", "allocate", "-n",
                             "100", "--workers", "2", "--wait-replicas", "1"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(report.value("allocated").toInteger(), 100);
        QCOMPARE(report.value("lost_in_failover").toInteger(), 0);
        QVERIFY(report.value("loss_checked").toBool());
        QCOMPARE(report.value("waits_short").toInteger(), 0);
        QCOMPARE_GE(report.value("waits").toInteger(), 2);
        QCOMPARE(report.value("primaries").toArray().first().toString(), serverText(0));

        const testing::CliRun refused =
            testing::runCli({"--url", "redis://127.0.0.1:1", "--sentinel-password", "x", "stats"});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("--sentinel-password needs a redis+sentinel:// URL"),
                 refused.err.constData());
        const testing::CliRun unknown =
            testing::runCli({"--url", m_topology.endpoint(QStringLiteral("nosuch")).toUrl(),
                             "--key", "sentinel:cli", "stats"});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("no sentinel knows master \"nosuch\""),
                 unknown.err.constData());
    }

    void pollerFollowsSwitchMasterAtOnce() {
        // A graceful failover breaks nothing the poller would notice before its next poll, ten
        // minutes away: only +switch-master can move it to the new primary.
        PoolMonitor monitor;
        monitor.setPollInterval(std::chrono::minutes(10));
        QSignalSpy observed(&monitor, &PoolMonitor::observationArrived);
        monitor.connectTo(m_topology.endpoint(), "sentinel:watched");
        QVERIFY(observed.wait(10000));
        QCOMPARE(lastPrimary(observed), serverText(0));
        QCOMPARE(observed.last().at(0).value<PoolObservation>().primaryNamedBy,
                 QStringLiteral("127.0.0.1:%1").arg(m_topology.sentinelPort(0)));
        const RedisReply failover = m_topology.sentinel(0)->command(
            {"SENTINEL", "FAILOVER", testing::SentinelTopology::kMasterName});
        QVERIFY2(!failover.isError(), failover.text.constData());
        QTRY_COMPARE_WITH_TIMEOUT(lastPrimary(observed), serverText(1), 20000);
        QCOMPARE(m_topology.primaryNamed(), serverText(1));
    }

    void killingThePrimaryDuringALoadRun() {
        // Whichever server is primary now dies; the other must be a healthy replica first.
        const int victim = m_topology.primaryNamed() == serverText(0) ? 0 : 1;
        const int survivor = 1 - victim;
        QTRY_VERIFY_WITH_TIMEOUT(m_topology.replicaHealthy(survivor), 30000);
        const QByteArray key = "sentinel:pool";
        const auto primary = RedisConnection::open(direct(m_topology.serverPort(victim)));
        QList<QByteArray> seed{"ZADD", key};
        for (int i = 0; i < 20; ++i)
            seed << "0" << QByteArray("proxy") + QByteArray::number(i);
        primary->commandOrThrow(seed);
        primary->commandOrThrow({"WAIT", "1", "2000"}); // the seed is on the replica too

        LoadSpec spec;
        spec.endpoint = m_topology.endpoint();
        spec.poolKey = key;
        spec.workers = 4;
        spec.pipeline = 8;
        // Long enough for a failover that Sentinel delays (2 x failover-timeout after the last).
        spec.duration = std::chrono::milliseconds(12000);
        spec.connection.connectTimeout = std::chrono::milliseconds(500);
        spec.connection.commandTimeout = std::chrono::milliseconds(500);
        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QVERIFY(runner.start(spec));
        // Allocations are flowing (and replicating) before the primary dies.
        QTRY_VERIFY_WITH_TIMEOUT(
            !progressed.isEmpty() && progressed.last().at(0).toLongLong() > 2000, 10000);
        m_topology.server(victim).killHard();
        QVERIFY(finished.wait(40000));
        const auto report = finished.first().at(0).value<LoadReport>();

        qInfo().noquote() << "failover during a 4-worker run:" << report.allocated
                          << "allocated (acknowledged)," << report.lostInFailover
                          << "of them lost in failover on" << report.lostMembers << "members,"
                          << report.empty << "empty," << report.errors() << "errors,"
                          << report.unknown << "unknown; primaries"
                          << report.primaries.join(QStringLiteral(" -> ")) << "; sum of counts"
                          << QString::number(report.baselineSum, 'f', 0) << "before,"
                          << QString::number(report.finalSum, 'f', 0) << "after;"
                          << report.connectionLosses << "connection losses," << report.reconnects
                          << "reconnects";
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE(report.primaries.size(), 2);
        QCOMPARE(report.primaries.first(), serverText(victim));
        QCOMPARE(report.primaries.last(), serverText(survivor));
        QCOMPARE(m_topology.primaryNamed(), serverText(survivor));
        QCOMPARE_GE(report.reconnects, 4);
        QVERIFY2(report.lossChecked, qPrintable(report.lossCheck));
        QCOMPARE(report.errors(), 0);
        // Every allocation accounted for: the new primary holds what was there before, plus
        // what was acknowledged, minus what the failover lost, plus at most the unknowns.
        const auto newPrimary = RedisConnection::open(m_topology.endpoint());
        const double now = sumOfCounts(*newPrimary, key);
        QCOMPARE(now, report.finalSum);
        const double landedUnknown =
            report.finalSum - report.baselineSum - double(report.allocated - report.lostInFailover);
        QVERIFY2(landedUnknown >= 0 && landedUnknown <= double(report.unknown),
                 qPrintable(QString::number(landedUnknown)));
        QCOMPARE_LE(report.lostInFailover, report.allocated);
        // And it goes on: the runner allocated on the new primary after the switch.
        QCOMPARE_GT(report.finalSum, report.baselineSum);
    }

private:
    QString serverText(int index) const {
        return QStringLiteral("127.0.0.1:%1").arg(m_topology.serverPort(index));
    }
    static QString lastPrimary(const QSignalSpy &spy) {
        return spy.isEmpty() ? QString() : spy.last().at(0).value<PoolObservation>().primary;
    }

    testing::SentinelTopology m_topology;
};

QTEST_GUILESS_MAIN(TestSentinel)
#include "tst_sentinel.moc"
