#pragma once

#include "transport/ssh/SshSession.h"

namespace poolscope::transport {

// Carries hiredis's RESP through an SSH channel. Why a relay: hiredis 0.14 reads and writes a
// file descriptor itself, and an SSH channel is not one (its bytes are multiplexed, encrypted
// packets of the session's socket). redisConnectFd() takes any connected, blocking socket, so the
// tunnel becomes a socketpair: hiredis gets one end, a relay thread the other, and the thread
// moves bytes between that end and the channel (libssh, non-blocking). Everything that drives
// hiredis (NodeConnection, the poller, the load runner's non-blocking contexts after
// releaseContext) is unchanged, and so are its timeouts. This is the house pattern of TlsRelay;
// TLS through a tunnel is simply a TlsRelay on top of this relay's end.
//
// Closing behaves as over TCP: when the SSH session or the channel ends (sshd killed, the Redis
// server closed the forwarded connection) the relay passes on what it still had, then shuts
// hiredis's end for writing: hiredis reports "the server closed the connection". When hiredis
// closes its end (redisFree), the relay closes the channel and disconnects the session.
//
// Threads: one per tunnel, asleep in poll() while its connection is idle; a session is used by
// that thread alone once it is attached (libssh sessions are not thread-safe).
//
// One SSH session per connection: a load run with 50 workers makes 50 SSH handshakes (a few ms
// each on loopback). Sharing one session among the connections of a process would mean one
// thread owning the session and multiplexing every channel of it (libssh allows many channels
// per session but no concurrent use): a hub keyed by destination, with channels opened on the
// hub's thread on request. Not done: correctness first, and each connection then fails and
// recovers on its own, exactly like a TCP connection.
class SshRelay {
public:
    // Takes the session and its open channel; returns hiredis's end of the socketpair (blocking,
    // close-on-exec). Throws RedisError when no socketpair or thread can be had.
    static int attach(SshChannelToServer tunnel, const QString &display);
};

} // namespace poolscope::transport
