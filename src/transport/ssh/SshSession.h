#pragma once

#include "endpoint/Endpoint.h"
#include "transport/ssh/ProxyCommand.h"
#include "transport/TcpDialer.h"

#include <QByteArray>
#include <QString>

#include <memory>

struct ssh_session_struct; // libssh stays out of our headers
struct ssh_channel_struct;

namespace poolscope::transport {

struct SshSessionDeleter {
    void operator()(ssh_session_struct *session) const; // ssh_disconnect + ssh_free
};
struct SshChannelDeleter {
    void operator()(ssh_channel_struct *channel) const; // ssh_channel_free
};
using SshSessionPtr = std::unique_ptr<ssh_session_struct, SshSessionDeleter>;
using SshChannelPtr = std::unique_ptr<ssh_channel_struct, SshChannelDeleter>;

// An authenticated SSH session and its open channel to the Redis server. The channel is declared
// last so that it is freed before its session.
struct SshChannelToServer {
    ProxyCommandChild proxy; // the config's ProxyCommand, if any: ended after the session
    SshSessionPtr session;
    SshChannelPtr channel;
};

// Opens one SSH session to endpoint.ssh.destination and, through it, a channel to the Redis
// server: direct-tcpip to endpoint.host:port, or a unix-socket channel to endpoint.socketPath on
// the SSH host. In order:
//   1. ~/.ssh/config (then /etc/ssh/ssh_config) for the destination: Host aliases, HostName, User,
//      Port, IdentityFile, ProxyJump (libssh 0.10 runs it as a ProxyCommand "ssh -W"). A user or
//      port written in --ssh wins over the config.
//   2. the host key against ~/.ssh/known_hosts: unknown keys are trusted (and recorded) only with
//      ssh.acceptNewHostKey or when askTrustHostKey() says so; a changed key is always refused.
//   3. authentication: ssh-agent, then the key file (ssh.keyFile, else the identity files of the
//      config and ~/.ssh/id_*; passphrases through askSecret), then a password (askSecret).
// "~" is $HOME (QDir::homePath()), so a test or a sandbox with its own HOME has its own ~/.ssh;
// libssh alone would take the home directory from the password database.
//
// Bounded by `deadline`, which is moved on by the time spent waiting for a person to answer a
// prompt. Every failure throws RedisError (Kind::Timeout or Kind::Connection) with one line:
// host unreachable, host key unknown or changed, authentication failed (with the methods tried),
// channel refused by the SSH host, timeout. On return the session is non-blocking.
SshChannelToServer openSshChannel(const Endpoint &endpoint, Clock::time_point &deadline,
                                  std::chrono::milliseconds budget);

// "~/.ssh" as poolscope reads it: $HOME/.ssh.
QString sshDirectory();
// The text of an ssh config with "~" at the start of IdentityFile, CertificateFile, Include and
// UserKnownHostsFile values replaced by `home` (libssh would use the password database's home).
QByteArray withHomeExpanded(const QByteArray &config, const QByteArray &home);

} // namespace poolscope::transport
