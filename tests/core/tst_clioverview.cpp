// `poolscope-cli overview` against real servers the test starts (plain TCP, TLS, a cluster, one
// killed and restarted mid-run, one that wants a password), through saved connections added with
// `profile add` under a temporary HOME: the aligned text, the stable JSON, choosing connections
// by name and group, unreachable rows with why and the last good poll, --watch until SIGTERM,
// one connection per server, and passwords only from a file or the keychain.
#include "ClusterFixture.h"
#include "TlsCertificates.h"

#include "overview/OverviewModel.h"

#include <signal.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

QJsonObject jsonOf(const QByteArray &text) {
    return QJsonDocument::fromJson(text).object();
}

QJsonObject rowOf(const QJsonObject &overview, const QString &connection, const QString &pool) {
    for (const QJsonValue &row : overview.value(QStringLiteral("rows")).toArray())
        if (row[QStringLiteral("connection")].toString() == connection &&
            row[QStringLiteral("pool")].toString() == pool)
            return row.toObject();
    return {};
}

QSet<QString> connectionsOf(const QJsonObject &overview) {
    QSet<QString> names;
    for (const QJsonValue &row : overview.value(QStringLiteral("rows")).toArray())
        names.insert(row[QStringLiteral("connection")].toString());
    return names;
}

// A running `overview --watch ... --json`: one JSON object per line.
class WatchRun {
public:
    explicit WatchRun(const QStringList &arguments) {
        m_process.start(QStringLiteral(POOLSCOPE_CLI_PATH), arguments);
    }
    ~WatchRun() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }
    // Waits for a printed overview that satisfies `wanted`.
    template <typename Predicate> std::optional<QJsonObject> waitFor(Predicate wanted) {
        QSignalSpy more(&m_process, &QProcess::readyReadStandardOutput);
        for (int i = 0; i < 200; ++i) {
            while (m_process.canReadLine()) {
                const QJsonObject overview = jsonOf(m_process.readLine());
                if (wanted(overview))
                    return overview;
            }
            if (m_process.state() == QProcess::NotRunning || !more.wait(10000))
                return std::nullopt;
        }
        return std::nullopt;
    }
    int terminate() {
        ::kill(pid_t(m_process.processId()), SIGTERM);
        return m_process.waitForFinished(10000) && m_process.exitStatus() == QProcess::NormalExit
                   ? m_process.exitCode()
                   : -1;
    }

private:
    QProcess m_process;
};

} // namespace

