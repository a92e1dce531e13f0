#include "server/RedisServerProcess.h"

#include "base/RedisError.h"
#include "client/RedisConnection.h"

#include <csignal>

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QThread>

#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace poolscope {

RedisServerProcess::RedisServerProcess(RedisServerOptions options)
    : m_options(std::move(options)) {}

RedisServerProcess::~RedisServerProcess() {
    stop();
}

QString RedisServerProcess::findExecutable(const QString &preferred, QString *advice) {
    if (!preferred.isEmpty() && QFileInfo(preferred).isExecutable())
        return preferred;
    QString found = QStandardPaths::findExecutable(QStringLiteral("redis-server"));
    if (found.isEmpty())
        found =
            QStandardPaths::findExecutable(QStringLiteral("redis-server"),
                                           {QStringLiteral("/usr/bin"), QStringLiteral("/usr/sbin"),
                                            QStringLiteral("/usr/local/bin")});
    if (found.isEmpty() && advice)
        *advice = QStringLiteral(
            "redis-server is not installed. Install it with `apt-get install redis-server` "
            "(or run scripts/run.sh, which installs everything), or connect to an existing "
            "server with --url redis://host:6379/0.");
    return found;
}

int RedisServerProcess::pickFreeTcpPort() {
    // Ask the kernel for a free port; redis-server binds it a moment later. The tiny race is
    // covered by start() reporting a bind failure from the server's log.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    int port = 0;
    socklen_t length = sizeof(address);
    if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    ::close(fd);
    return port;
}

QString RedisServerProcess::directory() const {
    return m_directory ? m_directory->path() : QString();
}

bool RedisServerProcess::start(QString *error) {
    QString advice;
    const QString executable = findExecutable(m_options.executable, &advice);
    if (executable.isEmpty()) {
        if (error)
            *error = advice;
        return false;
    }
    if (!m_directory) {
        m_directory = std::make_unique<QTemporaryDir>();
        if (!m_directory->isValid()) {
            if (error)
                *error = QStringLiteral("cannot create a temporary directory: %1")
                             .arg(m_directory->errorString());
            return false;
        }
    }
    const QString dir = m_directory->path();
    QStringList arguments{QStringLiteral("--dir"),        dir,
                          QStringLiteral("--save"),       QString(),
                          QStringLiteral("--appendonly"), QStringLiteral("no"),
                          QStringLiteral("--daemonize"),  QStringLiteral("no"),
                          QStringLiteral("--logfile"),    dir + QStringLiteral("/redis.log")};
    if (m_options.useTcp || m_options.usesTls()) {
        // Keep the port across restarts so fault tests can restart "the same server".
        if (m_options.port == 0)
            m_options.port = pickFreeTcpPort();
        const QString port = QString::number(m_options.port);
        if (m_options.usesTls()) // TLS only: no plain port
            arguments << QStringLiteral("--port") << QStringLiteral("0")
                      << QStringLiteral("--tls-port") << port << QStringLiteral("--tls-cert-file")
                      << m_options.tlsCertFile << QStringLiteral("--tls-key-file")
                      << m_options.tlsKeyFile << QStringLiteral("--tls-auth-clients")
                      << QLatin1String(m_options.tlsAuthClients ? "yes" : "no");
        else
            arguments << QStringLiteral("--port") << port;
        if (m_options.usesTls() && !m_options.tlsCaFile.isEmpty())
            arguments << QStringLiteral("--tls-ca-cert-file") << m_options.tlsCaFile;
        arguments << QStringLiteral("--bind") << QStringLiteral("127.0.0.1");
        m_endpoint = Endpoint{};
        m_endpoint.transport = Endpoint::Transport::Tcp;
        m_endpoint.host = QStringLiteral("127.0.0.1");
        m_endpoint.port = m_options.port;
        m_endpoint.tls.enabled = m_options.usesTls();
        if (m_options.usesTls())
            m_endpoint.tls.caFile = m_options.tlsCaFile;
        if (m_options.tlsAuthClients) {
            m_endpoint.tls.certFile = m_options.tlsClientCertFile;
            m_endpoint.tls.keyFile = m_options.tlsClientKeyFile;
        }
    } else {
        const QString socket = dir + QStringLiteral("/redis.sock");
        arguments << QStringLiteral("--port") << QStringLiteral("0")
                  << QStringLiteral("--unixsocket") << socket << QStringLiteral("--unixsocketperm")
                  << QStringLiteral("700");
        m_endpoint = Endpoint{};
        m_endpoint.transport = Endpoint::Transport::UnixSocket;
        m_endpoint.socketPath = socket;
    }
    arguments << m_options.extraArguments;

    m_process = std::make_unique<QProcess>();
    m_process->setProgram(executable);
    m_process->setArguments(arguments);
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process->setStandardOutputFile(QProcess::nullDevice());
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_process->start();
    if (!m_process->waitForStarted(5000)) {
        if (error)
            *error =
                QStringLiteral("cannot start %1: %2").arg(executable, m_process->errorString());
        m_process.reset();
        return false;
    }
    return waitUntilReady(10000, error);
}

