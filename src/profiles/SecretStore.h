#pragma once

#include "transport/UserPrompts.h"

#include <map>
#include <optional>

#include <QObject>
#include <QString>

namespace poolscope {

// The secrets of saved connections: the Redis password, TLS key passphrase, SSH key passphrase
// and SSH password, one entry per connection and kind ("NAME/redis-password") under the service
// "poolscope".
//
// With a keychain (a Secret Service on D-Bus, through QtKeychain) they are kept there. Without
// one (CI, headless machines) nothing is stored anywhere: secrets are asked for each time and
// kept in this object's memory only, for the life of the process. QtKeychain never falls back to
// a plain-text file here (insecure fallback off).
//
// Keychain calls are asynchronous jobs: every method returns at once and a signal reports the
// outcome, so the GUI thread never waits on D-Bus.
class SecretStore : public QObject {
    Q_OBJECT

public:
    enum class Availability { Unknown, Available, Unavailable };

    explicit SecretStore(QObject *parent = nullptr);
    ~SecretStore() override;

    // Asks the keychain whether it is there (once; later calls repeat the known answer).
    void probe();
    Availability availability() const { return m_availability; }
    // Why there is no keychain, for the UI ("no Secret Service on D-Bus: ...").
    QString unavailableReason() const { return m_unavailableReason; }

    // Keychain entry name: the connection's name and the kind, e.g. "prod/redis-password".
    static QString entryName(const QString &connection, transport::SecretKind kind);
    static QString kindName(transport::SecretKind kind);

    // From the keychain (memory first). Reported by secretRead (found false: none stored).
    void read(const QString &connection, transport::SecretKind kind);
    // Into memory at once, and into the keychain when there is one; reported by secretWritten.
    void write(const QString &connection, transport::SecretKind kind, const QString &secret);
    // Every kind of the connection, from memory and keychain.
    void forget(const QString &connection);
    // Moves every kind to a new connection name (a rename in the Connections dialog).
    void move(const QString &from, const QString &to);

    // Memory only, for the process's life.
    void keepInMemory(const QString &connection, transport::SecretKind kind, const QString &secret);
    std::optional<QString> inMemory(const QString &connection, transport::SecretKind kind) const;
    void forgetInMemory(const QString &connection, transport::SecretKind kind);

Q_SIGNALS:
    void availabilityKnown(bool available);
    void secretRead(const QString &connection, poolscope::transport::SecretKind kind, bool found,
                    const QString &secret, const QString &error);
    void secretWritten(const QString &connection, poolscope::transport::SecretKind kind,
                       const QString &error);

private:
    std::map<QString, QString> m_memory; // entryName -> secret
    Availability m_availability = Availability::Unknown;
    QString m_unavailableReason;
    bool m_probing = false;
};

} // namespace poolscope
