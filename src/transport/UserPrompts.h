#pragma once

#include <QString>

#include <functional>
#include <optional>

namespace poolscope::transport {

// Questions a transport may have to ask the person at the keyboard while it connects: a secret it
// does not have, or whether to trust an unknown SSH host key. Connections open on worker threads;
// the dashboard installs prompters that ask on the GUI thread (the worker waits for the person,
// the GUI thread never waits on the network). The CLI installs none, so an unanswerable question
// fails the connection with one clear line instead of hanging a script.

enum class SecretKind { RedisPassword, TlsKeyPassphrase, SshKeyPassphrase, SshPassword };

struct SecretRequest {
    SecretKind kind = SecretKind::RedisPassword;
    QString subject;     // what the secret unlocks: a key file path, "user@host", the endpoint
    QString retryReason; // non-empty when an earlier answer was wrong ("wrong passphrase")
};

struct HostKeyQuestion {
    QString host;        // as the user named it (alias resolved), with the port if not 22
    QString keyType;     // e.g. "ssh-ed25519"
    QString fingerprint; // "SHA256:..."
};

// "Redis password", "TLS key passphrase", "SSH key passphrase", "SSH password": for dialogs.
QString secretKindTitle(SecretKind kind);

// nullopt: the person declined (or nobody can be asked).
using SecretPrompter = std::function<std::optional<QString>(const SecretRequest &)>;
// true: trust the key (and record it in known_hosts).
using HostKeyPrompter = std::function<bool(const HostKeyQuestion &)>;

// Process-wide; set once at start-up (dashboard) or never (CLI). Thread-safe to call.
void setSecretPrompter(SecretPrompter prompter);
void setHostKeyPrompter(HostKeyPrompter prompter);
std::optional<QString> askSecret(const SecretRequest &request);
// Without a prompter an unknown host key is not trusted.
bool askTrustHostKey(const HostKeyQuestion &question);

} // namespace poolscope::transport
