#include "SshFixture.h"

#include <csignal>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace poolscope::testing {

namespace {

int freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address));
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

bool writeFile(const QString &path, const QByteArray &contents) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    file.write(contents);
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

QByteArray readFile(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Every process whose parent is `pid`, and theirs, from /proc.
QList<qint64> descendants(qint64 pid) {
    QList<qint64> found;
    QList<qint64> parents{pid};
    while (!parents.isEmpty()) {
        const qint64 parent = parents.takeFirst();
        const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
        for (const QString &entry : entries) {
            bool isPid = false;
            const qint64 child = entry.toLongLong(&isPid);
            if (!isPid)
                continue;
            // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so look after ')'.
            const QByteArray stat = readFile(QStringLiteral("/proc/%1/stat").arg(child));
            const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
            if (fields.size() > 1 && fields[1].toLongLong() == parent) {
                found << child;
                parents << child;
            }
        }
    }
    return found;
}

void stopProcess(std::unique_ptr<QProcess> &process) {
    if (!process)
        return;
    if (process->state() != QProcess::NotRunning) {
        ::kill(static_cast<pid_t>(process->processId()), SIGKILL);
        process->waitForFinished(5000);
    }
    process.reset();
}

} // namespace

SshFixture::SshFixture() = default;

SshFixture::~SshFixture() {
    killSshd();
    stopProcess(m_agent);
}

QString SshFixture::destination() const {
    return QStringLiteral("%1@127.0.0.1:%2").arg(m_user).arg(m_port);
}

bool SshFixture::run(const QString &program, const QStringList &arguments, QByteArray *output,
                     const QProcessEnvironment &environment) {
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit ||
        process.exitCode() != 0) {
        m_error = QStringLiteral("%1 %2 failed: %3 %4")
                      .arg(program, arguments.join(u' '), process.errorString(),
                           QString::fromLocal8Bit(process.readAllStandardError()));
        return false;
    }
    if (output)
        *output = process.readAllStandardOutput();
    return true;
}

bool SshFixture::start() {
    if (!m_directory.isValid()) {
        m_error = QStringLiteral("no temporary directory");
        return false;
    }
    if (const passwd *entry = ::getpwuid(::getuid()))
        m_user = QString::fromLocal8Bit(entry->pw_name);
    QDir(m_directory.path()).mkpath(QStringLiteral("keys"));
    const QString keygen = QStringLiteral("ssh-keygen");
    const auto makeKey = [this, &keygen](const QString &name, const QString &passphrase) {
        return run(keygen, {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                            QStringLiteral("-N"), passphrase, QStringLiteral("-C"),
                            QStringLiteral("poolscope-test-") + name, QStringLiteral("-f"),
                            path(QStringLiteral("keys/") + name)});
    };
    if (!makeKey(QStringLiteral("host"), {}) || !makeKey(QStringLiteral("id_agent"), {}) ||
        !makeKey(QStringLiteral("id_plain"), {}) ||
        !makeKey(QStringLiteral("id_secret"), QStringLiteral("correct horse")) ||
        !makeKey(QStringLiteral("id_stranger"), {}))
        return false;
    QByteArray authorized;
    for (const char *name : {"id_agent", "id_plain", "id_secret"})
        authorized += readFile(path(QStringLiteral("keys/%1.pub").arg(QLatin1String(name))));
    // Per user (AuthorizedKeysFile ...%u): any other user has no key that works.
    if (!writeFile(path(QStringLiteral("authorized_keys.") + m_user), authorized)) {
        m_error = QStringLiteral("cannot write authorized_keys");
        return false;
    }
    QByteArray listing;
    if (!run(keygen, {QStringLiteral("-lf"), path(QStringLiteral("keys/host.pub"))}, &listing))
        return false;
    m_fingerprint = QString::fromLatin1(listing.split(' ').value(1));

    m_port = freeLoopbackPort();
    const QList<QByteArray> hostKey = readFile(path(QStringLiteral("keys/host.pub"))).split(' ');
    m_knownHostsLine =
        QStringLiteral("[127.0.0.1]:%1 %2 %3")
            .arg(m_port)
            .arg(QString::fromLatin1(hostKey.value(0)), QString::fromLatin1(hostKey.value(1)));
    const QString config = QStringLiteral("Host bastion\n"
                                          "    HostName 127.0.0.1\n"
                                          "    Port %1\n"
                                          "    User %2\n"
                                          "    IdentityFile %3\n")
                               .arg(m_port)
                               .arg(m_user, path(QStringLiteral("keys/id_plain")));
    const QString home = makeHome(QStringLiteral("home"), m_knownHostsLine);
    if (home.isEmpty() || !writeFile(home + QStringLiteral("/.ssh/config"), config.toUtf8())) {
        m_error = QStringLiteral("cannot write the test home directory");
        return false;
    }
    return startSshd() && startAgent();
}

