#include "transport/Transport.h"

#include "transport/TcpDialer.h"
#include "transport/TlsHandshake.h"
#include "transport/TlsRelay.h"
#include "transport/ssh/SshRelay.h"

#include <fcntl.h>

namespace poolscope::transport {

std::optional<int> openStream(const Endpoint &endpoint, std::chrono::milliseconds connectTimeout) {
    if (!endpoint.tls.enabled && !endpoint.ssh.enabled())
        return std::nullopt; // hiredis connects TCP and unix sockets itself
    Clock::time_point deadline = Clock::now() + connectTimeout;
    const QString display = endpoint.toDisplayString();
    // The byte stream to the server: a TCP connection, or an SSH channel (through its relay's
    // socketpair) to the server's address as seen from the SSH host.
    UniqueFd stream;
    if (endpoint.ssh.enabled()) {
        stream =
            UniqueFd(SshRelay::attach(openSshChannel(endpoint, deadline, connectTimeout), display));
        if (!endpoint.tls.enabled)
            return stream.release();
        // TLS on top of the tunnel: the handshake and the TLS relay want a non-blocking socket.
        // The server's name (endpoint.host or --tls-server-name) is verified and sent as SNI,
        // not the address the bytes travel through locally.
        ::fcntl(stream.get(), F_SETFL, ::fcntl(stream.get(), F_GETFL) | O_NONBLOCK);
    } else {
        stream = dialTcp(endpoint.host, endpoint.port, deadline, connectTimeout, display);
    }
    TlsSession session = handshakeTls(stream.get(), endpoint, deadline, connectTimeout);
    return TlsRelay::attach(std::move(stream), std::move(session), display);
}

QString describeTransport(const Endpoint &endpoint) {
    return describeTransport(endpoint, true);
}

QString describeTransport(const Endpoint &endpoint, bool handshakeVerified) {
    const QString tunnel = endpoint.ssh.enabled()
                               ? QStringLiteral("via ssh %1").arg(endpoint.ssh.destination)
                               : QString();
    if (endpoint.transport == Endpoint::Transport::UnixSocket)
        return tunnel.isEmpty() ? QStringLiteral("unix socket")
                                : QStringLiteral("unix socket ") + tunnel;
    if (!endpoint.tls.enabled)
        return tunnel.isEmpty() ? QStringLiteral("TCP") : tunnel;
    const QString tls = endpoint.tls.insecure ? QStringLiteral("TLS, NOT verified (--tls-insecure)")
                        : handshakeVerified   ? QStringLiteral("TLS, verified")
                                              : QStringLiteral("TLS, not verified yet");
    return tunnel.isEmpty() ? tls : tunnel + QStringLiteral(", ") + tls;
}

} // namespace poolscope::transport
