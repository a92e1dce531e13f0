// SSH tunnels (--ssh): pool operations through a tunnel to a TCP, a unix-socket and a TLS Redis;
// an unknown host key asked once for many connections; each failure's one line; kill -9 of sshd,
// alone and during a load run. How the tunnel authenticates is in tst_sshauth.cpp, the CLI
// through a tunnel in tst_sshcli.cpp. One sshd, one ssh-agent and the Redis servers are shared by
// the test cases (initTestCase); HOME is the fixture's own.
#include "SshCase.h"

#include "RedisFixture.h"
#include "SshFixture.h"
#include "TlsCertificates.h"

#include "base/RedisError.h"
#include "load/LoadRunner.h"
#include "pool/PoolOperations.h"
#include "transport/ssh/SshDestination.h"
#include "transport/ssh/SshSession.h"
#include "transport/Transport.h"
#include "transport/UserPrompts.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

class TestSsh : public QObject, public SshCase {
    Q_OBJECT

private Q_SLOTS:

    void initTestCase() { startCase(); }

    void destinationParsing_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("error"); // a part of the error, or empty
        QTest::newRow("alias") << "bastion"
                               << ""
                               << "bastion" << 0 << "";
        QTest::newRow("user host port") << "ops@jump.example:2222"
                                        << "ops"
                                        << "jump.example" << 2222 << "";
        QTest::newRow("ipv6 port") << "[::1]:22"
                                   << ""
                                   << "::1" << 22 << "";
        QTest::newRow("bare ipv6") << "ops@::1"
                                   << "ops"
                                   << "::1" << 0 << "";
        QTest::newRow("empty") << "  "
                               << ""
                               << "" << 0 << "empty";
        QTest::newRow("empty user") << "@host"
                                    << ""
                                    << "" << 0 << "empty user";
        QTest::newRow("bad port") << "host:99999"
                                  << ""
                                  << "" << 0 << "port \"99999\"";
        QTest::newRow("empty port") << "host:"
                                    << ""
                                    << "" << 0 << "empty port";
        QTest::newRow("url") << "ssh://host"
                             << ""
                             << "" << 0 << "not of the form";
        QTest::newRow("open bracket") << "[::1:22"
                                      << ""
                                      << "" << 0 << "'[' without ']'";
    }
    void destinationParsing() {
        QFETCH(QString, text);
        QFETCH(QString, user);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, error);
        const transport::SshDestinationParseResult parsed = transport::parseSshDestination(text);
        if (!error.isEmpty()) {
            QVERIFY2(parsed.error.contains(error), qPrintable(parsed.error));
            return;
        }
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QCOMPARE(parsed.destination.user, user);
        QCOMPARE(parsed.destination.host, host);
        QCOMPARE(parsed.destination.port, port);
    }

    void transportIsNamed() {
        QCOMPARE(transport::describeTransport(viaSsh(m_tcp->endpoint(), QStringLiteral("bastion"))),
                 QStringLiteral("via ssh bastion"));
        QCOMPARE(transport::describeTransport(viaSsh(m_tls->endpoint(), QStringLiteral("bastion"))),
                 QStringLiteral("via ssh bastion, TLS, verified"));
        QCOMPARE(
            transport::describeTransport(viaSsh(m_unix->endpoint(), QStringLiteral("bastion"))),
            QStringLiteral("unix socket via ssh bastion"));
    }

    void poolOperationsThroughTunnel_data() {
        QTest::addColumn<QString>("kind");
        QTest::newRow("tcp") << "tcp";
        QTest::newRow("unix socket") << "unix";
        QTest::newRow("tls") << "tls";
    }
    void poolOperationsThroughTunnel() {
        QFETCH(QString, kind);
        RedisFixture &redis = fixtureFor(kind);
        const QByteArray key = "tunnel-" + kind.toUtf8();
        auto connection = RedisConnection::open(viaSsh(redis.endpoint()), quick());
        // Through sshd: the server sees the connection come from sshd, not from this process.
        const QByteArray clients = connection->commandOrThrow({"CLIENT", "LIST"}).text;
        QVERIFY(clients.contains("name=tst-ssh"));
        PoolOperations pool(*connection, key);
        QCOMPARE(pool.seed(documentationMembers(4), SeedOptions{}).added.size(), 4);
        QSet<QByteArray> chosen;
        for (int i = 0; i < 8; ++i) {
            const std::optional<QByteArray> member = pool.allocate();
            QVERIFY(member.has_value());
            chosen.insert(*member);
        }
        QCOMPARE(chosen.size(), 4); // least-used: each member twice
        QCOMPARE(sumOfScores(redis, key), 8.0);
        // A reply bigger than one SSH packet and than the relay's buffers comes through whole.
        const QByteArray big(300 * 1024, 'x');
        connection->commandOrThrow({"SET", key + "-big", big});
        QCOMPARE(connection->commandOrThrow({"GET", key + "-big"}).text, big);
    }

    // TLS through the tunnel verifies the Redis server's name, not the local end's: a server name
    // the certificate does not carry fails as it does without a tunnel.
    void tlsThroughTunnelVerifiesTheServersName() {
        Endpoint endpoint = viaSsh(m_tls->endpoint());
        endpoint.tls.serverName = QStringLiteral("other.test");
        const QString failure = connectFailure(endpoint);
        QVERIFY2(failure.contains(QStringLiteral("other.test")), qPrintable(failure));
        QVERIFY(!failure.contains(u'\n'));
    }

    // Many connections meet the same unknown host key at once (a load run): one question. When
    // it is declined, the connections that waited for it are refused without another question.
    void unknownHostKeyAskedOnceForManyConnections_data() {
        QTest::addColumn<bool>("trust");
        QTest::newRow("trusted") << true;
        QTest::newRow("declined") << false;
    }
    void unknownHostKeyAskedOnceForManyConnections() {
        QFETCH(bool, trust);
        const QString home = m_ssh.makeHome(QStringLiteral("home-many-") +
                                            QLatin1String(trust ? "trusted" : "declined"));
        const ScopedEnvironment otherHome("HOME", home.toLocal8Bit());
        std::atomic<int> questions{0};
        std::mutex mutex;
        std::condition_variable allBegun;
        int begun = 0;
        // The person answers after every connection has begun (a person takes seconds).
        const ScopedPrompters prompters({}, [&](const transport::HostKeyQuestion &) {
            ++questions;
            std::unique_lock lock(mutex);
            allBegun.wait_for(lock, 10s, [&begun] { return begun == 8; });
            return trust;
        });
        const Endpoint endpoint = viaSsh(m_tcp->endpoint());
        std::vector<QString> failures(8);
        std::vector<std::thread> connecting;
        for (QString &failure : failures)
            connecting.emplace_back([&] {
                {
                    const std::lock_guard lock(mutex);
                    ++begun;
                }
                allBegun.notify_all();
                failure = connectFailure(endpoint);
            });
        for (std::thread &thread : connecting)
            thread.join();
        QCOMPARE(questions.load(), 1);
        for (const QString &failure : failures) {
            if (trust)
                QCOMPARE(failure, QString());
            else
                QVERIFY2(failure.contains(QStringLiteral("is unknown")), qPrintable(failure));
        }
        const QByteArray recorded = readFile(home + QStringLiteral("/.ssh/known_hosts"));
        QCOMPARE(recorded.count('\n'), trust ? 1 : 0);
    }

    // A TLS client through the tunnel to a plain server: "plain text", found out by a probe that
    // takes a tunnel of its own (the server is never dialled from here).
    void tlsClientThroughTunnelToPlainServer() {
        Endpoint endpoint = viaSsh(m_tcp->endpoint());
        endpoint.tls.enabled = true;
        const QString failure = connectFailure(endpoint, 2000ms);
        QVERIFY2(failure.contains(QStringLiteral("answered in plain text")), qPrintable(failure));
    }

    void failures_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("kind");
        QTest::newRow("ssh host unreachable") << "unreachable"
                                              << "unreachable" << int(RedisError::Kind::Connection);
        QTest::newRow("ssh host silent")
            << "silent"
            << "timed out after 700 ms" << int(RedisError::Kind::Timeout);
        QTest::newRow("forward refused")
            << "refused"
            << "refused to forward to 127.0.0.1:" << int(RedisError::Kind::Connection);
        QTest::newRow("no such socket")
            << "nosocket"
            << "refused to forward to unix socket" << int(RedisError::Kind::Connection);
    }
    void failures() {
        QFETCH(QString, what);
        QFETCH(QString, message);
        QFETCH(int, kind);
        SilentListener silent;
        Endpoint endpoint = viaSsh(m_tcp->endpoint());
        if (what == QLatin1String("unreachable"))
            endpoint.ssh.destination = QStringLiteral("127.0.0.1:%1").arg(closedPort());
        else if (what == QLatin1String("silent"))
            endpoint.ssh.destination = QStringLiteral("127.0.0.1:%1").arg(silent.port());
        else if (what == QLatin1String("refused"))
            endpoint.port = closedPort();
        else
            endpoint = viaSsh(m_unix->endpoint()), endpoint.socketPath += QStringLiteral(".none");
        RedisError::Kind thrown{};
        QElapsedTimer elapsed;
        elapsed.start();
        const QString failure = connectFailure(endpoint, 700ms, &thrown);
        QVERIFY2(failure.contains(message), qPrintable(failure));
        QVERIFY2(failure.contains(QStringLiteral("via ssh ")), qPrintable(failure));
        QVERIFY(!failure.contains(u'\n'));
        QCOMPARE(int(thrown), kind);
        // Ten times the 700 ms budget: only a connect that ignores its budget fails this.
        QCOMPARE_LT(elapsed.elapsed(), 7000);
    }

    // kill -9 of sshd: the next command fails at once with the text of a TCP drop ("the server
    // closed the connection"), not after the command timeout.
    void sshdKilledClosesTheConnection() {
        ConnectionOptions options = quick();
        options.commandTimeout = 20000ms;
        auto connection = RedisConnection::open(viaSsh(m_tcp->endpoint()), options);
        connection->commandOrThrow({"PING"});
        QVERIFY2(m_ssh.restartSshd(), qPrintable(m_ssh.error()));
        QElapsedTimer elapsed;
        elapsed.start();
        try {
            connection->commandOrThrow({"PING"});
            QFAIL("a tunnel whose sshd was killed answered");
        } catch (const RedisError &error) {
            QCOMPARE(error.kind(), RedisError::Kind::Connection);
            QVERIFY2(error.message().contains(QStringLiteral("the server closed the connection")),
                     qPrintable(error.message()));
        }
        // "At once" against a 20 s command timeout: a failure that waited for it cannot pass.
        QCOMPARE_LT(elapsed.elapsed(), 10000);
        QCOMPARE(connectFailure(viaSsh(m_tcp->endpoint())), QString()); // a new tunnel works
    }

    // kill -9 of sshd (and of its session processes) during a load run, restart on the same
    // port: the runner reports the losses and unknowns as over TCP and goes on after the restart.
    void sshdKilledDuringLoad() {
        m_tcp->makePool("killed", documentationMembers(20));
        LoadSpec spec;
        spec.endpoint = viaSsh(m_tcp->endpoint());
        spec.poolKey = "killed";
        spec.workers = 4;
        spec.pipeline = 8;
        spec.total = 20000;
        spec.connection.commandTimeout = 500ms;
        spec.connection.connectTimeout = 1000ms;
        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QVERIFY(runner.start(spec));
        QTRY_VERIFY_WITH_TIMEOUT(
            !progressed.isEmpty() && progressed.last().at(0).toLongLong() > 2000, 20000);
        QVERIFY2(m_ssh.restartSshd(), qPrintable(m_ssh.error()));
        // The run may end while sshd restarts (the restart waits with the event loop running).
        QVERIFY(!finished.isEmpty() || finished.wait(60000));
        const LoadReport report = finished.last().at(0).value<LoadReport>();
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE_GE(report.connectionLosses, 1);
        QCOMPARE_GE(report.reconnects, 1);
        QCOMPARE(report.attempts(), 20000);
        QCOMPARE(report.errors(), 0);
        const double rise = sumOfScores(*m_tcp, "killed");
        QVERIFY2(rise >= double(report.allocated) &&
                     rise <= double(report.allocated + report.unknown),
                 qPrintable(QStringLiteral("scores rose by %1; allocated %2, unknown %3")
                                .arg(rise)
                                .arg(report.allocated)
                                .arg(report.unknown)));
    }
};

QTEST_GUILESS_MAIN(TestSsh)
#include "tst_ssh.moc"
