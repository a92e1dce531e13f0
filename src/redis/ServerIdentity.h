#pragma once

#include "redis/Endpoint.h"

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

} // namespace poolscope
