#pragma once

#include "endpoint/Endpoint.h"

#include <chrono>
#include <optional>

#include <QString>

namespace poolscope::transport {

// The one seam between "send Redis commands" and "reach the server", so that a new way of reaching
// a server changes no code that sends commands.
// NodeConnection asks for a stream to an endpoint and never learns how it was made.
//
// Plain TCP and unix sockets need no help: hiredis connects them itself, and openStream() returns
// nothing. Every other transport returns a connected, blocking stream socket that carries plain
// RESP, which hiredis takes with redisConnectFd(): TLS (a relay over a socketpair, see
// TlsRelay.h) and SSH tunnels (endpoint.ssh, see ssh/SshRelay.h), which produce the byte stream
// to the server (a channel instead of a TCP socket); TLS, when asked for, runs on top of it.
//
// Bounded by connectTimeout from the first packet to the end of the TLS handshake (time spent
// waiting for a person to answer an SSH prompt is not counted). Throws
// RedisError (Kind::Timeout or Kind::Connection) with one line naming the cause.
std::optional<int> openStream(const Endpoint &endpoint, std::chrono::milliseconds connectTimeout);

// For status bars and reports: "TCP", "unix socket", "TLS, verified",
// "TLS, NOT verified (--tls-insecure)"; through a tunnel "via ssh bastion",
// "via ssh bastion, TLS, verified", "unix socket via ssh bastion".
QString describeTransport(const Endpoint &endpoint);
// The same for a live connection: "verified" only once a handshake has verified the server
// (handshakeVerified); before that, or while handshakes fail, "TLS, not verified yet".
QString describeTransport(const Endpoint &endpoint, bool handshakeVerified);

} // namespace poolscope::transport
