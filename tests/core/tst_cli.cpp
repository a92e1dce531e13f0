// poolscope-cli end to end, the real binary against a real redis-server: the pool's commands (seed,
// allocate, evict, restore, stats, migrate) and the errors in their input. (Watching, recording,
// secrets, usage and failing connections: tst_cliprocess.)
#include "LoopbackProxies.h"
#include "RedisFixture.h"

#include "pool/PoolKeys.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QtTest>

#include <csignal>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace poolscope;
using namespace poolscope::testing;

class TestCli : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;

    CliRun cli(QStringList arguments, const QByteArray &input = {}) {
        return runCli(QStringList{QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                                  QStringLiteral("pool")} +
                          arguments,
                      input);
    }
    static QJsonObject json(const CliRun &run) {
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        return QJsonDocument::fromJson(lines.last()).object();
    }
    double score(const QByteArray &member) {
        return m_redis->run({"ZSCORE", "pool", member}).toDouble();
    }

private Q_SLOTS:

    void init() {
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }
    void cleanup() { m_redis.reset(); }

    void scriptShaAndScriptCache() {
        const CliRun sha = cli({QStringLiteral("script-sha")});
        QCOMPARE(sha.exitCode, 0);
        QCOMPARE(sha.out, QByteArray("43144af8cdf336c396cb45b01cd6e0b359e2d9d0\n"));
        m_redis->makePool("pool", {"a:1"});
        QCOMPARE(cli({QStringLiteral("allocate")}).exitCode, 0);
        // Ask the way an operator would: redis-cli SCRIPT EXISTS.
        QProcess redisCli;
        redisCli.start(QStringLiteral("redis-cli"),
                       {QStringLiteral("-s"), m_redis->endpoint().socketPath,
                        QStringLiteral("SCRIPT"), QStringLiteral("EXISTS"),
                        QString::fromLatin1(sha.out.trimmed())});
        QVERIFY(redisCli.waitForFinished(10000));
        QCOMPARE(redisCli.readAllStandardOutput().trimmed(), QByteArray("1"));
    }

    void seedGoodList() {
        const QByteArray list = "# demo\r\n192.0.2.1:8080\r\nhttp://192.0.2.2:3128\r\n"
                                "socks5://198.51.100.7:1080\r\n192.0.2.1:8080\r\n";
        const CliRun run = cli({QStringLiteral("seed"), QStringLiteral("-"),
                                QStringLiteral("--start"), QStringLiteral("5")},
                               list);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("accepted 3, rejected 0, duplicates 1, added 3"), run.out);
        QCOMPARE(score("192.0.2.1:8080"), 5.0);
        QCOMPARE(score("socks5://198.51.100.7:1080"), 5.0);
        QCOMPARE(m_redis->run({"ZCARD", "pool"}).integer, 3LL);
    }

    void seedWithRejectedLines() {
        QTemporaryFile file;
        QVERIFY(file.open());
        file.write(
            "192.0.2.1:8080\nnot a proxy\n192.0.2.2:0\nftp://192.0.2.3:21\n192.0.2.4:65536\n");
        file.close();
        const CliRun run = cli({QStringLiteral("seed"), file.fileName()});
        QCOMPARE(run.exitCode, 65);
        QVERIFY2(run.out.contains("rejected line 2: not a proxy"), run.out);
        QVERIFY2(run.out.contains("rejected line 3:"), run.out);
        QVERIFY2(run.out.contains("rejected line 4:"), run.out);
        QVERIFY2(run.out.contains("rejected line 5:"), run.out);
        QCOMPARE(m_redis->run({"ZCARD", "pool"}).integer, 1LL); // the good line is in

        // --strict writes nothing at all.
        const CliRun strict =
            cli({QStringLiteral("--key"), QStringLiteral("strictpool"), QStringLiteral("seed"),
                 file.fileName(), QStringLiteral("--strict")});
        QCOMPARE(strict.exitCode, 65);
        QVERIFY(strict.out.contains("nothing written"));
        QCOMPARE(m_redis->run({"EXISTS", "strictpool"}).integer, 0LL);
    }

    void seedJsonDryRunAndStartMin() {
        m_redis->run({"ZADD", "pool", "40", "192.0.2.1:80", "45", "192.0.2.2:80"});
        CliRun run =
            cli({QStringLiteral("--json"), QStringLiteral("seed"), QStringLiteral("-"),
                 QStringLiteral("--start"), QStringLiteral("min"), QStringLiteral("--dry-run")},
                "192.0.2.3:80\n192.0.2.1:80\n");
        QCOMPARE(run.exitCode, 0);
        QJsonObject object = json(run);
        QCOMPARE(object.value(QStringLiteral("start_count")).toDouble(), 40.0);
        QCOMPARE(object.value(QStringLiteral("written")).toBool(), false);
        QCOMPARE(object.value(QStringLiteral("added")).toArray().size(), 1);
        QVERIFY(m_redis->run({"ZSCORE", "pool", "192.0.2.3:80"}).isNil());

        run = cli({QStringLiteral("--json"), QStringLiteral("seed"), QStringLiteral("-"),
                   QStringLiteral("--start"), QStringLiteral("min")},
                  "192.0.2.3:80\n");
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(score("192.0.2.3:80"), 40.0);
    }

    void seedBadStartCounts_data() {
        QTest::addColumn<QString>("start");
        QTest::newRow("negative") << "-3";
        QTest::newRow("nan") << "nan";
        QTest::newRow("huge") << "1e300";
        QTest::newRow("word") << "lots";
    }
    void seedBadStartCounts() {
        QFETCH(QString, start);
        const CliRun run =
            cli({QStringLiteral("seed"), QStringLiteral("-"), QStringLiteral("--start"), start},
                "192.0.2.1:80\n");
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--start"), run.err);
        QCOMPARE(m_redis->run({"EXISTS", "pool"}).integer, 0LL);
    }

    void overwriteOfSeveralNeedsYes() {
        m_redis->run({"ZADD", "pool", "9", "192.0.2.1:80", "9", "192.0.2.2:80"});
        const QByteArray list = "192.0.2.1:80\n192.0.2.2:80\n";
        CliRun run =
            cli({QStringLiteral("seed"), QStringLiteral("-"), QStringLiteral("--overwrite")}, list);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--yes"), run.err);
        QCOMPARE(score("192.0.2.1:80"), 9.0);
        run = cli({QStringLiteral("seed"), QStringLiteral("-"), QStringLiteral("--overwrite"),
                   QStringLiteral("--yes")},
                  list);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(score("192.0.2.1:80"), 0.0);
    }

    void allocatePrintsMembers() {
        m_redis->run({"ZADD", "pool", "1", "b", "0", "a"});
        const CliRun run =
            cli({QStringLiteral("allocate"), QStringLiteral("-n"), QStringLiteral("3")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("a\na\nb\n"));
    }

    void allocateOnEmptyPool() {
        const CliRun run = cli({QStringLiteral("allocate")});
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.out, QByteArray());
        QVERIFY2(run.err.contains("empty"), run.err);
    }

    void evictAndRestore() {
        m_redis->run({"ZADD", "pool", "10", "a", "30", "b", "40", "c"});
        CliRun run = cli({QStringLiteral("evict"), QStringLiteral("a")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("saved count 10"), run.out);
        run = cli({QStringLiteral("list"), QStringLiteral("--evicted")});
        QCOMPARE(run.out, QByteArray("a\t10\n"));
        run = cli({QStringLiteral("--json"), QStringLiteral("restore"), QStringLiteral("a"),
                   QStringLiteral("--policy"), QStringLiteral("zero")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject restored =
            json(run).value(QStringLiteral("restored")).toArray().at(0).toObject();
        QCOMPARE(restored.value(QStringLiteral("restored_count")).toDouble(), 0.0);
        QCOMPARE(restored.value(QStringLiteral("forecast_run")).toDouble(), 30.0);
        run = cli({QStringLiteral("list")});
        QCOMPARE(run.out, QByteArray("a\t0\nb\t30\nc\t40\n"));
    }

    void severalMembersNeedYes() {
        m_redis->run({"ZADD", "pool", "1", "a", "2", "b"});
        CliRun run = cli({QStringLiteral("evict"), QStringLiteral("a"), QStringLiteral("b")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(m_redis->run({"ZCARD", "pool"}).integer, 2LL);
        run = cli({QStringLiteral("evict"), QStringLiteral("a"), QStringLiteral("b"),
                   QStringLiteral("--yes")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(m_redis->run({"ZCARD", "pool"}).integer, 0LL);
    }

    void evictUnknownMember() {
        m_redis->run({"ZADD", "pool", "1", "a"});
        const CliRun run = cli({QStringLiteral("evict"), QStringLiteral("ghost")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("\"ghost\"") && run.err.contains("not a member"), run.err);
    }

    void statsJson() {
        m_redis->run({"ZADD", "pool", "1", "a", "2", "b", "3", "c", "10", "d"});
        const CliRun run = cli({QStringLiteral("--json"), QStringLiteral("stats")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject object = json(run);
        QCOMPARE(object.value(QStringLiteral("size")).toInt(), 4);
        QCOMPARE(object.value(QStringLiteral("median")).toDouble(), 2.5);
        QCOMPARE(object.value(QStringLiteral("spread")).toDouble(), 9.0);
    }

    void wrongTypeKey() {
        m_redis->run({"SET", "pool", "x"});
        const CliRun run = cli({QStringLiteral("allocate")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("holds a string, not a sorted set"), run.err);
    }

    // Issue 10.4: every member is checked first; one wrong member and nothing changes.
    void evictIsAllOrNothing() {
        m_redis->run({"ZADD", "pool", "5", "a", "6", "c"});
        const CliRun run =
            cli({QStringLiteral("--json"), QStringLiteral("evict"), QStringLiteral("a"),
                 QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("--yes")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("\"b\" is not a member of the pool"), run.err);
        const QJsonObject object = json(run);
        QCOMPARE(object.value(QStringLiteral("evicted")).toArray().size(), 0);
        QCOMPARE(object.value(QStringLiteral("refused")).toArray().size(), 1);
        QCOMPARE(object.value(QStringLiteral("refused")).toArray()[0].toObject().value("member"),
                 QJsonValue(QStringLiteral("b")));
        QCOMPARE(score("a"), 5.0);
        QCOMPARE(score("c"), 6.0);
        QCOMPARE(m_redis->run({"HLEN", PoolKeys("pool").evicted()}).integer, 0LL);
    }

    // Issue 10.6: names that are not printable UTF-8 are escaped, one line each, keys distinct.
    void unprintableMembersStayApart() {
        m_redis->run({"ZADD", "pool", "0", "\xff", "0", "\xfe", "0", "\xfd", "0", "ok"});
        const CliRun allocate = cli({QStringLiteral("--json"), QStringLiteral("allocate"),
                                     QStringLiteral("-n"), QStringLiteral("40")});
        QCOMPARE(allocate.exitCode, 0);
        const QJsonObject perMember = json(allocate).value(QStringLiteral("per_member")).toObject();
        QCOMPARE(perMember.size(), 4);
        int sum = 0;
        for (const QJsonValue &value : perMember)
            sum += value.toInt();
        QCOMPARE(sum, 40);
        QVERIFY(perMember.contains(QStringLiteral("\\xff")));
        m_redis->run({"ZADD", "pool", "0", "a\nb", "0", "back\\slash"});
        const CliRun list = cli({QStringLiteral("list")});
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(list.out.count('\n'), 6);
        QVERIFY2(list.out.startsWith("a\\nb\t0\nback\\\\slash\t0\n"), list.out);
        QVERIFY2(list.out.contains("\\xfd\t10\n"), list.out);
    }

    // Issue 10, "also": fractions are refused, not truncated.
    void fractionsAreRefused_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("workers") << QStringList{"allocate", "-n", "5", "--workers", "2.7"};
        QTest::newRow("pipeline") << QStringList{"allocate", "-n", "5", "--pipeline", "1.5"};
        QTest::newRow("threads") << QStringList{"allocate", "-n", "5", "--threads", "1.5"};
        QTest::newRow("members") << QStringList{"scenario", "reset",     "--policy",
                                                "min",      "--members", "3.5"};
    }
    void fractionsAreRefused() {
        QFETCH(QStringList, arguments);
        m_redis->makePool("pool", {"a"});
        const CliRun run = cli(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("is not a whole number"), run.err);
        QCOMPARE(score("a"), 0.0);
    }

    // Issue 10, "also": restore --policy start needs --start.
    void restoreStartNeedsStart() {
        m_redis->makePool("pool", {"a"}, 9);
        QCOMPARE(cli({QStringLiteral("evict"), QStringLiteral("a")}).exitCode, 0);
        const CliRun run = cli({QStringLiteral("restore"), QStringLiteral("a"),
                                QStringLiteral("--policy"), QStringLiteral("start")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("needs --start"), run.err);
        QVERIFY(m_redis->run({"ZSCORE", "pool", "a"}).isNil());
    }

    // Issue 10, "also": members at +-inf are shown as invalid and left out of the figures.
    void infiniteCountsAreInvalid() {
        m_redis->run({"ZADD", "pool", "-inf", "low", "2", "a", "4", "b", "+inf", "high"});
        const CliRun stats = cli({QStringLiteral("--json"), QStringLiteral("stats")});
        QCOMPARE(stats.exitCode, 0);
        const QJsonObject object = json(stats);
        QCOMPARE(object.value(QStringLiteral("invalid")).toInt(), 2);
        QCOMPARE(object.value(QStringLiteral("min")).toDouble(), 2.0);
        QCOMPARE(object.value(QStringLiteral("total")).toDouble(), 6.0);
        const CliRun list = cli({QStringLiteral("list")});
        QVERIFY2(list.out.contains("low\t-inf (invalid count)\n"), list.out);
        QVERIFY2(list.out.contains("high\tinf (invalid count)\n"), list.out);
    }

    // Issue 10.2: the old companion hash moves to its new name when that is unambiguous.
    void migrateCompanion() {
        const PoolKeys keys("pool");
        m_redis->makePool("pool", {"a"}, 1);
        m_redis->run({"HSET", keys.legacyEvicted(), "gone", "7"});
        // Until then its members are not read: commands on the pool say so.
        const CliRun before = cli({QStringLiteral("list"), QStringLiteral("--evicted")});
        QCOMPARE(before.exitCode, 0);
        QVERIFY2(before.err.contains("1 evicted member(s)") &&
                     before.err.contains("migrate-companion"),
                 before.err);
        const CliRun moved = cli({QStringLiteral("migrate-companion")});
        QCOMPARE(moved.exitCode, 0);
        QVERIFY2(moved.out.contains("moved 1 evicted members"), moved.out);
        QCOMPARE(m_redis->run({"HGET", keys.evicted(), "gone"}).text, QByteArray("7"));
        QCOMPARE(m_redis->run({"EXISTS", keys.legacyEvicted()}).integer, 0LL);
        QCOMPARE(cli({QStringLiteral("migrate-companion")}).exitCode, 0); // nothing left
        const CliRun after = cli({QStringLiteral("list"), QStringLiteral("--evicted")});
        QVERIFY2(after.out.contains("gone") && !after.err.contains("warning"), after.err);
        // Shared: "{pool}" used the same old hash, and exists: refused, nothing moves.
        m_redis->run({"HSET", keys.legacyEvicted(), "other", "3"});
        m_redis->run({"ZADD", "{pool}", "0", "x"});
        const CliRun refused = cli({QStringLiteral("migrate-companion")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("{pool}"), refused.err);
        QCOMPARE(m_redis->run({"HGET", keys.legacyEvicted(), "other"}).text, QByteArray("3"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
