#include "tabs/SessionTab.h"

#include "MainWindow.h"
#include "actions/PoolActions.h"
#include "connection/ConnectionPrompter.h"
#include "session/DemoDriver.h"
#include "session/PoolSession.h"
#include "session/SessionRecorder.h"

namespace poolscope {

SessionTab::SessionTab(QWidget *parent, SecretStore *secrets)
    : m_session(std::make_unique<PoolSession>())
    , m_window(std::make_unique<MainWindow>(m_session.get(), parent, secrets)) {
    // Unknown SSH host keys are asked about in dialogs over the window; secrets are the page's
    // SecretPrompter's (memory, keychain, then the person).
    m_prompter = std::make_unique<ConnectionPrompter>(m_window.get(), nullptr,
                                                      ConnectionPrompter::Questions::HostKeysOnly);
    QObject::connect(m_window.get(), &MainWindow::connectionRequested, m_prompter.get(),
                     &ConnectionPrompter::forgetDeclinedHostKeys);
    // Records the watched pool (File → Record while watching) and shows a pool's recorded past.
    m_recorder = std::make_unique<SessionRecorder>(m_session.get());
    m_window->setSessionRecorder(m_recorder.get());
}

SessionTab::~SessionTab() {
    m_demo.reset();
    m_recorder.reset();
    m_prompter.reset(); // every open question declined before the session joins its threads
    m_window.reset();
    m_session.reset();
}

void SessionTab::startDemo(const Endpoint &server, bool enabled) {
    m_demo = std::make_unique<DemoDriver>(m_session.get(), server);
    m_demo->setEnabled(enabled);
    m_window->actions()->setDemoDriver(m_demo.get());
}

} // namespace poolscope
