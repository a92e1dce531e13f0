// Desktop notifications on a private session bus (ctest runs this under dbus-run-session): a
// notification service registered here for org.freedesktop.Notifications, on a connection of
// its own, receives what DesktopNotifier sends through the bus daemon; without it (or without a
// bus) the notifier says so, with the notification to show another way.
#include "notify/DesktopNotifier.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusContext>
#include <QSignalSpy>
#include <QTest>

using namespace poolscope;

namespace {

// A notification daemon as small as the spec allows.
class NotificationService : public QObject, protected QDBusContext {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")

public:
    struct Received {
        QString app;
        uint replacesId = 0;
        QString icon, summary, body;
        QVariantMap hints;
        int timeout = 0;
    };
    QList<Received> received;
    bool refuse = false;

public Q_SLOTS:
    uint Notify(const QString &app, uint replacesId, const QString &icon, const QString &summary,
                const QString &body, const QStringList &, const QVariantMap &hints, int timeout) {
        if (refuse) {
            sendErrorReply(QDBusError::AccessDenied, QStringLiteral("do not disturb"));
            return 0;
        }
        received.append({app, replacesId, icon, summary, body, hints, timeout});
        Q_EMIT notified();
        return replacesId ? replacesId : ++m_lastId;
    }
    QString GetServerInformation(QString &vendor, QString &version, QString &specVersion) {
        vendor = QStringLiteral("poolscope tests");
        version = QStringLiteral("1");
        specVersion = QStringLiteral("1.2");
        return QStringLiteral("tst_notifier");
    }
    QStringList GetCapabilities() { return {QStringLiteral("body")}; }
    void CloseNotification(uint) {}

Q_SIGNALS:
    void notified();

private:
    uint m_lastId = 40;
};

AlertTransition transition(AlertTransition::Kind kind, AlertKind rule) {
    AlertTransition t;
    t.kind = kind;
    t.rule = AlertRule::defaults(rule);
    t.timeMs = 2000;
    t.sinceMs = 1000;
    t.check.message = QStringLiteral("pool \"proxies\" is empty: every allocation returns nil");
    return t;
}

} // namespace

class TestNotifier : public QObject {
    Q_OBJECT

private:
    QDBusConnection m_serviceBus{QString()};
    std::unique_ptr<NotificationService> m_service;

