#include "MainWindow.h"

#include "redis/ServerIdentity.h"
#include "startup/LastConnection.h"

#include "DockProportions.h"
#include "LayoutBoundary.h"
#include "alerts/AlertsPanel.h"
#include "notify/DesktopNotifier.h"
#include "tray/AlertTray.h"
#include "RecentRecordings.h"
#include "chart/ChartPanel.h"
#include "connection/ConnectionBar.h"
#include "connection/ConnectionsDialog.h"
#include "connection/EnvironmentBanner.h"
#include "connection/ProfileConnector.h"
#include "connection/SecretPrompter.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "events/EventsPanel.h"
#include "fairness/FairnessPanel.h"
#include "health/GuardPanel.h"
#include "members/MembersPanel.h"
#include "overview/OverviewWindow.h"
#include "pools/PoolsPanel.h"
#include "actions/PoolActions.h"
#include "session/PoolSession.h"
#include "session/RecordingLoader.h"
#include "session/SessionRecorder.h"
#include "session/WriteLock.h"
#include "connection/StatusBarPanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QScreen>
#include <QSystemTrayIcon>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace poolscope {

namespace {

const QString kGeometry = QStringLiteral("mainWindow/geometry");
constexpr int kLayoutVersion = 1;

// The docks' layout, kept apart for a right-to-left language: its docks stand mirrored.
QString stateKey(const QWidget *window) {
    return window->isRightToLeft() ? QStringLiteral("mainWindow/stateRightToLeft")
                                   : QStringLiteral("mainWindow/state");
}

} // namespace