QString SshFixture::changedKnownHostsLine() const {
    const QList<QByteArray> other =
        readFile(path(QStringLiteral("keys/id_stranger.pub"))).split(' ');
    return QStringLiteral("[127.0.0.1]:%1 %2 %3")
        .arg(m_port)
        .arg(QString::fromLatin1(other.value(0)), QString::fromLatin1(other.value(1)));
}

QString SshFixture::makeHome(const QString &name, const QString &knownHosts) const {
    const QString home = path(name);
    if (!QDir().mkpath(home + QStringLiteral("/.ssh")))
        return {};
    QFile::setPermissions(home + QStringLiteral("/.ssh"),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    if (!knownHosts.isEmpty() &&
        !writeFile(home + QStringLiteral("/.ssh/known_hosts"), knownHosts.toUtf8() + '\n'))
        return {};
    return home;
}

QProcessEnvironment SshFixture::environment(const QString &homeDirectory, bool withAgent) const {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("HOME"), homeDirectory);
    if (withAgent)
        environment.insert(QStringLiteral("SSH_AUTH_SOCK"), agentSocket());
    else
        environment.remove(QStringLiteral("SSH_AUTH_SOCK"));
    return environment;
}

bool SshFixture::startSshd() {
    QDir().mkpath(QStringLiteral("/run/sshd")); // sshd's privilege separation directory
    const QString log = path(QStringLiteral("sshd.log"));
    QFile::remove(log);
    m_sshd = std::make_unique<QProcess>();
    // To a file, not a pipe: a pipe nobody reads while a test waits would stall sshd.
    m_sshd->setStandardErrorFile(log);
    m_sshd->setStandardOutputFile(QProcess::nullDevice());
    m_sshd->start(
        QStringLiteral("/usr/sbin/sshd"),
        {QStringLiteral("-D"),
         QStringLiteral("-e"),
         QStringLiteral("-f"),
         QStringLiteral("/dev/null"),
         QStringLiteral("-p"),
         QString::number(m_port),
         QStringLiteral("-h"),
         path(QStringLiteral("keys/host")),
         QStringLiteral("-o"),
         QStringLiteral("ListenAddress=127.0.0.1"),
         QStringLiteral("-o"),
         QStringLiteral("AuthorizedKeysFile=") + path(QStringLiteral("authorized_keys.%u")),
         QStringLiteral("-o"),
         QStringLiteral("PidFile=") + path(QStringLiteral("sshd.pid")),
         QStringLiteral("-o"),
         QStringLiteral("UsePAM=no"),
         QStringLiteral("-o"),
         QStringLiteral("StrictModes=no"),
         QStringLiteral("-o"),
         QStringLiteral("PermitRootLogin=yes"),
         QStringLiteral("-o"),
         QStringLiteral("PasswordAuthentication=yes"),
         QStringLiteral("-o"),
         QStringLiteral("AllowTcpForwarding=yes"),
         QStringLiteral("-o"),
         QStringLiteral("AllowStreamLocalForwarding=yes"),
         QStringLiteral("-o"),
         QStringLiteral("MaxStartups=200"),
         QStringLiteral("-o"),
         QStringLiteral("MaxAuthTries=20"),
         QStringLiteral("-o"),
         QStringLiteral("LogLevel=INFO")});
    if (!m_sshd->waitForStarted(10000)) {
        m_error = QStringLiteral("cannot start /usr/sbin/sshd: %1").arg(m_sshd->errorString());
        return false;
    }
    const bool listening = QTest::qWaitFor(
        [&] {
            return readFile(log).contains("Server listening") ||
                   m_sshd->state() == QProcess::NotRunning;
        },
        10000);
    if (!listening || m_sshd->state() == QProcess::NotRunning) {
        m_error =
            QStringLiteral("sshd did not start: %1").arg(QString::fromLocal8Bit(readFile(log)));
        return false;
    }
    return true;
}

bool SshFixture::startAgent() {
    m_agent = std::make_unique<QProcess>();
    m_agent->setStandardOutputFile(QProcess::nullDevice());
    m_agent->start(QStringLiteral("ssh-agent"),
                   {QStringLiteral("-D"), QStringLiteral("-a"), agentSocket()});
    if (!m_agent->waitForStarted(10000) ||
        !QTest::qWaitFor([this] { return QFileInfo::exists(agentSocket()); }, 10000)) {
        m_error = QStringLiteral("ssh-agent did not start: %1").arg(m_agent->errorString());
        return false;
    }
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("SSH_AUTH_SOCK"), agentSocket());
    return run(QStringLiteral("ssh-add"),
               {QStringLiteral("-q"), path(QStringLiteral("keys/id_agent"))}, nullptr, environment);
}

void SshFixture::killSshd() {
    if (!m_sshd || m_sshd->state() == QProcess::NotRunning) {
        m_sshd.reset();
        return;
    }
    const qint64 master = m_sshd->processId();
    // Session processes first (each holds one established connection), then the listener.
    for (const qint64 child : descendants(master))
        ::kill(static_cast<pid_t>(child), SIGKILL);
    stopProcess(m_sshd);
}

bool SshFixture::restartSshd() {
    killSshd();
    return startSshd();
}

} // namespace poolscope::testing
