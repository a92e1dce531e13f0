#include "tabs/TabbedWindow.h"

#include "MainWindow.h"
#include "connection/ConnectionBar.h"
#include "session/PoolSession.h"
#include "session/SessionRecorder.h"
#include "session/WriteLock.h"
#include "profiles/SecretStore.h"
#include "startup/LastConnection.h"
#include "tabs/SessionTab.h"
#include "tray/AlertTray.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPixmap>
#include <QPointer>
#include <QResizeEvent>
#include <QSettings>
#include <QStyle>
#include <QSystemTrayIcon>
#include <QTabBar>
#include <QTabWidget>

namespace poolscope {

namespace {

const QString kGeometry = QStringLiteral("mainWindow/geometry");

// The connection a tab watches, for its title: the saved connection's name, else host and port
// (or the socket); never a password.
QString connectionText(const MainWindow *window) {
    const PoolSession *session = window->session();
    if (!window->connectedProfile().isEmpty())
        return window->connectedProfile();
    if (!window->requestedProfile().isEmpty())
        return window->requestedProfile();
    const Endpoint &endpoint = session->endpoint();
    if (!endpoint.socketPath.isEmpty())
        return endpoint.socketPath;
    return QStringLiteral("%1:%2").arg(endpoint.host).arg(endpoint.port);
}

// A small square of the environment's colour, beside the tab's title.
QIcon environmentIcon(const QColor &colour) {
    QPixmap swatch(12, 12);
    swatch.fill(Qt::transparent);
    QPainter painter(&swatch);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setBrush(colour);
    painter.setPen(colour.darker(140));
    painter.drawRoundedRect(QRectF(0.5, 0.5, 11, 11), 2, 2);
    return QIcon(swatch);
}

// Holds a tab's page. A page's layout changes each poll (a status label's new text); through a
// layout they would reach the tab widget, which then lays itself out and repaints the whole page
// for each one (twice the dashboard's CPU at 10,000 members). This holder has no layout, so they
// stop here; it sizes its page itself.
class PageHolder : public QWidget {
public:
    explicit PageHolder(MainWindow *page)
        : m_page(page) {
        page->setParent(this);
        page->show();
    }
    MainWindow *page() const { return m_page; }
    QSize sizeHint() const override { return m_page ? m_page->sizeHint() : QSize(); }
    QSize minimumSizeHint() const override { return m_page ? m_page->minimumSizeHint() : QSize(); }

protected:
    void resizeEvent(QResizeEvent *) override {
        if (m_page)
            m_page->setGeometry(rect());
    }

private:
    QPointer<MainWindow> m_page; // the page goes with its session (SessionTab), before this
};

PageHolder *holderOf(QWidget *widget) {
    return dynamic_cast<PageHolder *>(widget);
}

} // namespace

TabbedWindow::TabbedWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_tabs(new QTabWidget(this))
    , m_secrets(new SecretStore(this))
    , m_tray(new AlertTray(nullptr, QSystemTrayIcon::isSystemTrayAvailable(), this)) {
    setObjectName(QStringLiteral("tabbedWindow"));
    setWindowTitle(QStringLiteral("poolscope"));
    m_tabs->setObjectName(QStringLiteral("sessionTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setUsesScrollButtons(true);
    m_tabs->tabBar()->setElideMode(Qt::ElideMiddle);
    setCentralWidget(m_tabs);

    m_newTab = new QAction(tr("New &tab"), this);
    m_newTab->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    m_newTab->setStatusTip(tr("Another pool beside this one: a tab with its own connection"));
    // A new tab is for typing where to go: its address field takes the keys (as Ctrl+L does).
    connect(m_newTab, &QAction::triggered, this,
            [this] { newTab()->connectionBar()->focusAddressAction()->trigger(); });
    m_closeTab = new QAction(tr("&Close tab"), this);
    m_closeTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    m_closeTab->setStatusTip(tr("Stop watching this tab's pool; the pool itself is not touched"));
    connect(m_closeTab, &QAction::triggered, this, [this] { closeTab(currentIndex()); });
    m_nextTab = new QAction(tr("Next tab"), this);
    m_nextTab->setShortcuts(QKeySequence::NextChild); // Ctrl+Tab
    connect(m_nextTab, &QAction::triggered, this,
            [this] { setCurrentIndex((currentIndex() + 1) % count()); });
    m_previousTab = new QAction(tr("Previous tab"), this);
    m_previousTab->setShortcuts(QKeySequence::PreviousChild); // Ctrl+Shift+Tab
    connect(m_previousTab, &QAction::triggered, this,
            [this] { setCurrentIndex((currentIndex() + count() - 1) % count()); });
    // On the window itself, so the keys work whichever tab's menus are shown.
    addActions({m_newTab, m_closeTab, m_nextTab, m_previousTab});

    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &TabbedWindow::closeTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, &TabbedWindow::showCurrent);

    m_tray->followWindow(this, [this] { return closeForGood(); });

    resize(1360, 860);
    restoreGeometry(QSettings().value(kGeometry).toByteArray());
    MainWindow::fitIntoScreen(this);
}

TabbedWindow::~TabbedWindow() {
    // Each tab's page before its session (SessionTab's order), all before the tab widget goes.
    while (m_tabs->count() > 0)
        m_tabs->removeTab(0);
    m_sessions.clear();
}

SessionTab *TabbedWindow::addTab(std::unique_ptr<SessionTab> tab) {
    MainWindow *page = tab->window();
    PoolSession *session = tab->session();
    session->setReadOnly(m_readOnly);
    if (m_fullThreshold)
        session->setFullSnapshotThreshold(*m_fullThreshold);
    if (m_embeddedServer) {
        page->setEmbeddedServer(*m_embeddedServer);
        tab->recorder()->setUnrecordedServer(*m_embeddedServer);
    }
    page->useTray(m_tray);
    page->setPoolOpener(
        [this](const QString &profile, const QByteArray &pool) { openPool(profile, pool); });
    // The tab's menus are shown in this window's menu bar; its own stays hidden.
    page->menuBar()->hide();
    if (QMenu *file = page->menuBar()->actions().value(0)->menu()) {
        QAction *first = file->actions().value(0);
        file->insertActions(first, {m_newTab, m_closeTab});
        file->insertSeparator(first);
    }
    connect(page, &QWidget::windowTitleChanged, this, [this, page] { updateTab(page); });
    connect(&session->writeLock(), &WriteLock::environmentChanged, this,
            [this, page] { updateTab(page); });
    m_sessions.push_back(std::move(tab));
    const int index = m_tabs->addTab(new PageHolder(page), QString());
    updateTab(page);
    m_tabs->setCurrentIndex(index);
    return m_sessions.back().get();
}

MainWindow *TabbedWindow::newTab() {
    return addTab(std::make_unique<SessionTab>(m_tabs, m_secrets))->window();
}

MainWindow *TabbedWindow::newDemoTab(const Endpoint &server, bool enabled) {
    SessionTab *tab = addTab(std::make_unique<SessionTab>(m_tabs, m_secrets));
    tab->startDemo(server, enabled);
    return tab->window();
}

MainWindow *TabbedWindow::openPool(const QString &profile, const QByteArray &pool) {
    for (int i = 0; i < count(); ++i) {
        MainWindow *page = tabWindow(i);
        const QString watched = page->connectedProfile().isEmpty() ? page->requestedProfile()
                                                                   : page->connectedProfile();
        if (watched == profile && page->session()->poolKey() == pool) {
            setCurrentIndex(i);
            return page;
        }
    }
    MainWindow *page = newTab();
    page->connectProfile(profile, nullptr, pool);
    return page;
}

int TabbedWindow::restoreTabs() {
    const OpenTabs open = loadOpenTabs();
    for (const LastConnection &saved : open.tabs) {
        MainWindow *page = newTab();
        if (!saved.profile.isEmpty()) {
            // Its secrets come from the keychain or are asked for, as for any saved connection.
            page->connectProfile(saved.profile, nullptr, saved.poolKey);
            continue;
        }
        const EndpointParseResult url = parseEndpoint(saved.url);
        if (!url.ok())
            continue; // stays an empty tab; the error is the URL's, never shown with it
        page->connectionBar()->setTarget(*url.endpoint, saved.poolKey);
        page->session()->connectTo(*url.endpoint, saved.poolKey);
    }
    if (!open.tabs.isEmpty())
        setCurrentIndex(open.current);
    return int(open.tabs.size());
}

void TabbedWindow::saveTabs() const {
    OpenTabs open;
    for (int i = 0; i < count(); ++i) {
        const MainWindow *page = tabWindow(i);
        const PoolSession *session = page->session();
        // The demo's server is new at every start; a recording is reopened from its menu.
        if (session->isShowingRecording())
            continue;
        if (i == currentIndex())
            open.current = int(open.tabs.size());
        LastConnection tab;
        // A saved connection asked for is kept even while its secrets are still being asked.
        const QString profile = page->connectedProfile().isEmpty() ? page->requestedProfile()
                                                                   : page->connectedProfile();
        if (!profile.isEmpty()) {
            tab.profile = profile;
        } else if (session->hasTarget() &&
                   !(m_embeddedServer && session->endpoint() == *m_embeddedServer)) {
            tab.url = session->endpoint().toSafeUrl();
        } else {
            continue;
        }
        tab.poolKey = session->poolKey();
        open.tabs.append(tab);
    }
    open.current = std::min(open.current, std::max(0, int(open.tabs.size()) - 1));
    saveOpenTabs(open);
}

void TabbedWindow::closeTab(int index) {
    if (index < 0 || index >= count())
        return;
    MainWindow *page = tabWindow(index);
    // The last tab leaves an empty one: the window stays, ready for the next connection.
    if (count() == 1)
        newTab();
    const int at = indexOf(page);
    QWidget *holder = m_tabs->widget(at);
    m_tabs->removeTab(at);
    const auto owned = std::find_if(m_sessions.begin(), m_sessions.end(),
                                    [page](const auto &tab) { return tab->window() == page; });
    if (owned != m_sessions.end())
        m_sessions.erase(owned);
    delete holder; // its page went with the session
}

int TabbedWindow::count() const {
    return m_tabs->count();
}

int TabbedWindow::currentIndex() const {
    return m_tabs->currentIndex();
}

void TabbedWindow::setCurrentIndex(int index) {
    m_tabs->setCurrentIndex(index);
}

MainWindow *TabbedWindow::tabWindow(int index) const {
    const PageHolder *holder = holderOf(m_tabs->widget(index));
    return holder ? holder->page() : nullptr;
}

MainWindow *TabbedWindow::current() const {
    return tabWindow(currentIndex());
}

int TabbedWindow::indexOf(const MainWindow *window) const {
    for (int i = 0; i < count(); ++i)
        if (tabWindow(i) == window)
            return i;
    return -1;
}

void TabbedWindow::showCurrent() {
    MainWindow *page = current();
    menuBar()->clear(); // removes the previous tab's menus (they stay theirs)
    if (!page)
        return;
    menuBar()->addActions(page->menuBar()->actions());
    setWindowTitle(page->windowTitle());
    Q_EMIT currentTabChanged(page);
}

void TabbedWindow::updateTab(const MainWindow *page) {
    const int index = indexOf(page);
    if (index < 0)
        return;
    const PoolSession *session = page->session();
    QString title;
    if (session->isShowingRecording())
        title = tr("%1 · %2 (recording)")
                    .arg(QFileInfo(session->recordingPath()).fileName(),
                         QString::fromUtf8(session->poolKey()));
    else if (session->hasTarget() || !page->requestedProfile().isEmpty())
        title = tr("%1 · %2").arg(connectionText(page), QString::fromUtf8(session->poolKey()));
    else
        title = tr("New tab");
    m_tabs->setTabText(index, session->displayText(title));
    m_tabs->setTabToolTip(index, page->windowTitle());
    const QColor colour = environmentColor(session->writeLock().environment());
    m_tabs->setTabIcon(index, colour.isValid() ? environmentIcon(colour) : QIcon());
    m_tabs->tabBar()->setTabTextColor(index,
                                      session->writeLock().isProduction() ? colour : QColor());
    // Qt's own tooltip names no shortcut (and is not in our translations).
    const auto side = QTabBar::ButtonPosition(m_tabs->style()->styleHint(
        QStyle::SH_TabBar_CloseButtonPosition, nullptr, m_tabs->tabBar()));
    if (QWidget *close = m_tabs->tabBar()->tabButton(index, side))
        close->setToolTip(tr("Close this tab (Ctrl+W); the pool is not touched"));
    if (index == currentIndex())
        setWindowTitle(page->windowTitle());
}

void TabbedWindow::closeEvent(QCloseEvent *event) {
    saveTabs();
    if (MainWindow *page = current())
        page->saveLayout();
    QSettings().setValue(kGeometry, saveGeometry());
    // Every tab goes on polling and judging; the tray shows their state.
    if (!m_closingForGood && m_tray->hideInsteadOfClosing(this)) {
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

bool TabbedWindow::closeForGood() {
    m_closingForGood = true;
    return close();
}

} // namespace poolscope
