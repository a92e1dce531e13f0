#pragma once

#include "alerts/AlertRules.h"

#include <functional>
#include <memory>
#include <optional>

#include <QIcon>
#include <QList>
#include <QObject>
#include <QPointer>

class QAction;
class QMenu;
class QSystemTrayIcon;
class QWidget;

namespace poolscope {

class PoolSession;
struct DesktopNotification;

// The tray icon: the worst firing alert (ok, warning, critical) of the watched pools (one per
// tab) in its colour, each pool and its firing alerts in its tooltip, a menu to show the window or
// quit; and the alert as a tray message where desktop notifications cannot be shown. Also the View
// menu's "keep watching in the tray when closed" (saved in QSettings, off by default), which needs
// a tray: where the desktop has none it is disabled and says why.
class AlertTray : public QObject {
    Q_OBJECT

public:
    enum class State { Ok, Warning, Critical };
    // Where an alert goes when no notification service showed it.
    enum class Fallback { TrayMessage, EventsOnly };

    static constexpr const char *kKeepWatchingKey = "tray/keepWatchingWhenClosed";

    // trayAvailable: whether the desktop has a system tray (QSystemTrayIcon's answer in the
    // dashboard; tests choose). SESSION, if any, is watched at once.
    AlertTray(PoolSession *session, bool trayAvailable, QObject *parent = nullptr);
    ~AlertTray() override;

    static State stateOf(std::optional<AlertSeverity> worstFiring);
    // The application's icon with a dot in the state's colour.
    static QIcon iconFor(State state);
    static Fallback fallbackFor(bool trayShown) {
        return trayShown ? Fallback::TrayMessage : Fallback::EventsOnly;
    }

    // One more pool shown, until its session is gone.
    void watch(PoolSession *session);

    // Builds or removes the icon (a desktop's tray can come and go; tests choose).
    void setTrayAvailable(bool available);
    bool isTrayAvailable() const { return m_available; }
    bool isTrayShown() const;
    State state() const { return m_state; }
    QString toolTip() const;
    QSystemTrayIcon *trayIcon() const { return m_icon.get(); }
    QMenu *menu() const { return m_menu.get(); }
    QAction *showWindowAction() const { return m_showWindow; }
    QAction *quitAction() const { return m_quit; }
    // View ▸ Keep watching in the tray when closed.
    QAction *keepWatchingAction() const { return m_keepWatching; }
    // The window hides instead of closing (the option is on and there is a tray to come back
    // from).
    bool keepsWatchingWhenClosed() const;

    // An alert no notification service showed: a tray message when the tray is shown; the
    // alert's event says it either way. Returns where it went.
    Fallback showUnnotified(const DesktopNotification &notification);
    // Once per run, when the window first hides into the tray.
    void tellStillWatching();

    // The window the icon brings back (a click, Show window) and closes for good (Quit, which
    // then ends the application), by CLOSE_FOR_GOOD.
    void followWindow(QWidget *window, std::function<bool()> closeForGood);
    // For the window's closeEvent: with keeping watch on, hides WINDOW instead (and says so
    // once); true when it did, and the close is to be ignored.
    bool hideInsteadOfClosing(QWidget *window);

Q_SIGNALS:
    void showWindowRequested();
    void quitRequested();
    void trayMessageShown(const QString &title, const QString &text);

private:
    void refresh();

    QList<QPointer<PoolSession>> m_sessions;
    bool m_available = false;
    State m_state = State::Ok;
    std::unique_ptr<QMenu> m_menu;           // a tray's menu has no parent widget
    std::unique_ptr<QSystemTrayIcon> m_icon; // after its menu: goes first
    QAction *m_showWindow = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_keepWatching;
    bool m_toldStillWatching = false;
};

} // namespace poolscope
