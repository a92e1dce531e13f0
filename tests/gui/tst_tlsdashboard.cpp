// The dashboard over TLS: the --tls-* options on its command line, and a status bar that names
// the transport ("TLS, verified" / "TLS, NOT verified (--tls-insecure)") against a real TLS
// redis-server with certificates made by the test.

#include "startup/AppOptions.h"
#include "MainWindow.h"
#include "session/PoolSession.h"
#include "connection/StatusBarPanel.h"

#include "RedisFixture.h"
#include "TlsCertificates.h"

#include <QtTest>

using namespace poolscope;
using namespace std::chrono_literals;

class TestTlsDashboard : public QObject {
    Q_OBJECT

private:
    testing::TlsCertificates m_certificates;
    std::unique_ptr<testing::RedisFixture> m_tls;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(m_certificates.create(), qPrintable(m_certificates.error()));
        RedisServerOptions options;
        options.tlsCertFile = m_certificates.path(QStringLiteral("server.pem"));
        options.tlsKeyFile = m_certificates.path(QStringLiteral("server.key"));
        options.tlsCaFile = m_certificates.path(QStringLiteral("ca.pem"));
        m_tls = std::make_unique<testing::RedisFixture>(options);
        QVERIFY2(m_tls->start(), qPrintable(m_tls->error()));
        m_tls->makePool("proxies", {"192.0.2.1:8080", "192.0.2.2:8080"}, 3);
    }

    void commandLine_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error"); // empty: accepted
        QTest::newRow("rediss with every option") << QStringList{"--url",
                                                                 "rediss://localhost:6380",
                                                                 "--tls-ca",
                                                                 "CA",
                                                                 "--tls-server-name",
                                                                 "redis.test",
                                                                 "--tls-cert",
                                                                 "CERT",
                                                                 "--tls-key",
                                                                 "KEY"}
                                                  << QString();
        QTest::newRow("insecure") << QStringList{"--url", "rediss://localhost", "--tls-insecure"}
                                  << QString();
        QTest::newRow("rediss alone") << QStringList{"--url", "rediss://localhost"} << QString();
        QTest::newRow("--tls-ca with redis://")
            << QStringList{"--url", "redis://localhost", "--tls-ca", "CA"}
            << QStringLiteral("--tls-ca needs a rediss:// URL (TLS)");
        QTest::newRow("--tls-insecure with the embedded server")
            << QStringList{"--tls-insecure"}
            << QStringLiteral("--tls-insecure needs a rediss:// URL (TLS)");
        QTest::newRow("missing certificate")
            << QStringList{"--url", "rediss://localhost", "--tls-cert", "/nonexistent.pem"}
            << QStringLiteral("--tls-cert /nonexistent.pem: no such file");
    }
    void commandLine() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        for (QString &argument : arguments) {
            if (argument == QLatin1String("CA"))
                argument = m_certificates.path(QStringLiteral("ca.pem"));
            else if (argument == QLatin1String("CERT"))
                argument = m_certificates.path(QStringLiteral("client.pem"));
            else if (argument == QLatin1String("KEY"))
                argument = m_certificates.path(QStringLiteral("client.key"));
        }
        const AppOptionsResult result = parseAppOptions(
            QStringList{QStringLiteral("poolscope")} << arguments, {}, QStringLiteral("1"));
        QCOMPARE(result.error, error);
        if (!error.isEmpty())
            return;
        const TlsOptions &tls = result.options->tls;
        QVERIFY(tls.enabled);
        QCOMPARE(tls.insecure, arguments.contains(QStringLiteral("--tls-insecure")));
        if (arguments.contains(QStringLiteral("--tls-ca"))) {
            QCOMPARE(tls.caFile, m_certificates.path(QStringLiteral("ca.pem")));
            QCOMPARE(tls.serverName, QStringLiteral("redis.test"));
            QCOMPARE(tls.certFile, m_certificates.path(QStringLiteral("client.pem")));
            QCOMPARE(tls.keyFile, m_certificates.path(QStringLiteral("client.key")));
        }
    }

    void statusBarNamesTheTransport_data() {
        QTest::addColumn<bool>("insecure");
        QTest::addColumn<QString>("expected");
        QTest::newRow("verified") << false << "TLS, verified";
        QTest::newRow("insecure") << true << "TLS, NOT verified (--tls-insecure)";
    }
    void statusBarNamesTheTransport() {
        QFETCH(bool, insecure);
        QFETCH(QString, expected);
        PoolSession session;
        MainWindow window(&session);
        session.setPollInterval(100ms);
        Endpoint endpoint = m_tls->endpoint();
        endpoint.host = QStringLiteral("localhost");
        endpoint.tls.insecure = insecure;
        if (insecure)
            endpoint.tls.caFile.clear(); // nothing to verify against: it connects all the same
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.connectTo(endpoint, "proxies");
        QVERIFY(observed.wait(10000));
        QTRY_VERIFY2(
            window.statusPanel()->stateText().endsWith(QStringLiteral("connected · ") + expected),
            qPrintable(window.statusPanel()->stateText()));
    }

    // While verification fails (no CA, a wrong CA file, a wrong server name) the bar never says
    // "verified": it says what it is trying and that nothing verified yet.
    void failingVerificationIsNotCalledVerified_data() {
        QTest::addColumn<QString>("problem");
        QTest::newRow("no CA") << "no-ca";
        QTest::newRow("wrong CA file") << "wrong-ca";
        QTest::newRow("wrong server name") << "wrong-name";
    }
    void failingVerificationIsNotCalledVerified() {
        QFETCH(QString, problem);
        PoolSession session;
        MainWindow window(&session);
        session.setPollInterval(100ms);
        Endpoint endpoint = m_tls->endpoint();
        endpoint.host = QStringLiteral("localhost");
        if (problem == QStringLiteral("no-ca"))
            endpoint.tls.caFile.clear();
        else if (problem == QStringLiteral("wrong-ca"))
            endpoint.tls.caFile = m_certificates.path(QStringLiteral("client.pem"));
        else
            endpoint.tls.serverName = QStringLiteral("other.test");
        QSignalSpy failed(&session, &PoolSession::pollFailed);
        session.connectTo(endpoint, "proxies");
        QVERIFY(failed.wait(10000));
        QVERIFY(failed.wait(10000)); // a retry too
        const QString text = window.statusPanel()->stateText();
        QVERIFY2(!text.contains(QStringLiteral("TLS, verified")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("TLS, not verified yet")), qPrintable(text));
    }

    // A failed verification says which field of the dashboard fixes it, never a CLI flag.
    void errorsNameTheDashboardField_data() {
        QTest::addColumn<bool>("withCa");
        QTest::addColumn<QString>("serverName");
        QTest::addColumn<QString>("field");
        QTest::newRow("no CA") << false << QString() << QStringLiteral("Edit... ▸ CA file");
        QTest::newRow("another name")
            << true << QStringLiteral("other.invalid") << QStringLiteral("Edit... ▸ Server name");
    }
    void errorsNameTheDashboardField() {
        QFETCH(bool, withCa);
        QFETCH(QString, serverName);
        QFETCH(QString, field);
        PoolSession session;
        MainWindow window(&session);
        Endpoint endpoint = m_tls->endpoint();
        endpoint.host = QStringLiteral("localhost");
        if (!withCa)
            endpoint.tls.caFile.clear(); // the system's CAs do not know the test's own
        endpoint.tls.serverName = serverName;
        QSignalSpy failed(&session, &PoolSession::pollFailed);
        session.connectTo(endpoint, "proxies");
        QVERIFY(failed.wait(10000));
        const QString message = failed.constFirst().constFirst().toString();
        QVERIFY2(message.contains(field), qPrintable(message));
        QVERIFY2(!message.contains(QStringLiteral("--tls")), qPrintable(message));
        session.disconnectFromServer();
    }

    void plainConnectionNamesNoTransport() {
        testing::RedisFixture plain;
        QVERIFY2(plain.start(), qPrintable(plain.error()));
        PoolSession session;
        MainWindow window(&session);
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.connectTo(plain.endpoint(), "proxies");
        QVERIFY(observed.wait(10000));
        QTRY_VERIFY2(window.statusPanel()->stateText().endsWith(QStringLiteral("connected")),
                     qPrintable(window.statusPanel()->stateText()));
    }
};

QTEST_MAIN(TestTlsDashboard)
#include "tst_tlsdashboard.moc"
