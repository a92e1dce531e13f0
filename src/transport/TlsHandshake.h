#pragma once

#include "endpoint/Endpoint.h"
#include "transport/TcpDialer.h"

#include <memory>

struct ssl_st; // OpenSSL stays out of our headers

namespace poolscope::transport {

struct TlsSessionDeleter {
    void operator()(ssl_st *session) const;
};
using TlsSession = std::unique_ptr<ssl_st, TlsSessionDeleter>;

// Runs the TLS client handshake on `tcp` (connected, non-blocking) by `deadline`, verifying the
// server as endpoint.tls says (see TlsOptions). On success the session is ready for the relay;
// the socket stays owned by the caller.
//
// Every failure throws RedisError with ONE line naming the cause: unknown CA, name mismatch
// (expected vs. the names the certificate presents), expired or not yet valid (with the date),
// the server wants a client certificate, the handshake timed out, the server speaks plain text,
// or an unreadable CA/certificate/key file.
TlsSession handshakeTls(int tcp, const Endpoint &endpoint, Clock::time_point deadline,
                        std::chrono::milliseconds budget);

// OpenSSL set up once for the process, without its clean-up at exit: a worker thread left running
// by a bounded stop (a server slow to answer) may end after that clean-up, which would leave its
// error state unfreed; the process's end frees everything anyway. The first initialisation
// decides this for the process, so every caller goes through here. False if it failed.
bool initialiseOpenSsl();

} // namespace poolscope::transport
