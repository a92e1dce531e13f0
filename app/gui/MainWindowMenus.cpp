// The window's menus and toolbars: what each menu holds, its keys, and the toolbars' buttons.
#include "MainWindow.h"

#include "RecentRecordings.h"
#include "actions/PoolActions.h"
#include "alerts/AlertsPanel.h"
#include "audit/AuditView.h"
#include "chart/ChartPanel.h"
#include "connection/ConnectionBar.h"
#include "connection/EnvironmentBanner.h"
#include "connection/StatusBarPanel.h"
#include "events/EventsPanel.h"
#include "health/GuardPanel.h"
#include "i18n/LanguageMenu.h"
#include "members/MembersPanel.h"
#include "pools/PoolsPanel.h"
#include "session/PoolSession.h"
#include "session/SessionRecorder.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>
#include <QToolButton>

namespace poolscope {

void MainWindow::buildMenusAndToolbars() {
    PoolActions *a = m_actions;
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_connectionsAction =
        file->addAction(tr("Connections..."), this, [this] { showConnections(); });
    m_connectionsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_connectionsAction->setToolTip(tr("Saved connections: URL, TLS and SSH settings, "
                                       "pool key and poll interval; secrets in the "
                                       "keychain"));
    m_openRecordingAction = file->addAction(tr("Open recording…"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open recording"), recordingsFolder(),
                                         tr("poolscope recordings (*.sqlite *.db *.poolscope)") +
                                             QStringLiteral(";;") + tr("All files (*)"));
        if (!path.isEmpty())
            openRecording(path);
    });
    m_openRecordingAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    m_openRecordingAction->setToolTip(
        tr("Open a recording without any Redis connection, read only: its history, markers and "
           "last poll"));
    m_recentRecordings = new RecentRecordings(
        m_session, [this](const QString &path) { openRecording(path); }, this);
    file->addMenu(m_recentRecordings->menu());
    m_recordAction = file->addAction(tr("Record while watching"));
    m_recordAction->setCheckable(true);
    m_recordAction->setChecked(true);
    m_recordAction->setEnabled(false); // until a recorder is set
    m_recordAction->setToolTip(
        tr("Keep the watched pool's history in its recording (one file per server and pool in the "
           "data directory), so it is there the next time the pool is opened"));
    file->addSeparator();
    file->addAction(a->exportChartAction());
    file->addAction(a->exportHistoryAction());
    file->addAction(a->exportTableAction());
    file->addAction(a->exportCredentialsAction());
    file->addSeparator();
    // The whole window (all its tabs), not only this page.
    QAction *quit = file->addAction(tr("Quit"), this, [this] { window()->close(); });
    quit->setShortcut(QKeySequence::Quit);

    // Connect/Disconnect last: the first item of a menu is the one hit by accident.
    //: Pool: the proxy pool (the sorted set the dashboard watches), a menu.
    m_poolMenu = menuBar()->addMenu(tr("&Pool"));
    m_poolMenu->addAction(a->refreshAction());
    m_poolMenu->addAction(m_connectionBar->pauseAction());
    m_poolMenu->addAction(a->backAction());
    m_poolMenu->addAction(m_connectionBar->focusAddressAction());
    m_poolMenu->addSeparator();
    m_poolMenu->addAction(m_banner->unlockAction());
    m_poolMenu->addAction(a->seedAction());
    m_poolMenu->addAction(a->evictAction());
    m_poolMenu->addAction(a->restoreAction());
    m_poolMenu->addAction(a->testAllocationsAction());
    m_poolMenu->addAction(a->demoResetAction());
    m_poolMenu->addAction(a->checkSelectedAction());
    m_poolMenu->addSeparator();
    m_poolMenu->addAction(a->pinAction());
    m_poolMenu->addAction(a->findAction());
    m_poolMenu->addSeparator();
    QAction *rules = m_poolMenu->addAction(tr("Alert &rules…"), m_alerts, &AlertsPanel::editRules);
    rules->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+R")));
    QAction *audit = m_poolMenu->addAction(tr("Audit &trail…"), this, [this] {
        auto *view = new AuditView(m_session, this);
        view->setAttribute(Qt::WA_DeleteOnClose);
        view->show();
    });
    audit->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+U")));
    m_poolMenu->addSeparator();
    m_poolMenu->addAction(m_connectionBar->connectAction());

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_overviewAction =
        m_viewMenu->addAction(tr("&Overview of every pool…"), this, [this] { showOverview(); });
    m_overviewAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
    m_overviewAction->setStatusTip(tr("Every pool of every saved connection in one table"));
    m_viewMenu->addSeparator();
    m_viewMenu->addActions(m_chart->viewActions());
    m_viewMenu->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_viewMenu->addAction(dock->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("About poolscope"), this, [this] {
        QMessageBox::about(this, tr("About poolscope"),
                           tr("<b>poolscope %1</b><p>Live dashboard for Redis "
                              "least-used proxy pools: a sorted set whose scores count "
                              "allocations, served by allocate.lua.</p>")
                               .arg(QApplication::applicationVersion()));
    });

    addToolBarBreak();
    m_actionsBar = addToolBar(tr("Actions"));
    m_actionsBar->setObjectName(QStringLiteral("actionsBar"));
    m_actionsBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_actionsBar->addAction(a->refreshAction());
    m_actionsBar->addSeparator();
    m_actionsBar->addAction(a->seedAction());
    m_actionsBar->addAction(a->evictAction());
    m_actionsBar->addAction(a->restoreAction());
    m_actionsBar->addAction(a->checkSelectedAction());
    m_actionsBar->addAction(a->testAllocationsAction());
    m_actionsBar->addAction(a->demoResetAction());
    m_actionsBar->addAction(a->pinAction());
    m_actionsBar->addSeparator();
    auto *exportButton = new QToolButton(m_actionsBar);
    exportButton->setText(tr("Export"));
    exportButton->setToolTip(tr("Export the chart, the history or the table"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto *exportMenu = new QMenu(exportButton);
    exportMenu->addAction(a->exportChartAction());
    exportMenu->addAction(a->exportHistoryAction());
    exportMenu->addAction(a->exportTableAction());
    exportMenu->addSeparator();
    exportMenu->addAction(a->exportCredentialsAction());
    exportButton->setMenu(exportMenu);
    m_actionsBar->addWidget(exportButton);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_connectionBar->toggleViewAction());
    m_viewMenu->addAction(m_actionsBar->toggleViewAction());
    m_viewMenu->addSeparator();
    auto *languages = new i18n::LanguageMenu(m_viewMenu);
    m_viewMenu->addMenu(languages);
    connect(languages, &i18n::LanguageMenu::languageSaved, m_status,
            [this](const QString &message) { m_status->showMessage(message, 15000); });
    // Last, after a separator: revealing secrets is never what a menu opens on.
    m_credentialsSeparator = m_viewMenu->addSeparator();
    m_viewMenu->addAction(a->showCredentialsAction());
    m_viewMenu->setToolTipsVisible(true); // why keeping watching is disabled, where it is
    // Toolbar buttons take part in Tab order, so every action is reachable from the keyboard.
    for (QToolBar *bar : {static_cast<QToolBar *>(m_connectionBar), m_actionsBar})
        for (QToolButton *button : bar->findChildren<QToolButton *>())
            button->setFocusPolicy(Qt::TabFocus);
}

} // namespace poolscope
