// The Prometheus exporter against a real redis-server, scraped over HTTP with curl and checked
// with promtool.
#include "RedisFixture.h"

#include "export/MetricLabels.h"
#include "export/PrometheusExporter.h"
#include "load/LoadRunner.h"
#include "pool/PoolKeys.h"

#include <algorithm>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

// "name{labels} value" lines of a scrape, keyed by everything before the value.
QHash<QString, double> samples(const QString &text) {
    QHash<QString, double> values;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype space = line.lastIndexOf(QLatin1Char(' '));
        values.insert(line.left(space), line.mid(space + 1).toDouble());
    }
    return values;
}

QString promtool() {
    QString path = QStandardPaths::findExecutable(QStringLiteral("promtool"));
    if (path.isEmpty())
        path = QStandardPaths::findExecutable(QStringLiteral("promtool"),
                                              {QStringLiteral("/opt/poolscope-tools/bin")});
    return path;
}

} // namespace

class TestExporter : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;

    std::unique_ptr<PrometheusExporter> exporter(QList<QByteArray> keys,
                                                 qint64 memberLimit = 1000) {
        ExporterOptions options;
        options.listen = QStringLiteral("127.0.0.1:0");
        options.keys = std::move(keys);
        options.memberLimit = memberLimit;
        ConnectionOptions connection;
        connection.clientName = QStringLiteral("poolscope-exporter");
        auto result =
            std::make_unique<PrometheusExporter>(m_redis->endpoint(), connection, options);
        result->start();
        return result;
    }

    // A real HTTP scrape, as Prometheus does it.
    QString curl(int port) {
        QProcess process;
        process.start(QStringLiteral("curl"),
                      {QStringLiteral("-sS"), QStringLiteral("--max-time"), QStringLiteral("10"),
                       QStringLiteral("http://127.0.0.1:%1/metrics").arg(port)});
        if (!process.waitForFinished(15000) || process.exitCode() != 0)
            return QStringLiteral("curl failed: ") +
                   QString::fromUtf8(process.readAllStandardError());
        return QString::fromUtf8(process.readAllStandardOutput());
    }

