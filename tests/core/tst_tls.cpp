// TLS (rediss://): pool operations over TLS as over TCP, each handshake failure with its one line,
// the CLI, the load runner and watch over TLS, and CLIENT KILL / kill -9 behaving as over TCP.
// One set of certificates and servers is shared by the test cases (initTestCase).
#include "RedisFixture.h"
#include "TlsCertificates.h"

#include "base/RedisError.h"
#include "load/LoadRunner.h"
#include "pool/PoolOperations.h"
#include "transport/Transport.h"

#include <QSignalSpy>
#include <QScopeGuard>
#include <QtTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

qint64 evalshaCalls(RedisConnection &connection) {
    const QByteArray info = connection.command({"INFO", "commandstats"}).text;
    const qsizetype at = info.indexOf("cmdstat_evalsha:calls=");
    if (at < 0)
        return 0;
    const qsizetype start = at + qsizetype(sizeof("cmdstat_evalsha:calls=") - 1);
    return info.mid(start, info.indexOf(',', start) - start).toLongLong();
}

// A loopback listener that never answers: TCP connects (the kernel's accept queue), TLS waits.
class SilentListener {
public:
    SilentListener() {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof(address);
        ::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof(address));
        ::listen(m_fd, 16);
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length);
        m_port = ntohs(address.sin_port);
    }
    ~SilentListener() { ::close(m_fd); }
    int port() const { return m_port; }

private:
    int m_fd = -1;
    int m_port = 0;
};

} // namespace

class TestTls : public QObject {
    Q_OBJECT

private:
    TlsCertificates m_certificates;
    std::unique_ptr<RedisFixture> m_tcp;        // plain TCP
    std::unique_ptr<RedisFixture> m_tls;        // server.pem: localhost, 127.0.0.1
    std::unique_ptr<RedisFixture> m_otherName;  // other.pem: other.test only
    std::unique_ptr<RedisFixture> m_expired;    // expired.pem
    std::unique_ptr<RedisFixture> m_notYet;     // notyet.pem
    std::unique_ptr<RedisFixture> m_clientAuth; // requires a client certificate

    QString cert(const char *file) const { return m_certificates.path(QLatin1String(file)); }

