#pragma once

#include "transport/UserPrompts.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

class QWidget;

namespace poolscope {

class SecretStore;

// The dashboard's answer to transport::askSecret (Redis password, TLS key passphrase, SSH key
// passphrase, SSH password), installed while it lives. Connections open on worker threads: the
// worker posts the question to the GUI thread and waits for the answer there; the GUI thread
// never waits on the network. Destroying the prompter (or quitting) releases a waiting worker
// with "no answer", so shutdown never deadlocks on an open question.
//
// For the saved connection being connected (setActiveConnection) a secret is looked up first in
// memory, then in the keychain when the connection remembers its secrets; only then is the person
// asked, in a password field (echo off). An answer is kept in memory for the process's life, and
// in the keychain when remembered. A retry (wrong passphrase) forgets the kept one and asks.
//
// (The `ssh` branch brings a prompter for SSH secrets and host keys too: this one is kept minimal
// so that one of the two can stay when they meet.)
class SecretPrompter : public QObject {
    Q_OBJECT

public:
    SecretPrompter(SecretStore *secrets, QWidget *dialogParent);
    ~SecretPrompter() override;

    // The saved connection whose secrets are asked for now; empty: an ad-hoc connection (answers
    // are not kept).
    void setActiveConnection(const QString &name, bool remember);
    QString activeConnection() const { return m_active; }
    // A secret the person declined (cancelled) is not asked for again, for the same connection,
    // kind and subject, until this is called: the window calls it when the person connects, so
    // the poller's automatic reconnects do not bring the dialog back at every retry.
    void forgetDeclined();
    // The server refused the active connection's secret of this kind: the kept one is
    // forgotten, and the next question goes to the person (not the keychain), with the reason.
    void markRefused(transport::SecretKind kind, const QString &reason);

    // On the GUI thread: memory, keychain, then the person; `done` gets the answer (nullopt:
    // declined) exactly once, possibly before askAsync returns.
    void askAsync(const transport::SecretRequest &request,
                  std::function<void(std::optional<QString>)> done);

    // The question shown to the person (title, text) -> answer; replaceable for tests.
    using AskFunction = std::function<std::optional<QString>(const QString &, const QString &)>;
    void setAskFunction(AskFunction ask) { m_ask = std::move(ask); }
    // The default: a modal password dialog.
    std::optional<QString> askInDialog(const QString &title, const QString &text);

    static QString titleFor(transport::SecretKind kind);
    QString textFor(const transport::SecretRequest &request) const;

Q_SIGNALS:
    // A person was asked (after memory and keychain had nothing).
    void personAsked(poolscope::transport::SecretKind kind, const QString &subject);

private:
    void askPerson(const transport::SecretRequest &request,
                   const std::function<void(std::optional<QString>)> &done);

    SecretStore *m_secrets;
    QWidget *m_dialogParent;
    QString m_active;
    bool m_remember = false;
    std::optional<transport::SecretKind> m_refusedKind;
    QSet<QString> m_declined; // connection, kind and subject of declined questions
    // Questions shown to the person now, and who else waits for the same answer: two
    // connections opening at once (the poller and a command) get one dialog, not two.
    QHash<QString, QList<std::function<void(std::optional<QString>)>>> m_waiting;
    QString m_refusedReason;
    AskFunction m_ask;
    std::shared_ptr<std::atomic<bool>> m_closing;
};

} // namespace poolscope
