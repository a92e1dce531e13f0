#pragma once

#include "endpoint/Endpoint.h"

#include <QMainWindow>

#include <memory>
#include <optional>
#include <vector>

class QTabWidget;

namespace poolscope {

class AlertTray;
class MainWindow;
class SecretStore;
class SessionTab;

// The dashboard's window: pools side by side in tabs, each tab a whole session (SessionTab, laid
// out by its MainWindow page), so the docked panels, toolbars and status bar shown are always the
// current tab's. The menu bar shows the current tab's menus. File ▸ New tab (Ctrl+Shift+T; Ctrl+T
// stays Test allocations), Ctrl+W closes a tab (closing the last one leaves a new empty tab),
// Ctrl+Tab and Ctrl+Shift+Tab go round. The tabs (a saved connection's name or a URL without its
// password, and the pool) are kept in QSettings on close and reopened by restoreTabs().
class TabbedWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit TabbedWindow(QWidget *parent = nullptr);
    ~TabbedWindow() override;

    // What every tab gets: the read-only switch, the whole-read threshold, and the embedded demo
    // server (never recorded, never remembered as a last connection).
    void setReadOnly(bool readOnly) { m_readOnly = readOnly; }
    void setFullSnapshotThreshold(std::optional<qint64> members) { m_fullThreshold = members; }
    void setEmbeddedServer(const Endpoint &server) { m_embeddedServer = server; }

    // A new tab watching nothing yet, made current.
    MainWindow *newTab();
    // The tab with the demo of SERVER (the embedded one, or the --url named with --demo): at most
    // one, and nothing of the demo reaches the other tabs.
    MainWindow *newDemoTab(const Endpoint &server, bool enabled);
    // The tab showing PROFILE's POOL (made current), else a new tab connecting to it.
    MainWindow *openPool(const QString &profile, const QByteArray &pool);
    // Reopens the tabs saved on the last close; how many were opened.
    int restoreTabs();
    void saveTabs() const;
    void closeTab(int index);

    int count() const;
    int currentIndex() const;
    void setCurrentIndex(int index);
    MainWindow *tabWindow(int index) const;
    MainWindow *current() const;
    // The index of WINDOW's tab, or -1.
    int indexOf(const MainWindow *window) const;
    QTabWidget *tabWidget() const { return m_tabs; }
    QAction *newTabAction() const { return m_newTab; }
    QAction *closeTabAction() const { return m_closeTab; }
    QAction *nextTabAction() const { return m_nextTab; }
    QAction *previousTabAction() const { return m_previousTab; }
    // Every tab's pool in one tray icon, and View ▸ Keep watching in the tray when closed: with
    // it on, closing the window hides it and every tab keeps watching.
    AlertTray *tray() const { return m_tray; }
    // Closes the window whatever that option says (the tray's Quit, Ctrl+C, SIGTERM).
    bool closeForGood();

Q_SIGNALS:
    // The current tab changed (also when one closed): the window's panels are its page's.
    void currentTabChanged(poolscope::MainWindow *window);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    SessionTab *addTab(std::unique_ptr<SessionTab> tab);
    void showCurrent();
    void updateTab(const MainWindow *window);

    QTabWidget *m_tabs;
    SecretStore *m_secrets; // every tab's: a password given once serves them all
    AlertTray *m_tray;
    bool m_closingForGood = false;
    std::vector<std::unique_ptr<SessionTab>> m_sessions;
    QAction *m_newTab;
    QAction *m_closeTab;
    QAction *m_nextTab;
    QAction *m_previousTab;
    bool m_readOnly = false;
    std::optional<qint64> m_fullThreshold;
    std::optional<Endpoint> m_embeddedServer;
};

} // namespace poolscope
