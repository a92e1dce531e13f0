// Pools side by side in tabs, against two real servers: tabs open, Ctrl+Tab and Ctrl+Shift+Tab
// go round, the window's panels and menus are the current tab's, Ctrl+W closes (the last one
// leaves an empty tab), a pool opened from the Overview gets its own tab (or the one showing it),
// a production tab wears its colour, and the tabs come back after a restart without a password
// in the settings.
#include "MainWindowFixture.h"
#include "RedisFixture.h"

#include "connection/ConnectionBar.h"
#include "members/MembersPanel.h"
#include "profiles/ProfileStore.h"
#include "session/WriteLock.h"
#include "startup/LastConnection.h"
#include "tabs/TabbedWindow.h"

#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

// Connects PAGE to SERVER's KEY as the connection bar would, and waits for the first poll.
bool connectPage(MainWindow *page, const Endpoint &server, const QByteArray &key) {
    QSignalSpy observed(page->session(), &PoolSession::observationApplied);
    page->session()->setPollInterval(std::chrono::milliseconds(100));
    page->connectionBar()->setTarget(server, key);
    page->session()->connectTo(server, key);
    return observed.wait(10000);
}

// Waits until PAGE's members table shows MEMBER (the first polls may come before the rows).
bool shows(const MainWindow *page, const QByteArray &member) {
    return QTest::qWaitFor([&] { return page->membersPanel()->model()->rowOf(member) >= 0; },
                           10000);
}

QStringList menuTitles(const QMenuBar *bar) {
    QStringList titles;
    for (const QAction *action : bar->actions())
        titles.append(action->text());
    return titles;
}

} // namespace

