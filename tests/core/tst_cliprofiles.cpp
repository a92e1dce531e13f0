// Saved connections managed from the CLI and their group and environment: the store's round trip
// and its errors, files from before groups and environments, `profile add/list/remove`, a URL with
// a password refused (and not written), and writes through a production profile refused without
// --yes --confirm-key KEY, against a real server.
// One temporary HOME (XDG dirs too, no D-Bus), so the user's own settings are never touched.

#include "RedisFixture.h"

#include "profiles/ConnectionProfile.h"
#include "profiles/ProfileStore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

const QByteArray kSecret = "cli-Secret-9931";

QByteArray readAll(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QStringList args(std::initializer_list<const char *> words) {
    QStringList list;
    for (const char *word : words)
        list << QString::fromUtf8(word);
    return list;
}

} // namespace

class TestCliProfiles : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_home;
    std::unique_ptr<RedisFixture> m_redis;

    QJsonArray listedProfiles() {
        const CliRun run = runCli(args({"profile", "list", "--json"}));
        if (run.exitCode != 0)
            qWarning("%s", run.err.constData());
        return QJsonDocument::fromJson(run.out)
            .object()
            .value(QStringLiteral("profiles"))
            .toArray();
    }
    CliRun addProfile(const QString &name, const QString &environment) {
        return runCli({QStringLiteral("profile"), QStringLiteral("add"), name,
                       QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                       QStringLiteral("pool"), QStringLiteral("--env"), environment,
                       QStringLiteral("--replace")});
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        // Before any QSettings: the dashboard's settings file, and the CLI's, go under this HOME.
        for (const auto &[name, dir] :
             {std::pair{"HOME", QString()}, std::pair{"XDG_CONFIG_HOME", QStringLiteral(".config")},
              std::pair{"XDG_DATA_HOME", QStringLiteral(".local/share")},
              std::pair{"XDG_CACHE_HOME", QStringLiteral(".cache")},
              std::pair{"XDG_STATE_HOME", QStringLiteral(".local/state")}}) {
            const QString path = dir.isEmpty() ? m_home.path() : m_home.filePath(dir);
            QVERIFY(QDir().mkpath(path));
            qputenv(name, QFile::encodeName(path));
        }
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        qunsetenv("REDIS_URL");
        QVERIFY2(ProfileStore().fileName().startsWith(m_home.path()),
                 qPrintable(ProfileStore().fileName()));
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }

    // Group and environment come back as saved, in every environment.
    void storeRoundTrip_data() {
        QTest::addColumn<int>("environment");
        QTest::addColumn<QString>("group");
        QTest::newRow("production") << int(Environment::Production) << "EU/payments";
        QTest::newRow("staging") << int(Environment::Staging) << "staging";
        QTest::newRow("development") << int(Environment::Development) << "";
        QTest::newRow("none") << int(Environment::None) << "";
    }
    void storeRoundTrip() {
        QFETCH(int, environment);
        QFETCH(QString, group);
        ProfileStore store(m_home.filePath(QStringLiteral("roundtrip.ini")));
        ConnectionProfile profile;
        profile.name = QStringLiteral("p ") + QTest::currentDataTag();
        profile.url = QStringLiteral("redis://127.0.0.1:6379/0");
        profile.group = group;
        profile.environment = Environment(environment);
        QCOMPARE(store.save(profile), QString());
        const ProfileLoadResult loaded = ProfileStore(store.fileName()).load(profile.name);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(*loaded.profile, profile);
        QCOMPARE(parseEnvironment(environmentName(profile.environment)), profile.environment);
    }

    // Bad values, saved or edited into the file by hand: one line naming connection and field.
    void badValues_data() {
        QTest::addColumn<QString>("key"); // "": saved through the store with group = value
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("environment in file")
            << "environment"
            << "prod"
            << "connection \"hand\": environment: \"prod\" is not production, staging, "
               "development or none in the settings file";
        QTest::newRow("group with spaces") << ""
                                           << " ops "
                                           << "connection \"hand\": group: starts or ends with a "
                                              "space";
        QTest::newRow("group with a control character")
            << ""
            << "a\tb"
            << "connection \"hand\": group: holds a control character";
    }
    void badValues() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        const QString file = m_home.filePath(QStringLiteral("bad.ini"));
        QFile::remove(file);
        if (key.isEmpty()) {
            ConnectionProfile profile;
            profile.name = QStringLiteral("hand");
            profile.url = QStringLiteral("redis://127.0.0.1:6379/0");
            profile.group = value;
            QCOMPARE(ProfileStore(file).save(profile), expected);
            QVERIFY(ProfileStore(file).names().isEmpty());
            return;
        }
        {
            QSettings settings(file, QSettings::IniFormat);
            settings.beginGroup(QStringLiteral("connections/saved/hand"));
            settings.setValue(QStringLiteral("url"), QStringLiteral("redis://127.0.0.1:1/0"));
            settings.setValue(key, value);
        }
        QCOMPARE(ProfileStore(file).load(QStringLiteral("hand")).error, expected);
    }

    // A file written before groups and environments: loads with none of either.
    void oldFileLoads() {
        const QString file = m_home.filePath(QStringLiteral("old.ini"));
        QVERIFY(QDir(m_home.path()).exists());
        {
            QFile old(file);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("[connections]\n"
                      "saved\\old\\name=old\n"
                      "saved\\old\\url=redis://127.0.0.1:6379/0\n"
                      "saved\\old\\poolKey=proxies\n"
                      "saved\\old\\pollIntervalMs=500\n"
                      "saved\\old\\needsPassword=false\n");
        }
        const ProfileLoadResult loaded = ProfileStore(file).load(QStringLiteral("old"));
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.profile->environment, Environment::None);
        QCOMPARE(loaded.profile->group, QString());
        QCOMPARE(loaded.profile->pollInterval, std::chrono::milliseconds(500));
    }

    // add, list --json, a taken name, --replace, remove.
    void addListRemove() {
        CliRun run =
            runCli({QStringLiteral("profile"), QStringLiteral("add"), QStringLiteral("eu main"),
                    QStringLiteral("--url"), QStringLiteral("redis://ops@127.0.0.1:6390/2"),
                    QStringLiteral("--key"), QStringLiteral("eu-pool"), QStringLiteral("--group"),
                    QStringLiteral("EU"), QStringLiteral("--env"), QStringLiteral("production"),
                    QStringLiteral("--poll-interval"), QStringLiteral("2500"),
                    QStringLiteral("--needs-password"), QStringLiteral("--ssh"),
                    QStringLiteral("ops@127.0.0.1:2222")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.startsWith("saved connection \"eu main\""), run.out.constData());
        run = runCli(args({"profile", "add", "dev", "--url", "redis://127.0.0.1:6391/0"}));
        QVERIFY2(run.exitCode == 0, run.err.constData());

        QJsonArray profiles = listedProfiles();
        QCOMPARE(profiles.size(), 2);
        const QJsonObject dev = profiles.at(0).toObject();
        QCOMPARE(dev.value(QStringLiteral("name")).toString(), QStringLiteral("dev"));
        QCOMPARE(dev.value(QStringLiteral("environment")).toString(), QStringLiteral("none"));
        QCOMPARE(dev.value(QStringLiteral("group")).toString(), QString());
        QCOMPARE(dev.value(QStringLiteral("key")).toString(), QStringLiteral("proxies"));
        const QJsonObject eu = profiles.at(1).toObject();
        QCOMPARE(eu.value(QStringLiteral("name")).toString(), QStringLiteral("eu main"));
        QCOMPARE(eu.value(QStringLiteral("group")).toString(), QStringLiteral("EU"));
        QCOMPARE(eu.value(QStringLiteral("environment")).toString(), QStringLiteral("production"));
        QCOMPARE(eu.value(QStringLiteral("url")).toString(),
                 QStringLiteral("redis://ops@127.0.0.1:6390/2"));
        QCOMPARE(eu.value(QStringLiteral("key")).toString(), QStringLiteral("eu-pool"));
        QCOMPARE(eu.value(QStringLiteral("poll_interval_ms")).toInteger(), 2500);
        QCOMPARE(eu.value(QStringLiteral("needs_password")).toBool(), true);
        QCOMPARE(eu.value(QStringLiteral("ssh")).toString(), QStringLiteral("ops@127.0.0.1:2222"));
        // The dashboard's store reads what the CLI saved.
        QCOMPARE(ProfileStore().load(QStringLiteral("eu main")).profile->environment,
                 Environment::Production);

        run = runCli(args({"profile", "list"}));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("eu main\tEU\tproduction\tredis://ops@127.0.0.1:6390/2\teu-pool"),
                 run.out.constData());

        run = runCli(args({"profile", "add", "dev", "--url", "redis://127.0.0.1:6392/0"}));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("a connection named \"dev\" is saved already (add --replace"),
                 run.err.constData());
        run = runCli(args({"profile", "add", "dev", "--url", "redis://127.0.0.1:6392/0", "--env",
                           "staging", "--replace"}));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        profiles = listedProfiles();
        QCOMPARE(profiles.at(0).toObject().value(QStringLiteral("url")).toString(),
                 QStringLiteral("redis://127.0.0.1:6392/0"));
        QCOMPARE(profiles.at(0).toObject().value(QStringLiteral("environment")).toString(),
                 QStringLiteral("staging"));

        run = runCli(
            args({"profile", "add", "x", "--url", "redis://127.0.0.1:6392/0", "--env", "prod"}));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--env \"prod\": expected production, staging, development or "
                                  "none"),
                 run.err.constData());

        for (const char *name : {"dev", "eu main"}) {
            run = runCli(
                {QStringLiteral("profile"), QStringLiteral("remove"), QString::fromUtf8(name)});
            QVERIFY2(run.exitCode == 0, run.err.constData());
        }
        QCOMPARE(listedProfiles().size(), 0);
        run = runCli(args({"profile", "remove", "dev"}));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("no saved connection named \"dev\""), run.err.constData());
    }

    // A URL with a password: refused, saying where the password goes; the file holds no secret.
    void passwordRefused() {
        const QString url =
            QStringLiteral("redis://ops:%1@127.0.0.1:6390/0").arg(QString::fromUtf8(kSecret));
        const CliRun run = runCli({QStringLiteral("profile"), QStringLiteral("add"),
                                   QStringLiteral("leaky"), QStringLiteral("--url"), url});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("holds a password, and saved connections never store one"),
                 run.err.constData());
        QVERIFY2(run.err.contains("--password-file FILE") && run.err.contains("keychain"),
                 run.err.constData());
        QVERIFY(!run.err.contains(kSecret));
        QVERIFY(!run.out.contains(kSecret));
        QVERIFY(!ProfileStore().contains(QStringLiteral("leaky")));
        QVERIFY(!readAll(ProfileStore().fileName()).contains(kSecret));
    }

    // Writes through a production profile: refused (server unchanged) without --yes and
    // --confirm-key equal to the pool key; staging needs nothing; reads are never refused.
    void productionWrites_data() {
        QTest::addColumn<QString>("environment");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("refusal"); // "": the eviction happens
        const QString refused = QStringLiteral(
            "profile \"target\" is a production connection: evict writes to it, so it needs "
            "--yes and --confirm-key equal to the pool key; ");
        QTest::newRow("production, no flags")
            << "production" << QStringList()
            << refused + "add --yes --confirm-key pool (the pool key) to confirm. Nothing was "
                         "written";
        QTest::newRow("production, --yes only")
            << "production" << args({"--yes"})
            << refused + "add --yes --confirm-key pool (the pool key) to confirm";
        QTest::newRow("production, --confirm-key only")
            << "production" << args({"--confirm-key", "pool"})
            << refused + "add --yes --confirm-key pool";
        QTest::newRow("production, another pool's key")
            << "production" << args({"--yes", "--confirm-key", "other"})
            << refused + "--confirm-key \"other\" is not the pool key \"pool\"";
        QTest::newRow("production, --key elsewhere")
            << "production" << args({"--yes", "--confirm-key", "pool", "--key", "pool2"})
            << "--confirm-key \"pool\" is not the pool key \"pool2\"";
        QTest::newRow("production, --url given too")
            << "production" << QStringList{QStringLiteral("--url"), QStringLiteral("URL")}
            << refused + "add --yes --confirm-key pool";
        QTest::newRow("production, confirmed")
            << "production" << args({"--yes", "--confirm-key", "pool"}) << "";
        QTest::newRow("staging") << "staging" << QStringList() << "";
        QTest::newRow("no environment") << "none" << QStringList() << "";
    }
    void productionWrites() {
        QFETCH(QString, environment);
        QFETCH(QStringList, extra);
        QFETCH(QString, refusal);
        CliRun run = addProfile(QStringLiteral("target"), environment);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        m_redis->run({"FLUSHDB"});
        m_redis->makePool("pool", {"m0", "m1", "m2"}, 5);
        m_redis->makePool("pool2", {"m0", "m1"}, 5);
        extra.replaceInStrings(QStringLiteral("URL"), m_redis->url());
        run = runCli(QStringList{QStringLiteral("--profile"), QStringLiteral("target")} + extra +
                     args({"evict", "m1"}));
        const bool evicted2 = m_redis->run({"ZSCORE", "pool2", "m1"}).isNil();
        const bool evicted = m_redis->run({"ZSCORE", "pool", "m1"}).isNil();
        if (refusal.isEmpty()) {
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QVERIFY(evicted);
            QVERIFY(!evicted2);
        } else {
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains(refusal.toUtf8()), run.err.constData());
            QCOMPARE(run.err.count('\n'), 1);
            QVERIFY(!evicted);
            QVERIFY(!evicted2);
            QCOMPARE(m_redis->run({"ZCARD", "pool"}).integer, 3LL);
        }
    }

    // The same refusal for every writing command, before any connection; reads pass; --json
    // says kind "confirmation".
    void productionCommands_data() {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<bool>("refused");
        QTest::newRow("seed") << args({"seed", "-"}) << true;
        QTest::newRow("seed --dry-run") << args({"seed", "-", "--dry-run"}) << false;
        QTest::newRow("allocate") << args({"allocate"}) << true;
        QTest::newRow("restore") << args({"restore", "m1", "--policy", "keep"}) << true;
        QTest::newRow("scenario") << args({"scenario", "reset", "--policy", "keep"}) << true;
        QTest::newRow("migrate-companion") << args({"migrate-companion"}) << true;
        QTest::newRow("guard") << args({"guard", "--target", "http://127.0.0.1:1/"}) << true;
        QTest::newRow("stats") << args({"stats"}) << false;
        QTest::newRow("list") << args({"list"}) << false;
        QTest::newRow("pools") << args({"pools", "--interval", "0"}) << false;
    }
    void productionCommands() {
        QFETCH(QStringList, command);
        QFETCH(bool, refused);
        CliRun run = addProfile(QStringLiteral("prod"), QStringLiteral("production"));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        m_redis->run({"FLUSHDB"});
        m_redis->makePool("pool", {"m0", "m1", "m2"}, 5);
        const double before = sumOfScores(*m_redis, "pool");
        run = runCli(args({"--profile", "prod", "--json"}) + command, "127.0.0.1:8080\n");
        if (!refused) {
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QCOMPARE(sumOfScores(*m_redis, "pool"), before);
            return;
        }
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("profile \"prod\" is a production connection: %1 "
                                                 "writes to it")
                                      .arg(command.first())
                                      .toUtf8()),
                 run.err.constData());
        const QJsonObject reply = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(reply.value(QStringLiteral("kind")).toString(), QStringLiteral("confirmation"));
        QCOMPARE(sumOfScores(*m_redis, "pool"), before);
        QCOMPARE(m_redis->run({"ZCARD", "pool"}).integer, 3LL);
    }

    void cleanupTestCase() { m_redis.reset(); }
};

QTEST_GUILESS_MAIN(TestCliProfiles)
#include "tst_cliprofiles.moc"
