#pragma once

#include <memory>

class QWidget;

namespace poolscope {

class ConnectionPrompter;
class DemoDriver;
class MainWindow;
class PoolSession;
class SecretStore;
class SessionRecorder;
struct Endpoint;

// One tab of the dashboard: a whole session (its own PoolSession, chart, members, events, health,
// guard, alerts and connection bar, laid out by a MainWindow used as the tab's page), its
// recorder and its questions about host keys. The demo, when the tab has one, belongs to the
// embedded server and to this tab only. Destroyed in the order main() used to keep: the demo,
// the recorder and the questions first, then the page, then the session and its threads.
class SessionTab {
public:
    // SECRETS: shared with the other tabs (the window's).
    SessionTab(QWidget *parent, SecretStore *secrets);
    ~SessionTab();
    SessionTab(const SessionTab &) = delete;
    SessionTab &operator=(const SessionTab &) = delete;

    PoolSession *session() const { return m_session.get(); }
    MainWindow *window() const { return m_window.get(); }
    SessionRecorder *recorder() const { return m_recorder.get(); }
    // The demo on the embedded server (seeding, load, the count-reset scenario).
    void startDemo(const Endpoint &server, bool enabled);
    DemoDriver *demo() const { return m_demo.get(); }
    bool hasDemo() const { return m_demo != nullptr; }

private:
    std::unique_ptr<PoolSession> m_session;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<ConnectionPrompter> m_prompter;
    std::unique_ptr<SessionRecorder> m_recorder;
    std::unique_ptr<DemoDriver> m_demo;
};

} // namespace poolscope