MainWindow::MainWindow(PoolSession *session, QWidget *parent, SecretStore *secrets)
    : QMainWindow(parent)
    , m_session(session)
    , m_connectionBar(new ConnectionBar(this))
    , m_chart(new ChartPanel(session, this))
    , m_members(new MembersPanel(session, this))
    , m_fairness(new FairnessPanel(session, this))
    , m_events(new EventsPanel(session, this))
    , m_status(new StatusBarPanel(session, this))
    , m_actions(new PoolActions(session, m_members, m_chart, this))
    , m_guard(new GuardPanel(session, this))
    , m_secrets(secrets ? secrets : new SecretStore(this))
    , m_prompter(new SecretPrompter(m_secrets, this))
    , m_profileConnector(new ProfileConnector(m_prompter, this))
    , m_profiles(std::make_unique<ProfileStore>())
    , m_pools(new PoolsPanel(this))
    , m_alerts(new AlertsPanel(session, m_profiles.get(), this)) {
    if (parent)
        setWindowFlags(Qt::Widget); // a tab's page, not a window of its own
    setWindowTitle(QStringLiteral("poolscope"));
    setObjectName(QStringLiteral("mainWindow"));
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);
    // Qt mirrors what is inside the docks under a right-to-left language, not the dock areas:
    // the side column (Pool, Events, Guard) goes to the left itself.
    const bool mirrored = isRightToLeft();
    const Qt::DockWidgetArea side = mirrored ? Qt::LeftDockWidgetArea : Qt::RightDockWidgetArea;
    setCorner(mirrored ? Qt::TopLeftCorner : Qt::TopRightCorner, side);
    setCorner(mirrored ? Qt::BottomLeftCorner : Qt::BottomRightCorner, side);
    // The environment's banner above the chart (hidden for none).
    auto *centre = new QWidget(this);
    auto *centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    m_banner = new EnvironmentBanner(session, centre);
    centreLayout->addWidget(m_banner);
    centreLayout->addWidget(m_chart, 1);
    setCentralWidget(centre);
    setStatusBar(m_status);
    m_status->addPermanentWidget(m_banner->statusLabel());
    addToolBar(Qt::TopToolBarArea, m_connectionBar);

    //: Pool: the proxy pool (the sorted set the dashboard watches), a panel's title.
    // Its figures change every poll; the boundary keeps that from laying out the whole window.
    auto *poolFigures = new LayoutBoundary(m_fairness);
    QDockWidget *pool = addDock(poolFigures, tr("Pool"), QStringLiteral("poolDock"), side);
    QDockWidget *events = addDock(m_events, tr("Events"), QStringLiteral("eventsDock"), side);
    QDockWidget *members =
        addDock(m_members, tr("Members"), QStringLiteral("membersDock"), Qt::BottomDockWidgetArea);
    // Every pool on the server or cluster: a tab beside the members, closed until
    // asked for (View > Pools, Ctrl+Shift+L), so it reads nothing unseen.
    QDockWidget *pools =
        addDock(m_pools, tr("Pools"), QStringLiteral("poolsDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(members, pools);
    pools->hide();
    pools->toggleViewAction()->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+L")));
    connect(pools->toggleViewAction(), &QAction::triggered, pools, [pools](bool shown) {
        if (shown)
            pools->raise();
    });
    // The guard, in a scroll area: its form never makes the right column taller than the window
    // allows.
    auto *guardScroll = new QScrollArea(this);
    guardScroll->setWidgetResizable(true);
    guardScroll->setFrameShape(QFrame::NoFrame);
    guardScroll->setWidget(m_guard);
    QDockWidget *guard = addDock(guardScroll, tr("Guard"), QStringLiteral("guardDock"), side);
    splitDockWidget(pool, events, Qt::Vertical);
    // Closed until asked for (View > Guard, Ctrl+Shift+G), like Pools: then a tab beside Events.
    tabifyDockWidget(events, guard);
    guard->hide();
    guard->toggleViewAction()->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+G")));
    connect(guard->toggleViewAction(), &QAction::triggered, guard, [guard](bool shown) {
        if (shown)
            guard->raise();
    });
    // The pool's alerts: closed until asked for (View > Alerts, Ctrl+Shift+A), like Guard, then a
    // tab beside Events; they are judged in the session whether it is open or not.
    QDockWidget *alerts = addDock(m_alerts, tr("Alerts"), QStringLiteral("alertsDock"), side);
    tabifyDockWidget(events, alerts);
    alerts->hide();
    alerts->toggleViewAction()->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+A")));
    connect(alerts->toggleViewAction(), &QAction::triggered, alerts, [alerts](bool shown) {
        if (shown)
            alerts->raise();
    });
    resizeDocks({pool, events}, {250, 450}, Qt::Vertical);
    resizeDocks({pool}, {400}, Qt::Horizontal);
    resizeDocks({members}, {300}, Qt::Vertical);
    buildMenusAndToolbars();
    // A window of its own has its own tray icon; a tab's page is given its window's.
    if (!parent)
        useTray(new AlertTray(session, QSystemTrayIcon::isSystemTrayAvailable(), this));

    connect(m_connectionBar, &ConnectionBar::connectRequested, m_session, &PoolSession::connectTo);
    // Typed in the bar: no saved connection's secrets apply.
    connect(m_connectionBar, &ConnectionBar::connectRequested, m_prompter, [this] {
        m_connectedProfile.clear();
        m_pendingProfile.clear();
        m_session->writeLock().setEnvironment(Environment::None);
        m_prompter->setActiveConnection({}, false);
        Q_EMIT connectionRequested();
    });
    // The person connects: questions declined before are asked again (not the poller's retries).
    connect(this, &MainWindow::connectionRequested, m_prompter, &SecretPrompter::forgetDeclined);
    connect(m_profileConnector, &ProfileConnector::connectionReady, this,
            [this](const Endpoint &endpoint, const QByteArray &key,
                   std::chrono::milliseconds interval) {
                m_connectionBar->setPollInterval(interval);
                m_session->setPollInterval(interval);
                m_connectionBar->setTarget(endpoint, key);
                m_connectedProfile = m_pendingProfile;
                m_session->writeLock().setEnvironment(m_pendingEnvironment);
                m_session->connectTo(endpoint, key);
            });
    connect(m_profileConnector, &ProfileConnector::connectionFailed, this,
            [this](const QString &error) {
                m_session->log(LogSeverity::Error, QStringLiteral("connection"), error);
                m_status->showMessage(error, 10000);
            });
    connect(m_connectionBar, &ConnectionBar::disconnectRequested, m_session,
            &PoolSession::disconnectFromServer);
    connect(m_connectionBar, &ConnectionBar::pollIntervalChanged, m_session,
            &PoolSession::setPollInterval);
    connect(m_connectionBar, &ConnectionBar::pauseToggled, m_session, &PoolSession::setPaused);
    connect(m_connectionBar, &ConnectionBar::poolKeysRequested, m_session,
            &PoolSession::findPoolKeys);
    connect(m_connectionBar, &ConnectionBar::urlRejected, this, [this](const QString &error) {
        m_session->log(LogSeverity::Error, QStringLiteral("connection"), error);
        m_status->showMessage(error, 10000);
    });
    connect(m_session, &PoolSession::poolKeysFound, m_connectionBar, &ConnectionBar::setPoolKeys);
    connect(m_pools, &PoolsPanel::poolOpened, this,
            [this](const QByteArray &key) { m_session->connectTo(m_session->endpoint(), key); });
    connect(m_session, &PoolSession::stateChanged, this, [this](ConnectionState state) {
        m_connectionBar->setConnectionState(m_session->hasTarget() ? state
                                                                   : ConnectionState::Disconnected);
        if (state == ConnectionState::Connected) {
            m_pools->setEndpoint(m_session->endpoint());
            if (!m_embeddedServer || !isSameServer(m_session->endpoint(), *m_embeddedServer)) {
                m_connectionBar->rememberUrl(m_session->endpoint());
                LastConnection last;
                last.profile = m_connectedProfile;
                if (last.profile.isEmpty()) {
                    last.url = m_session->endpoint().toSafeUrl();
                    last.poolKey = m_session->poolKey();
                }
                saveLastConnection(last);
            }
            m_session->findPoolKeys();
        }
    });
    // Only keys that were read as pools join the recent keys: no typos, no strings.
    connect(m_session, &PoolSession::observationApplied, this,
            [this](const PoolObservation &observation) {
                if (m_keyRemembered)
                    return;
                const PoolSnapshot &snapshot = observation.snapshot;
                if (observation.summaryMode || !snapshot.members.isEmpty() ||
                    !snapshot.evicted.isEmpty()) {
                    m_keyRemembered = true;
                    m_connectionBar->rememberPoolKey(m_session->poolKey());
                }
            });
    connect(m_session, &PoolSession::authenticationFailed, this, [this](const Failure &failure) {
        // A saved connection's password was refused: its next Connect asks the person again.
        m_prompter->markRefused(transport::SecretKind::RedisPassword,
                                tr("the server refused the password"));
        m_connectionBar->setConnectionState(ConnectionState::Disconnected);
        m_connectionBar->askForPassword(m_session->endpoint(), failure.text);
    });
    // Another pool's figures, or the stale banner gone: room as they need it now.
    connect(m_session, &PoolSession::modeChanged, poolFigures, &LayoutBoundary::shrinkToContent);
    connect(m_session, &PoolSession::targetChanged, this, [this, poolFigures] {
        poolFigures->shrinkToContent();
        m_keyRemembered = false;
        m_alerts->useProfile(m_connectedProfile); // its rules for this pool, else the defaults
        // The fields show the pool shown, whoever switched to it (e.g. the count-reset demo).
        m_connectionBar->setWatchedTarget(m_session->endpoint(), m_session->poolKey());
        updateTitle();
    });
    m_session->setPollInterval(m_connectionBar->pollInterval());
    resize(1360, 860);
    restoreLayout(); // and never larger than the screen
    // Owned by the window. Eight rows of members at least, every column in view, in a small
    // window too.
    auto *proportions = new DockProportions(this, {pool, events, members});
    proportions->keepRowsShown(members, m_members->tableView(), 8);
}

MainWindow::~MainWindow() = default;

QDockWidget *MainWindow::addDock(QWidget *panel, const QString &title, const QString &name,
                                 Qt::DockWidgetArea area) {
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(panel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    addDockWidget(area, dock);
    return dock;
}

ConnectionsDialog *MainWindow::showConnections() {
    // New... starts from what is watched now.
    ConnectionProfile start;
    if (m_session->hasTarget())
        start = profileFromEndpoint({}, m_session->endpoint(), m_session->poolKey(),
                                    m_connectionBar->pollInterval());
    else if (const std::optional<Endpoint> typed = m_connectionBar->currentEndpoint())
        start = profileFromEndpoint({}, *typed, m_connectionBar->currentKey(),
                                    m_connectionBar->pollInterval());
    if (start.poolKey.isEmpty())
        start.poolKey = ConnectionProfile().poolKey;
    auto *dialog = new ConnectionsDialog(m_profiles.get(), m_secrets, start, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ConnectionsDialog::connectRequested, this, &MainWindow::connectLoadedProfile);
    dialog->open();
    return dialog;
}

OverviewWindow *MainWindow::showOverview() {
    if (!m_overview) {
        m_overview = new OverviewWindow(m_profiles.get(), m_secrets, this);
        m_overview->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_overview, &OverviewWindow::poolOpenRequested, this,
                [this](const QString &name, const QByteArray &pool) {
                    if (m_poolOpener) {
                        m_poolOpener(name, pool);
                        return;
                    }
                    const ProfileLoadResult loaded = m_profiles->load(name);
                    if (!loaded.profile) {
                        m_status->showMessage(loaded.error, 10000);
                        return;
                    }
                    ConnectionProfile profile = *loaded.profile;
                    if (!pool.isEmpty())
                        profile.poolKey = pool;
                    connectLoadedProfile(profile);
                    raise();
                    activateWindow();
                });
    } else {
        m_overview->reload(); // saved connections may have changed since
    }
    m_overview->show();
    m_overview->raise();
    m_overview->activateWindow();
    return m_overview;
}

bool MainWindow::connectProfile(const QString &name, QString *error, const QByteArray &poolKey) {
    const ProfileLoadResult loaded = m_profiles->load(name);
    if (!loaded.profile) {
        m_session->log(LogSeverity::Error, QStringLiteral("connection"), loaded.error);
        m_status->showMessage(loaded.error, 10000);
        if (error)
            *error = loaded.error;
        return false;
    }
    ConnectionProfile profile = *loaded.profile;
    if (!poolKey.isEmpty())
        profile.poolKey = poolKey;
    connectLoadedProfile(profile);
    return true;
}

void MainWindow::connectLoadedProfile(const ConnectionProfile &profile) {
    Q_EMIT connectionRequested();
    m_pendingProfile = profile.name; // the title's and the last connection's, once it is ready
    m_pendingEnvironment = profile.environment;
    m_profileConnector->connectTo(profile);
}

void MainWindow::setEmbeddedServer(const Endpoint &server) {
    m_embeddedServer = server;
}

void MainWindow::restoreLayout() {
    const QSettings settings;
    restoreState(settings.value(stateKey(this)).toByteArray(), kLayoutVersion);
    if (!isWindow())
        return;
    restoreGeometry(settings.value(kGeometry).toByteArray());
    fitIntoScreen(this);
}

void MainWindow::fitIntoScreen(QWidget *window) {
    // Never larger than the screen (a saved size from a bigger screen, a high scale factor):
    // at most its available area, the frame included.
    const QScreen *shown = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!shown)
        return;
    const QRect available = shown->availableGeometry();
    // Before the window manager has framed the window its frame is unknown: leave room for a
    // title bar and borders.
    QSize frame = window->frameGeometry().size() - window->geometry().size();
    if (frame.isEmpty())
        frame = QSize(16, 48);
    const QSize limit(available.width() - frame.width(), available.height() - frame.height());
    if (window->width() > limit.width() || window->height() > limit.height())
        window->resize(std::min(window->width(), limit.width()),
                       std::min(window->height(), limit.height()));
    if (!available.contains(window->frameGeometry().topLeft()))
        window->move(available.topLeft());
}

