// poolscope-cli alert-check end to end, the real binary against a real redis-server: the plugin
// convention's exit codes (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN), the status line and its
// performance data, the JSON report, rules from a file, from a saved connection and printed.
// One temporary HOME (XDG dirs too, no D-Bus), so the user's own settings are never touched.
#include "RedisFixture.h"

#include "load/LoadRunner.h"
#include "profiles/ProfileStore.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

// 'label'=value[UOM];[warn];[crit];[min];[max], with the units the plugin guidelines allow, a
// C-locale number and ranges such as "5:", "30" or "0.9:".
const QRegularExpression kPerfItem(QStringLiteral(
    R"(^'[^'=]+'=-?[0-9]+(\.[0-9]+)?(%|s|ms|us|B|KB|MB|TB|c)?(;(-?[0-9.]+:?|~?:?-?[0-9.]*)?){0,4}$)"));

struct StatusLine {
    QString status; // "OK", "WARNING", ...
    QString text;
    QStringList perfdata;
};

StatusLine statusLine(const CliRun &run) {
    const QString first = QString::fromUtf8(run.out.split('\n').value(0));
    StatusLine line;
    static const QRegularExpression pattern(
        QStringLiteral(R"(^POOLSCOPE (OK|WARNING|CRITICAL|UNKNOWN) - ([^|]*)(?: \| (.*))?$)"));
    const QRegularExpressionMatch match = pattern.match(first);
    if (!match.hasMatch())
        return line;
    line.status = match.captured(1);
    line.text = match.captured(2);
    if (!match.captured(3).isEmpty())
        line.perfdata = match.captured(3).split(u' ');
    return line;
}

QString item(const StatusLine &line, const QString &label) {
    for (const QString &perf : line.perfdata)
        if (perf.startsWith(u'\'' + label + QStringLiteral("'=")))
            return perf;
    return {};
}

QString describe(const CliRun &run) {
    return QStringLiteral("exit %1\nstdout: %2\nstderr: %3")
        .arg(run.exitCode)
        .arg(QString::fromUtf8(run.out), QString::fromUtf8(run.err));
}

} // namespace

