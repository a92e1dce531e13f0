// TLS (rediss://) in the tools: the CLI's stats, failures and usage, the load runner, the CLI's
// load run and watch over TLS, and kill -9 of the server during a TLS load. One set of certificates
// and servers is shared by the test cases (initTestCase).
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

class TestTlsTools : public QObject, public TlsCase {
    Q_OBJECT

private Q_SLOTS:

    void initTestCase() { startCase(); }

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

QTEST_GUILESS_MAIN(TestTlsTools)
#include "tst_tlstools.moc"