    RedisServerOptions tlsOptions(const char *name) const {
        RedisServerOptions options;
        options.tlsCertFile = cert(name) + QStringLiteral(".pem");
        options.tlsKeyFile = cert(name) + QStringLiteral(".key");
        options.tlsCaFile = cert("ca.pem");
        return options;
    }
    bool start(std::unique_ptr<RedisFixture> &fixture, const RedisServerOptions &options) {
        fixture = std::make_unique<RedisFixture>(options);
        if (fixture->start())
            return true;
        qWarning("%s", qPrintable(fixture->error()));
        return false;
    }
    RedisFixture &fixtureFor(const QString &transport) {
        return transport == QLatin1String("tls") ? *m_tls : *m_tcp;
    }
    // The message of the RedisError that connecting to `endpoint` throws, or "" when it connects.
    static QString connectFailure(const Endpoint &endpoint, std::chrono::milliseconds timeout,
                                  RedisError::Kind *kind = nullptr) {
        ConnectionOptions options;
        options.connectTimeout = timeout;
        try {
            auto connection = RedisConnection::open(endpoint, options);
            connection->commandOrThrow({"PING"});
            return {};
        } catch (const RedisError &error) {
            if (kind)
                *kind = error.kind();
            return error.message();
        }
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_certificates.create(), qPrintable(m_certificates.error()));
        RedisServerOptions plain;
        plain.useTcp = true;
        QVERIFY(start(m_tcp, plain));
        QVERIFY(start(m_tls, tlsOptions("server")));
        QVERIFY(start(m_otherName, tlsOptions("other")));
        QVERIFY(start(m_expired, tlsOptions("expired")));
        QVERIFY(start(m_notYet, tlsOptions("notyet")));
        RedisServerOptions clientAuth = tlsOptions("server");
        clientAuth.tlsAuthClients = true;
        clientAuth.tlsClientCertFile = cert("client.pem");
        clientAuth.tlsClientKeyFile = cert("client.key");
        QVERIFY(start(m_clientAuth, clientAuth));
    }

    void transportIsNamed() {
        QCOMPARE(transport::describeTransport(m_tcp->endpoint()), QStringLiteral("TCP"));
        Endpoint tls = m_tls->endpoint();
        QCOMPARE(transport::describeTransport(tls), QStringLiteral("TLS, verified"));
        tls.tls.insecure = true;
        QCOMPARE(transport::describeTransport(tls),
                 QStringLiteral("TLS, NOT verified (--tls-insecure)"));
    }

    // The core pool operations, the same over TCP and over TLS.
    void poolOperations_data() {
        QTest::addColumn<QString>("transport");
        QTest::newRow("tcp") << "tcp";
        QTest::newRow("tls") << "tls";
    }
    void poolOperations() {
        QFETCH(QString, transport);
        RedisFixture &redis = fixtureFor(transport);
        QCOMPARE(redis.endpoint().tls.enabled, transport == QLatin1String("tls"));
        const QByteArray key = "ops-" + transport.toUtf8();
        auto connection = redis.connect(QStringLiteral("tst-tls"));
        PoolOperations pool(*connection, key);

        const SeedResult seeded = pool.seed(documentationMembers(5), SeedOptions{});
        QCOMPARE(seeded.added.size(), 5);
        const qint64 evalshaBefore = evalshaCalls(*connection);
        QSet<QByteArray> chosen;
        for (int i = 0; i < 10; ++i) {
            const std::optional<QByteArray> member = pool.allocate();
            QVERIFY(member.has_value());
            chosen.insert(*member);
        }
        QCOMPARE(chosen.size(), 5);                              // least-used: each member twice
        QVERIFY(evalshaCalls(*connection) - evalshaBefore >= 9); // the EVALSHA path

        const EvictResult evicted = pool.evict(documentationMembers(5).first());
        QCOMPARE(evicted.savedCount, 2.0);
        for (int i = 0; i < 4; ++i)
            QVERIFY(pool.allocate().has_value());
        const RestoreResult restored =
            pool.restore(documentationMembers(5).first(), RestorePolicy::Min);
        QCOMPARE(restored.restoredCount, 3.0);

        const PoolSnapshot snapshot = pool.snapshot();
        QCOMPARE(snapshot.members.size(), 5);
        QVERIFY(snapshot.evicted.isEmpty());
        double sum = 0;
        for (const PoolMember &member : snapshot.members)
            sum += member.count;
        QCOMPARE(sum, 15.0); // 2 * 4 + 4 allocations + the restored member at the minimum, 3
        QCOMPARE(pool.stats().size, 5);
    }

    // Each failure: its own single line, at connect.
    void failures_data() {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("scheme");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("ca");
        QTest::addColumn<QString>("serverName");
        QTest::addColumn<QString>("expected");

        QTest::newRow("unknown CA (system CAs)")
            << "tls"
            << "rediss"
            << "localhost"
            << ""
            << ""
            << "TLS certificate not trusted: unable to verify the server's certificate: its chain "
               "ends at the self-signed CA CN=poolscope test CA, an unknown CA not among the "
               "system's CAs (give the CA with --tls-ca FILE)";
        QTest::newRow("unknown CA (another CA file)")
            << "tls"
            << "rediss"
            << "localhost"
            << "client.pem"
            << ""
            << "TLS certificate not trusted: unable to verify the server's certificate: its chain "
               "ends at the self-signed CA CN=poolscope test CA, an unknown CA not among the CA "
               "file ";
        QTest::newRow("name mismatch")
            << "other"
            << "rediss"
            << "127.0.0.1"
            << "ca.pem"
            << ""
            << "TLS name mismatch: expected \"127.0.0.1\", the server's certificate is for "
               "DNS:other.test (connect by one of those names, or name the expected one with "
               "--tls-server-name)";
        QTest::newRow("name mismatch with --tls-server-name")
            << "tls"
            << "rediss"
            << "127.0.0.1"
            << "ca.pem"
            << "wrong.test"
            << "TLS name mismatch: expected \"wrong.test\", the server's certificate is for "
               "DNS:localhost, IP:127.0.0.1";
        QTest::newRow("expired")
            << "expired"
            << "rediss"
            << "localhost"
            << "ca.pem"
            << ""
            << "TLS certificate expired: the server's certificate (CN=localhost) expired on "
               "2020-01-02 00:00:00 UTC";
        QTest::newRow("not yet valid")
            << "notyet"
            << "rediss"
            << "localhost"
            << "ca.pem"
            << ""
            << "TLS certificate not yet valid: the server's certificate (CN=localhost) is valid "
               "from 2099-01-01 00:00:00 UTC";
        QTest::newRow("client certificate required")
            << "clientauth"
            << "rediss"
            << "localhost"
            << "ca.pem"
            << ""
            << "the server requires a TLS client certificate: give one with --tls-cert FILE "
               "--tls-key FILE";
        QTest::newRow("TLS client, plain port")
            << "tcp"
            << "rediss"
            << "127.0.0.1"
            << "ca.pem"
            << ""
            << "the server answered in plain text, not TLS: is this a plain port? use redis://";
        QTest::newRow("plain client, TLS port") << "tls"
                                                << "redis"
                                                << "127.0.0.1"
                                                << ""
                                                << ""
                                                << "(is this a TLS port? use rediss://)";
    }
    void failures() {
        QFETCH(QString, server);
        QFETCH(QString, scheme);
        QFETCH(QString, host);
        QFETCH(QString, ca);
        QFETCH(QString, serverName);
        QFETCH(QString, expected);
        const std::map<QString, RedisFixture *> servers{
            {QStringLiteral("tcp"), m_tcp.get()},
            {QStringLiteral("tls"), m_tls.get()},
            {QStringLiteral("other"), m_otherName.get()},
            {QStringLiteral("expired"), m_expired.get()},
            {QStringLiteral("notyet"), m_notYet.get()},
            {QStringLiteral("clientauth"), m_clientAuth.get()}};
        const QString url = QStringLiteral("%1://%2:%3/0")
                                .arg(scheme, host)
                                .arg(servers.at(server)->endpoint().port);
        Endpoint endpoint = *parseEndpoint(url).endpoint;
        if (!ca.isEmpty())
            endpoint.tls.caFile = m_certificates.path(ca);
        endpoint.tls.serverName = serverName;
        RedisError::Kind kind = RedisError::Kind::Usage;
        const QString message = connectFailure(endpoint, 2000ms, &kind);
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(message.startsWith(QStringLiteral("cannot connect to %1").arg(url)) ||
                     message.startsWith(QStringLiteral("connection to %1").arg(url)),
                 qPrintable(message));
        QVERIFY2(!message.contains(u'\n'), qPrintable(message));
        QCOMPARE(kind, RedisError::Kind::Connection);
    }

    // The client's own files: each problem named with the file.
    void clientFileProblems_data() {
        QTest::addColumn<QString>("certFile");
        QTest::addColumn<QString>("keyFile");
        QTest::addColumn<QString>("expected");
        QTest::newRow("encrypted key")
            << "client.pem"
            << "client-encrypted.key"
            << "the client key DIR/client-encrypted.key is encrypted and no passphrase was given "
               "(poolscope-cli: --tls-key-passphrase-file FILE; the dashboard asks for it)";
        QTest::newRow("key of another certificate")
            << "client.pem"
            << "server.key"
            << "the client key DIR/server.key does not belong to the certificate DIR/client.pem";
        QTest::newRow("not a certificate")
            << "ca.cnf"
            << "client.key"
            << "cannot read the client certificate DIR/ca.cnf (--tls-cert): ";
    }
    void clientFileProblems() {
        QFETCH(QString, certFile);
        QFETCH(QString, keyFile);
        QFETCH(QString, expected);
        Endpoint endpoint = m_clientAuth->endpoint();
        endpoint.tls.certFile = m_certificates.path(certFile);
        endpoint.tls.keyFile = m_certificates.path(keyFile);
        const QString message = connectFailure(endpoint, 2000ms);
        expected.replace(QStringLiteral("DIR/"), m_certificates.path({}));
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(!message.contains(u'\n'), qPrintable(message));
    }

    void handshakeTimesOut() {
        SilentListener silent;
        Endpoint endpoint =
            *parseEndpoint(QStringLiteral("rediss://127.0.0.1:%1/0").arg(silent.port())).endpoint;
        QElapsedTimer clock;
        clock.start();
        RedisError::Kind kind = RedisError::Kind::Usage;
        const QString message = connectFailure(endpoint, 400ms, &kind);
        QCOMPARE(message, QStringLiteral("cannot connect to rediss://127.0.0.1:%1/0: the TLS "
                                         "handshake timed out after 400 ms (the server sent "
                                         "nothing back)")
                              .arg(silent.port()));
        QCOMPARE(kind, RedisError::Kind::Timeout);
        // The message says 400 ms; this only catches a handshake that ignores its budget (ten
        // times it), not a slow machine.
        QCOMPARE_LT(clock.elapsed(), 4000);
    }

    // What makes the failures above succeed: the right CA, name, certificate, or no checks.
    void successes_data() {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("serverName");
        QTest::addColumn<bool>("insecure");
        QTest::addColumn<bool>("clientCertificate");
        QTest::newRow("by name") << "tls"
                                 << "localhost"
                                 << "" << false << false;
        QTest::newRow("by address") << "tls"
                                    << "127.0.0.1"
                                    << "" << false << false;
        QTest::newRow("--tls-server-name") << "other"
                                           << "127.0.0.1"
                                           << "other.test" << false << false;
        QTest::newRow("client certificate") << "clientauth"
                                            << "localhost"
                                            << "" << false << true;
        QTest::newRow("insecure, expired") << "expired"
                                           << "127.0.0.1"
                                           << "" << true << false;
    }
    void successes() {
        QFETCH(QString, server);
        QFETCH(QString, host);
        QFETCH(QString, serverName);
        QFETCH(bool, insecure);
        QFETCH(bool, clientCertificate);
        RedisFixture *fixture = server == QLatin1String("tls")       ? m_tls.get()
                                : server == QLatin1String("other")   ? m_otherName.get()
                                : server == QLatin1String("expired") ? m_expired.get()
                                                                     : m_clientAuth.get();
        Endpoint endpoint = fixture->endpoint();
        endpoint.host = host;
        endpoint.tls.serverName = serverName;
        endpoint.tls.insecure = insecure;
        if (!clientCertificate) {
            endpoint.tls.certFile.clear();
            endpoint.tls.keyFile.clear();
        }
        const QString message = connectFailure(endpoint, 2000ms);
        QVERIFY2(message.isEmpty(), qPrintable(message));
    }

    // CLIENT KILL: the next command fails with the same words over TLS as over TCP.
    void clientKill_data() { poolOperations_data(); }
    void clientKill() {
        QFETCH(QString, transport);
        RedisFixture &redis = fixtureFor(transport);
        const QString name = QStringLiteral("tst-kill-") + transport;
        auto victim = redis.connect(name);
        QVERIFY(!victim->commandOrThrow({"PING"}).isError());
        QCOMPARE(redis.run({"CLIENT", "KILL", "SKIPME", "yes", "USER", "default"}).isError(),
                 false);
        try {
            victim->command({"PING"});
            QFAIL("a killed connection answered");
        } catch (const RedisError &error) {
            QCOMPARE(error.kind(), RedisError::Kind::Connection);
            QVERIFY2(error.message().endsWith(
                         QStringLiteral("lost while waiting for a reply: the server closed the "
                                        "connection")),
                     qPrintable(error.message()));
        }
    }

    // TLS 1.3 (the default): the server judges our certificate after the handshake; the refusal
    // is still reported at connect, naming the certificate, as with TLS 1.2.
    void refusedClientCertificateIsNamed_data() {
        QTest::addColumn<QString>("protocols");
        QTest::newRow("TLS 1.3") << "TLSv1.3";
        QTest::newRow("TLS 1.2") << "TLSv1.2";
    }
    void refusedClientCertificateIsNamed() {
        QFETCH(QString, protocols);
        // A certificate no CA the server trusts has signed.
        const QString stray = m_certificates.path(QStringLiteral("stray.pem"));
        const QString strayKey = m_certificates.path(QStringLiteral("stray.key"));
        if (!QFile::exists(stray)) {
            const CliRun made = runProgram(
                QStringLiteral("openssl"),
                {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                 QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                 QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                 QStringLiteral("-keyout"), strayKey, QStringLiteral("-out"), stray,
                 QStringLiteral("-subj"), QStringLiteral("/CN=stray client"),
                 QStringLiteral("-days"), QStringLiteral("1")});
            QVERIFY2(made.exitCode == 0, made.err.constData());
        }
        Endpoint endpoint = m_clientAuth->endpoint();
        endpoint.tls.caFile = cert("ca.pem");
        endpoint.tls.certFile = stray;
        endpoint.tls.keyFile = strayKey;
        if (protocols == QLatin1String("TLSv1.2")) {
            // The same server limited to TLS 1.2, where the verdict is part of the handshake.
            RedisFixture &server = *m_clientAuth;
            QCOMPARE(server.run({"CONFIG", "SET", "tls-protocols", "TLSv1.2"}).text, "OK");
        }
        const auto restore = qScopeGuard([this] {
            m_clientAuth->run({"CONFIG", "SET", "tls-protocols", "TLSv1.2 TLSv1.3"});
        });
        RedisError::Kind kind = RedisError::Kind::Usage;
        const QString message = connectFailure(endpoint, 5000ms, &kind);
        QVERIFY2(message.contains(
                     QStringLiteral("the server refused the client certificate %1").arg(stray)),
                 qPrintable(message));
        QCOMPARE(kind, RedisError::Kind::Connection);
    }

    void cliStatsOverTls() {
        m_tls->makePool("cli", documentationMembers(3), 4);
        const CliRun run =
            runCli({QStringLiteral("--url"),
                    QStringLiteral("rediss://localhost:%1").arg(m_tls->endpoint().port),
                    QStringLiteral("--tls-ca"), cert("ca.pem"), QStringLiteral("--key"),
                    QStringLiteral("cli"), QStringLiteral("--json"), QStringLiteral("stats")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject stats = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(stats.value(QStringLiteral("size")).toInteger(), 3);
        QVERIFY(run.err.isEmpty());
    }

    void cliFailuresAndUsage_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown CA")
            << QStringList{QStringLiteral("--url"), QStringLiteral("rediss://localhost:TLSPORT")}
            << 1
            << "poolscope-cli: cannot connect to rediss://localhost:TLSPORT/0: TLS "
               "certificate not trusted";
        QTest::newRow("--tls-ca without rediss://")
            << QStringList{QStringLiteral("--url"), QStringLiteral("redis://localhost:TLSPORT"),
                           QStringLiteral("--tls-ca"), QStringLiteral("CA")}
            << 2 << "--tls-ca needs a rediss:// URL (TLS)";
        QTest::newRow("missing CA file")
            << QStringList{QStringLiteral("--url"), QStringLiteral("rediss://localhost:TLSPORT"),
                           QStringLiteral("--tls-ca"), QStringLiteral("/nonexistent/ca.pem")}
            << 2 << "--tls-ca /nonexistent/ca.pem: no such file";
        QTest::newRow("--tls-cert without its key")
            << QStringList{QStringLiteral("--url"),
                           QStringLiteral("rediss://localhost:TLSPORT"),
                           QStringLiteral("--tls-ca"),
                           QStringLiteral("CA"),
                           QStringLiteral("--tls-cert"),
                           QStringLiteral("CERT")}
            << 2 << "holds no private key: give the key with --tls-key FILE";
        QTest::newRow("insecure says so")
            << QStringList{QStringLiteral("--url"), QStringLiteral("rediss://localhost:TLSPORT"),
                           QStringLiteral("--tls-insecure")}
            << 0 << "warning: the TLS server is NOT verified (--tls-insecure)";
    }
    void cliFailuresAndUsage() {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        const QString port = QString::number(m_tls->endpoint().port);
        for (QString &argument : arguments) {
            argument.replace(QStringLiteral("TLSPORT"), port);
            if (argument == QLatin1String("CA"))
                argument = cert("ca.pem");
            if (argument == QLatin1String("CERT"))
                argument = cert("client.pem");
        }
        const CliRun run = runCli(arguments << QStringLiteral("stats"));
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        QVERIFY2(
            QString::fromUtf8(run.err).contains(expected.replace(QStringLiteral("TLSPORT"), port)),
            run.err.constData());
        if (exitCode == 1)
            QCOMPARE(run.err.count('\n'), 1); // one line
    }

    // The load runner drives non-blocking hiredis contexts over the relay: exact accounting.
    void loadRunnerOverTls() {
        m_tls->makePool("load", documentationMembers(10));
        LoadSpec spec;
        spec.endpoint = m_tls->endpoint();
        spec.poolKey = "load";
        spec.workers = 4;
        spec.pipeline = 16;
        spec.total = 20000;
        const LoadReport report = LoadRunner::run(spec);
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE(report.allocated, 20000);
        QCOMPARE(report.unknown, 0);
        QCOMPARE(report.errors(), 0);
        QCOMPARE(sumOfScores(*m_tls, "load"), 20000.0);
        for (const QByteArray &member : documentationMembers(10))
            QCOMPARE(report.perMember.value(member), 2000);
    }

    void cliLoadRunOverTls() {
        m_tls->makePool("cli-load", documentationMembers(5));
        const CliRun run = runCli(
            {QStringLiteral("--url"),
             QStringLiteral("rediss://localhost:%1").arg(m_tls->endpoint().port),
             QStringLiteral("--tls-ca"), cert("ca.pem"), QStringLiteral("--key"),
             QStringLiteral("cli-load"), QStringLiteral("--json"), QStringLiteral("allocate"),
             QStringLiteral("-n"), QStringLiteral("5000"), QStringLiteral("--workers"),
             QStringLiteral("8"), QStringLiteral("--pipeline"), QStringLiteral("8")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(report.value(QStringLiteral("allocated")).toInteger(), 5000);
        QCOMPARE(report.value(QStringLiteral("unknown")).toInteger(), 0);
        QCOMPARE(sumOfScores(*m_tls, "cli-load"), 5000.0);
    }

    void watchOverTls() {
        m_tls->makePool("watched", documentationMembers(4), 1);
        const CliRun run =
            runCli({QStringLiteral("--url"),
                    QStringLiteral("rediss://localhost:%1").arg(m_tls->endpoint().port),
                    QStringLiteral("--tls-ca"), cert("ca.pem"), QStringLiteral("--key"),
                    QStringLiteral("watched"), QStringLiteral("--json"), QStringLiteral("watch"),
                    QStringLiteral("--interval"), QStringLiteral("100"),
                    QStringLiteral("--duration"), QStringLiteral("1")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QVERIFY2(lines.size() >= 3, run.out.constData());
        const QJsonObject last = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(last.value(QStringLiteral("size")).toInteger(), 4);
    }

    // kill -9 of a TLS server during a run, restart on the same port: the runner reports the
    // losses and unknowns as over TCP (tst_faults) and goes on after the restart.
    void serverKilledDuringTlsLoad() {
        RedisServerOptions options = tlsOptions("server");
        options.extraArguments = {QStringLiteral("--appendonly"), QStringLiteral("yes"),
                                  QStringLiteral("--appendfsync"), QStringLiteral("always")};
        RedisFixture redis(options);
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.makePool("pool", documentationMembers(20));
        LoadSpec spec;
        spec.endpoint = redis.endpoint();
        spec.poolKey = "pool";
        spec.workers = 4;
        spec.pipeline = 8;
        // Enough that the kill lands mid-run also where the server's disk is memory (tmpfs):
        // 20,000 could all be done before it.
        spec.total = 100000;
        spec.connection.commandTimeout = 500ms;
        spec.connection.connectTimeout = 500ms;
        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QVERIFY(runner.start(spec));
        QTRY_VERIFY_WITH_TIMEOUT(
            !progressed.isEmpty() && progressed.last().at(0).toLongLong() > 2000, 20000);
        redis.server().killHard();
        QVERIFY2(redis.server().start(), qPrintable(redis.server().logTail()));
        QVERIFY(finished.wait(60000));
        const LoadReport report = finished.last().at(0).value<LoadReport>();
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE_GE(report.connectionLosses, 1);
        QCOMPARE_GE(report.reconnects, 1);
        QCOMPARE(report.attempts(), 100000);
        QCOMPARE(report.errors(), report.errorsByKind.value(QStringLiteral("LOADING")));
        const double rise = sumOfScores(redis, "pool");
        QVERIFY2(rise >= double(report.allocated) &&
                     rise <= double(report.allocated + report.unknown),
                 qPrintable(QStringLiteral("scores rose by %1; allocated %2, unknown %3")
                                .arg(rise)
                                .arg(report.allocated)
                                .arg(report.unknown)));
    }
};

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