class TestCliOverview : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_home;
    TlsCertificates m_certificates;
    std::unique_ptr<RedisFixture> m_plain;
    std::unique_ptr<RedisFixture> m_tls;
    std::unique_ptr<RedisFixture> m_locked;
    ClusterFixture m_cluster;
    QByteArray m_clusterPool;

    void addProfile(const QStringList &arguments) {
        const CliRun run = runCli(QStringList{QStringLiteral("profile"), QStringLiteral("add")} +
                                  arguments + QStringList{QStringLiteral("--replace")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
    }
    static CliRun overview(const QStringList &arguments) {
        return runCli(QStringList{QStringLiteral("overview")} + arguments);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        for (const auto &[name, dir] :
             {std::pair{"HOME", QString()}, std::pair{"XDG_CONFIG_HOME", QStringLiteral(".config")},
              std::pair{"XDG_DATA_HOME", QStringLiteral(".local/share")},
              std::pair{"XDG_CACHE_HOME", QStringLiteral(".cache")}}) {
            const QString path = dir.isEmpty() ? m_home.path() : m_home.filePath(dir);
            QVERIFY(QDir().mkpath(path));
            qputenv(name, QFile::encodeName(path));
        }
        qunsetenv("DBUS_SESSION_BUS_ADDRESS"); // no keychain: secrets only from files
        qunsetenv("REDIS_URL");
        QVERIFY2(m_certificates.create(), qPrintable(m_certificates.error()));
        RedisServerOptions plain;
        plain.useTcp = true;
        m_plain = std::make_unique<RedisFixture>(plain);
        QVERIFY2(m_plain->start(), qPrintable(m_plain->error()));
        RedisServerOptions tls;
        tls.tlsCertFile = m_certificates.path(QStringLiteral("server.pem"));
        tls.tlsKeyFile = m_certificates.path(QStringLiteral("server.key"));
        tls.tlsCaFile = m_certificates.path(QStringLiteral("ca.pem"));
        m_tls = std::make_unique<RedisFixture>(tls);
        QVERIFY2(m_tls->start(), qPrintable(m_tls->error()));
        RedisServerOptions locked;
        locked.useTcp = true;
        locked.extraArguments = {QStringLiteral("--requirepass"), QStringLiteral("ov-S3cret")};
        m_locked = std::make_unique<RedisFixture>(locked);
        QVERIFY2(m_locked->start(), qPrintable(m_locked->error()));
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.error()));

        for (int i = 0; i < 10; ++i)
            m_plain->run({"ZADD", "proxies", QByteArray::number(i), "m" + QByteArray::number(i)});
        m_plain->run({"ZADD", "second", "4", "a", "4", "b"});
        m_tls->run({"ZADD", "{eu}:proxies", "2", "a", "2", "b", "2", "c"});
        m_clusterPool = m_cluster.keyOn(1, "pool", true);
        m_cluster.node(1).run({"ZADD", m_clusterPool, "1", "a"});

        const QString plainUrl =
            QStringLiteral("redis://127.0.0.1:%1/0").arg(m_plain->endpoint().port);
        addProfile({QStringLiteral("plain"), QStringLiteral("--url"), plainUrl,
                    QStringLiteral("--key"), QStringLiteral("proxies"), QStringLiteral("--group"),
                    QStringLiteral("eu"), QStringLiteral("--env"), QStringLiteral("production")});
        addProfile({QStringLiteral("tls"), QStringLiteral("--url"),
                    QStringLiteral("rediss://127.0.0.1:%1/0").arg(m_tls->endpoint().port),
                    QStringLiteral("--tls-ca"), m_certificates.path(QStringLiteral("ca.pem")),
                    QStringLiteral("--key"), QStringLiteral("{eu}:proxies"),
                    QStringLiteral("--group"), QStringLiteral("eu")});
        QStringList seeds;
        for (int node = 0; node < m_cluster.size(); ++node)
            seeds << QStringLiteral("127.0.0.1:%1").arg(m_cluster.node(node).endpoint().port);
        addProfile({QStringLiteral("cluster"), QStringLiteral("--url"),
                    QStringLiteral("redis+cluster://") + seeds.join(u','), QStringLiteral("--key"),
                    QString::fromUtf8(m_clusterPool), QStringLiteral("--group"),
                    QStringLiteral("us")});
    }

    void textIsAlignedAndListsEveryPool() {
        const CliRun run = overview({});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QStringList lines = QString::fromUtf8(run.out).split(u'\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.value(0).startsWith(QStringLiteral("overview at ")), run.out.constData());
        const QString header = lines.value(1);
        QVERIFY2(header.startsWith(QStringLiteral("CONNECTION")), run.out.constData());
        QCOMPARE(lines.size(), 2 + 4); // plain: proxies, second; tls; cluster
        const qsizetype poolAt = header.indexOf(QStringLiteral("POOL "));
        const qsizetype membersEnd = header.indexOf(QStringLiteral("MEMBERS")) + 7;
        QStringList pools;
        for (const QString &line : lines.mid(2)) {
            // Left-aligned columns start where their header does, numbers end where it ends.
            QVERIFY2(line.at(poolAt - 1) == u' ' && line.at(poolAt) != u' ', qPrintable(line));
            QVERIFY2(line.at(membersEnd - 1) != u' ' && line.at(membersEnd) == u' ',
                     qPrintable(line));
            pools << line.mid(poolAt).section(u' ', 0, 0);
        }
        // Connection by connection (by name), each one's pools by key.
        QCOMPARE(pools, (QStringList{QString::fromUtf8(m_clusterPool), QStringLiteral("proxies"),
                                     QStringLiteral("second"), QStringLiteral("{eu}:proxies")}));
        QVERIFY2(lines[3].startsWith(QStringLiteral("plain")) &&
                     lines[3].contains(QStringLiteral("production")),
                 qPrintable(lines[3]));
    }

    void jsonIsStable() {
        const CliRun run = overview(
            {QStringLiteral("--json"), QStringLiteral("--interval"), QStringLiteral("200")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(run.out.count('\n'), 1);
        const QJsonObject object = jsonOf(run.out);
        QCOMPARE(object.keys(), (QStringList{QStringLiteral("rows"), QStringLiteral("servers"),
                                             QStringLiteral("time_ms")}));
        QStringList columns;
        for (int column = 0; column < OverviewModel::ColumnCount; ++column)
            columns << OverviewModel::columnKey(OverviewModel::Column(column));
        std::sort(columns.begin(), columns.end());
        for (const QJsonValue &row : object.value(QStringLiteral("rows")).toArray())
            QCOMPARE(row.toObject().keys(), columns);
        const QJsonObject proxies =
            rowOf(object, QStringLiteral("plain"), QStringLiteral("proxies"));
        QCOMPARE(proxies.value(QStringLiteral("members")).toInt(), 10);
        QCOMPARE(proxies.value(QStringLiteral("max")).toDouble(), 9.0);
        QCOMPARE(proxies.value(QStringLiteral("environment")).toString(),
                 QStringLiteral("production"));
        QCOMPARE(proxies.value(QStringLiteral("state")).toString(), QStringLiteral("ok"));
        QCOMPARE(proxies.value(QStringLiteral("allocations_per_s")).toDouble(), 0.0);
        QCOMPARE_GT(proxies.value(QStringLiteral("jain")).toDouble(), 0.6);
        // A point a reading: two at least, more when this server was read again while a slower
        // one finished its second reading.
        QCOMPARE_GE(proxies.value(QStringLiteral("allocations_per_s_trend")).toArray().size(), 2);
        const QJsonObject tls =
            rowOf(object, QStringLiteral("tls"), QStringLiteral("{eu}:proxies"));
        QCOMPARE(tls.value(QStringLiteral("members")).toInt(), 3);
        const QJsonObject cluster =
            rowOf(object, QStringLiteral("cluster"), QString::fromUtf8(m_clusterPool));
        QCOMPARE(cluster.value(QStringLiteral("node")).toString(),
                 QStringLiteral("127.0.0.1:%1").arg(m_cluster.node(1).endpoint().port));
        const QJsonArray servers = object.value(QStringLiteral("servers")).toArray();
        QCOMPARE(servers.size(), 3);
        for (const QJsonValue &server : servers)
            QCOMPARE(server[QStringLiteral("state")].toString(), QStringLiteral("ok"));
    }

    void connectionsChosenByNameAndGroup_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("group") << QStringList{"--group", "eu"} << QStringList{"plain", "tls"};
        QTest::newRow("profiles") << QStringList{"--profile", "tls", "--profile", "cluster"}
                                  << QStringList{"cluster", "tls"};
        QTest::newRow("group and profile")
            << QStringList{"--group", "us", "--profile", "tls"} << QStringList{"cluster", "tls"};
        QTest::newRow("every one") << QStringList{} << QStringList{"cluster", "plain", "tls"};
    }
    void connectionsChosenByNameAndGroup() {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, expected);
        const CliRun run = overview(arguments + QStringList{"--json", "--interval", "0"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QStringList names = connectionsOf(jsonOf(run.out)).values();
        names.sort();
        QCOMPARE(names, expected);
    }

    void badChoicesAreUsageErrors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown profile")
            << QStringList{"--profile", "nope"} << "\"nope\": no saved";
        QTest::newRow("empty group") << QStringList{"--group", "asia"} << "\"asia\": no saved";
        QTest::newRow("url") << QStringList{"--url", "redis://127.0.0.1:1/0"} << "--url is not";
        QTest::newRow("two with a password file")
            << QStringList{"--password-file", "/nonexistent", "--group", "eu"}
            << "name exactly one";
        QTest::newRow("watch") << QStringList{"--watch", "0"} << "--watch 0 is not a number";
    }
    void badChoicesAreUsageErrors() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const CliRun run = overview(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(expected.toUtf8()), run.err.constData());
    }

    void unreachableServerSaysWhy() {
        const int port = RedisServerProcess::pickFreeTcpPort(); // nothing listens there
        addProfile({QStringLiteral("dead"), QStringLiteral("--url"),
                    QStringLiteral("redis://127.0.0.1:%1/0").arg(port)});
        const CliRun run = overview({QStringLiteral("--profile"), QStringLiteral("dead"),
                                     QStringLiteral("--profile"), QStringLiteral("plain"),
                                     QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 1); // not every server could be read
        const QJsonObject object = jsonOf(run.out);
        const QJsonObject dead = rowOf(object, QStringLiteral("dead"), QString());
        QCOMPARE(dead.value(QStringLiteral("state")).toString(), QStringLiteral("unreachable"));
        QCOMPARE(dead.value(QStringLiteral("error_kind")).toString(), QStringLiteral("connection"));
        QVERIFY2(dead.value(QStringLiteral("why")).toString().contains(QString::number(port)),
                 run.out.constData());
        QVERIFY(dead.value(QStringLiteral("last_good_poll_ms")).isNull());
        QCOMPARE(rowOf(object, QStringLiteral("plain"), QStringLiteral("proxies"))
                     .value(QStringLiteral("state"))
                     .toString(),
                 QStringLiteral("ok"));
        QCOMPARE(
            runCli({QStringLiteral("profile"), QStringLiteral("remove"), QStringLiteral("dead")})
                .exitCode,
            0);
    }

    // --watch: a server killed mid-run says unreachable with its last good poll, and comes back.
    void watchFollowsAKilledServer() {
        RedisServerOptions options;
        options.useTcp = true;
        RedisFixture victim(options);
        QVERIFY2(victim.start(), qPrintable(victim.error()));
        victim.run({"ZADD", "proxies", "1", "a", "1", "b"});
        addProfile({QStringLiteral("victim"), QStringLiteral("--url"),
                    QStringLiteral("redis://127.0.0.1:%1/0").arg(victim.endpoint().port)});
        WatchRun watch({QStringLiteral("overview"), QStringLiteral("--watch"),
                        QStringLiteral("0.3"), QStringLiteral("--json"),
                        QStringLiteral("--profile"), QStringLiteral("victim"),
                        QStringLiteral("--profile"), QStringLiteral("plain")});
        const auto victimState = [](const QJsonObject &overview) {
            return rowOf(overview, QStringLiteral("victim"), QStringLiteral("proxies"))
                .value(QStringLiteral("state"))
                .toString();
        };
        QVERIFY(watch.waitFor([&](const QJsonObject &o) { return victimState(o) == "ok"; }));
        QCOMPARE(victim.run({"CLIENT", "LIST"}).text.count("name=poolscope-overview "), 1);
        QCOMPARE(m_plain->run({"CLIENT", "LIST"}).text.count("name=poolscope-overview "), 1);

        victim.server().killHard();
        const std::optional<QJsonObject> down =
            watch.waitFor([&](const QJsonObject &o) { return victimState(o) == "unreachable"; });
        QVERIFY(down);
        const QJsonObject row = rowOf(*down, QStringLiteral("victim"), QStringLiteral("proxies"));
        QCOMPARE_GT(row.value(QStringLiteral("last_good_poll_ms")).toDouble(), 0);
        QVERIFY(!row.value(QStringLiteral("why")).toString().isEmpty());
        QCOMPARE(row.value(QStringLiteral("members")).toInt(), 2); // last known
        QCOMPARE(rowOf(*down, QStringLiteral("plain"), QStringLiteral("proxies"))
                     .value(QStringLiteral("state"))
                     .toString(),
                 QStringLiteral("ok"));

        QVERIFY(victim.server().start());
        victim.run({"ZADD", "proxies", "1", "a", "1", "b", "1", "c"});
        const std::optional<QJsonObject> back = watch.waitFor([&](const QJsonObject &o) {
            return victimState(o) == "ok" &&
                   rowOf(o, QStringLiteral("victim"), QStringLiteral("proxies"))
                           .value(QStringLiteral("members"))
                           .toInt() == 3;
        });
        QVERIFY(back);
        QCOMPARE(watch.terminate(), 0); // SIGTERM ends it cleanly
        QCOMPARE(
            runCli({QStringLiteral("profile"), QStringLiteral("remove"), QStringLiteral("victim")})
                .exitCode,
            0);
    }

    void passwordFromAFileOnly() {
        addProfile({QStringLiteral("locked"), QStringLiteral("--url"),
                    QStringLiteral("redis://127.0.0.1:%1/0").arg(m_locked->endpoint().port),
                    QStringLiteral("--needs-password")});
        Endpoint admin = m_locked->endpoint();
        admin.password = QStringLiteral("ov-S3cret");
        const auto lockedAdmin = RedisConnection::open(admin);
        lockedAdmin->commandOrThrow({"ZADD", "proxies", "0", "a"});
        const auto overviewClients = [&lockedAdmin] {
            return lockedAdmin->commandOrThrow({"CLIENT", "LIST"})
                .text.count("name=poolscope-overview");
        };
        const CliRun without = overview(
            {QStringLiteral("--profile"), QStringLiteral("locked"), QStringLiteral("--json")});
        QCOMPARE(without.exitCode, 1);
        const QJsonObject row = rowOf(jsonOf(without.out), QStringLiteral("locked"), QString());
        QCOMPARE(row.value(QStringLiteral("state")).toString(), QStringLiteral("not-polled"));
        QVERIFY2(row.value(QStringLiteral("why"))
                     .toString()
                     .contains(QStringLiteral("needs a password")),
                 without.out.constData());
        QCOMPARE(overviewClients(), 0); // not even tried without the password

        const QString file = m_home.filePath(QStringLiteral("password"));
        QFile secret(file);
        QVERIFY(secret.open(QIODevice::WriteOnly));
        secret.write("ov-S3cret\n");
        secret.close();
        QVERIFY(secret.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        const CliRun with =
            overview({QStringLiteral("--profile"), QStringLiteral("locked"),
                      QStringLiteral("--password-file"), file, QStringLiteral("--json")});
        QVERIFY2(with.exitCode == 0, with.err.constData());
        QCOMPARE(rowOf(jsonOf(with.out), QStringLiteral("locked"), QStringLiteral("proxies"))
                     .value(QStringLiteral("members"))
                     .toInt(),
                 1);
        QVERIFY(!with.out.contains("ov-S3cret") && !with.err.contains("ov-S3cret"));
    }
};

QTEST_GUILESS_MAIN(TestCliOverview)
#include "tst_clioverview.moc"
