// The dashboard behind Sentinel: the status bar names the primary and the sentinel that gave
// it; a kill -9 of the primary becomes a failover event with a chart marker, and counts the new
// primary never had become a "counts went back ... after the primary changed" event.

#include "MainWindow.h"
#include "connection/StatusBarPanel.h"
#include "session/PoolSession.h"
#include "startup/AppOptions.h"

#include "SentinelTopology.h"

#include <QtTest>

using namespace poolscope;
using namespace std::chrono_literals;

namespace {

Endpoint direct(int port) {
    Endpoint endpoint;
    endpoint.host = QStringLiteral("127.0.0.1");
    endpoint.port = port;
    return endpoint;
}

bool hasEvent(const PoolSession &session, const QString &start) {
    for (const HistoryEvent &event :
         session.history().events(0, std::numeric_limits<qint64>::max()))
        if (event.label.startsWith(start))
            return true;
    return false;
}

} // namespace

class TestSentinelFailover : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(m_topology.start(), qPrintable(m_topology.error()));
    }

    void commandLine_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("password");
        QTest::newRow("sentinel password")
            << QStringList{"--url", "redis+sentinel://s1,s2/m", "--sentinel-password", "pw"}
            << QString() << "pw";
        QTest::newRow("without a sentinel URL")
            << QStringList{"--url", "redis://h", "--sentinel-password", "pw"}
            << "--sentinel-password needs a redis+sentinel:// URL" << QString();
    }
    void commandLine() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        QFETCH(QString, password);
        const AppOptionsResult result = parseAppOptions(
            QStringList{QStringLiteral("poolscope")} << arguments, {}, QStringLiteral("1"));
        QCOMPARE(result.error, error);
        if (error.isEmpty())
            QCOMPARE(result.options->sentinelPassword, password);
    }

    void followsAFailover() {
        const QByteArray key = "proxies";
        const auto primary = RedisConnection::open(direct(m_topology.serverPort(0)));
        primary->commandOrThrow(
            {"ZADD", key, "10", "192.0.2.1:8080", "10", "192.0.2.2:8080", "10", "192.0.2.3:8080"});
        primary->commandOrThrow({"WAIT", "1", "2000"});
        // What a failover loses, made certain: the replica (the next primary) is 4 allocations
        // behind on one member, as if the old primary acknowledged them and died before
        // replicating them.
        const auto replica = RedisConnection::open(direct(m_topology.serverPort(1)));
        replica->commandOrThrow({"CONFIG", "SET", "replica-read-only", "no"});
        replica->commandOrThrow({"ZINCRBY", key, "-4", "192.0.2.2:8080"});

        PoolSession session;
        MainWindow window(&session);
        window.resize(1100, 700);
        window.show();
        session.setPollInterval(200ms);
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.connectTo(m_topology.endpoint(), key);
        QVERIFY(observed.wait(10000));
        const QString oldPrimary = QStringLiteral("127.0.0.1:%1").arg(m_topology.serverPort(0));
        const QString newPrimary = QStringLiteral("127.0.0.1:%1").arg(m_topology.serverPort(1));
        QTRY_VERIFY2(window.statusPanel()->stateText().contains(
                         QStringLiteral("primary %1 (from sentinel 127.0.0.1:").arg(oldPrimary)),
                     qPrintable(window.statusPanel()->stateText()));

        m_topology.server(0).killHard();
        QTRY_VERIFY_WITH_TIMEOUT(window.statusPanel()->stateText().contains(
                                     QStringLiteral("primary %1").arg(newPrimary)),
                                 30000);
        QTRY_VERIFY(hasEvent(session, QStringLiteral("failover: the primary moved from %1 to %2")
                                          .arg(oldPrimary, newPrimary)));
        QTRY_VERIFY(hasEvent(session, QStringLiteral("counts went back by 4 allocations on 1 "
                                                     "members after the primary changed")));
        // A few more polls, so the chart has drawn the lines and markers since the switch.
        observed.clear();
        QTRY_VERIFY_WITH_TIMEOUT(observed.size() >= 15, 10000);
        // Into the build tree: a test run never changes the checkout (docs/ holds a copy).
        const QString shots =
            QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QDir().mkpath(shots);
        const QString shot = shots + QStringLiteral("/sentinel-failover.png");
        QVERIFY(window.grab().save(shot));
        qInfo().noquote() << "status bar after the failover:" << window.statusPanel()->stateText()
                          << "; screenshot" << shot;
    }

private:
    testing::SentinelTopology m_topology;
};

QTEST_MAIN(TestSentinelFailover)
#include "tst_sentinelfailover.moc"
