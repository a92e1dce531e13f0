// TLS (rediss://): pool operations over TLS as over TCP, each handshake failure with its one line,
// client files and certificates, and CLIENT KILL behaving as over TCP. (The CLI, the load runner
// and watch over TLS: tst_tlstools.cpp.) One set of certificates and servers is shared by the test
// cases (initTestCase).
#include "TlsCase.h"

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

class TestTls : public QObject, public TlsCase {
    Q_OBJECT

private Q_SLOTS:

    void initTestCase() { startCase(); }

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
        QCOMPARE(chosen.size(), 5);                                // least-used: each member twice
        QCOMPARE_GE(evalshaCalls(*connection) - evalshaBefore, 9); // the EVALSHA path

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
};

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
