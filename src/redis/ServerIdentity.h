#pragma once

#include "endpoint/Endpoint.h"

#include <QByteArray>
#include <QString>

namespace poolscope {

// The same server reached the same way (address or socket, no tunnel), whatever the database and
// credentials: "is this the embedded demo server?"
inline bool isSameServer(const Endpoint &a, const Endpoint &b) {
    if (a.transport != b.transport || a.topology != b.topology || a.ssh.enabled() ||
        b.ssh.enabled() || a.tls.enabled != b.tls.enabled)
        return false;
    if (a.transport == Endpoint::Transport::UnixSocket)
        return a.socketPath == b.socketPath;
    return a.host == b.host && a.port == b.port && a.seeds == b.seeds;
}

// The name and version shown for a server, from its INFO server text: "Redis 7.0.15". Valkey
// reports redis_version:7.2.4 whatever its own version, so server_name and valkey_version win:
// "Valkey 8.0.1". Empty when INFO says neither.
QString serverVersionFromInfo(const QByteArray &info);

} // namespace poolscope
