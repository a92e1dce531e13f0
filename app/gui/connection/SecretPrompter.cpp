#include "connection/SecretPrompter.h"

#include "profiles/SecretStore.h"

#include <chrono>
#include <future>

#include <QCoreApplication>
#include <QEventLoop>
#include <QInputDialog>
#include <QLineEdit>
#include <QPointer>
#include <QThread>

namespace poolscope {

using transport::SecretKind;

SecretPrompter::SecretPrompter(SecretStore *secrets, QWidget *dialogParent)
    : QObject(secrets)
    , m_secrets(secrets)
    , m_dialogParent(dialogParent)
    , m_closing(std::make_shared<std::atomic<bool>>(false)) {
    m_ask = [this](const QString &title, const QString &text) { return askInDialog(title, text); };
    connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this,
            [closing = m_closing] { closing->store(true); });
    transport::setSecretPrompter(
        [self = QPointer<SecretPrompter>(this),
         closing = m_closing](const transport::SecretRequest &request) -> std::optional<QString> {
            if (closing->load() || !self)
                return std::nullopt;
            if (QThread::currentThread() == self->thread()) { // not expected: connections are
                QEventLoop loop;                              // opened on worker threads
                std::optional<QString> answer;
                bool answered = false;
                self->askAsync(request, [&](std::optional<QString> given) {
                    answer = std::move(given);
                    answered = true;
                    loop.quit();
                });
                if (!answered)
                    loop.exec();
                return answer;
            }
            auto promise = std::make_shared<std::promise<std::optional<QString>>>();
            std::future<std::optional<QString>> future = promise->get_future();
            QMetaObject::invokeMethod(
                self.data(),
                [self, request, promise] {
                    self->askAsync(request, [promise](std::optional<QString> given) {
                        promise->set_value(std::move(given));
                    });
                },
                Qt::QueuedConnection);
            // The worker waits for the person; it gives up only when the dashboard goes away.
            while (future.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready)
                if (closing->load())
                    return std::nullopt;
            return future.get();
        });
}

SecretPrompter::~SecretPrompter() {
    m_closing->store(true);
    transport::setSecretPrompter({});
}

void SecretPrompter::setActiveConnection(const QString &name, bool remember) {
    if (name != m_active)
        m_refusedKind.reset();
    m_active = name;
    m_remember = remember;
}

void SecretPrompter::forgetDeclined() {
    m_declined.clear();
}

namespace {

QString declinedKey(const QString &connection, const transport::SecretRequest &request) {
    return connection + QChar(0) + QString::number(int(request.kind)) + QChar(0) + request.subject;
}

} // namespace

void SecretPrompter::markRefused(SecretKind kind, const QString &reason) {
    if (m_active.isEmpty())
        return;
    m_secrets->forgetInMemory(m_active, kind);
    m_refusedKind = kind;
    m_refusedReason = reason;
}

QString SecretPrompter::titleFor(SecretKind kind) {
    return transport::secretKindTitle(kind);
}

QString SecretPrompter::textFor(const transport::SecretRequest &request) const {
    QString text;
    switch (request.kind) {
    case SecretKind::RedisPassword:
        text = tr("Password for %1:").arg(request.subject);
        break;
    case SecretKind::TlsKeyPassphrase:
        text = tr("The TLS client key %1 is encrypted. Its passphrase:").arg(request.subject);
        break;
    case SecretKind::SshKeyPassphrase:
        text = tr("The SSH key %1 is encrypted. Its passphrase:").arg(request.subject);
        break;
    case SecretKind::SshPassword:
        text = tr("SSH password for %1:").arg(request.subject);
        break;
    }
    if (!request.retryReason.isEmpty())
        text = tr("%1. %2", "why the secret is asked for again, then the question")
                   .arg(request.retryReason.left(1).toUpper() + request.retryReason.mid(1), text);
    if (!m_active.isEmpty() && m_remember &&
        m_secrets->availability() != SecretStore::Availability::Unavailable)
        text += QLatin1Char('\n') + tr("(kept in the keychain for \"%1\")").arg(m_active);
    else if (m_secrets->availability() == SecretStore::Availability::Unavailable)
        text += QLatin1Char('\n') +
                tr("(no keychain here: kept in memory only, until poolscope exits)");
    else
        text += QLatin1Char('\n') + tr("(kept in memory only, until poolscope exits)");
    return text;
}

std::optional<QString> SecretPrompter::askInDialog(const QString &title, const QString &text) {
    bool ok = false;
    const QString answer =
        QInputDialog::getText(m_dialogParent, title, text, QLineEdit::Password, QString(), &ok);
    if (!ok)
        return std::nullopt;
    return answer;
}

void SecretPrompter::askPerson(const transport::SecretRequest &request,
                               const std::function<void(std::optional<QString>)> &done) {
    const QString asking = declinedKey(m_active, request) + QChar(0) + request.retryReason;
    if (const auto open = m_waiting.find(asking); open != m_waiting.end()) {
        open->append(done); // the same question is on screen: share its answer
        return;
    }
    m_waiting.insert(asking, {});
    Q_EMIT personAsked(request.kind, request.subject);
    std::optional<QString> answer = m_ask(titleFor(request.kind), textFor(request));
    if (!answer)
        m_declined.insert(declinedKey(m_active, request));
    if (answer && !m_active.isEmpty()) {
        if (m_remember)
            m_secrets->write(m_active, request.kind, *answer); // memory now, keychain async
        else
            m_secrets->keepInMemory(m_active, request.kind, *answer);
    }
    const QList<std::function<void(std::optional<QString>)>> others = m_waiting.take(asking);
    done(answer);
    for (const auto &other : others)
        other(answer);
}

void SecretPrompter::askAsync(const transport::SecretRequest &request,
                              std::function<void(std::optional<QString>)> done) {
    // Declined since the person last connected: a reconnect's question gets the same answer.
    if (request.retryReason.isEmpty() && m_declined.contains(declinedKey(m_active, request)))
        return done(std::nullopt);
    if (m_active.isEmpty())
        return askPerson(request, done);
    if (!request.retryReason.isEmpty()) { // the kept one was wrong
        m_secrets->forgetInMemory(m_active, request.kind);
        return askPerson(request, done);
    }
    if (m_refusedKind == request.kind) { // refused by the server last time
        m_refusedKind.reset();
        transport::SecretRequest retry = request;
        retry.retryReason = m_refusedReason;
        return askPerson(retry, done);
    }
    if (const std::optional<QString> kept = m_secrets->inMemory(m_active, request.kind))
        return done(kept);
    if (!m_remember || m_secrets->availability() == SecretStore::Availability::Unavailable)
        return askPerson(request, done);
    // The keychain answers later: wait for this connection's entry of this kind.
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(m_secrets, &SecretStore::secretRead, this,
                          [this, request, done, connection,
                           name = m_active](const QString &readFor, SecretKind kind, bool found,
                                            const QString &secret, const QString &) {
                              if (readFor != name || kind != request.kind)
                                  return;
                              disconnect(*connection);
                              if (found)
                                  done(secret);
                              else
                                  askPerson(request, done);
                          });
    m_secrets->read(m_active, request.kind);
}

} // namespace poolscope
