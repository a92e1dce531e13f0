// The tray icon and keeping watch with the window closed: the worst firing alert as the icon's
// state and its tooltip (a real pool emptied and refilled), the View option (off by default,
// saved, disabled without a tray), closing the window hides it and the session keeps polling;
// and where no notification service is on the session bus (a private bus this test starts and
// stops, with no such service) an alert goes to a tray message, or only to the events.
#include "MainWindow.h"
#include "alerts/AlertsPanel.h"
#include "events/EventsPanel.h"
#include "notify/DesktopNotifier.h"
#include "session/PoolAlerts.h"
#include "session/PoolSession.h"
#include "tray/AlertTray.h"

#include "MainWindowFixture.h"
#include "RedisFixture.h"

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QSystemTrayIcon>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(std::optional<poolscope::AlertSeverity>)

class TestAlertTray : public QObject {
    Q_OBJECT

    QTemporaryDir m_busDir;
    QProcess m_bus; // a session bus of our own: no notification service on it

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_busDir.isValid());
        QFile config(m_busDir.filePath(QStringLiteral("bus.conf")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        // The stock session bus's policy without its service directories: nothing installed on
        // this machine (dunst, say) can be started for org.freedesktop.Notifications.
        config.write(
            "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\" "
            "\"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
            "<busconfig><type>session</type><listen>unix:dir=" +
            QFile::encodeName(m_busDir.path()) +
            "</listen><auth>EXTERNAL</auth><policy context=\"default\">"
            "<allow send_destination=\"*\" eavesdrop=\"true\"/><allow eavesdrop=\"true\"/>"
            "<allow own=\"*\"/></policy></busconfig>\n");
        config.close();
        m_bus.start(QStringLiteral("dbus-daemon"),
                    {QStringLiteral("--config-file=") + config.fileName(),
                     QStringLiteral("--nofork"), QStringLiteral("--print-address")});
        QVERIFY2(m_bus.waitForStarted(10000), qPrintable(m_bus.errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(m_bus.canReadLine(), 10000);
        const QByteArray address = m_bus.readLine().trimmed();
        QVERIFY(address.startsWith("unix:"));
        // Before anything asks for the session bus (its connection is made once).
        qputenv("DBUS_SESSION_BUS_ADDRESS", address);
    }

    void cleanupTestCase() {
        if (m_bus.state() == QProcess::NotRunning)
            return;
        m_bus.terminate(); // SIGTERM to its pid
        QVERIFY(m_bus.waitForFinished(10000));
    }

    void init() { QSettings().clear(); }

    void stateOfWorstAlert_data() {
        QTest::addColumn<std::optional<AlertSeverity>>("worst");
        QTest::addColumn<AlertTray::State>("state");
        QTest::newRow("none") << std::optional<AlertSeverity>() << AlertTray::State::Ok;
        QTest::newRow("warning") << std::optional(AlertSeverity::Warning)
                                 << AlertTray::State::Warning;
        QTest::newRow("critical") << std::optional(AlertSeverity::Critical)
                                  << AlertTray::State::Critical;
    }
    void stateOfWorstAlert() {
        QFETCH(std::optional<AlertSeverity>, worst);
        QFETCH(AlertTray::State, state);
        QCOMPARE(AlertTray::stateOf(worst), state);
    }

    // Each state has its own icon: the dot in the corner is green, amber or red.
    void iconsShowTheState() {
        QList<QRgb> dots;
        for (const AlertTray::State state :
             {AlertTray::State::Ok, AlertTray::State::Warning, AlertTray::State::Critical}) {
            const QImage image = AlertTray::iconFor(state).pixmap(32, 32).toImage();
            QCOMPARE(image.size(), QSize(32, 32));
            dots.append(image.pixel(26, 26));
        }
        QCOMPARE_GT(qGreen(dots[0]), qRed(dots[0]));
        QVERIFY(qRed(dots[1]) > qBlue(dots[1]) && qGreen(dots[1]) > qBlue(dots[1]));
        QCOMPARE_GT(qRed(dots[2]), 2 * qGreen(dots[2]));
        QCOMPARE(QSet<QRgb>(dots.begin(), dots.end()).size(), 3);
    }

    // Few members turn the icon amber, an emptied pool red, with the pool and the alert in its
    // tooltip; enough members back, it is green again.
    void iconFollowsTheWorstAlert() {
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.run({"ZADD", kKey, "0", "m0", "0", "m1", "0", "m2", "0", "m3", "0", "m4"});
        Dashboard d;
        AlertTray *tray = d.window.tray();
        tray->setTrayAvailable(true);
        QVERIFY(d.connectTo(redis));
        AlertRuleSet rules; // at once, and over at once
        for (const AlertKind kind : {AlertKind::PoolEmpty, AlertKind::PoolSmall}) {
            AlertRule rule = AlertRule::defaults(kind);
            rule.forMs = 0;
            rule.keepFiringMs = 0;
            rules.rules.append(rule);
        }
        d.session.alerts().setRules(rules);
        QVERIFY(d.nextPoll());
        QCOMPARE(tray->state(), AlertTray::State::Ok);
        QVERIFY(tray->toolTip().contains(QString::fromUtf8(kKey)));

        redis.run({"ZREM", kKey, "m2", "m3", "m4"});
        QTRY_COMPARE_WITH_TIMEOUT(tray->state(), AlertTray::State::Warning, 10000);
        QVERIFY2(tray->toolTip().contains(alertRuleTitle(AlertKind::PoolSmall)),
                 qPrintable(tray->toolTip()));

        redis.run({"DEL", kKey});
        QTRY_COMPARE_WITH_TIMEOUT(tray->state(), AlertTray::State::Critical, 10000);
        QVERIFY2(tray->toolTip().contains(alertRuleTitle(AlertKind::PoolEmpty)),
                 qPrintable(tray->toolTip()));
        QVERIFY(tray->toolTip().contains(QString::fromUtf8(kKey)));
        QCOMPARE(tray->trayIcon()->toolTip(), tray->toolTip());

        redis.run({"ZADD", kKey, "0", "m0", "0", "m1", "0", "m2", "0", "m3", "0", "m4"});
        QTRY_COMPARE_WITH_TIMEOUT(tray->state(), AlertTray::State::Ok, 10000);
        QVERIFY(!tray->toolTip().contains(alertRuleTitle(AlertKind::PoolEmpty)));
    }

    // Pools side by side in tabs share one icon: the worst alert of any tab, each pool in the
    // tooltip; a pool whose tab closed leaves both.
    void oneIconForEveryTab() {
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        const QByteArray small = "small-pool";
        redis.run({"ZADD", small, "0", "m0"});
        AlertRuleSet rules;
        for (const AlertKind kind : {AlertKind::PoolEmpty, AlertKind::PoolSmall}) {
            AlertRule rule = AlertRule::defaults(kind);
            rule.forMs = 0;
            rule.keepFiringMs = 0;
            rules.rules.append(rule);
        }
        Dashboard first;
        auto second = std::make_unique<Dashboard>();
        AlertTray shared(nullptr, true);
        shared.watch(&first.session);
        shared.watch(&second->session);
        QCOMPARE(shared.toolTip(), AlertTray::tr("poolscope: no live pool watched"));
        QVERIFY(first.connectTo(redis, small));
        QVERIFY(second->connectTo(redis)); // kKey: no such pool, so empty
        first.session.alerts().setRules(rules);
        second->session.alerts().setRules(rules);
        QTRY_COMPARE_WITH_TIMEOUT(shared.state(), AlertTray::State::Critical, 10000);
        QVERIFY2(shared.toolTip().contains(QString::fromUtf8(small)) &&
                     shared.toolTip().contains(QString::fromUtf8(kKey)),
                 qPrintable(shared.toolTip()));

        second.reset(); // its tab closed
        QTRY_COMPARE_WITH_TIMEOUT(shared.state(), AlertTray::State::Warning, 10000);
        QVERIFY2(!shared.toolTip().contains(QString::fromUtf8(kKey)), qPrintable(shared.toolTip()));
        QVERIFY(shared.toolTip().contains(alertRuleTitle(AlertKind::PoolSmall)));
    }

    // Without a tray the option is there but disabled, saying why, and closing closes.
    void noTrayNoKeepingWatch() {
        Dashboard d;
        AlertTray *tray = d.window.tray();
        tray->setTrayAvailable(false);
        QAction *keep = tray->keepWatchingAction();
        QVERIFY(!keep->isEnabled());
        QVERIFY(!keep->toolTip().isEmpty());
        QVERIFY(!keep->text().isEmpty());
        QVERIFY(!tray->trayIcon());
        QSettings().setValue(QLatin1String(AlertTray::kKeepWatchingKey), true);
        keep->setChecked(true);
        d.window.show();
        QVERIFY(d.window.close());
        QVERIFY(!d.window.isVisible());
    }

    // With a tray and the option on (saved), closing hides the window and the pool is still
    // polled; the tray's Quit path closes it for good.
    void closedWindowKeepsWatching() {
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.run({"ZADD", kKey, "0", "m0"});
        Dashboard d;
        AlertTray *tray = d.window.tray();
        tray->setTrayAvailable(true);
        QAction *keep = tray->keepWatchingAction();
        QVERIFY(keep->isEnabled());
        QVERIFY(!keep->isChecked()); // off by default
        bool inAMenu = false;        // View ▸ Keep watching…
        for (const QAction *top : d.window.menuBar()->actions())
            inAMenu = inAMenu || (top->menu() && top->menu()->actions().contains(keep));
        QVERIFY(inAMenu);
        QVERIFY(d.connectTo(redis));
        d.window.show();
        QVERIFY(d.window.close()); // off: an ordinary close
        d.window.show();

        keep->setChecked(true);
        QCOMPARE(QSettings().value(QLatin1String(AlertTray::kKeepWatchingKey)).toBool(), true);
        QSignalSpy told(tray, &AlertTray::trayMessageShown);
        QVERIFY(!d.window.close()); // refused: hidden instead
        QVERIFY(!d.window.isVisible());
        QCOMPARE(told.size(), 1); // "still watching", once
        redis.run({"ZADD", kKey, "0", "m1"});
        QTRY_VERIFY_WITH_TIMEOUT(d.row("m1"), 5000); // still polled with the window closed

        // A new window reads the saved choice.
        Dashboard again;
        again.window.tray()->setTrayAvailable(true);
        QVERIFY(again.window.tray()->keepWatchingAction()->isChecked());

        emit tray->showWindowRequested();
        QVERIFY(d.window.isVisible());
        QVERIFY(d.window.closeForGood());
        QVERIFY(!d.window.isVisible());
    }

    // No notification service on the bus: the fired alert goes to a tray message where there
    // is a tray, and only to the events where there is none.
    void alertWithoutNotificationService_data() {
        QTest::addColumn<bool>("trayAvailable");
        QTest::newRow("tray") << true;
        QTest::newRow("no tray") << false;
    }
    void alertWithoutNotificationService() {
        QFETCH(bool, trayAvailable);
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        Dashboard d;
        d.window.tray()->setTrayAvailable(trayAvailable);
        QSignalSpy unavailable(d.window.alertsPanel(), &AlertsPanel::notificationUnavailable);
        QSignalSpy failed(d.window.alertsPanel()->notifier(), &DesktopNotifier::notificationFailed);
        QSignalSpy trayMessages(d.window.tray(), &AlertTray::trayMessageShown);
        QVERIFY(d.connectTo(redis)); // an empty pool: "Pool empty" fires
        QVERIFY(failed.wait(10000));
        const auto error = failed.first().at(1).value<NotificationError>();
        QCOMPARE(error.kind, NotificationError::Kind::NoService);
        QCOMPARE(unavailable.size(), 1);

        const QString title = alertRuleTitle(AlertKind::PoolEmpty);
        if (trayAvailable) {
            QCOMPARE(trayMessages.size(), 1);
            QVERIFY2(trayMessages.first().at(0).toString().contains(title) ||
                         trayMessages.first().at(1).toString().contains(title),
                     qPrintable(trayMessages.first().at(0).toString()));
        } else {
            QCOMPARE(trayMessages.size(), 0);
        }
        bool inEvents = false; // either way the event says it
        for (int row = 0; row < d.window.eventsPanel()->entryCount(); ++row)
            inEvents = inEvents || d.window.eventsPanel()->entryText(row).contains(title);
        QVERIFY(inEvents);
    }
};

QTEST_MAIN(TestAlertTray)
#include "tst_alerttray.moc"
