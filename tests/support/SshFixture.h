#pragma once

#include <memory>

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTemporaryDir>

namespace poolscope::testing {

// An sshd on a free loopback port and an ssh-agent, for tests of SSH tunnels, made in a temporary
// directory: a host key, user keys and an authorized_keys file, and a home directory of its own
// (home/.ssh/known_hosts holding the host key, home/.ssh/config with a "bastion" Host). Both
// processes are stopped by PID when the fixture goes out of scope.
//   keys/id_agent      in the agent (authorized)        keys/id_plain   no passphrase (authorized)
//   keys/id_secret     passphrase "correct horse" (authorized)
//   keys/id_stranger   not authorized
// The config's "bastion": HostName 127.0.0.1, Port <port>, User <this user>, IdentityFile
// keys/id_plain.
class SshFixture {
public:
    SshFixture();
    ~SshFixture();
    SshFixture(const SshFixture &) = delete;
    SshFixture &operator=(const SshFixture &) = delete;

    // QVERIFY-friendly: false with the reason in error(). Needs /usr/sbin/sshd, ssh-keygen,
    // ssh-agent, ssh-add.
    bool start();
    const QString &error() const { return m_error; }

    int port() const { return m_port; }
    QString destination() const; // "user@127.0.0.1:port"
    QString path(const QString &file) const { return m_directory.path() + u'/' + file; }
    QString home() const { return path(QStringLiteral("home")); }
    QString agentSocket() const { return path(QStringLiteral("agent.sock")); }
    QString user() const { return m_user; }
    // "SHA256:..." of the host key, as ssh-keygen -lf prints it.
    QString hostKeyFingerprint() const { return m_fingerprint; }
    // The known_hosts line for the host key ("[127.0.0.1]:port ssh-ed25519 AAAA...").
    QString knownHostsLine() const { return m_knownHostsLine; }
    // The same host name with another key (a changed host key).
    QString changedKnownHostsLine() const;

    // A fresh home directory (with an empty .ssh) named `name` under the fixture's directory.
    QString makeHome(const QString &name, const QString &knownHosts = {}) const;
    // The environment for a child (the CLI): HOME=home, SSH_AUTH_SOCK set or removed.
    QProcessEnvironment environment(const QString &homeDirectory, bool withAgent) const;

    // kill -9 of sshd and of every session process it forked (established tunnels die too).
    void killSshd();
    bool restartSshd();
    qint64 sshdPid() const { return m_sshd ? m_sshd->processId() : 0; }

private:
    bool run(const QString &program, const QStringList &arguments, QByteArray *output = nullptr,
             const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());
    bool startSshd();
    bool startAgent();

    QTemporaryDir m_directory;
    QString m_error;
    QString m_user;
    QString m_fingerprint;
    QString m_knownHostsLine;
    int m_port = 0;
    std::unique_ptr<QProcess> m_sshd;
    std::unique_ptr<QProcess> m_agent;
};

} // namespace poolscope::testing
