#pragma once

#include "client/RedisConnection.h"
#include "server/RedisServerProcess.h"

#include <memory>

#include <QByteArray>
#include <QProcessEnvironment>
#include <QStringList>

namespace poolscope::testing {

// A real redis-server for one test case: temporary directory, unix socket (or a free TCP port),
// no persistence; killed by PID when the fixture goes out of scope, also when the test fails.
class RedisFixture {
public:
    explicit RedisFixture(RedisServerOptions options = {});
    // QVERIFY-friendly: false with the reason in error().
    bool start();
    const QString &error() const { return m_error; }
    RedisServerProcess &server() { return m_server; }
    Endpoint endpoint() const { return m_server.endpoint(); }
    QString url() const { return m_server.url(); }
    // A new connection to the server (throws on failure); to this server alone, also when it
    // is a cluster node (ConnectionOptions::singleNode).
    std::unique_ptr<RedisConnection> connect(const QString &clientName = {}) const;
    // One shared connection for test set-up and checks.
    RedisConnection &admin();
    // Convenience for checks: a reply to one command on the admin connection.
    // Reconnects once if the server was restarted under the admin connection.
    RedisReply run(const RedisCommand &command);
    // Writes a pool of members "m0".."m<n-1>" (or given names) at the given count.
    void makePool(const QByteArray &key, const QList<QByteArray> &members, double count = 0);

private:
    RedisServerProcess m_server;
    std::unique_ptr<RedisConnection> m_admin;
    QString m_error;
};

// Pool member names on a documentation address, never contacted: "192.0.2.<i>:8080".
QList<QByteArray> documentationMembers(int count);
// The sum of a pool's counts, read in one command (test pools are small).
double sumOfScores(RedisFixture &redis, const QByteArray &key);

// Runs poolscope-cli with arguments; returns exit code, captures stdout and stderr.
struct CliRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};
CliRun runCli(const QStringList &arguments, const QByteArray &standardInput = {},
              int timeoutMs = 60000);
// Runs any program the same way, in the given environment (default: this process's).
CliRun
runProgram(const QString &program, const QStringList &arguments,
           const QByteArray &standardInput = {}, int timeoutMs = 60000,
           const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());

} // namespace poolscope::testing
