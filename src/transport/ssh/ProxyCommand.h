// An ssh config's ProxyCommand (and ProxyJump, which libssh 0.10 turns into "ssh -W ..."), run by
// us instead of by libssh, so that the child gets a clean environment (never REDIS_URL and its
// password, nor anything else of ours) and, when it is ssh itself, the same config and
// known_hosts as the tunnel.
#pragma once

#include <QByteArray>
#include <QString>

namespace poolscope::transport {

// The command with %h, %p, %r and %% expanded; an "ssh" command also gets "-F config" and
// "-o UserKnownHostsFile=knownHosts" (empty: left out; quoted for ssh, which splits a value at
// blanks), so it reads what the tunnel reads.
QByteArray expandProxyCommand(const QByteArray &command, const QByteArray &host, int port,
                              const QByteArray &user, const QByteArray &config,
                              const QByteArray &knownHosts);

// The environment a proxy command runs in: only what a shell and ssh need (PATH, HOME, USER,
// LOGNAME, SHELL, LANG, LC_*, TZ, TMPDIR, XDG_RUNTIME_DIR, SSH_AUTH_SOCK).
QList<QByteArray> proxyCommandEnvironment();

// A running proxy command: `/bin/sh -c command` in a process group of its own, its stdin and
// stdout one end of a socket pair. Destroying it ends the group and reaps it.
class ProxyCommandChild {
public:
    ProxyCommandChild() = default;
    ProxyCommandChild(ProxyCommandChild &&other) noexcept;
    ProxyCommandChild &operator=(ProxyCommandChild &&other) noexcept;
    ~ProxyCommandChild();

    // Starts it; the returned child's takeSocket() is our end. Empty error on success.
    static ProxyCommandChild start(const QByteArray &command, QString *error);
    // Our end of the pair, handed to libssh (which closes it with the session).
    int takeSocket();
    bool running() const { return m_pid > 0; }

private:
    int m_pid = -1;
    int m_socket = -1;
};

} // namespace poolscope::transport
