#pragma once

#include <QMainWindow>
#include <QPointer>

#include "endpoint/Endpoint.h"
#include "profiles/ConnectionProfile.h"

#include <functional>
#include <memory>
#include <optional>

class QDockWidget;

namespace poolscope {

class AlertTray;
class AlertsPanel;
class ChartPanel;
class ConnectionBar;
struct ConnectionProfile;
class ConnectionsDialog;
class EnvironmentBanner;
class EventsPanel;
class FairnessPanel;
class GuardPanel;
class MembersPanel;
class OverviewWindow;
class PoolActions;
class PoolSession;
class PoolsPanel;
class ProfileConnector;
class ProfileStore;
class RecentRecordings;
class SecretPrompter;
class SecretStore;
class SessionRecorder;
class StatusBarPanel;

// Arranges the panels around the session: chart in the middle, pool figures and events on the
// right, members below, connection and actions in toolbars, status at the bottom. The layout of
// the docks is kept in QSettings. The work happens in the panels, PoolActions and PoolSession.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // With a parent the window is a tab's page (TabbedWindow): a widget inside the tabs, its
    // docks' layout restored but no geometry of its own.
    // SECRETS: the keychain and the secrets kept in memory, shared by the tabs (a password given
    // in one is known in the others); none: the window's own.
    explicit MainWindow(PoolSession *session, QWidget *parent = nullptr,
                        SecretStore *secrets = nullptr);
    ~MainWindow() override;

    PoolSession *session() const { return m_session; }
    ConnectionBar *connectionBar() const { return m_connectionBar; }
    ChartPanel *chartPanel() const { return m_chart; }
    MembersPanel *membersPanel() const { return m_members; }
    FairnessPanel *fairnessPanel() const { return m_fairness; }
    EventsPanel *eventsPanel() const { return m_events; }
    StatusBarPanel *statusPanel() const { return m_status; }
    PoolActions *actions() const { return m_actions; }
    // The guard's settings and state (the run and the health reads are the session's).
    GuardPanel *guardPanel() const { return m_guard; }
    // Saved connections (File > Connections...) and their secrets.
    SecretStore *secretStore() const { return m_secrets; }
    SecretPrompter *secretPrompter() const { return m_prompter; }
    ProfileStore *profileStore() const { return m_profiles.get(); }
    QAction *connectionsAction() const { return m_connectionsAction; }
    // Opens the Connections dialog (window-modal, not blocking) and returns it.
    ConnectionsDialog *showConnections();
    // Connects the saved connection NAME (--profile, the last connection): false with the
    // reason when there is none by that name or it cannot be read.
    // POOLKEY, when given, is watched instead of the saved one.
    bool connectProfile(const QString &name, QString *error = nullptr,
                        const QByteArray &poolKey = {});
    // Who opens a pool chosen in the Overview (the tabs: a tab of its own); unset, this window
    // connects to it.
    using PoolOpener = std::function<void(const QString &profile, const QByteArray &pool)>;
    void setPoolOpener(PoolOpener opener) { m_poolOpener = std::move(opener); }
    // The saved connection asked for, before its secrets have come (then connectedProfile()).
    QString requestedProfile() const { return m_pendingProfile; }
    // Keeps the docks' layout and the window's geometry for the next start (on close; a tab's
    // page is saved by its TabbedWindow).
    void saveLayout();
    // Never larger than the screen, at least its available area with the frame included.
    static void fitIntoScreen(QWidget *window);
    // The saved connection being watched; empty for a typed URL.
    QString connectedProfile() const { return m_connectedProfile; }
    // The embedded demo server: never remembered as a recent or last connection (its port is
    // new at every start).
    void setEmbeddedServer(const Endpoint &server);

    // Opens a recording read-only, without any Redis connection (File → Open recording…,
    // --recording): read in the background, then shown in place of the live pool. A file that
    // is no recording is named in the events and the status bar.
    void openRecording(const QString &path);
    // The recorder of the watched pool; its switch goes into the File menu.
    void setSessionRecorder(SessionRecorder *recorder);
    QAction *recordAction() const { return m_recordAction; }
    QAction *openRecordingAction() const { return m_openRecordingAction; }
    // Where File ▸ Open recording… starts: the folder recordings are written to.
    QString recordingsFolder() const;
    // File ▸ Recent recordings.
    RecentRecordings *recentRecordings() const { return m_recentRecordings; }
    PoolsPanel *poolsPanel() const { return m_pools; }
    AlertsPanel *alertsPanel() const { return m_alerts; }
    // The tray icon, and View ▸ Keep watching in the tray when closed: with it on, closing the
    // window hides it and the session keeps watching.
    AlertTray *tray() const { return m_tray; }
    // Shows this window's session in TRAY (its own, or its tabbed window's) and adds the tray's
    // option to the View menu.
    void useTray(AlertTray *tray);
    // Closes the window whatever that option says (the tray's Quit, Ctrl+C, SIGTERM).
    bool closeForGood();
    // View ▸ Overview…: every pool of every saved connection; made at the first call, then
    // raised. Enter on a row connects this window to that connection and pool.
    OverviewWindow *showOverview();
    QAction *overviewAction() const { return m_overviewAction; }
    // The environment's banner (production: locked writes and the unlock button).
    EnvironmentBanner *environmentBanner() const { return m_banner; }

Q_SIGNALS:
    // The person asked to connect (the connection bar, or a saved connection's Connect), as
    // opposed to the poller's automatic reconnects: declined questions may be asked again.
    void connectionRequested();

protected:
    void showEvent(QShowEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    QDockWidget *addDock(QWidget *panel, const QString &title, const QString &name,
                         Qt::DockWidgetArea area);
    void buildMenusAndToolbars();
    void restoreLayout();
    void connectLoadedProfile(const ConnectionProfile &profile);
    void updateTitle();

    PoolSession *m_session;
    ConnectionBar *m_connectionBar;
    ChartPanel *m_chart;
    MembersPanel *m_members;
    FairnessPanel *m_fairness;
    EventsPanel *m_events;
    StatusBarPanel *m_status;
    PoolActions *m_actions;
    GuardPanel *m_guard;
    SecretStore *m_secrets;
    SecretPrompter *m_prompter;
    ProfileConnector *m_profileConnector;
    std::unique_ptr<ProfileStore> m_profiles;
    QAction *m_connectionsAction = nullptr;
    PoolsPanel *m_pools;
    AlertsPanel *m_alerts;
    AlertTray *m_tray = nullptr;
    bool m_closingForGood = false;
    QMenu *m_poolMenu = nullptr;
    QAction *m_openRecordingAction = nullptr;
    QAction *m_recordAction = nullptr;
    RecentRecordings *m_recentRecordings = nullptr;
    SessionRecorder *m_recorder = nullptr;
    QMenu *m_viewMenu = nullptr;
    QAction *m_credentialsSeparator = nullptr; // View's items go above it, Show credentials below
    QToolBar *m_actionsBar = nullptr;
    bool m_shownOnce = false;
    EnvironmentBanner *m_banner = nullptr;
    QAction *m_overviewAction = nullptr;
    QPointer<OverviewWindow> m_overview;
    Environment m_pendingEnvironment = Environment::None;
    std::optional<Endpoint> m_embeddedServer;
    QString m_pendingProfile;     // asked for; its secrets may still be coming
    QString m_connectedProfile;   // the saved connection watched, for the title and "last"
    bool m_keyRemembered = false; // the watched key was read as a pool and remembered
    PoolOpener m_poolOpener;
};

} // namespace poolscope