bool RedisServerProcess::waitUntilReady(int timeoutMs, QString *error) {
    QDeadlineTimer deadline(timeoutMs);
    QString lastProblem;
    while (!deadline.hasExpired()) {
        if (m_process->state() == QProcess::NotRunning) {
            if (error)
                *error = QStringLiteral("redis-server exited during start-up: %1").arg(logTail(5));
            return false;
        }
        try {
            ConnectionOptions options;
            options.connectTimeout = std::chrono::milliseconds(500);
            options.singleNode = true; // this server, even a cluster node not in a cluster yet
            // Up is up: a test server may carry an expired or misnamed certificate on purpose.
            Endpoint probe = m_endpoint;
            probe.tls.insecure = true;
            auto connection = RedisConnection::open(probe, options);
            const RedisReply pong = connection->command({"PING"});
            // NOAUTH: a server started with --requirepass is up and answering.
            if (!pong.isError() || pong.errorCode() == "NOAUTH")
                return true;
            lastProblem = QString::fromUtf8(pong.text); // LOADING: keep waiting
        } catch (const RedisError &e) {
            if (e.kind() == RedisError::Kind::Authentication)
                return true; // NOAUTH at the handshake: up and answering, as above
            lastProblem = e.message();
        }
        // Start-up readiness, not a test wait: the server gives no other signal that it listens.
        QThread::msleep(10);
    }
    if (error)
        *error = QStringLiteral("redis-server did not answer PING within %1 ms: %2")
                     .arg(timeoutMs)
                     .arg(lastProblem);
    stop();
    return false;
}

bool RedisServerProcess::isRunning() const {
    return m_process && m_process->state() == QProcess::Running;
}

qint64 RedisServerProcess::pid() const {
    return m_process ? m_process->processId() : 0;
}

void RedisServerProcess::stop() {
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        ::kill(static_cast<pid_t>(m_process->processId()), SIGTERM);
        if (!m_process->waitForFinished(3000)) {
            ::kill(static_cast<pid_t>(m_process->processId()), SIGKILL);
            m_process->waitForFinished(3000);
        }
    }
    m_process.reset();
}

void RedisServerProcess::killHard() {
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        ::kill(static_cast<pid_t>(m_process->processId()), SIGKILL);
        m_process->waitForFinished(3000);
    }
    m_process.reset();
}

QString RedisServerProcess::logTail(int lines) const {
    QFile log(directory() + QStringLiteral("/redis.log"));
    if (!log.open(QIODevice::ReadOnly))
        return QStringLiteral("(no log)");
    const QList<QByteArray> all = log.readAll().trimmed().split('\n');
    return QString::fromUtf8(all.mid(qMax<qsizetype>(0, all.size() - lines)).join('\n'));
}

} // namespace poolscope
