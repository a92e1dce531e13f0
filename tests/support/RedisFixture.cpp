#include "RedisFixture.h"

#include "base/RedisError.h"

#include <QProcess>

namespace poolscope::testing {

RedisFixture::RedisFixture(RedisServerOptions options)
    : m_server(std::move(options)) {}

bool RedisFixture::start() {
    return m_server.start(&m_error);
}

std::unique_ptr<RedisConnection> RedisFixture::connect(const QString &clientName) const {
    ConnectionOptions options;
    options.clientName = clientName;
    options.commandTimeout = std::chrono::milliseconds(10000);
    options.singleNode = true; // this server itself, also when it is a cluster node
    return RedisConnection::open(m_server.endpoint(), options);
}

RedisConnection &RedisFixture::admin() {
    if (!m_admin || m_admin->isBroken())
        m_admin = connect(QStringLiteral("test-admin"));
    return *m_admin;
}

RedisReply RedisFixture::run(const RedisCommand &command) {
    try {
        return admin().command(command);
    } catch (const RedisError &error) {
        if (!error.connectionLost())
            throw;
        m_admin.reset();
        return admin().command(command);
    }
}

void RedisFixture::makePool(const QByteArray &key, const QList<QByteArray> &members, double count) {
    const QByteArray score = QByteArray::number(count, 'g', 17);
    for (qsizetype start = 0; start < members.size(); start += 1000) {
        RedisCommand zadd{"ZADD", key};
        for (const QByteArray &member : members.mid(start, 1000))
            zadd << score << member;
        admin().commandOrThrow(zadd);
    }
}

CliRun runCli(const QStringList &arguments, const QByteArray &standardInput, int timeoutMs) {
    return runProgram(QStringLiteral(POOLSCOPE_CLI_PATH), arguments, standardInput, timeoutMs);
}

CliRun runProgram(const QString &program, const QStringList &arguments,
                  const QByteArray &standardInput, int timeoutMs,
                  const QProcessEnvironment &environment) {
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    CliRun run;
    if (!process.waitForStarted(10000))
        return run;
    if (!standardInput.isEmpty())
        process.write(standardInput);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

QList<QByteArray> documentationMembers(int count) {
    QList<QByteArray> list;
    for (int i = 0; i < count; ++i)
        list << "192.0.2." + QByteArray::number(i) + ":8080";
    return list;
}

double sumOfScores(RedisFixture &redis, const QByteArray &key) {
    const RedisReply all = redis.run({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    double sum = 0;
    for (qsizetype i = 1; i < all.elements.size(); i += 2)
        sum += all.elements[i].toDouble();
    return sum;
}

} // namespace poolscope::testing