void MainWindow::showEvent(QShowEvent *event) {
    QMainWindow::showEvent(event);
    // Start in the table (keyboard shortcuts at hand), not in the URL field.
    if (!m_shownOnce) {
        m_shownOnce = true;
        QTimer::singleShot(0, m_members->tableView(), [table = m_members->tableView()] {
            table->setFocus(Qt::OtherFocusReason);
        });
    }
}

void MainWindow::closeEvent(QCloseEvent *event) {
    saveLayout();
    // The session goes on polling and judging; the tray shows its state.
    if (isWindow() && !m_closingForGood && m_tray && m_tray->hideInsteadOfClosing(this)) {
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

bool MainWindow::closeForGood() {
    m_closingForGood = true;
    return close();
}

void MainWindow::useTray(AlertTray *tray) {
    m_tray = tray;
    tray->watch(m_session);
    // Above the separator: Show credentials stays View's last item.
    m_viewMenu->insertAction(m_credentialsSeparator, tray->keepWatchingAction());
    // Alerts no notification service showed: a tray message (their events say them anyway).
    connect(m_alerts, &AlertsPanel::notificationUnavailable, tray, &AlertTray::showUnnotified);
    if (isWindow()) // else its tabbed window is the one shown again and closed
        tray->followWindow(this, [this] { return closeForGood(); });
}

void MainWindow::saveLayout() {
    QSettings settings;
    settings.setValue(stateKey(this), saveState(kLayoutVersion));
    if (isWindow())
        settings.setValue(kGeometry, saveGeometry());
}

void MainWindow::updateTitle() {
    if (m_session->isShowingRecording()) {
        setWindowTitle(
            m_session->displayText(tr("poolscope · recording %1 · %2 (read only)")
                                       .arg(QFileInfo(m_session->recordingPath()).fileName(),
                                            QString::fromUtf8(m_session->poolKey()))));
        return;
    }
    if (!m_connectedProfile.isEmpty()) {
        setWindowTitle(m_session->displayText(tr("poolscope · %1 · %2 · %3")
                                                  .arg(m_connectedProfile,
                                                       QString::fromUtf8(m_session->poolKey()),
                                                       m_session->endpoint().toDisplayString())));
        return;
    }
    setWindowTitle(m_session->displayText(QStringLiteral("poolscope · %1 · %2")
                                              .arg(QString::fromUtf8(m_session->poolKey()),
                                                   m_session->endpoint().toDisplayString())));
}

void MainWindow::openRecording(const QString &path) {
    m_session->log(LogSeverity::Info, QStringLiteral("recording"),
                   tr("reading the recording %1…").arg(path));
    // An overview first (the tier that fits the chart: at once), then every frame the file
    // holds (seconds for a big pool's day), for zooming in; both off the GUI thread.
    const auto full = [this, path](std::shared_ptr<LoadedRecording> loaded) {
        if (loaded->ok() && m_session->recordingPath() == path)
            m_session->takeFullRecording(std::move(loaded->history));
    };
    const auto overview = [this, path, full](std::shared_ptr<LoadedRecording> loaded) {
        if (!loaded->ok()) {
            m_session->log(LogSeverity::Error, QStringLiteral("recording"),
                           tr("cannot open the recording: %1").arg(loaded->error));
            return;
        }
        m_session->showRecording(std::move(*loaded));
        m_chart->setTimeWindow(ChartPanel::TimeWindow::Everything); // the whole recording
        loadRecordingInBackground(path, this, full);
    };
    loadRecordingInBackground(path, this, overview, kRecordingOverviewPoints);
}

QString MainWindow::recordingsFolder() const {
    return RecentRecordings::startFolder(m_recorder ? m_recorder->directory() : QString());
}

void MainWindow::setSessionRecorder(SessionRecorder *recorder) {
    m_recorder = recorder;
    m_recordAction->setEnabled(recorder != nullptr);
    if (!recorder)
        return;
    m_recordAction->setChecked(recorder->isEnabled());
    connect(m_recordAction, &QAction::toggled, recorder, &SessionRecorder::setEnabled);
}

} // namespace poolscope
