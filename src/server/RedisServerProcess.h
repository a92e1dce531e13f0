#pragma once

#include "endpoint/Endpoint.h"

#include <memory>

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace poolscope {

struct RedisServerOptions {
    // TCP on a free loopback port; otherwise only a unix socket in the temporary directory.
    bool useTcp = false;
    int port = 0;               // with useTcp: 0 picks a free port
    QStringList extraArguments; // e.g. {"--cluster-enabled", "yes"}
    QString executable;         // empty: find redis-server on PATH, /usr/bin, /usr/sbin
    // TLS only (--port 0 --tls-port): set tlsCertFile and tlsKeyFile. Implies TCP on a free port.
    QString tlsCertFile, tlsKeyFile;
    QString tlsCaFile;           // the CA clients are checked against, and that clients trust
    bool tlsAuthClients = false; // require a client certificate signed by tlsCaFile
    // The client certificate endpoint() carries (and start() uses) when tlsAuthClients is on.
    QString tlsClientCertFile, tlsClientKeyFile;

    bool usesTls() const { return !tlsCertFile.isEmpty(); }
};

// A private redis-server in a temporary directory with persistence off: the dashboard's embedded
// server and the tests' fixture. The child dies with its parent (PR_SET_PDEATHSIG), so a crash
// or Ctrl+C of poolscope never leaves it behind.
class RedisServerProcess {
public:
    explicit RedisServerProcess(RedisServerOptions options = {});
    ~RedisServerProcess();
    RedisServerProcess(const RedisServerProcess &) = delete;
    RedisServerProcess &operator=(const RedisServerProcess &) = delete;

    // Starts the server and waits until it answers PING. Returns false with a reason on failure.
    bool start(QString *error = nullptr);
    // SIGTERM by PID, then SIGKILL if it lingers.
    void stop();
    // SIGKILL by PID, as a crash would (fault tests).
    void killHard();
    bool isRunning() const;
    qint64 pid() const;

    Endpoint endpoint() const { return m_endpoint; }
    QString url() const { return m_endpoint.toUrl(); }
    QString directory() const;
    QString logTail(int lines = 20) const;

    // Path of redis-server, or empty with installation advice in *advice.
    static QString findExecutable(const QString &preferred = {}, QString *advice = nullptr);
    static int pickFreeTcpPort();

private:
    bool waitUntilReady(int timeoutMs, QString *error);

    RedisServerOptions m_options;
    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<QProcess> m_process;
    Endpoint m_endpoint;
};

} // namespace poolscope
