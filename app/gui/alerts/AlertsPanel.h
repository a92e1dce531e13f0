#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace poolscope {

class DesktopNotifier;
class PoolSession;
class ProfileStore;
struct AlertTransition;
struct DesktopNotification;

// The Alerts dock: the watched pool's pending and firing alerts (since when, the value now, how
// bad), a desktop notification when one fires or resolves (handed on where there is no
// notification service: the window shows it in the tray), and the rules dialog. The alerts
// themselves live in the session (PoolAlerts): this panel only shows them.
class AlertsPanel : public QWidget {
    Q_OBJECT

public:
    AlertsPanel(PoolSession *session, ProfileStore *profiles, QWidget *parent = nullptr);
    ~AlertsPanel() override;

    // The saved connection watched now (empty: one typed in): its rules for the pool are used,
    // the defaults otherwise, and the rules dialog saves into it.
    void useProfile(const QString &name);
    const QString &profileName() const { return m_profile; }
    // Opens the rules dialog (Pool > Alert rules…).
    void editRules();
    QTreeWidget *table() const { return m_table; }
    DesktopNotifier *notifier() const { return m_notifier; }

Q_SIGNALS:
    // A notification no service showed (no bus, no service, no answer, an error).
    void notificationUnavailable(const poolscope::DesktopNotification &notification);

private:
    void refresh();
    void notify(const AlertTransition &transition);

    PoolSession *m_session;
    ProfileStore *m_profiles;
    QString m_profile;
    QLabel *m_summary;
    QTreeWidget *m_table;
    QPushButton *m_rulesButton;
    DesktopNotifier *m_notifier;
};

} // namespace poolscope
