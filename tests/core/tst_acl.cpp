// The ACL rules of docs/key-layout.md, applied to a real redis-server: the monitoring user can
// watch (and read the audit trail) but not write; the operator can seed, evict, restore and
// allocate, on its pool keys only, each write recorded in the trail; a writer who may not record
// is refused whole.
#include "RedisFixture.h"

#include "audit/AuditTrail.h"
#include "base/RedisError.h"
#include "pool/PoolOperations.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

// The rules exactly as the access-control documentation gives them, read from that page itself
// so the two cannot drift apart.
QByteArrayList documentedRules(const QByteArray &user) {
    QFile page(QStringLiteral(POOLSCOPE_SOURCE_DIR "/docs/key-layout.md"));
    if (!page.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &line : page.readAll().split('\n')) {
        const QByteArray prefix = "ACL SETUSER " + user + ' ';
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed().split(' ');
    }
    return {};
}

} // namespace

class TestAcl : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;

    std::unique_ptr<RedisConnection> connectAs(const QString &user, const QString &password) {
        Endpoint endpoint = m_redis->endpoint();
        endpoint.username = user;
        endpoint.password = password;
        return RedisConnection::open(endpoint);
    }
    static void expectRefused(const std::function<void()> &operation) {
        try {
            operation();
            QFAIL("the operation should have been refused");
        } catch (const RedisError &e) {
            QCOMPARE(e.serverCode(), QByteArray("NOPERM"));
            QVERIFY2(e.message().contains(QStringLiteral("lacks the right")),
                     qPrintable(e.message()));
        }
    }

