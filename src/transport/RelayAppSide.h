#pragma once

#include "transport/TcpDialer.h"

#include <array>
#include <cerrno>
#include <cstddef>

#include <poll.h>
#include <sys/socket.h>

namespace poolscope::transport {

// The hiredis side of a relay thread (TlsRelay, SshRelay): the relay's end of the socketpair
// whose other end hiredis got from redisConnectFd(), with a buffer each way. Each relay moves
// bytes between this side and its server side (a TLS session, an SSH channel) in its own way;
// what happens on this side is the same for both, and is here.
template <std::size_t BufferSize> struct RelayAppSide {
    UniqueFd app;
    std::array<char, BufferSize> up{}; // from hiredis, not yet passed to the server side
    std::size_t upBegin = 0, upEnd = 0;
    std::array<char, BufferSize> down{}; // from the server side, not yet handed to hiredis
    std::size_t downBegin = 0, downEnd = 0;
    bool serverDone = false;  // the server side ended (EOF, close, reset, error)
    bool clientDone = false;  // hiredis closed its end
    bool eofPassedOn = false; // hiredis's end was shut for writing after serverDone

    bool upEmpty() const { return upBegin == upEnd; }
    bool downEmpty() const { return downBegin == downEnd; }

    short appEvents() const {
        short events = 0;
        if (upEmpty())
            events |= POLLIN;
        if (!downEmpty())
            events |= POLLOUT;
        return events;
    }

    // With `up` empty, takes what hiredis sent; sets *progress when it took bytes. Once the
    // server is gone, what hiredis still sends goes nowhere, as on a TCP socket whose peer has
    // closed. False (and clientDone) when hiredis closed its end.
    bool readFromApp(bool *progress) {
        if (!upEmpty())
            return true;
        const ssize_t got = ::recv(app.get(), up.data(), up.size(), MSG_DONTWAIT);
        if (got > 0) {
            upBegin = 0;
            upEnd = serverDone ? 0 : static_cast<std::size_t>(got);
            *progress = true;
        } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
            clientDone = true;
            return false;
        }
        return true;
    }

    // Hands hiredis what `down` holds; sets *progress when it took some. False (and clientDone)
    // when hiredis went away.
    bool writeToApp(bool *progress) {
        if (downEmpty())
            return true;
        const ssize_t sent = ::send(app.get(), down.data() + downBegin, downEnd - downBegin,
                                    MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0) {
            downBegin += static_cast<std::size_t>(sent);
            *progress = true;
        } else if (errno != EAGAIN && errno != EINTR) {
            clientDone = true;
            return false;
        }
        return true;
    }

    // The server's EOF, passed on after its last bytes: hiredis reads "connection closed". Only
    // the write side is shut, as a TCP peer's FIN does, so hiredis may still write (no SIGPIPE
    // at once); the link ends when hiredis closes its end.
    void passOnServerEof() {
        if (serverDone && downEmpty() && !eofPassedOn) {
            ::shutdown(app.get(), SHUT_WR);
            eofPassedOn = true;
        }
    }
};

} // namespace poolscope::transport
