#pragma once

#include "transport/UserPrompts.h"

#include <memory>
#include <optional>

#include <QList>
#include <QObject>
#include <QPointer>
#include <QWidget>

namespace poolscope {

// The dashboard's answers to transport/UserPrompts.h: while it lives, a connection that needs a
// secret (any SecretKind: Redis password, TLS key passphrase, SSH key passphrase, SSH password)
// or meets an unknown SSH host key asks the person in a dialog on the GUI thread. Connections
// open on worker threads: the worker posts the question to this object and waits for the answer;
// the GUI thread shows a window-modal dialog (open(), no nested event loop) and never waits.
// Destroying the prompter uninstalls it and declines every question still open, so that no
// worker waits for a window that is gone.
class ConnectionPrompter : public QObject {
    Q_OBJECT

public:
    // Which questions this prompter answers. The dashboard leaves secrets to SecretPrompter,
    // which looks in memory and the keychain before it asks the person.
    enum class Questions { SecretsAndHostKeys, HostKeysOnly };

    // Dialogs are shown over `window` (may be null: then they are top-level).
    explicit ConnectionPrompter(QWidget *window, QObject *parent = nullptr,
                                Questions questions = Questions::SecretsAndHostKeys);
    ~ConnectionPrompter() override;

    // A host key the person declined is not asked about again (the answer stays "no") until
    // this is called: the dashboard calls it when the person asks to connect, so that the
    // poller's automatic reconnects (every 2 s at most) do not bring the dialog back each time.
    void forgetDeclinedHostKeys();

    // The texts of the dialogs, for tests and for whoever reuses them.
    static QString secretLabel(const transport::SecretRequest &request);
    static QString hostKeyText(const transport::HostKeyQuestion &question);

    struct Pending; // one question and its answer, shared with the waiting worker

Q_SIGNALS:
    // A dialog was shown (for tests: find it, fill it in, accept it).
    void dialogOpened(QWidget *dialog);

public:
    // Shows the dialog for one question, on this object's thread (called through the queue).
    void showSecretDialog(const std::shared_ptr<Pending> &pending,
                          const transport::SecretRequest &request);
    void showHostKeyDialog(const std::shared_ptr<Pending> &pending,
                           const transport::HostKeyQuestion &question);

private:
    void track(QWidget *dialog);

    QPointer<QWidget> m_window;
    QList<QPointer<QWidget>> m_dialogs; // open dialogs, closed with the prompter
    std::shared_ptr<struct PrompterState> m_state;
    Questions m_questions;
};

} // namespace poolscope
