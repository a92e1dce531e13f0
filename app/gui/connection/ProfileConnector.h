#pragma once

#include "profiles/ConnectionProfile.h"

#include <chrono>

#include <QObject>

namespace poolscope {

class SecretPrompter;

// Turns a saved connection into a session target: the endpoint with its TLS and SSH settings, the
// pool key and poll interval, and (when the connection needs one) the Redis password from memory,
// the keychain or the person. Never blocks: the keychain answers asynchronously.
class ProfileConnector : public QObject {
    Q_OBJECT

public:
    ProfileConnector(SecretPrompter *prompter, QObject *parent = nullptr);

    void connectTo(const ConnectionProfile &profile);

Q_SIGNALS:
    void connectionReady(const poolscope::Endpoint &endpoint, const QByteArray &poolKey,
                         std::chrono::milliseconds pollInterval);
    void connectionFailed(const QString &error);

private:
    SecretPrompter *m_prompter;
    quint64 m_generation = 0; // a second Connect before the first had its password wins
};

} // namespace poolscope
