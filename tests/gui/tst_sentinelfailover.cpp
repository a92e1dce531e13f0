// The dashboard behind Sentinel: the status bar names the primary and the sentinel that gave
// it; a kill -9 of the primary becomes a failover event with a chart marker, and counts the new
// primary never had become a "counts went back ... after the primary changed" event. Test
// allocations through a failover report what was lost as the CLI's allocate does.

#include "MainWindow.h"
#include "actions/PoolActions.h"
#include "actions/TestAllocationDialog.h"
#include "connection/StatusBarPanel.h"
#include "session/PoolSession.h"
#include "startup/AppOptions.h"

#include "SentinelTopology.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QPushButton>
#include <QRegularExpression>
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

QHash<QByteArray, double> countsOn(RedisConnection &server, const QByteArray &key) {
    const RedisReply reply = server.commandOrThrow({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    QHash<QByteArray, double> counts;
    for (qsizetype i = 0; i + 1 < reply.elements.size(); i += 2)
        counts.insert(reply.elements.at(i).text, reply.elements.at(i + 1).text.toDouble());
    return counts;
}

double sumOf(const QHash<QByteArray, double> &counts) {
    double sum = 0;
    for (const double count : counts)
        sum += count;
    return sum;
}

// The figures of the dialog's line matching `pattern`, read as the locale wrote them; empty when
// no line matches.
QList<double> figuresOf(const QString &text, const QString &pattern) {
    const QRegularExpressionMatch match =
        QRegularExpression(pattern, QRegularExpression::MultilineOption).match(text);
    QList<double> figures;
    for (int i = 1; i <= match.lastCapturedIndex(); ++i) {
        bool ok = false;
        figures.append(QLocale().toDouble(match.captured(i), &ok));
        if (!ok)
            return {};
    }
    return figures;
}

bool hasEvent(const PoolSession &session, const QString &start) {
    for (const HistoryEvent &event :
         session.history().events(0, std::numeric_limits<qint64>::max()))
        if (event.label.startsWith(start))
            return true;
    return false;
}

// Makes a failover's loss certain: the replica (the next primary) falls `behind` allocations
// behind on one member, as if the old primary acknowledged them and died before replicating them.
void putReplicaBehind(const testing::SentinelTopology &topology, const QByteArray &key,
                      const QByteArray &member, qint64 behind) {
    const auto replica = RedisConnection::open(direct(topology.serverPort(1)));
    replica->commandOrThrow({"CONFIG", "SET", "replica-read-only", "no"});
    replica->commandOrThrow({"ZINCRBY", key, QByteArray::number(-behind), member});
}

// The dashboard watching a pool, polled every 200 ms.
struct WatchedPool {
    PoolSession session;
    MainWindow window{&session};

    // Shows the window, connects, and waits for the first poll.
    bool watch(const Endpoint &endpoint, const QByteArray &key) {
        window.resize(1100, 700);
        window.show();
        session.setPollInterval(200ms);
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.connectTo(endpoint, key);
        return observed.wait(10000);
    }
};

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
        putReplicaBehind(m_topology, key, "192.0.2.2:8080", 4);

        WatchedPool watched;
        QVERIFY(watched.watch(m_topology.endpoint(), key));
        PoolSession &session = watched.session;
        MainWindow &window = watched.window;
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
        const QSignalSpy observed(&session, &PoolSession::observationApplied);
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

    // Pool ▸ Test allocations behind Sentinel, the primary killed mid-run: the dialog's report
    // gives the CLI's accounting (the same LoadReport fields allocate prints and --json writes),
    // and what it calls lost is what the new primary lacks.
    void testAllocationsAccountForAFailover() {
        testing::SentinelTopology topology; // its own: the one above is left without a replica
        QVERIFY2(topology.start(), qPrintable(topology.error()));
        QTRY_VERIFY_WITH_TIMEOUT(topology.replicaHealthy(1), 30000);
        const QByteArray key = "proxies";
        const double seeded = 100;
        const int members = 20;
        auto primary = RedisConnection::open(direct(topology.serverPort(0)));
        QList<QByteArray> seed{"ZADD", key};
        for (int i = 0; i < members; ++i)
            seed << QByteArray::number(seeded) << "proxy" + QByteArray::number(i);
        primary->commandOrThrow(seed);
        primary->commandOrThrow({"WAIT", "1", "2000"});
        // A loss made certain: the replica (the next primary) is `planted` allocations behind on
        // one member, as if the old primary acknowledged them and died before replicating them.
        // More than the run can have in flight (4 workers x 8), so no unknown can hide it.
        const qint64 planted = 100;
        putReplicaBehind(topology, key, "proxy7", planted);

        WatchedPool watched;
        QVERIFY(watched.watch(topology.endpoint(), key));
        MainWindow &window = watched.window;
        QAction *testAllocations = window.actions()->testAllocationsAction();
        QTRY_VERIFY(testAllocations->isEnabled());
        testAllocations->trigger(); // Pool ▸ Test allocations…, as the menu does
        TestAllocationDialog *dialog = window.actions()->testAllocationDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        // Long enough for the failover (about 2 s after the kill); capped to spare the machine.
        dialog->setDuration(12);
        dialog->setWorkers(4);
        dialog->setPipeline(8);
        dialog->setRate(2000);
        QSignalSpy finished(dialog, &TestAllocationDialog::runFinished);
        QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
        QVERIFY(dialog->isRunning());
        // Allocations are flowing (and replicating) before the primary dies.
        QTRY_VERIFY_WITH_TIMEOUT(sumOf(countsOn(*primary, key)) > seeded * members + 1000, 10000);
        topology.server(0).killHard();
        primary.reset();
        QVERIFY(finished.wait(40000));
        const QString text = dialog->resultText();
        qInfo().noquote() << "the dialog's report:\n" << text;

        const QString oldPrimary = QStringLiteral("127.0.0.1:%1").arg(topology.serverPort(0));
        const QString newPrimary = QStringLiteral("127.0.0.1:%1").arg(topology.serverPort(1));
        QCOMPARE(topology.primaryNamed(), newPrimary);
        QVERIFY2(text.contains(QStringLiteral("failover: the primary went from %1 to %2\n")
                                   .arg(oldPrimary, newPrimary)),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("errors: 0\n")), qPrintable(text));
        const QList<double> allocated = figuresOf(text, QStringLiteral("^allocated (\\S+) in "));
        const QList<double> unknown = figuresOf(
            text, QStringLiteral("^outcome unknown \\(no reply, never retried\\): (\\S+)$"));
        const QList<double> connections = figuresOf(
            text, QStringLiteral("^connections lost mid-run: (\\S+), reconnected: (\\S+)$"));
        const QList<double> lost = figuresOf(
            text, QStringLiteral("^lost in failover: (\\S+) acknowledged allocations on (\\S+) "
                                 "members \\(sum of counts (\\S+) before, (\\S+) after\\)$"));
        QCOMPARE(allocated.size(), 1);
        QCOMPARE(unknown.size(), 1);
        QCOMPARE(connections.size(), 2);
        QCOMPARE(lost.size(), 4);

        // The figures the CLI prints for the same run (allocate's report is this LoadReport).
        QVERIFY(dialog->lastReport());
        const QJsonObject cli = dialog->lastReport()->toJson();
        QCOMPARE(allocated[0], cli.value("allocated").toDouble());
        QCOMPARE(unknown[0], cli.value("unknown").toDouble());
        QCOMPARE(connections[0], cli.value("connection_losses").toDouble());
        QCOMPARE(connections[1], cli.value("reconnects").toDouble());
        QCOMPARE(lost[0], cli.value("lost_in_failover").toDouble());
        QCOMPARE(lost[1], cli.value("lost_members").toDouble());
        QCOMPARE(cli.value("primaries").toArray(), (QJsonArray{oldPrimary, newPrimary}));
        // Every worker lost the primary and came back to the new one.
        QVERIFY2(connections[0] >= 4 && connections[1] >= 4, qPrintable(text));

        // What the servers hold: the seed before, the new primary's counts after.
        const auto survivor = RedisConnection::open(direct(topology.serverPort(1)));
        const QHash<QByteArray, double> after = countsOn(*survivor, key);
        QCOMPARE(lost[2], seeded * members);
        QCOMPARE(lost[3], sumOf(after));
        // Lost: each member's acknowledged allocations the new primary does not have.
        double missing = 0;
        double missingMembers = 0;
        const QHash<QByteArray, qint64> &acked = dialog->lastReport()->perMember;
        for (int i = 0; i < members; ++i) {
            const QByteArray member = "proxy" + QByteArray::number(i);
            const double short_ = seeded + double(acked.value(member)) - after.value(member);
            if (short_ > 0) {
                missing += short_;
                ++missingMembers;
            }
        }
        QCOMPARE(lost[0], missing);
        QCOMPARE(lost[1], missingMembers);
        QVERIFY2(lost[0] >= double(planted) - unknown[0], qPrintable(text));
        // Every allocation accounted for: the new primary holds the seed plus what was
        // acknowledged, minus what was lost, plus at most the unknowns.
        const double landedUnknown = sumOf(after) - seeded * members - (allocated[0] - lost[0]);
        QVERIFY2(landedUnknown >= 0 && landedUnknown <= unknown[0],
                 qPrintable(QString::number(landedUnknown)));
        qInfo().noquote() << "lost in failover:" << lost[0] << "on" << lost[1] << "members;"
                          << allocated[0] << "acknowledged," << unknown[0] << "unknown,"
                          << landedUnknown << "of them landed";
    }

private:
    testing::SentinelTopology m_topology;
};

QTEST_MAIN(TestSentinelFailover)
#include "tst_sentinelfailover.moc"
