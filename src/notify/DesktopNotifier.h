#pragma once

#include "alerts/AlertEngine.h"

#include <optional>

#include <QDBusConnection>
#include <QHash>
#include <QObject>
#include <QString>

namespace poolscope {

struct DesktopNotification {
    enum class Urgency : uchar { Low = 0, Normal = 1, Critical = 2 }; // the spec's byte values
    QString summary;
    QString body;
    Urgency urgency = Urgency::Normal;
    qint32 expireTimeoutMs = -1; // -1: the notification service decides; 0: until dismissed
    quint32 replacesId = 0;      // a notification of ours this one replaces (0: none)
};

// Why a notification was not shown. NoBus and NoService mean "no desktop notifications here":
// show it another way (a tray message).
struct NotificationError {
    enum class Kind {
        NoBus,     // no session bus (a headless machine, a plain ssh session)
        NoService, // nobody owns org.freedesktop.Notifications, and nothing can be started for it
        Timeout,   // the service did not answer in time
        Refused,   // it answered with an error
    };
    Kind kind = Kind::NoService;
    QString message; // the bus's own words, for people
};

// Desktop notifications through the freedesktop notification service (D-Bus, session bus,
// org.freedesktop.Notifications, method Notify), for the dashboard's alerts. Every call is
// asynchronous: nothing here waits on the bus, and answers come as signals.
class DesktopNotifier : public QObject {
    Q_OBJECT

public:
    static constexpr const char *kService = "org.freedesktop.Notifications";
    static constexpr const char *kPath = "/org/freedesktop/Notifications";
    static constexpr const char *kInterface = "org.freedesktop.Notifications";

    explicit DesktopNotifier(QObject *parent = nullptr); // on the session bus
    explicit DesktopNotifier(const QDBusConnection &bus, QObject *parent = nullptr);

    // Asks the service who it is (GetServerInformation, which also starts an activatable one):
    // serviceChecked(true) when it answers, false when there is no bus or no service.
    void checkService();
    // The last answer of checkService() or of a notification; nullopt before any.
    std::optional<bool> serviceAvailable() const { return m_available; }

    // Sends one notification; returns the request's number, which notificationShown or
    // notificationFailed carries (each comes once, after this returns).
    quint64 notify(const DesktopNotification &notification);
    // A transition of a pool's alert: Fired as a notification (urgency critical for a critical
    // rule), Resolved as one that replaces it (when it was shown); Pending and Cleared are no
    // news. pool: how the pool is named to people ("proxies on 127.0.0.1:6379"). Returns the
    // request's number, or 0 when there is nothing to send.
    quint64 notifyAlert(const QString &pool, const AlertTransition &transition);
    // The text of that notification, for a tray message when there is no service.
    static DesktopNotification alertNotification(const QString &pool,
                                                 const AlertTransition &transition);

Q_SIGNALS:
    void serviceChecked(bool available);
    void notificationShown(quint64 request, quint32 id);
    // notification: what was not shown, so it can be shown another way.
    void notificationFailed(quint64 request, const poolscope::NotificationError &error,
                            const poolscope::DesktopNotification &notification);

private:
    void fail(quint64 request, NotificationError error, const DesktopNotification &notification);

    QDBusConnection m_bus;
    quint64 m_requests = 0;
    std::optional<bool> m_available;
    // The notification id of each firing alert (pool and rule), so its resolution replaces it.
    QHash<QString, quint32> m_shown;
    QHash<quint64, QString> m_pendingAlerts; // request -> pool and rule, until its id is known
};

} // namespace poolscope

Q_DECLARE_METATYPE(poolscope::NotificationError)
Q_DECLARE_METATYPE(poolscope::DesktopNotification)
