#pragma once

#include <QMainWindow>

class QDockWidget;

namespace poolscope {

class ChartPanel;
class ConnectionBar;
class EventsPanel;
class FairnessPanel;
class MembersPanel;
class PoolActions;
class PoolSession;
class PoolsPanel;
class StatusBarPanel;

// Arranges the panels around the session: chart in the middle, pool figures and events on the
// right, members below, connection and actions in toolbars, status at the bottom. The layout of
// the docks is kept in QSettings. The work happens in the panels, PoolActions and PoolSession.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(PoolSession *session, QWidget *parent = nullptr);
    ~MainWindow() override;

    PoolSession *session() const { return m_session; }
    ConnectionBar *connectionBar() const { return m_connectionBar; }
    ChartPanel *chartPanel() const { return m_chart; }
    MembersPanel *membersPanel() const { return m_members; }
    FairnessPanel *fairnessPanel() const { return m_fairness; }
    EventsPanel *eventsPanel() const { return m_events; }
    StatusBarPanel *statusPanel() const { return m_status; }
    PoolActions *actions() const { return m_actions; }
    PoolsPanel *poolsPanel() const { return m_pools; }

protected:
    void showEvent(QShowEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    QDockWidget *addDock(QWidget *panel, const QString &title, const QString &name,
                         Qt::DockWidgetArea area);
    void buildMenusAndToolbars();
    void restoreLayout();

    PoolSession *m_session;
    ConnectionBar *m_connectionBar;
    ChartPanel *m_chart;
    MembersPanel *m_members;
    FairnessPanel *m_fairness;
    EventsPanel *m_events;
    StatusBarPanel *m_status;
    PoolActions *m_actions;
    PoolsPanel *m_pools;
    QMenu *m_poolMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QToolBar *m_actionsBar = nullptr;
    bool m_shownOnce = false;
    bool m_keyRemembered = false; // the watched key was read as a pool and remembered
};

} // namespace poolscope