    void registerService() {
        m_service = std::make_unique<NotificationService>();
        QVERIFY(m_serviceBus.registerObject(QLatin1String(DesktopNotifier::kPath), m_service.get(),
                                            QDBusConnection::ExportAllSlots));
        QVERIFY(m_serviceBus.registerService(QLatin1String(DesktopNotifier::kService)));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
                 "needs a private session bus: run it under dbus-run-session (ctest does)");
        m_serviceBus =
            QDBusConnection::connectToBus(QDBusConnection::SessionBus, QStringLiteral("service"));
        QVERIFY2(m_serviceBus.isConnected(), qPrintable(m_serviceBus.lastError().message()));
    }
    void cleanup() {
        m_serviceBus.unregisterService(QLatin1String(DesktopNotifier::kService));
        m_serviceBus.unregisterObject(QLatin1String(DesktopNotifier::kPath));
        m_service.reset();
    }

    void missingServiceIsReported() {
        DesktopNotifier notifier;
        QVERIFY(!notifier.serviceAvailable());
        QSignalSpy checked(&notifier, &DesktopNotifier::serviceChecked);
        notifier.checkService();
        QVERIFY(checked.wait(10000));
        QCOMPARE(checked.first().first().toBool(), false);
        QSignalSpy failed(&notifier, &DesktopNotifier::notificationFailed);
        const quint64 request =
            notifier.notifyAlert(QStringLiteral("proxies"),
                                 transition(AlertTransition::Kind::Fired, AlertKind::PoolEmpty));
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.first().at(0).toULongLong(), request);
        const auto error = failed.first().at(1).value<NotificationError>();
        QCOMPARE(error.kind, NotificationError::Kind::NoService);
        // What was not shown comes back, for a tray message.
        const auto notification = failed.first().at(2).value<DesktopNotification>();
        QCOMPARE(notification.summary, QStringLiteral("Critical: Pool empty (proxies)"));
        QCOMPARE(notifier.serviceAvailable(), std::optional(false));
    }

    void noBusIsReported() {
        const QDBusConnection none = QDBusConnection::connectToBus(
            QStringLiteral("unix:path=/nonexistent/bus"), QStringLiteral("none"));
        QVERIFY(!none.isConnected());
        DesktopNotifier notifier(none);
        QSignalSpy checked(&notifier, &DesktopNotifier::serviceChecked);
        QSignalSpy failed(&notifier, &DesktopNotifier::notificationFailed);
        notifier.checkService();
        notifier.notify({QStringLiteral("s"), QStringLiteral("b")});
        QVERIFY(failed.wait(10000));
        QCOMPARE(checked.size(), 1);
        QCOMPARE(checked.first().first().toBool(), false);
        QCOMPARE(failed.first().at(1).value<NotificationError>().kind,
                 NotificationError::Kind::NoBus);
    }

    void receivedByTheService() {
        registerService();
        DesktopNotifier notifier;
        QSignalSpy checked(&notifier, &DesktopNotifier::serviceChecked);
        notifier.checkService();
        QVERIFY(checked.wait(10000));
        QCOMPARE(checked.first().first().toBool(), true);
        QSignalSpy shown(&notifier, &DesktopNotifier::notificationShown);
        const quint64 request =
            notifier.notify({QStringLiteral("Summary"), QStringLiteral("Body & more"),
                             DesktopNotification::Urgency::Low, 5000, 0});
        QVERIFY(shown.wait(10000));
        QCOMPARE(shown.first().at(0).toULongLong(), request);
        QCOMPARE(shown.first().at(1).toUInt(), 41u);
        QCOMPARE(m_service->received.size(), 1);
        const NotificationService::Received &got = m_service->received.first();
        QCOMPARE(got.app, QStringLiteral("poolscope"));
        QCOMPARE(got.icon, QStringLiteral("poolscope"));
        QCOMPARE(got.summary, QStringLiteral("Summary"));
        QCOMPARE(got.body, QStringLiteral("Body & more"));
        QCOMPARE(got.timeout, 5000);
        QCOMPARE(got.hints.value(QStringLiteral("urgency")).toInt(), 0);
        QCOMPARE(got.hints.value(QStringLiteral("desktop-entry")).toString(),
                 QStringLiteral("poolscope"));
        QCOMPARE(notifier.serviceAvailable(), std::optional(true));
    }

    // An alert fires (critical: urgent, until dismissed), resolves (replacing it), and a
    // pending alert is no news.
    void alertFiresAndResolvesAsOneNotification() {
        registerService();
        DesktopNotifier notifier;
        QSignalSpy shown(&notifier, &DesktopNotifier::notificationShown);
        const QString pool = QStringLiteral("proxies on 127.0.0.1:6379");
        QCOMPARE(notifier.notifyAlert(
                     pool, transition(AlertTransition::Kind::Pending, AlertKind::PoolEmpty)),
                 0u);
        notifier.notifyAlert(pool, transition(AlertTransition::Kind::Fired, AlertKind::PoolEmpty));
        QVERIFY(shown.wait(10000));
        notifier.notifyAlert(pool,
                             transition(AlertTransition::Kind::Resolved, AlertKind::PoolEmpty));
        QVERIFY(shown.wait(10000));
        QCOMPARE(m_service->received.size(), 2);
        const NotificationService::Received &fired = m_service->received[0];
        QCOMPARE(fired.summary, QStringLiteral("Critical: Pool empty (proxies on 127.0.0.1:6379)"));
        QCOMPARE(fired.body,
                 QStringLiteral("pool \"proxies\" is empty: every allocation returns nil"));
        QCOMPARE(fired.hints.value(QStringLiteral("urgency")).toInt(), 2);
        QCOMPARE(fired.timeout, 0);
        QCOMPARE(fired.replacesId, 0u);
        const NotificationService::Received &resolved = m_service->received[1];
        QVERIFY2(resolved.summary.startsWith(QStringLiteral("Resolved: Pool empty")),
                 qPrintable(resolved.summary));
        QCOMPARE(resolved.replacesId, shown.first().at(1).toUInt());
        QCOMPARE(resolved.hints.value(QStringLiteral("urgency")).toInt(), 0);
        // A warning is not urgent and expires as the service likes.
        notifier.notifyAlert(pool, transition(AlertTransition::Kind::Fired, AlertKind::SpreadHigh));
        QVERIFY(shown.wait(10000));
        QCOMPARE(m_service->received[2].hints.value(QStringLiteral("urgency")).toInt(), 1);
        QCOMPARE(m_service->received[2].timeout, -1);
        QCOMPARE(m_service->received[2].replacesId, 0u);
    }

    void refusedByTheService() {
        registerService();
        m_service->refuse = true;
        DesktopNotifier notifier;
        QSignalSpy failed(&notifier, &DesktopNotifier::notificationFailed);
        notifier.notify({QStringLiteral("s"), QStringLiteral("b")});
        QVERIFY(failed.wait(10000));
        const auto error = failed.first().at(1).value<NotificationError>();
        QCOMPARE(error.kind, NotificationError::Kind::Refused);
        QCOMPARE(error.message, QStringLiteral("do not disturb"));
    }
};

QTEST_GUILESS_MAIN(TestNotifier)
#include "tst_notifier.moc"
