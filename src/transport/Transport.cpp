#include "transport/Transport.h"

#include "transport/TcpDialer.h"
#include "transport/TlsHandshake.h"
#include "transport/TlsRelay.h"

namespace poolscope::transport {

std::optional<int> openStream(const Endpoint &endpoint, std::chrono::milliseconds connectTimeout) {
    if (!endpoint.tls.enabled)
        return std::nullopt; // hiredis connects TCP and unix sockets itself
    const Clock::time_point deadline = Clock::now() + connectTimeout;
    const QString display = endpoint.toDisplayString();
    // The byte stream to the server: a TCP connection today; an SSH channel would come from here.
    UniqueFd tcp = dialTcp(endpoint.host, endpoint.port, deadline, connectTimeout, display);
    TlsSession session = handshakeTls(tcp.get(), endpoint, deadline, connectTimeout);
    return TlsRelay::attach(std::move(tcp), std::move(session), display);
}

QString describeTransport(const Endpoint &endpoint) {
    if (endpoint.transport == Endpoint::Transport::UnixSocket)
        return QStringLiteral("unix socket");
    if (!endpoint.tls.enabled)
        return QStringLiteral("TCP");
    return endpoint.tls.insecure ? QStringLiteral("TLS, NOT verified (--tls-insecure)")
                                 : QStringLiteral("TLS, verified");
}

} // namespace poolscope::transport