private Q_SLOTS:
    void initTestCase() {
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
        QVERIFY2(!promtool().isEmpty(), "promtool not found: run scripts/install-deps.sh");
    }

    void labels_data() {
        QTest::addColumn<QByteArray>("member");
        QTest::addColumn<QString>("label");
        QTest::newRow("plain") << QByteArray("198.51.100.7:8080") << "198.51.100.7:8080";
        QTest::newRow("url with password") << QByteArray("socks5://alice:s3cret@203.0.113.5:1080")
                                           << "socks5://alice:****~1ec1c2@203.0.113.5:1080";
        QTest::newRow("password with @") << QByteArray("http://bob:p@ss@192.0.2.1:3128")
                                         << "http://bob:****~a4048c@192.0.2.1:3128";
        QTest::newRow("no scheme")
            << QByteArray("carol:pw@192.0.2.9:80") << "carol:****~30c952@192.0.2.9:80";
        QTest::newRow("user only")
            << QByteArray("http://dave@192.0.2.1:3128") << "http://****~61ea08@192.0.2.1:3128";
        QTest::newRow("bad utf-8") << QByteArray("\xff\xfe") << "\\xff\\xfe";
        QTest::newRow("newline") << QByteArray("a\nb") << "a\\nb";
        QTest::newRow("backslash") << QByteArray("a\\b") << "a\\\\b";
        QTest::newRow("utf-8 kept")
            << QByteArray("pr\xc3\xb6xy") << QString::fromUtf8("pr\xc3\xb6xy");
    }
    void labels() {
        QFETCH(QByteArray, member);
        QFETCH(QString, label);
        QCOMPARE(QString::fromStdString(metricMemberLabel(member)), label);
    }

    void smallPoolMatchesTheServerAndPassesPromtool() {
        m_redis->run({"DEL", "small"});
        m_redis->run({"ZADD", "small", "3", "m0", "5", "m1", "9", "m2", "5",
                      "socks5://u:pw@192.0.2.1:1080"});
        const auto server = exporter({"small"});
        QCOMPARE_GT(server->port(), 0);
        const QString text = curl(server->port());
        const QHash<QString, double> v = samples(text);
        QCOMPARE(v.value(QStringLiteral("poolscope_up")), 1.0);
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_members{pool=\"small\"}")), 4.0);
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_allocations{pool=\"small\"}")), 22.0);
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_min_allocations{pool=\"small\"}")), 3.0);
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_median_allocations{pool=\"small\"}")), 5.0);
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_max_allocations{pool=\"small\"}")), 9.0);
        QCOMPARE(
            v.value(QStringLiteral("poolscope_member_allocations{pool=\"small\",member=\"m2\"}")),
            9.0);
        QVERIFY(text.contains(QStringLiteral("member=\"socks5://u:****~30c952@192.0.2.1:1080\"")));
        QVERIFY2(!text.contains(QStringLiteral(":pw@")), "a password reached the exporter");
        QVERIFY(text.contains(QStringLiteral("poolscope_pool_info{pool=\"small\",read_mode="
                                             "\"full\",member_series=\"exported\"} 1")));

        QProcess check;
        check.start(promtool(), {QStringLiteral("check"), QStringLiteral("metrics")});
        check.write(text.toUtf8());
        check.closeWriteChannel();
        QVERIFY(check.waitForFinished(30000));
        QVERIFY2(check.exitCode() == 0,
                 qPrintable(QString::fromUtf8(check.readAllStandardOutput() +
                                              check.readAllStandardError())));
    }

    void figuresFollowALoadRunAndMembersThatLeaveDisappear() {
        QList<QByteArray> members;
        for (int i = 0; i < 50; ++i)
            members.append("load" + QByteArray::number(i));
        m_redis->run({"DEL", "loaded"});
        m_redis->makePool("loaded", members, 0);
        const auto server = exporter({"loaded"});
        samples(curl(server->port())); // first scrape: a baseline for the rate

        LoadSpec spec;
        spec.endpoint = m_redis->endpoint();
        spec.poolKey = "loaded";
        spec.total = 5000;
        spec.workers = 4;
        spec.pipeline = 8;
        spec.ratePerSecond = 5000; // about a second, so a scrape can fall in the middle
        LoadRunner runner;
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QVERIFY(runner.start(spec));
        const QHash<QString, double> during = samples(curl(server->port()));
        QVERIFY(finished.wait(30000));
        QCOMPARE_LE(during.value(QStringLiteral("poolscope_pool_allocations{pool=\"loaded\"}")),
                    5000);

        const QHash<QString, double> after = samples(curl(server->port()));
        QCOMPARE(after.value(QStringLiteral("poolscope_pool_allocations{pool=\"loaded\"}")),
                 5000.0);
        QCOMPARE_GE(after.value(QStringLiteral("poolscope_pool_allocation_rate{pool=\"loaded\"}")),
                    0);
        QVERIFY(after.contains(QStringLiteral("poolscope_pool_allocation_rate{pool=\"loaded\"}")));
        QCOMPARE(
            after.value(QStringLiteral("poolscope_pool_spread_allocations{pool=\"loaded\"}")),
            after.value(QStringLiteral("poolscope_pool_max_allocations{pool=\"loaded\"}")) -
                after.value(QStringLiteral("poolscope_pool_min_allocations{pool=\"loaded\"}")));

        m_redis->run({"ZREM", "loaded", "load7"});
        const QString text = curl(server->port());
        QVERIFY(!text.contains(QStringLiteral("member=\"load7\"")));
        QVERIFY(text.contains(QStringLiteral("member=\"load8\"")));
    }

    void poolAboveTheMemberLimitExportsNoMemberSeries() {
        QList<QByteArray> members;
        for (int i = 0; i < 1500; ++i)
            members.append("big" + QByteArray::number(i));
        m_redis->run({"DEL", "big"});
        m_redis->makePool("big", members, 2);
        const auto server = exporter({"big"}, 1000);
        QString text;
        // The totals come from a background scan that advances on each scrape.
        QTRY_VERIFY_WITH_TIMEOUT(
            (text = curl(server->port())).contains(QStringLiteral("poolscope_pool_allocations{")),
            10000);
        const QHash<QString, double> v = samples(text);
        QVERIFY(!text.contains(QStringLiteral("poolscope_member_allocations{")));
        QVERIFY(text.contains(QStringLiteral("poolscope_pool_info{pool=\"big\",read_mode="
                                             "\"summary\",member_series=\"omitted\"} 1")));
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_members{pool=\"big\"}")), 1500.0);
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_allocations{pool=\"big\"}")), 3000.0);
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_median_allocations{pool=\"big\"}")), 2.0);
    }

    // Above the member limit a scrape reads by rank and scans in pages: no command reads the
    // whole pool (a summary asked for no top/bottom members once sent ZRANGE key 0 -1).
    void summaryScrapeNeverReadsTheWholePool() {
        QList<QByteArray> members;
        for (int i = 0; i < 3000; ++i)
            members.append("wide" + QByteArray::number(i));
        m_redis->run({"DEL", "wide"});
        m_redis->makePool("wide", members, 1);
        const auto server = exporter({"wide"}, 1000);
        m_redis->run({"CONFIG", "SET", "slowlog-log-slower-than", "0"});
        m_redis->run({"CONFIG", "SET", "slowlog-max-len", "10000"});
        m_redis->run({"SLOWLOG", "RESET"});
        QVERIFY(curl(server->port()).contains(QStringLiteral("read_mode=\"summary\"")));
        const RedisReply log = m_redis->run({"SLOWLOG", "GET", "-1"});
        m_redis->run({"CONFIG", "SET", "slowlog-log-slower-than", "10000"});
        int ours = 0;
        for (const RedisReply &entry : log.elements) {
            if (entry.elements.value(5).text != "poolscope-exporter")
                continue;
            ++ours;
            QList<QByteArray> argv;
            for (const RedisReply &argument : entry.elements.value(3).elements)
                argv.append(argument.text);
            const bool wholeRange = argv.value(0).compare("ZRANGE", Qt::CaseInsensitive) == 0 &&
                                    argv.value(2) == "0" && argv.value(3) == "-1";
            QVERIFY2(!wholeRange, argv.join(' ').constData());
            QVERIFY2(argv.value(0).compare("ZRANGE", Qt::CaseInsensitive) != 0 ||
                         argv.value(3).toLongLong() - argv.value(2).toLongLong() < 1000,
                     argv.join(' ').constData());
        }
        QCOMPARE_GT(ours, 0);
    }

    void aPoolOfTheWrongTypeIsDownOnItsOwn() {
        m_redis->run({"SET", "text", "not a pool"});
        m_redis->run({"DEL", "fine"});
        m_redis->run({"ZADD", "fine", "1", "a"});
        const auto server = exporter({"text", "fine"});
        const QHash<QString, double> v = samples(curl(server->port()));
        QCOMPARE(v.value(QStringLiteral("poolscope_up")), 1.0);
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_up{pool=\"text\"}")), 0.0);
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_up{pool=\"fine\"}")), 1.0);
    }

    // Whether a guard holds the pool's lease; no series (not a wrong 0) when an ACL keeps the
    // exporter's user from the lease key, and the pool is still up.
    void guardLeaseIsExported() {
        const QByteArray lease = PoolKeys("leased").guardLease();
        m_redis->run({"DEL", "leased", lease});
        m_redis->run({"ZADD", "leased", "1", "a", "2", "b"});
        const auto server = exporter({"leased"});
        const QString series = QStringLiteral("poolscope_pool_guard_lease_held{pool=\"leased\"}");
        QCOMPARE(samples(curl(server->port())).value(series, -1), 0.0);
        m_redis->run({"SET", lease, "guard-1", "PX", "30000"});
        QCOMPARE(samples(curl(server->port())).value(series, -1), 1.0);
        m_redis->run({"DEL", lease}); // released
        QCOMPARE(samples(curl(server->port())).value(series, -1), 0.0);

        m_redis->run({"SET", lease, "guard-1", "PX", "30000"});
        const RedisReply user =
            m_redis->run({"ACL", "SETUSER", "lease-blind", "reset", "on", ">pw", "~leased",
                          "~" + PoolKeys("leased").evicted(), "+@all"});
        QVERIFY2(!user.isError(), user.text.constData());
        Endpoint endpoint = m_redis->endpoint();
        endpoint.username = QStringLiteral("lease-blind");
        endpoint.password = QStringLiteral("pw");
        ExporterOptions options;
        options.listen = QStringLiteral("127.0.0.1:0");
        options.keys = {"leased"};
        PrometheusExporter blind(endpoint, {}, options);
        blind.start();
        const QHash<QString, double> v = samples(curl(blind.port()));
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_up{pool=\"leased\"}")), 1.0);
        QCOMPARE(v.value(QStringLiteral("poolscope_pool_members{pool=\"leased\"}")), 2.0);
        QVERIFY(!v.contains(series));
        m_redis->run({"ACL", "DELUSER", "lease-blind"});
    }

    void keepsServingThroughARedisRestart() {
        m_redis->run({"DEL", "restart"});
        m_redis->run({"ZADD", "restart", "1", "a"});
        const auto server = exporter({"restart"});
        QStringList log;
        server->setLogger([&log](const QString &line) { log.append(line); });
        QCOMPARE(samples(curl(server->port())).value(QStringLiteral("poolscope_up")), 1.0);

        m_redis->server().stop();
        const QString down = curl(server->port());
        QCOMPARE(samples(down).value(QStringLiteral("poolscope_up"), -1), 0.0);
        QVERIFY(!down.contains(QStringLiteral("poolscope_pool_members{")));
        QVERIFY(!log.isEmpty());
        QVERIFY(log.first().contains(QStringLiteral("unreachable")));

        QVERIFY(m_redis->server().start());
        m_redis->run({"ZADD", "restart", "4", "b"});
        const QHash<QString, double> back = samples(curl(server->port()));
        QCOMPARE(back.value(QStringLiteral("poolscope_up")), 1.0);
        QCOMPARE(back.value(QStringLiteral("poolscope_pool_members{pool=\"restart\"}")), 1.0);
        QVERIFY(log.last().contains(QStringLiteral("reachable again")));
    }

    // The CLI command: what it serves matches `poolscope-cli stats` on the same pool.
    void cliExporterMatchesCliStats() {
        m_redis->run({"DEL", "clipool"});
        m_redis->run({"ZADD", "clipool", "4", "a", "7", "b", "7", "c", "12", "d"});
        QProcess exporterProcess;
        exporterProcess.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                              {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                               QStringLiteral("clipool"), QStringLiteral("exporter"),
                               QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")});
        QVERIFY(exporterProcess.waitForReadyRead(10000));
        const QString banner = QString::fromUtf8(exporterProcess.readLine());
        const QRegularExpressionMatch port =
            QRegularExpression(QStringLiteral("^serving http://127\\.0\\.0\\.1:(\\d+)/metrics"))
                .match(banner);
        QVERIFY2(port.hasMatch(), qPrintable(banner));
        const QHash<QString, double> v = samples(curl(port.captured(1).toInt()));

        const CliRun stats =
            runCli({QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                    QStringLiteral("clipool"), QStringLiteral("--json"), QStringLiteral("stats")});
        QCOMPARE(stats.exitCode, 0);
        const QJsonObject s = QJsonDocument::fromJson(stats.out).object();
        const auto pool = [&v](const char *name) {
            return v.value(QStringLiteral("%1{pool=\"clipool\"}").arg(QLatin1String(name)));
        };
        QCOMPARE(pool("poolscope_pool_members"), s.value(QStringLiteral("size")).toDouble());
        QCOMPARE(pool("poolscope_pool_allocations"), s.value(QStringLiteral("total")).toDouble());
        QCOMPARE(pool("poolscope_pool_min_allocations"), s.value(QStringLiteral("min")).toDouble());
        QCOMPARE(pool("poolscope_pool_median_allocations"),
                 s.value(QStringLiteral("median")).toDouble());
        QCOMPARE(pool("poolscope_pool_max_allocations"), s.value(QStringLiteral("max")).toDouble());
        QCOMPARE(pool("poolscope_pool_jain_fairness_ratio"),
                 s.value(QStringLiteral("jain")).toDouble());

        exporterProcess.terminate(); // SIGTERM: a clean stop
        QVERIFY(exporterProcess.waitForFinished(10000));
        QCOMPARE(exporterProcess.exitStatus(), QProcess::NormalExit);
        QCOMPARE(exporterProcess.exitCode(), 0);
    }

    void busyPortIsAClearError() {
        const auto first = exporter({"small"});
        ExporterOptions options;
        options.listen = QStringLiteral("127.0.0.1:%1").arg(first->port());
        PrometheusExporter second(m_redis->endpoint(), {}, options);
        try {
            second.start();
            QFAIL("a second exporter on a busy port started");
        } catch (const std::runtime_error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(options.listen), e.what());
        }
    }

    // One address, checked: a list, a bad port, a host name or an unbracketed IPv6 address is a
    // usage error naming the problem; what is loopback is known.
    void listenAddressIsChecked_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("loopback");
        QTest::addColumn<QString>("said");
        QTest::newRow("loopback") << "127.0.0.1:9750" << true << true << "127.0.0.1:9750";
        QTest::newRow("any port") << "127.0.0.1:0" << true << true << "127.0.0.1:0";
        QTest::newRow("127/8") << "127.0.0.2:9750" << true << true << "127.0.0.2:9750";
        QTest::newRow("localhost") << "localhost:9750" << true << true << "127.0.0.1:9750";
        QTest::newRow("ipv6 loopback") << "[::1]:9750" << true << true << "[::1]:9750";
        QTest::newRow("all ipv4") << "0.0.0.0:9750" << true << false << "0.0.0.0:9750";
        QTest::newRow("all ipv6") << "[::]:9750" << true << false << "[::]:9750";
        QTest::newRow("list") << "127.0.0.1:1,0.0.0.0:2" << false << false << "one address";
        QTest::newRow("port too big") << "127.0.0.1:99999" << false << false << "65535";
        QTest::newRow("negative port") << "127.0.0.1:-1" << false << false << "65535";
        QTest::newRow("no port") << "127.0.0.1:" << false << false << "65535";
        QTest::newRow("port with letters") << "127.0.0.1:80s" << false << false << "65535";
        QTest::newRow("no colon") << "9750" << false << false << "HOST:PORT";
        QTest::newRow("host name") << "example.invalid:9750" << false << false << "IPv4";
        QTest::newRow("bad ipv4") << "127.0.0.256:9750" << false << false << "IPv4";
        QTest::newRow("ipv6 unbracketed") << "::1:9750" << false << false << "brackets";
        QTest::newRow("bad ipv6") << "[::g]:9750" << false << false << "IPv6";
    }
    void listenAddressIsChecked() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(bool, loopback);
        QFETCH(QString, said);
        const ListenParseResult parsed = parseListenAddress(text);
        QCOMPARE(parsed.address.has_value(), valid);
        if (valid) {
            QCOMPARE(parsed.address->loopback, loopback);
            QCOMPARE(parsed.address->text(), said);
        } else {
            QVERIFY2(parsed.error.contains(said) && parsed.error.contains(text),
                     qPrintable(parsed.error));
        }
    }

    // The CLI refuses what the exporter would misread (a list bound only its last address, a
    // bad port gave "null context when constructing CivetServer"), and a busy port says why.
    void cliListenIsValidated() {
        const auto run = [this](const QString &listen) {
            return runCli({QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                           QStringLiteral("small"), QStringLiteral("exporter"),
                           QStringLiteral("--listen"), listen},
                          {}, 20000);
        };
        for (const QString &bad : {QStringLiteral("127.0.0.1:1,127.0.0.1:2"),
                                   QStringLiteral("127.0.0.1:99999"), QStringLiteral("::1:80")}) {
            const CliRun refused = run(bad);
            QCOMPARE(refused.exitCode, 2);
            QVERIFY2(refused.err.contains(bad.toUtf8()) && !refused.err.contains("null context"),
                     refused.err.constData());
        }
        const auto busy = exporter({"small"});
        const QString taken = QStringLiteral("127.0.0.1:%1").arg(busy->port());
        const CliRun inUse = run(taken);
        QCOMPARE(inUse.exitCode, 1);
        QVERIFY2(inUse.err.contains(taken.toUtf8()) && inUse.err.contains("in use") &&
                     !inUse.err.contains("null context"),
                 inUse.err.constData());
        // IPv6 on loopback: serves when this machine has ::1, else says why (never "null
        // context"); nothing but loopback is bound.
        QProcess ipv6;
        ipv6.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                   {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                    QStringLiteral("small"), QStringLiteral("exporter"), QStringLiteral("--listen"),
                    QStringLiteral("[::1]:0")});
        QVERIFY(ipv6.waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(ipv6.state() == QProcess::NotRunning || ipv6.bytesAvailable() > 0,
                                 10000);
        if (ipv6.state() == QProcess::NotRunning) {
            const QByteArray err = ipv6.readAllStandardError();
            QCOMPARE(ipv6.exitCode(), 1);
            QVERIFY2(err.contains("[::1]") && !err.contains("null context"), err.constData());
        } else {
            const QByteArray banner = ipv6.readLine();
            QVERIFY2(banner.startsWith("serving http://[::1]:"), banner.constData());
            ipv6.terminate();
            QVERIFY(ipv6.waitForFinished(10000));
        }
    }

    // --json: the start and the stop are JSON objects.
    void cliExporterJson() {
        QProcess process;
        process.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                      {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                       QStringLiteral("small"), QStringLiteral("--json"),
                       QStringLiteral("exporter"), QStringLiteral("--listen"),
                       QStringLiteral("127.0.0.1:0")});
        QVERIFY(process.waitForReadyRead(10000));
        const QByteArray first = process.readLine();
        QJsonParseError parseError;
        const QJsonObject started = QJsonDocument::fromJson(first, &parseError).object();
        QVERIFY2(parseError.error == QJsonParseError::NoError, first.constData());
        QCOMPARE(started.value(QStringLiteral("event")).toString(), QStringLiteral("serving"));
        QCOMPARE(started.value(QStringLiteral("loopback_only")).toBool(), true);
        const QString url = started.value(QStringLiteral("url")).toString();
        QVERIFY2(url.startsWith(QStringLiteral("http://127.0.0.1:")), qPrintable(url));
        const int port = url.section(QLatin1Char(':'), 2).section(QLatin1Char('/'), 0, 0).toInt();
        QVERIFY(samples(curl(port)).contains(QStringLiteral("poolscope_up")));
        process.terminate();
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitCode(), 0);
        const QList<QByteArray> rest = process.readAllStandardOutput().trimmed().split('\n');
        QCOMPARE(QJsonDocument::fromJson(rest.last()).object().value(QStringLiteral("event")),
                 QJsonValue(QStringLiteral("stopped")));
    }

    // Idle and slow clients (connected, silent, or a request cut short) cannot stop scrapes:
    // with several workers a scrape goes on beside a few; with more of them than workers, the
    // request timeout frees the workers and the scrape still succeeds.
    void idleAndSlowClientsDoNotBlockScrapes() {
        const auto server = exporter({"small"});
        const auto connectClient = [&server](const QByteArray &send) {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            sockaddr_in address{};
            address.sin_family = AF_INET;
            address.sin_port = htons(quint16(server->port()));
            address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            if (fd < 0 ||
                ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0)
                return -1;
            if (!send.isEmpty() && ::send(fd, send.constData(), size_t(send.size()), 0) < 0)
                return -1;
            return fd;
        };
        std::vector<int> clients;
        const auto closeAll = qScopeGuard([&clients] {
            for (const int fd : clients)
                ::close(fd);
        });
        clients.push_back(connectClient({}));                              // silent
        clients.push_back(connectClient("GET /metrics HTTP/1.1\r\nHost")); // slow, cut short
        clients.push_back(connectClient({}));
        QVERIFY(std::all_of(clients.begin(), clients.end(), [](int fd) { return fd >= 0; }));
        QCOMPARE(samples(curl(server->port())).value(QStringLiteral("poolscope_up")), 1.0);

        // More silent clients than workers: each is dropped after the request timeout.
        while (clients.size() < size_t(kExporterThreads) + 3)
            clients.push_back(connectClient({}));
        QVERIFY(std::all_of(clients.begin(), clients.end(), [](int fd) { return fd >= 0; }));
        QCOMPARE(samples(curl(server->port())).value(QStringLiteral("poolscope_up")), 1.0);
        // The first silent client was closed by the server (read sees the end, not a hang).
        pollfd readable{clients.front(), POLLIN, 0};
        QTRY_VERIFY_WITH_TIMEOUT(::poll(&readable, 1, 0) == 1, 15000);
        char byte = 0;
        QCOMPARE_LE(::recv(clients.front(), &byte, 1, 0), 0);
    }

    // A connection Redis's `timeout` closed between scrapes is no outage: the scrape runs again
    // on a fresh connection and says poolscope_up 1, and nothing is logged as unreachable.
    void idleCloseByTheServerIsNoOutage() {
        RedisServerOptions options;
        options.extraArguments = {QStringLiteral("--timeout"), QStringLiteral("1")};
        RedisFixture redis(options);
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.run({"ZADD", "idle", "1", "a"});
        ExporterOptions exporterOptions;
        exporterOptions.listen = QStringLiteral("127.0.0.1:0");
        exporterOptions.keys = {"idle"};
        ConnectionOptions connection;
        connection.clientName = QStringLiteral("poolscope-exporter");
        PrometheusExporter server(redis.endpoint(), connection, exporterOptions);
        server.start();
        QStringList log;
        server.setLogger([&log](const QString &line) { log.append(line); });
        const auto exporterConnected = [&redis] {
            return redis.run({"CLIENT", "LIST"}).text.contains("name=poolscope-exporter");
        };
        QCOMPARE(samples(curl(server.port())).value(QStringLiteral("poolscope_up")), 1.0);
        QVERIFY(exporterConnected());
        QTRY_VERIFY_WITH_TIMEOUT(!exporterConnected(), 10000); // closed by the server
        QCOMPARE(samples(curl(server.port())).value(QStringLiteral("poolscope_up")), 1.0);
        QVERIFY2(log.isEmpty(), qPrintable(log.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestExporter)
#include "tst_exporter.moc"