class TestAlertCheck : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_home;
    std::unique_ptr<RedisFixture> m_redis;

    CliRun check(const QByteArray &key, QStringList arguments = {}) {
        return runCli(QStringList{QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                                  QString::fromUtf8(key), QStringLiteral("alert-check"),
                                  QStringLiteral("--window"), QStringLiteral("1")} +
                      arguments);
    }
    QString writeFile(const QString &name, const QByteArray &content) {
        QFile file(m_home.filePath(name));
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(content);
        return file.fileName();
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
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        qunsetenv("REDIS_URL");
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }
    void cleanupTestCase() { m_redis.reset(); }

    // Workers allocating in a pool of six: OK, and every perfdata item well formed with the
    // rules' thresholds.
    void okWithPerfdata() {
        m_redis->makePool("busy", documentationMembers(6));
        LoadRunner load;
        LoadSpec spec;
        spec.endpoint = m_redis->endpoint();
        spec.poolKey = "busy";
        spec.ratePerSecond = 300;
        spec.duration = 60s;
        QVERIFY(load.start(spec));
        const CliRun run = check("busy");
        load.cancel();
        QCOMPARE(run.exitCode, 0);
        const StatusLine line = statusLine(run);
        QVERIFY2(line.status == QLatin1String("OK"), qPrintable(describe(run)));
        QVERIFY2(line.text.startsWith(QStringLiteral("pool \"busy\": 6 members, 0 evicted, ")),
                 qPrintable(line.text));
        for (const QString &perf : line.perfdata)
            QVERIFY2(kPerfItem.match(perf).hasMatch(), qPrintable(perf));
        QCOMPARE(item(line, QStringLiteral("members")), QStringLiteral("'members'=6;5:;1:;0"));
        QCOMPARE(item(line, QStringLiteral("evicted")), QStringLiteral("'evicted'=0;;;0"));
        QCOMPARE(item(line, QStringLiteral("evicted_share")),
                 QStringLiteral("'evicted_share'=0%;30;;0;100"));
        QVERIFY2(item(line, QStringLiteral("spread")).endsWith(QStringLiteral(";1000;;0")),
                 qPrintable(describe(run)));
        QVERIFY2(item(line, QStringLiteral("jain")).endsWith(QStringLiteral(";0.9:;;0;1")),
                 qPrintable(describe(run)));
        const QString rate = item(line, QStringLiteral("rate_per_s"));
        QVERIFY2(rate.endsWith(QStringLiteral(";;;0")), qPrintable(rate));
        QVERIFY2(rate.section(u'=', 1).section(u';', 0, 0).toDouble() > 100, qPrintable(rate));
        QVERIFY2(item(line, QStringLiteral("busiest_share")).endsWith(QStringLiteral(";50;;0;100")),
                 qPrintable(describe(run)));
        QCOMPARE(run.out.count('\n'), 2); // the status line and the rule it could not judge
        QVERIFY(run.out.contains("[not judged] rate-changed: no baseline yet"));
    }

    // No workers and only three members: two warnings, both named, critical-free.
    void warning() {
        m_redis->makePool("idle", documentationMembers(3));
        const CliRun run = check("idle");
        QCOMPARE(run.exitCode, 1);
        const StatusLine line = statusLine(run);
        QCOMPARE(line.status, QStringLiteral("WARNING"));
        QVERIFY2(line.text.contains(QStringLiteral("pool \"idle\" has 3 members (at least 5 "
                                                   "wanted); 0 allocations in the last")),
                 qPrintable(describe(run)));
        QVERIFY(run.out.contains("\n[WARNING] pool-small: "));
        QVERIFY(run.out.contains("\n[WARNING] workers-stopped: "));
    }

    // An empty pool is critical at once, whatever its rule's for: the window stands for it.
    void critical() {
        const CliRun run = check("nothing-here");
        QCOMPARE(run.exitCode, 2);
        const StatusLine line = statusLine(run);
        QCOMPARE(line.status, QStringLiteral("CRITICAL"));
        QCOMPARE(line.text,
                 QStringLiteral("pool \"nothing-here\" is empty: every allocation returns nil"));
        QCOMPARE(item(line, QStringLiteral("members")), QStringLiteral("'members'=0;5:;1:;0"));
        const QString rules = writeFile(
            QStringLiteral("slow.json"),
            R"({"rules": [{"kind": "pool-empty", "forSeconds": 3600, "severity": "warning"}]})");
        const CliRun slow = check("nothing-here", {QStringLiteral("--rules"), rules});
        QCOMPARE(slow.exitCode, 1);
        QVERIFY2(slow.out.startsWith("POOLSCOPE WARNING - pool \"nothing-here\" is empty"),
                 qPrintable(describe(slow)));
        QCOMPARE(statusLine(slow).perfdata.value(0), QStringLiteral("'members'=0;1:;;0"));
    }

    void unknown_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("kind");
        QTest::newRow("bad rules")
            << QStringList{QStringLiteral("--rules"), QStringLiteral("BAD")}
            << "rules file BAD: rules[0].severity: \"urgent\" is not warning or critical"
            << "usage";
        QTest::newRow("not JSON") << QStringList{QStringLiteral("--rules"), QStringLiteral("TEXT")}
                                  << "rules file TEXT: line 2, column"
                                  << "usage";
        QTest::newRow("no rules file")
            << QStringList{QStringLiteral("--rules"), QStringLiteral("/nonexistent/rules.json")}
            << "rules file /nonexistent/rules.json: cannot read it"
            << "usage";
        QTest::newRow("window") << QStringList{QStringLiteral("--window"), QStringLiteral("0")}
                                << "--window 0 is not a number from 0.2 to 600"
                                << "usage";
        QTest::newRow("option") << QStringList{QStringLiteral("--no-such-option")}
                                << "Unknown option 'no-such-option'."
                                << "usage";
        QTest::newRow("argument") << QStringList{QStringLiteral("extra")}
                                  << "alert-check takes no positional arguments"
                                  << "usage";
        QTest::newRow("no server")
            << QStringList{QStringLiteral("--url"), QStringLiteral("unix:///nonexistent.sock")}
            << "no poll of pool \"pool\" succeeded in 1 s: cannot connect to "
               "unix:///nonexistent.sock"
            << "connection";
    }
    void unknown() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, text);
        QFETCH(QString, kind);
        writeFile(QStringLiteral("bad.json"), R"({"rules": [{"kind": "pool-empty",
                                                  "severity": "urgent"}]})");
        writeFile(QStringLiteral("text.json"), "{\"rules\": [\n  nonsense]}");
        for (QString &argument : arguments) {
            if (argument == QLatin1String("BAD"))
                argument = m_home.filePath(QStringLiteral("bad.json"));
            if (argument == QLatin1String("TEXT"))
                argument = m_home.filePath(QStringLiteral("text.json"));
        }
        text.replace(QStringLiteral("BAD"), m_home.filePath(QStringLiteral("bad.json")));
        text.replace(QStringLiteral("TEXT"), m_home.filePath(QStringLiteral("text.json")));
        m_redis->makePool("pool", documentationMembers(6));
        const CliRun run = check("pool", arguments);
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.out.startsWith("POOLSCOPE UNKNOWN - " + text.toUtf8()),
                 qPrintable(describe(run)));
        const CliRun json = check("pool", arguments + QStringList{QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 3);
        const QJsonObject report = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(report.value(QStringLiteral("status")).toString(), QStringLiteral("UNKNOWN"));
        QCOMPARE(report.value(QStringLiteral("kind")).toString(), kind);
        QVERIFY2(report.value(QStringLiteral("error")).toString().startsWith(text),
                 qPrintable(describe(json)));
    }

    // The JSON report: the status and exit code, every enabled rule's state, the perfdata and
    // the facts; a member's '|' cannot break the plugin line.
    void jsonReportAndOneLine() {
        m_redis->makePool("starving", {"m0", "m1", "m2"});
        m_redis->run({"ZADD", "starving", "1000000", "socks5://u:pw@127.0.0.1:1|x"});
        LoadRunner load;
        LoadSpec spec;
        spec.endpoint = m_redis->endpoint();
        spec.poolKey = "starving";
        spec.ratePerSecond = 200;
        spec.duration = 60s;
        QVERIFY(load.start(spec));
        const CliRun json = check("starving", {QStringLiteral("--json")});
        const CliRun text = check("starving");
        load.cancel();
        QCOMPARE(json.exitCode, 1);
        const QJsonObject report = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(report.value(QStringLiteral("status")).toString(), QStringLiteral("WARNING"));
        QCOMPARE(report.value(QStringLiteral("exit_code")).toInt(), 1);
        QCOMPARE(report.value(QStringLiteral("pool")).toString(), QStringLiteral("starving"));
        QCOMPARE_GE(report.value(QStringLiteral("polls")).toInt(), 5);
        QCOMPARE(report.value(QStringLiteral("facts")).toObject().value("members").toInt(), 4);
        QVERIFY(report.value(QStringLiteral("perfdata"))
                    .toString()
                    .startsWith(QStringLiteral("'members'=4;5:;1:;0 ")));
        QHash<QString, QJsonObject> alerts;
        for (const QJsonValue &alert : report.value(QStringLiteral("alerts")).toArray())
            alerts.insert(alert[QStringLiteral("rule")].toString(), alert.toObject());
        QCOMPARE(alerts.size(), 13);
        const QJsonObject starved = alerts.value(QStringLiteral("member-starved"));
        QCOMPARE(starved.value(QStringLiteral("state")).toString(), QStringLiteral("firing"));
        QCOMPARE(starved.value(QStringLiteral("member")).toString().left(12),
                 QStringLiteral("socks5://u:*"));
        QCOMPARE(alerts.value(QStringLiteral("pool-empty")).value("state").toString(),
                 QStringLiteral("ok"));
        QCOMPARE(alerts.value(QStringLiteral("rate-changed")).value("state").toString(),
                 QStringLiteral("unknown"));
        QVERIFY2(!json.out.contains("pw@"), json.out.constData());

        QCOMPARE(text.exitCode, 1);
        const QByteArray first = text.out.split('\n').value(0);
        QCOMPARE(first.count('|'), 1); // only the one before the perfdata
        QVERIFY2(first.contains("socks5://u:****~") && first.contains("\\x7cx"), first.constData());
        QVERIFY(!text.out.contains("pw@"));
    }

    // --print-rules: the rules in force, as a rules file that reads back the same.
    void printRulesAndProfiles() {
        const CliRun defaults =
            runCli({QStringLiteral("alert-check"), QStringLiteral("--print-rules")});
        QCOMPARE(defaults.exitCode, 0);
        const AlertRulesParse parsed = parseAlertRules(defaults.out);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QCOMPARE(*parsed.rules, AlertRuleSet::defaults());

        // A saved connection's rules for its pool are used without --rules.
        ConnectionProfile profile;
        profile.name = QStringLiteral("team");
        profile.url = m_redis->url();
        profile.poolKey = "team-pool";
        AlertRule strict = AlertRule::defaults(AlertKind::PoolSmall);
        strict.parameters[QStringLiteral("minMembers")] = 20;
        strict.severity = AlertSeverity::Critical;
        profile.alertRules.insert("team-pool", AlertRuleSet{{strict}});
        QCOMPARE(ProfileStore().save(profile), QString());
        m_redis->makePool("team-pool", documentationMembers(10));
        const CliRun run = runCli({QStringLiteral("--profile"), QStringLiteral("team"),
                                   QStringLiteral("alert-check"), QStringLiteral("--window"),
                                   QStringLiteral("0.5")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.out.startsWith("POOLSCOPE CRITICAL - pool \"team-pool\" has 10 members (at "
                                    "least 20 wanted) | 'members'=10;;20:;0"),
                 qPrintable(describe(run)));
        // profile add --rules saves a file's rules for the pool; --replace without keeps them.
        const QString file =
            writeFile(QStringLiteral("team.json"), AlertRuleSet{{strict}}.toJson());
        const QString bad = writeFile(QStringLiteral("team-bad.json"),
                                      R"({"rules": [{"kind": "jain-low", "minJain": 2}]})");
        const QStringList add{
            QStringLiteral("profile"),  QStringLiteral("add"), QStringLiteral("team2"),
            QStringLiteral("--url"),    m_redis->url(),        QStringLiteral("--key"),
            QStringLiteral("team-pool")};
        QCOMPARE(runCli(add + QStringList{QStringLiteral("--rules"), file}).exitCode, 0);
        QCOMPARE(runCli(add + QStringList{QStringLiteral("--replace")}).exitCode, 0);
        const ProfileLoadResult saved = ProfileStore().load(QStringLiteral("team2"));
        QVERIFY2(saved.ok(), qPrintable(saved.error));
        QCOMPARE(saved.profile->alertRulesFor("team-pool"), AlertRuleSet{{strict}});
        const CliRun refused =
            runCli(add + QStringList{QStringLiteral("--replace"), QStringLiteral("--rules"), bad});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("rules[0].minJain: 2 is not a number from 0 to 1"),
                 refused.err.constData());

        const CliRun printed =
            runCli({QStringLiteral("--profile"), QStringLiteral("team2"),
                    QStringLiteral("alert-check"), QStringLiteral("--print-rules")});
        QCOMPARE(*parseAlertRules(printed.out).rules, AlertRuleSet{{strict}});
    }

    void help() {
        const CliRun run = runCli({QStringLiteral("alert-check"), QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        for (const AlertKind kind : allAlertKinds())
            QVERIFY2(run.out.contains("\n  " + alertKindName(kind).toUtf8() + ' '),
                     qPrintable(alertKindName(kind)));
        QVERIFY(run.out.contains("max_check_attempts"));
        QVERIFY(runCli({QStringLiteral("--help")}).out.contains("alert-check [--rules FILE]"));
    }
};

QTEST_GUILESS_MAIN(TestAlertCheck)
#include "tst_alertcheck.moc"