private Q_SLOTS:
    void initTestCase() {
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
        for (const QByteArray &user :
             {QByteArray("poolscope-monitor"), QByteArray("poolscope-operator"),
              QByteArray("poolscope-watcher")}) {
            const QByteArrayList rules = documentedRules(user);
            QVERIFY2(!rules.isEmpty(), "docs/key-layout.md lacks the ACL SETUSER line for " + user);
            // The page uses a placeholder for the password.
            RedisCommand command{"ACL", "SETUSER", user};
            for (QByteArray rule : rules) {
                rule.replace("PASSWORD", user + "-secret");
                command << rule;
            }
            const RedisReply reply = m_redis->run(command);
            QVERIFY2(!reply.isError(), reply.text);
        }
        m_redis->run({"ZADD", "proxies", "3", "192.0.2.1:80", "5", "192.0.2.2:80"});
        m_redis->run({"ZADD", "other", "1", "x"});
    }
    void cleanupTestCase() { m_redis.reset(); }

    void monitorCanWatch() {
        auto connection = connectAs(QStringLiteral("poolscope-monitor"),
                                    QStringLiteral("poolscope-monitor-secret"));
        PoolOperations pool(*connection, "proxies");
        const PoolSnapshot snapshot = pool.snapshot();
        QCOMPARE(snapshot.members.size(), 2);
        QCOMPARE(pool.stats().min, 3.0);
        QVERIFY(!connection->serverVersion().isEmpty());
    }

    void monitorCannotWrite() {
        auto connection = connectAs(QStringLiteral("poolscope-monitor"),
                                    QStringLiteral("poolscope-monitor-secret"));
        PoolOperations pool(*connection, "proxies");
        expectRefused([&] { pool.allocate(); });
        expectRefused([&] { pool.evict("192.0.2.1:80"); });
        expectRefused([&] { pool.seed({"192.0.2.9:80"}, SeedOptions{}); });
        QCOMPARE(m_redis->run({"ZSCORE", "proxies", "192.0.2.1:80"}).toDouble(), 3.0);
        QCOMPARE(m_redis->run({"ZCARD", "proxies"}).integer, 2LL);
    }

    void operatorDoesItsJob() {
        auto connection = connectAs(QStringLiteral("poolscope-operator"),
                                    QStringLiteral("poolscope-operator-secret"));
        PoolOperations pool(*connection, "proxies");
        QCOMPARE(pool.seed({"192.0.2.3:80"}, SeedOptions{}).added.size(), 1);
        QCOMPARE(pool.allocate(), std::optional<QByteArray>("192.0.2.3:80"));
        const EvictResult evicted = pool.evict("192.0.2.3:80");
        QCOMPARE(evicted.savedCount, 1.0);
        QVERIFY(!evicted.guardMarkKept); // the documented rules reach the guard's marks
        const RestoreResult restored = pool.restore("192.0.2.3:80", RestorePolicy::Min);
        QCOMPARE(restored.restoredCount, 3.0);
        QVERIFY(!restored.guardMarkKept);
        QCOMPARE(pool.snapshot().members.size(), 3);
    }

    // An operator whose rules predate the guard's marks hash still evicts and restores; the
    // result says a guard's mark could not be dropped (the CLI warns), and the mark stays.
    void operatorWithoutTheMarksKeyIsWarned() {
        RedisCommand command{"ACL", "SETUSER", "poolscope-old-operator"};
        for (QByteArray rule : documentedRules("poolscope-operator")) {
            if (rule.contains(":guard-evicted:"))
                continue;
            rule.replace("PASSWORD", "old-secret");
            command << rule;
        }
        QVERIFY2(!m_redis->run(command).isError(), "ACL SETUSER refused");
        m_redis->run({"ZADD", "proxies", "4", "192.0.2.4:80"});
        m_redis->run({"HSET", PoolKeys("proxies").guardMarks(), "192.0.2.4:80", "some-guard"});
        auto connection =
            connectAs(QStringLiteral("poolscope-old-operator"), QStringLiteral("old-secret"));
        PoolOperations pool(*connection, "proxies");
        QVERIFY(pool.evict("192.0.2.4:80").guardMarkKept);
        QVERIFY(pool.restore("192.0.2.4:80", RestorePolicy::Keep).guardMarkKept);
        QCOMPARE(m_redis->run({"ZSCORE", "proxies", "192.0.2.4:80"}).toDouble(), 4.0);
        m_redis->run({"ZREM", "proxies", "192.0.2.4:80"});
        m_redis->run({"DEL", PoolKeys("proxies").guardMarks()});
    }

    // Every write of the operator is in the trail, under its own user name; the monitor reads
    // the trail (core and CLI) and may not add to it.
    void operatorIsInTheTrailAndMonitorReadsIt() {
        auto operatorConnection = connectAs(QStringLiteral("poolscope-operator"),
                                            QStringLiteral("poolscope-operator-secret"));
        PoolOperations pool(*operatorConnection, "proxies");
        pool.evict("192.0.2.2:80", {}, QStringLiteral("acl check"));
        pool.restore("192.0.2.2:80", RestorePolicy::Keep);
        auto monitor = connectAs(QStringLiteral("poolscope-monitor"),
                                 QStringLiteral("poolscope-monitor-secret"));
        AuditTrail trail(*monitor, PoolKeys("proxies"));
        const QList<AuditEntry> latest = trail.after({}, 2);
        QCOMPARE(latest.size(), 2);
        QCOMPARE(latest[0].action, AuditAction::Evict);
        QCOMPARE(latest[0].reason, QStringLiteral("acl check"));
        QCOMPARE(latest[1].action, AuditAction::Restore);
        for (const AuditEntry &entry : latest)
            QCOMPARE(entry.actor.user, QStringLiteral("poolscope-operator")); // ACL WHOAMI
        AuditWalk walk(*monitor, PoolKeys("proxies"), {});
        QList<AuditEntry> all;
        while (!walk.atEnd())
            all += walk.step();
        QCOMPARE_GE(all.size(), 2);
        Endpoint endpoint = m_redis->endpoint();
        endpoint.username = QStringLiteral("poolscope-watcher");
        const CliRun run =
            runCli({QStringLiteral("--url"), endpoint.toUrl(), QStringLiteral("--key"),
                    QStringLiteral("proxies"), QStringLiteral("audit"), QStringLiteral("--action"),
                    QStringLiteral("evict")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("acl check") && run.out.contains("poolscope-operator@"),
                 run.out.constData());
        QCOMPARE(monitor->command({"XADD", PoolKeys("proxies").audit(), "*", "a", "b"}).errorCode(),
                 QByteArray("NOPERM"));
    }

    // A writer who may not XADD to the trail (its key allowed, the command not; or the key not
    // allowed at all, as with rules written before the trail) is refused with one clear error,
    // and nothing is done: no member moved, no entry written.
    void writerWithoutXaddIsRefusedWhole_data() {
        QTest::addColumn<QByteArray>("dropped");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no +xadd") << QByteArray("+xadd")
                                  << QStringLiteral("may not add to the audit trail");
        QTest::newRow("no audit key")
            << QByteArray("~{proxies}:audit:proxies") << QStringLiteral("{proxies}:audit:proxies");
    }
    void writerWithoutXaddIsRefusedWhole() {
        QFETCH(QByteArray, dropped);
        QFETCH(QString, expected);
        RedisCommand command{"ACL", "SETUSER", "poolscope-no-trail", "reset"};
        for (QByteArray rule : documentedRules("poolscope-operator")) {
            if (rule == dropped)
                continue;
            rule.replace("PASSWORD", "no-trail-secret");
            command << rule;
        }
        QVERIFY2(!m_redis->run(command).isError(), "ACL SETUSER refused");
        m_redis->run({"HSET", PoolKeys("proxies").evicted(), "192.0.2.7:80", "2"});
        const QByteArray trail = PoolKeys("proxies").audit();
        const QByteArray lastBefore = m_redis->run({"XREVRANGE", trail, "+", "-", "COUNT", "1"})
                                          .elements.value(0)
                                          .elements.value(0)
                                          .text;
        const RedisReply poolBefore = m_redis->run({"ZRANGE", "proxies", "0", "-1", "WITHSCORES"});
        auto connection =
            connectAs(QStringLiteral("poolscope-no-trail"), QStringLiteral("no-trail-secret"));
        PoolOperations pool(*connection, "proxies");
        const auto refused = [&](const std::function<void()> &operation) {
            try {
                operation();
                QFAIL("the write went through without the right to record it");
            } catch (const RedisError &e) {
                QCOMPARE(e.serverCode(), QByteArray("NOPERM"));
                QVERIFY2(e.message().contains(expected), qPrintable(e.message()));
            }
        };
        refused([&] { pool.evict("192.0.2.1:80"); });
        refused([&] { pool.restore("192.0.2.7:80", RestorePolicy::Keep); });
        refused([&] { pool.seed({"192.0.2.8:80"}, SeedOptions{}); });
        // Nothing moved, nothing added, no entry.
        const RedisReply poolAfter = m_redis->run({"ZRANGE", "proxies", "0", "-1", "WITHSCORES"});
        QCOMPARE(poolAfter.toDisplayString(), poolBefore.toDisplayString());
        QCOMPARE(m_redis->run({"HGET", PoolKeys("proxies").evicted(), "192.0.2.7:80"}).text,
                 QByteArray("2"));
        QCOMPARE(m_redis->run({"XREVRANGE", trail, "+", "-", "COUNT", "1"})
                     .elements.value(0)
                     .elements.value(0)
                     .text,
                 lastBefore);
        // The CLI says the same, once, and exits 1.
        Endpoint endpoint = m_redis->endpoint();
        endpoint.username = QStringLiteral("poolscope-no-trail");
        endpoint.password = QStringLiteral("no-trail-secret");
        const CliRun run = runCli(
            {QStringLiteral("--url"), endpoint.toUrl(), QStringLiteral("--key"),
             QStringLiteral("proxies"), QStringLiteral("evict"), QStringLiteral("192.0.2.1:80"),
             QStringLiteral("--reason"), QStringLiteral("should not happen")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(expected.toUtf8()), run.err.constData());
        QCOMPARE(m_redis->run({"ZSCORE", "proxies", "192.0.2.1:80"}).toDouble(), 3.0);
        m_redis->run({"HDEL", PoolKeys("proxies").evicted(), "192.0.2.7:80"});
    }

    void operatorStaysOnItsKeys() {
        auto connection = connectAs(QStringLiteral("poolscope-operator"),
                                    QStringLiteral("poolscope-operator-secret"));
        PoolOperations other(*connection, "other");
        expectRefused([&] { other.allocate(); });
        expectRefused([&] { other.snapshot(); });
        QCOMPARE(m_redis->run({"ZSCORE", "other", "x"}).toDouble(), 1.0);
        // No general-purpose writes either.
        QCOMPARE(connection->command({"SET", "proxies-copy", "1"}).errorCode(),
                 QByteArray("NOPERM"));
        QCOMPARE(connection->command({"FLUSHALL"}).errorCode(), QByteArray("NOPERM"));
    }

    // Issue 10.1: a user name without a password is that user (AUTH user ""), not "default".
    void nopassUserHasItsOwnRights() {
        auto connection = connectAs(QStringLiteral("poolscope-watcher"), QString());
        connection->command({"CLIENT", "SETNAME", "nopass-check"});
        const QByteArray clients = m_redis->run({"CLIENT", "LIST"}).text;
        QByteArray line;
        for (const QByteArray &entry : clients.split('\n'))
            if (entry.contains("name=nopass-check "))
                line = entry;
        QVERIFY2(line.contains(" user=poolscope-watcher "), clients);
        PoolOperations pool(*connection, "proxies");
        QCOMPARE_GE(pool.snapshot().members.size(), 2); // it reads
        expectRefused([&] { pool.evict("192.0.2.1:80"); });
        // The CLI the same way, with the user in the URL.
        Endpoint endpoint = m_redis->endpoint();
        endpoint.username = QStringLiteral("poolscope-watcher");
        const CliRun run = runCli({QStringLiteral("--url"), endpoint.toUrl(),
                                   QStringLiteral("--key"), QStringLiteral("proxies"),
                                   QStringLiteral("evict"), QStringLiteral("192.0.2.1:80")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("NOPERM") || run.err.contains("lacks the right"), run.err);
        QCOMPARE(m_redis->run({"ZSCORE", "proxies", "192.0.2.1:80"}).toDouble(), 3.0);
    }

    void wrongPasswordIsNamed() {
        try {
            connectAs(QStringLiteral("poolscope-monitor"), QStringLiteral("not-the-password"));
            QFAIL("must refuse");
        } catch (const RedisError &e) {
            QCOMPARE(e.serverCode(), QByteArray("WRONGPASS"));
            // Its own kind: retrying with the same credentials cannot help (the poller stops).
            QCOMPARE(e.kind(), RedisError::Kind::Authentication);
            QVERIFY2(e.message().contains(QStringLiteral("poolscope-monitor")),
                     qPrintable(e.message()));
            QVERIFY(!e.message().contains(QStringLiteral("not-the-password")));
        }
    }

    // The same through the CLI with the password from a file or standard input (never argv): the
    // ACL user works, a wrong password is named by its user and never shown.
    void cliPasswordSources_data() {
        QTest::addColumn<bool>("fromFile");
        QTest::addColumn<QString>("password");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("file") << true << "poolscope-monitor-secret" << 0;
        QTest::newRow("stdin") << false << "poolscope-monitor-secret" << 0;
        QTest::newRow("file, wrong") << true << "not-the-password" << 1;
        QTest::newRow("stdin, wrong") << false << "not-the-password" << 1;
    }
    void cliPasswordSources() {
        QFETCH(bool, fromFile);
        QFETCH(QString, password);
        QFETCH(int, exitCode);
        QTemporaryDir directory;
        Endpoint endpoint = m_redis->endpoint();
        endpoint.username = QStringLiteral("poolscope-monitor");
        QStringList arguments{QStringLiteral("--url"), endpoint.toSafeUrl()};
        QByteArray input;
        if (fromFile) {
            QFile file(directory.filePath(QStringLiteral("pw")));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(password.toUtf8() + '\n');
            file.close();
            QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
            arguments << QStringLiteral("--password-file") << file.fileName();
        } else {
            arguments << QStringLiteral("--password-stdin");
            input = password.toUtf8() + '\n';
        }
        const CliRun run = runCli(arguments << QStringLiteral("stats"), input);
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        if (exitCode != 0)
            QVERIFY2(run.err.contains("poolscope-monitor"), run.err.constData());
        QVERIFY(!run.err.contains(password.toUtf8()));
        QVERIFY(!run.out.contains(password.toUtf8()));
    }
};

QTEST_GUILESS_MAIN(TestAcl)
#include "tst_acl.moc"
