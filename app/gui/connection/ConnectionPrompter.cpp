#include "connection/ConnectionPrompter.h"

#include <condition_variable>
#include <mutex>
#include <vector>

#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QThread>

namespace poolscope {

using transport::HostKeyQuestion;
using transport::SecretKind;
using transport::SecretRequest;

struct ConnectionPrompter::Pending {
    std::mutex mutex;
    std::condition_variable answered;
    bool done = false;
    bool trusted = false;
    std::optional<QString> secret;

    // The first answer counts (a dialog that finishes, then is destroyed, answers once).
    void finish(std::optional<QString> answer, bool trust) {
        {
            const std::lock_guard lock(mutex);
            if (done)
                return;
            done = true;
            secret = std::move(answer);
            trusted = trust;
        }
        answered.notify_all();
    }
    void wait() {
        std::unique_lock lock(mutex);
        answered.wait(lock, [this] { return done; });
    }
};

// What the installed prompters (which may outlive the ConnectionPrompter by the length of a
// call) share with it: whether it is still there, and the questions still open.
struct PrompterState {
    std::mutex mutex;
    ConnectionPrompter *prompter = nullptr; // null once it is destroyed
    std::vector<std::weak_ptr<ConnectionPrompter::Pending>> open;
    QSet<QString> declinedHostKeys; // "host fingerprint"
};

namespace {

// Posts `show` to the prompter's thread and waits for its answer; a declined Pending when the
// prompter is gone, or when asked on its own thread (which must not wait).
std::shared_ptr<ConnectionPrompter::Pending>
ask(const std::shared_ptr<PrompterState> &state,
    const std::function<void(ConnectionPrompter *,
                             const std::shared_ptr<ConnectionPrompter::Pending> &)> &show) {
    auto pending = std::make_shared<ConnectionPrompter::Pending>();
    {
        const std::lock_guard lock(state->mutex);
        if (!state->prompter || QThread::currentThread() == state->prompter->thread()) {
            pending->finish(std::nullopt, false);
            return pending;
        }
        std::erase_if(state->open, [](const auto &open) { return open.expired(); });
        state->open.push_back(pending);
        ConnectionPrompter *prompter = state->prompter;
        QMetaObject::invokeMethod(
            prompter, [prompter, pending, show] { show(prompter, pending); }, Qt::QueuedConnection);
    }
    pending->wait();
    return pending;
}

} // namespace

ConnectionPrompter::ConnectionPrompter(QWidget *window, QObject *parent, Questions questions)
    : QObject(parent)
    , m_window(window)
    , m_state(std::make_shared<PrompterState>())
    , m_questions(questions) {
    m_state->prompter = this;
    const std::shared_ptr<PrompterState> state = m_state;
    if (m_questions == Questions::SecretsAndHostKeys)
        transport::setSecretPrompter([state](const SecretRequest &request) {
            return ask(state,
                       [request](ConnectionPrompter *prompter, const auto &pending) {
                           prompter->showSecretDialog(pending, request);
                       })
                ->secret;
        });
    transport::setHostKeyPrompter([state](const HostKeyQuestion &question) {
        const QString key = question.host + QLatin1Char(' ') + question.fingerprint;
        {
            const std::lock_guard lock(state->mutex);
            if (state->declinedHostKeys.contains(key))
                return false;
        }
        const bool trusted =
            ask(state, [question](ConnectionPrompter *prompter, const auto &pending) {
                prompter->showHostKeyDialog(pending, question);
            })->trusted;
        if (!trusted) {
            const std::lock_guard lock(state->mutex);
            state->declinedHostKeys.insert(key);
        }
        return trusted;
    });
}

ConnectionPrompter::~ConnectionPrompter() {
    if (m_questions == Questions::SecretsAndHostKeys)
        transport::setSecretPrompter({});
    transport::setHostKeyPrompter({});
    std::vector<std::weak_ptr<Pending>> open;
    {
        const std::lock_guard lock(m_state->mutex);
        m_state->prompter = nullptr;
        open.swap(m_state->open);
    }
    for (const std::weak_ptr<Pending> &weak : open)
        if (const std::shared_ptr<Pending> pending = weak.lock())
            pending->finish(std::nullopt, false);
    for (const QPointer<QWidget> &dialog : std::as_const(m_dialogs))
        delete dialog.data(); // a question nobody waits for any more
}

void ConnectionPrompter::forgetDeclinedHostKeys() {
    const std::lock_guard lock(m_state->mutex);
    m_state->declinedHostKeys.clear();
}

void ConnectionPrompter::track(QWidget *dialog) {
    m_dialogs.removeAll(nullptr);
    m_dialogs.append(dialog);
}

QString ConnectionPrompter::secretLabel(const SecretRequest &request) {
    QString label;
    switch (request.kind) {
    case SecretKind::RedisPassword:
        label = tr("Password for the Redis server %1:");
        break;
    case SecretKind::TlsKeyPassphrase:
        label = tr("Passphrase of the TLS client key %1:");
        break;
    case SecretKind::SshKeyPassphrase:
        label = tr("Passphrase of the SSH key %1:");
        break;
    case SecretKind::SshPassword:
        label = tr("SSH password for %1:");
        break;
    }
    label = label.arg(request.subject);
    if (!request.retryReason.isEmpty())
        label = tr("%1. %2", "why the secret is asked for again, then the question")
                    .arg(request.retryReason.left(1).toUpper() + request.retryReason.mid(1), label);
    return label;
}

QString ConnectionPrompter::hostKeyText(const HostKeyQuestion &question) {
    return tr("The SSH host %1 is not in ~/.ssh/known_hosts.\n\n"
              "Key type: %2\nFingerprint: %3\n\n"
              "Trust this key only if the fingerprint is the host's (ask its "
              "administrator, or run ssh-keygen -lf on its host key). Trusting "
              "records it in ~/.ssh/known_hosts.")
        .arg(question.host, question.keyType, question.fingerprint);
}

void ConnectionPrompter::showSecretDialog(const std::shared_ptr<Pending> &pending,
                                          const SecretRequest &request) {
    auto *dialog = new QInputDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("poolscope: %1").arg(transport::secretKindTitle(request.kind)));
    dialog->setLabelText(secretLabel(request));
    dialog->setInputMode(QInputDialog::TextInput);
    dialog->setTextEchoMode(QLineEdit::Password);
    dialog->setWindowModality(m_window ? Qt::WindowModal : Qt::ApplicationModal);
    connect(dialog, &QInputDialog::finished, this, [pending, dialog](int result) {
        if (result == QDialog::Accepted)
            pending->finish(dialog->textValue(), false);
        else
            pending->finish(std::nullopt, false);
        dialog->setTextValue({});
    });
    connect(dialog, &QObject::destroyed, this, [pending] { pending->finish(std::nullopt, false); });
    dialog->open();
    track(dialog);
    Q_EMIT dialogOpened(dialog);
}

void ConnectionPrompter::showHostKeyDialog(const std::shared_ptr<Pending> &pending,
                                           const HostKeyQuestion &question) {
    auto *box = new QMessageBox(QMessageBox::Warning, tr("poolscope: unknown SSH host key"),
                                hostKeyText(question), QMessageBox::NoButton, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    // Alt+T trusts. Cancel stays the default: Enter pressed by reflex must not trust a key
    // (OpenSSH asks for a typed "yes" for the same reason).
    QPushButton *trust = box->addButton(tr("&Trust this key"), QMessageBox::AcceptRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setWindowModality(m_window ? Qt::WindowModal : Qt::ApplicationModal);
    connect(box, &QMessageBox::finished, this, [pending, box, trust](int) {
        pending->finish(std::nullopt, box->clickedButton() == trust);
    });
    connect(box, &QObject::destroyed, this, [pending] { pending->finish(std::nullopt, false); });
    box->open();
    track(box);
    Q_EMIT dialogOpened(box);
}

} // namespace poolscope