class TestTabs : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<RedisFixture> m_first;
    std::unique_ptr<RedisFixture> m_second;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("HOME", QFile::encodeName(m_dir.path()));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral(".config"))));
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        QStandardPaths::setTestModeEnabled(true);
        m_first = std::make_unique<RedisFixture>();
        QVERIFY2(m_first->start(), qPrintable(m_first->error()));
        m_second = std::make_unique<RedisFixture>();
        QVERIFY2(m_second->start(), qPrintable(m_second->error()));
    }
    void init() {
        QSettings().clear();
        for (RedisFixture *redis : {m_first.get(), m_second.get()})
            redis->run({"FLUSHALL"});
        m_first->makePool(kKey, names(4, "a"), 1);
        m_second->makePool("other", names(6, "b"), 2);
    }

    // File ▸ New tab is for typing where to go: the new tab's address field has the keys.
    void aNewTabTakesAnAddress() {
        TabbedWindow window;
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.newTabAction()->trigger();
        window.newTabAction()->trigger();
        QCOMPARE(window.count(), 2);
        const ConnectionBar *bar = window.current()->connectionBar();
        QTRY_VERIFY(QApplication::focusWidget() && bar->isAncestorOf(QApplication::focusWidget()));
    }

    // A page's layout changes (its status labels change width with every poll) stay in the page:
    // reaching the tab widget, each would lay it out and repaint the whole page.
    void aPagesLayoutChangesStayInItsTab() {
        TabbedWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        MainWindow *page = window.newTab();
        QVERIFY(connectPage(page, m_first->endpoint(), kKey));
        struct LayoutRequests : QObject {
            int count = 0;
            bool eventFilter(QObject *, QEvent *event) override {
                count += event->type() == QEvent::LayoutRequest;
                return false;
            }
        } requests;
        window.tabWidget()->installEventFilter(&requests);
        QSignalSpy polled(page->session(), &PoolSession::observationApplied);
        QTRY_VERIFY_WITH_TIMEOUT(polled.count() >= 5, 10000);
        auto *label = page->statusBar()->findChild<QLabel *>();
        QVERIFY(label);
        label->setText(label->text() + QStringLiteral(" and a good deal wider"));
        QTRY_VERIFY_WITH_TIMEOUT(polled.count() >= 8, 10000);
        QCOMPARE(requests.count, 0);
        // The page still fills its tab.
        window.resize(window.size() + QSize(80, 40));
        QTRY_COMPARE(page->size(), page->parentWidget()->size());
        QCOMPARE(page->parentWidget()->size(), window.tabWidget()->currentWidget()->size());
    }

    void tabsOpenSwitchAndThePanelsFollow() {
        TabbedWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        MainWindow *first = window.newTab();
        QVERIFY(connectPage(first, m_first->endpoint(), kKey));
        MainWindow *second = window.newTab();
        QVERIFY(connectPage(second, m_second->endpoint(), "other"));
        QCOMPARE(window.count(), 2);
        QCOMPARE(window.current(), second);
        QVERIFY(shows(first, "a0"));
        QVERIFY(shows(second, "b5"));
        // Each tab's own pool: no member of one in the other's table.
        QCOMPARE(first->membersPanel()->model()->rowOf("b0"), -1);
        QCOMPARE(second->membersPanel()->model()->rowOf("a0"), -1);
        // One keychain and one memory of secrets: a password given in one tab serves the others.
        QCOMPARE(first->secretStore(), second->secretStore());
        // Titles: the connection and the pool.
        QTRY_VERIFY(window.tabWidget()->tabText(0).contains(QStringLiteral(" · proxies")));
        QTRY_VERIFY(window.tabWidget()->tabText(1).contains(QStringLiteral(" · other")));

        // Ctrl+Tab: the first tab's panels are the ones shown, its menus in the menu bar.
        QTest::keyClick(&window, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(window.current(), first);
        QVERIFY(first->isVisible());
        QVERIFY(!second->isVisible());
        QVERIFY(first->membersPanel()->isVisible());
        QVERIFY(!second->membersPanel()->isVisible());
        QVERIFY(!window.menuBar()->actions().isEmpty());
        QCOMPARE(window.menuBar()->actions(), first->menuBar()->actions());
        QCOMPARE(window.windowTitle(), first->windowTitle());
        // Ctrl+Shift+Tab goes back round.
        QTest::keyClick(&window, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(window.current(), second);
        QVERIFY(second->membersPanel()->isVisible());
        QCOMPARE(window.menuBar()->actions(), second->menuBar()->actions());
        QCOMPARE(menuTitles(window.menuBar()), menuTitles(second->menuBar()));
        // New tab and Close tab are in every tab's File menu.
        const QList<QAction *> file = second->menuBar()->actions().value(0)->menu()->actions();
        QVERIFY(file.contains(window.newTabAction()));
        QVERIFY(file.contains(window.closeTabAction()));

        // Ctrl+W closes the current tab, the other goes on polling.
        QTest::keyClick(&window, Qt::Key_W, Qt::ControlModifier);
        QCOMPARE(window.count(), 1);
        QCOMPARE(window.current(), first);
        QSignalSpy polled(first->session(), &PoolSession::observationApplied);
        QVERIFY(polled.wait(10000));
        // The last one leaves an empty tab, the window stays.
        QTest::keyClick(&window, Qt::Key_W, Qt::ControlModifier);
        QCOMPARE(window.count(), 1);
        QVERIFY(window.current() != first);
        QVERIFY(!window.current()->session()->hasTarget());
        QCOMPARE(window.tabWidget()->tabText(0), TabbedWindow::tr("New tab"));
        // Ctrl+Shift+T opens another.
        QTest::keyClick(&window, Qt::Key_T, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(window.count(), 2);
    }

    void aPoolFromTheOverviewGetsItsOwnTabOnce() {
        TabbedWindow window;
        window.show();
        ConnectionProfile profile;
        profile.name = QStringLiteral("live");
        profile.url = m_first->url();
        profile.poolKey = "elsewhere";
        profile.environment = Environment::Production;
        profile.pollInterval = std::chrono::milliseconds(100);
        MainWindow *start = window.newTab();
        QCOMPARE(start->profileStore()->save(profile), QString());

        MainWindow *opened = window.openPool(QStringLiteral("live"), kKey);
        QVERIFY(opened != start);
        QCOMPARE(window.count(), 2);
        QVERIFY(shows(opened, "a3"));
        QCOMPARE(opened->session()->poolKey(), kKey);
        QCOMPARE(opened->connectedProfile(), QStringLiteral("live"));
        // Production: locked, and its colour on the tab.
        QVERIFY(opened->session()->writeLock().isLocked());
        const int index = window.indexOf(opened);
        QTRY_COMPARE(window.tabWidget()->tabText(index), QStringLiteral("live · proxies"));
        QVERIFY(!window.tabWidget()->tabIcon(index).isNull());
        QCOMPARE(window.tabWidget()->tabBar()->tabTextColor(index),
                 environmentColor(Environment::Production));
        // Asked again: the tab already showing it comes forward.
        window.setCurrentIndex(0);
        QCOMPARE(window.openPool(QStringLiteral("live"), kKey), opened);
        QCOMPARE(window.count(), 2);
        QCOMPARE(window.current(), opened);
    }

    void tabsComeBackAfterARestart() {
        ConnectionProfile profile;
        profile.name = QStringLiteral("staging one");
        profile.url = m_second->url();
        profile.poolKey = "other";
        profile.environment = Environment::Staging;
        profile.pollInterval = std::chrono::milliseconds(100);
        Endpoint withPassword = m_first->endpoint();
        withPassword.password = QStringLiteral("tab-secret-8841");
        {
            TabbedWindow window;
            window.show();
            MainWindow *typed = window.newTab();
            QVERIFY(connectPage(typed, m_first->endpoint(), kKey));
            MainWindow *saved = window.newTab();
            QCOMPARE(saved->profileStore()->save(profile), QString());
            QSignalSpy observed(saved->session(), &PoolSession::observationApplied);
            QVERIFY(saved->connectProfile(profile.name));
            QVERIFY(observed.wait(10000));
            // A typed URL with a password: kept without it.
            MainWindow *secret = window.newTab();
            secret->session()->connectTo(withPassword, "third");
            window.newTab(); // empty: not kept
            window.setCurrentIndex(1);
            window.close();
        }
        QSettings().sync();
        QFile file(QSettings().fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray stored = file.readAll();
        QVERIFY(stored.contains("openTabs"));
        QVERIFY(!stored.contains("tab-secret-8841"));
        QCOMPARE(loadOpenTabs().tabs.size(), 3);

        // The next start: the same tabs, the same current one, each polling its pool again.
        TabbedWindow window;
        window.show();
        QCOMPARE(window.restoreTabs(), 3);
        QCOMPARE(window.count(), 3);
        QCOMPARE(window.currentIndex(), 1);
        MainWindow *typed = window.tabWindow(0);
        MainWindow *saved = window.tabWindow(1);
        QVERIFY(shows(typed, "a1"));
        QVERIFY(shows(saved, "b4"));
        QCOMPARE(typed->session()->poolKey(), kKey);
        QCOMPARE(saved->connectedProfile(), profile.name);
        QCOMPARE(saved->session()->poolKey(), QByteArray("other"));
        QCOMPARE(saved->session()->writeLock().environment(), Environment::Staging);
        const MainWindow *third = window.tabWindow(2);
        QCOMPARE(third->session()->poolKey(), QByteArray("third"));
        QVERIFY(third->session()->endpoint().password.isEmpty());
        QTRY_COMPARE(window.tabWidget()->tabText(1), QStringLiteral("staging one · other"));
        QVERIFY(!window.tabWidget()->tabIcon(1).isNull());
    }
};

QTEST_MAIN(TestTabs)
#include "tst_tabs.moc"
