#include "connection/ProfileConnector.h"

#include "connection/SecretPrompter.h"

namespace poolscope {

ProfileConnector::ProfileConnector(SecretPrompter *prompter, QObject *parent)
    : QObject(parent)
    , m_prompter(prompter) {}

void ProfileConnector::connectTo(const ConnectionProfile &profile) {
    QString error;
    const std::optional<Endpoint> endpoint = profileEndpoint(profile, &error);
    if (!endpoint) {
        Q_EMIT connectionFailed(error);
        return;
    }
    const quint64 generation = ++m_generation;
    m_prompter->setActiveConnection(profile.name, profile.rememberSecrets);
    if (!profile.needsPassword) {
        Q_EMIT connectionReady(*endpoint, profile.poolKey, profile.pollInterval);
        return;
    }
    m_prompter->askAsync(
        {transport::SecretKind::RedisPassword, endpoint->toDisplayString(), {}},
        [this, generation, endpoint = *endpoint, profile](std::optional<QString> password) {
            if (generation != m_generation)
                return;
            if (!password) {
                Q_EMIT connectionFailed(
                    tr("connection \"%1\": no password given").arg(profile.name));
                return;
            }
            Endpoint withPassword = endpoint;
            withPassword.password = *password;
            Q_EMIT connectionReady(withPassword, profile.poolKey, profile.pollInterval);
        });
}

} // namespace poolscope
