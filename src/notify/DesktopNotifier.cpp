#include "notify/DesktopNotifier.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDateTime>
#include <QLocale>
#include <QVariantMap>

namespace poolscope {

namespace {

constexpr int kCallTimeoutMs = 5000;

NotificationError errorOf(const QDBusError &error) {
    NotificationError result;
    result.message = error.message().isEmpty() ? error.name() : error.message();
    switch (error.type()) {
    case QDBusError::ServiceUnknown:
        result.kind = NotificationError::Kind::NoService;
        break;
    case QDBusError::Disconnected:
        result.kind = NotificationError::Kind::NoBus;
        break;
    case QDBusError::NoReply:
    case QDBusError::Timeout:
    case QDBusError::TimedOut:
        result.kind = NotificationError::Kind::Timeout;
        break;
    default:
        result.kind = NotificationError::Kind::Refused;
        break;
    }
    return result;
}

QString alertKey(const QString &pool, const AlertTransition &transition) {
    return pool + u'\n' + transition.rule.id();
}

} // namespace

DesktopNotifier::DesktopNotifier(QObject *parent)
    : DesktopNotifier(QDBusConnection::sessionBus(), parent) {}

DesktopNotifier::DesktopNotifier(const QDBusConnection &bus, QObject *parent)
    : QObject(parent)
    , m_bus(bus) {
    qRegisterMetaType<NotificationError>();
    qRegisterMetaType<DesktopNotification>();
}

void DesktopNotifier::checkService() {
    if (!m_bus.isConnected()) {
        m_available = false;
        QMetaObject::invokeMethod(
            this, [this] { Q_EMIT serviceChecked(false); }, Qt::QueuedConnection);
        return;
    }
    const QDBusMessage call = QDBusMessage::createMethodCall(
        QLatin1String(kService), QLatin1String(kPath), QLatin1String(kInterface),
        QStringLiteral("GetServerInformation"));
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call, kCallTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_available = !watcher->isError();
        Q_EMIT serviceChecked(*m_available);
    });
}

void DesktopNotifier::fail(quint64 request, NotificationError error,
                           const DesktopNotification &notification) {
    if (error.kind == NotificationError::Kind::NoBus ||
        error.kind == NotificationError::Kind::NoService)
        m_available = false;
    m_pendingAlerts.remove(request);
    Q_EMIT notificationFailed(request, error, notification);
}

quint64 DesktopNotifier::notify(const DesktopNotification &notification) {
    const quint64 request = ++m_requests;
    if (!m_bus.isConnected()) {
        const NotificationError error{NotificationError::Kind::NoBus, m_bus.lastError().message()};
        QMetaObject::invokeMethod(
            this, [this, request, error, notification] { fail(request, error, notification); },
            Qt::QueuedConnection);
        return request;
    }
    QDBusMessage call =
        QDBusMessage::createMethodCall(QLatin1String(kService), QLatin1String(kPath),
                                       QLatin1String(kInterface), QStringLiteral("Notify"));
    const QVariantMap hints{
        {QStringLiteral("urgency"), QVariant::fromValue(uchar(notification.urgency))},
        {QStringLiteral("desktop-entry"), QStringLiteral("poolscope")}};
    call << QStringLiteral("poolscope") << notification.replacesId << QStringLiteral("poolscope")
         << notification.summary << notification.body << QStringList() << hints
         << notification.expireTimeoutMs;
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call, kCallTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, watcher, request, notification] {
                watcher->deleteLater();
                const QDBusPendingReply<quint32> reply = *watcher;
                if (reply.isError()) {
                    fail(request, errorOf(reply.error()), notification);
                    return;
                }
                m_available = true;
                const quint32 id = reply.value();
                if (const QString key = m_pendingAlerts.take(request); !key.isEmpty())
                    m_shown.insert(key, id);
                Q_EMIT notificationShown(request, id);
            });
    return request;
}

DesktopNotification DesktopNotifier::alertNotification(const QString &pool,
                                                       const AlertTransition &transition) {
    DesktopNotification notification;
    const QString title = alertRuleTitle(transition.rule.kind);
    if (transition.kind == AlertTransition::Kind::Resolved) {
        notification.summary = tr("Resolved: %1 (%2)").arg(title, pool);
        notification.body =
            tr("Firing since %1, clear now: %2")
                .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(transition.sinceMs).time(),
                                        QLocale::ShortFormat),
                     transition.check.message);
        notification.urgency = DesktopNotification::Urgency::Low;
        return notification;
    }
    const bool critical = transition.rule.severity == AlertSeverity::Critical;
    notification.summary =
        (critical ? tr("Critical: %1 (%2)") : tr("Warning: %1 (%2)")).arg(title, pool);
    notification.body = transition.check.message;
    notification.urgency =
        critical ? DesktopNotification::Urgency::Critical : DesktopNotification::Urgency::Normal;
    notification.expireTimeoutMs = critical ? 0 : -1; // a critical one stays until dismissed
    return notification;
}

quint64 DesktopNotifier::notifyAlert(const QString &pool, const AlertTransition &transition) {
    if (transition.kind != AlertTransition::Kind::Fired &&
        transition.kind != AlertTransition::Kind::Resolved)
        return 0;
    DesktopNotification notification = alertNotification(pool, transition);
    // One notification per alert on the desktop: the resolution replaces the firing, a firing
    // again replaces the resolution.
    const QString key = alertKey(pool, transition);
    notification.replacesId = m_shown.value(key, 0);
    const quint64 request = notify(notification);
    m_pendingAlerts.insert(request, key);
    return request;
}

} // namespace poolscope
