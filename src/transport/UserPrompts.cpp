#include "transport/UserPrompts.h"

#include <mutex>

namespace poolscope::transport {

namespace {

std::mutex &promptersMutex() {
    static std::mutex mutex;
    return mutex;
}
SecretPrompter &secretPrompter() {
    static SecretPrompter prompter;
    return prompter;
}
HostKeyPrompter &hostKeyPrompter() {
    static HostKeyPrompter prompter;
    return prompter;
}

} // namespace

QString secretKindTitle(SecretKind kind) {
    switch (kind) {
    case SecretKind::RedisPassword:
        return QStringLiteral("Redis password");
    case SecretKind::TlsKeyPassphrase:
        return QStringLiteral("TLS key passphrase");
    case SecretKind::SshKeyPassphrase:
        return QStringLiteral("SSH key passphrase");
    case SecretKind::SshPassword:
        return QStringLiteral("SSH password");
    }
    return QStringLiteral("Secret");
}

void setSecretPrompter(SecretPrompter prompter) {
    const std::lock_guard lock(promptersMutex());
    secretPrompter() = std::move(prompter);
}

void setHostKeyPrompter(HostKeyPrompter prompter) {
    const std::lock_guard lock(promptersMutex());
    hostKeyPrompter() = std::move(prompter);
}

std::optional<QString> askSecret(const SecretRequest &request) {
    SecretPrompter prompter;
    {
        const std::lock_guard lock(promptersMutex());
        prompter = secretPrompter();
    }
    // Called outside the lock: the prompter may wait for a person for a long time.
    return prompter ? prompter(request) : std::nullopt;
}

bool askTrustHostKey(const HostKeyQuestion &question) {
    HostKeyPrompter prompter;
    {
        const std::lock_guard lock(promptersMutex());
        prompter = hostKeyPrompter();
    }
    return prompter && prompter(question);
}

} // namespace poolscope::transport
