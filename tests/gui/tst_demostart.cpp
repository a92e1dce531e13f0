// The demo's start: its empty pool is seeded before the session judges it, so the demo never
// opens on a "Pool empty" alert (neither in the Alerts panel nor in the events); once seeded the
// pool is judged like any other (emptied by hand, it fires). A real redis-server.
#include "MainWindow.h"
#include "alerts/AlertsPanel.h"
#include "events/EventsPanel.h"
#include "session/DemoDriver.h"
#include "session/PoolAlerts.h"
#include "session/PoolSession.h"

#include "MainWindowFixture.h"
#include "RedisFixture.h"

#include <QTreeWidget>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

bool firedPoolEmpty(const QSignalSpy &spy) {
    for (const QList<QVariant> &arguments : spy) {
        const auto transition = arguments.at(0).value<AlertTransition>();
        if (transition.rule.kind == AlertKind::PoolEmpty)
            return true;
    }
    return false;
}

// Every event that names the pool-empty rule (its title, as the events show it).
QStringList poolEmptyEvents(const EventsPanel *events) {
    const QString title = alertRuleTitle(AlertKind::PoolEmpty);
    QStringList found;
    for (int row = 0; row < events->entryCount(); ++row)
        if (events->entryText(row).contains(title))
            found.append(events->entryText(row));
    return found;
}

} // namespace

class TestDemoStart : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // As poolscope starts without arguments: the demo is on before the session's first poll of
    // the embedded server's empty pool.
    void demoOpensWithoutPoolEmptyAlert() {
        RedisFixture server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        Dashboard d;
        DemoDriver::Settings settings;
        settings.ratePerSecond = 100;
        DemoDriver demo(&d.session, server.endpoint(), settings);
        demo.setEnabled(true);
        QSignalSpy fired(&d.session.alerts(), &PoolAlerts::alertFired);
        QSignalSpy seeded(&demo, &DemoDriver::demoSeeded);
        QVERIFY(d.connectTo(server));
        QVERIFY(seeded.wait(10000));
        QTRY_VERIFY_WITH_TIMEOUT(demo.isLoadRunning(), 10000);
        // Judging is back (a poll saw the seeded members), and a few more judged polls.
        QTRY_VERIFY_WITH_TIMEOUT(!d.session.alerts().isPreparing(), 10000);
        for (int i = 0; i < 5; ++i)
            QVERIFY(d.nextPoll());

        QVERIFY(!firedPoolEmpty(fired));
        for (const AlertStatus &status : d.session.alerts().statuses())
            if (status.rule.kind == AlertKind::PoolEmpty)
                QCOMPARE(status.state, AlertState::Inactive);
        QCOMPARE(d.window.alertsPanel()->table()->topLevelItemCount(), 0);
        const QStringList events = poolEmptyEvents(d.window.eventsPanel());
        QVERIFY2(events.isEmpty(), qPrintable(events.join(QLatin1Char('\n'))));

        // Seeded, the pool is judged like any other: emptied by hand, the alert fires.
        demo.setEnabled(false);
        server.run({"DEL", kKey});
        QTRY_VERIFY_WITH_TIMEOUT(firedPoolEmpty(fired), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!poolEmptyEvents(d.window.eventsPanel()).isEmpty(), 10000);
    }

    // Another server's empty pool is no demo's: it is judged from the first poll.
    void emptyPoolOfAnotherServerFiresAtOnce() {
        RedisFixture demoServer;
        QVERIFY2(demoServer.start(), qPrintable(demoServer.error()));
        RedisFixture usersServer;
        QVERIFY2(usersServer.start(), qPrintable(usersServer.error()));
        Dashboard d;
        DemoDriver demo(&d.session, demoServer.endpoint());
        demo.setEnabled(true);
        QSignalSpy fired(&d.session.alerts(), &PoolAlerts::alertFired);
        QVERIFY(d.connectTo(usersServer));
        QVERIFY(!d.session.alerts().isPreparing());
        QTRY_VERIFY_WITH_TIMEOUT(firedPoolEmpty(fired), 10000);
        QCOMPARE(usersServer.run({"EXISTS", kKey}).integer, 0LL); // nothing seeded there
    }
};

QTEST_MAIN(TestDemoStart)
#include "tst_demostart.moc"
