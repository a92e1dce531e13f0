#pragma once

#include "transport/TcpDialer.h"
#include "transport/TlsHandshake.h"

namespace poolscope::transport {

// Carries hiredis's plain RESP over an established TLS session. hiredis 0.14 has no TLS but
// takes any connected, blocking socket (redisConnectFd), so each TLS connection becomes a
// socketpair: hiredis gets one end, the relay the other, and the relay moves bytes between that
// end and the TLS session (OpenSSL, non-blocking, on the TCP socket). Everything that drives
// hiredis (NodeConnection, the poller, the writer, the load runner's non-blocking contexts) is
// unchanged, and so are its timeouts: a reply that does not come through the relay in time is
// a reply that did not come from the server.
//
// Closing behaves as over TCP: when the server closes or resets the connection (CLIENT KILL,
// kill -9, a restart) the relay passes on what it still had, then shuts hiredis's end for
// writing, as the server's FIN would: hiredis reports "the server closed the connection", and a
// write in between does not raise SIGPIPE at once. When hiredis closes its end
// (redisFree), the relay sends close_notify and closes the TCP socket.
//
// Threads: a relay thread per TLS connection, sleeping in poll() while its connection is idle;
// measured against shared threads with bench/tls_throughput.sh (see the note in TlsRelay.cpp).
class TlsRelay {
public:
    // Takes the connected TCP socket and its finished TLS session; returns hiredis's end of the
    // socketpair (blocking, close-on-exec). Throws RedisError when no socketpair can be made.
    static int attach(UniqueFd tcp, TlsSession session, const QString &display);
};

} // namespace poolscope::transport
