#pragma once

#include <QString>

namespace poolscope {

// SSH tunnel settings of an endpoint (--ssh). When `destination` is set, the Redis address (TCP
// host:port or unix socket path) is reached from that host, through a channel of one SSH session.
// Secrets (key passphrase, SSH password) are never kept here: they are asked for through
// transport/UserPrompts.h at connect time.
struct SshOptions {
    QString destination;           // [user@]host[:port], or a Host alias of ~/.ssh/config
    QString keyFile;               // --ssh-key; empty: ssh-agent, then ~/.ssh/config's IdentityFile
    bool acceptNewHostKey = false; // --ssh-accept-new: trust (and record) an unknown host key

    bool enabled() const { return !destination.isEmpty(); }
    bool operator==(const SshOptions &) const = default;
};

} // namespace poolscope
