// The pool's audit trail against a real redis-server: the CLI, the dashboard's writer and a
// guard write to one trail, each entry in the same script as its action, with who and why;
// `poolscope-cli audit` filters it and prints stable JSON; the old guard-events stream is still
// read; a trail of the wrong type refuses every write whole; the cap trims; and a seed killed
// with SIGKILL part-way leaves the pool and its entries in step. The rights (a writer without
// XADD) are in tst_acl.cpp, the cluster slot in tst_cluster.cpp and tst_poolkeys.cpp.
#include "GuardFixture.h"

#include "audit/AuditTrail.h"
#include "monitor/PoolWriter.h"
#include "pool/PoolOperations.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

// Every entry of a trail, oldest first, read in pages.
QList<AuditEntry> wholeTrail(RedisFixture &redis, const QByteArray &pool) {
    QList<AuditEntry> entries;
    AuditTrail trail(redis.admin(), PoolKeys(pool));
    QByteArray last = "0-0";
    for (;;) {
        const QList<AuditEntry> page = trail.after(last, 1000, &last);
        entries += page;
        if (page.size() < 1000)
            return entries;
    }
}

QStringList actionsOf(const QJsonArray &entries) {
    QStringList actions;
    for (const QJsonValue &entry : entries)
        actions << entry[QStringLiteral("action")].toString();
    return actions;
}

} // namespace

class TestAudit : public QObject, GuardFixture {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase() { stopServers(); }
    void parsesTimes_data();
    void parsesTimes();
    void everyWriterInOneTrail();
    void auditCommandFilters_data();
    void auditCommandFilters();
    void trailOfTheWrongTypeRefusesEveryWrite();
    void tooLongAReasonIsRefusedBeforeAnything();
    void capTrimsTheTrail();
    void killNineMidSeedLeavesActionsAndEntriesInStep();
};

void TestAudit::initTestCase() {
    QString error;
    QVERIFY2(startServers(&error), qPrintable(error));
}

void TestAudit::parsesTimes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("expected"); // -1: refused
    const qint64 now = 1'800'000'000'000;
    QTest::newRow("seconds ago") << "90s" << now - 90'000;
    QTest::newRow("minutes ago") << "10m" << now - 600'000;
    QTest::newRow("hours ago") << "2h" << now - 7'200'000;
    QTest::newRow("days ago") << " 1d " << now - 86'400'000;
    QTest::newRow("weeks ago") << "1w" << now - 604'800'000;
    QTest::newRow("UTC") << "2024-04-05T03:12:00Z" << qint64(1712286720000);
    QTest::newRow("offset, ms") << "2024-04-05T05:12:00.250+02:00" << qint64(1712286720250);
    const QDateTime local(QDate(2024, 4, 5), QTime(3, 12));
    QTest::newRow("local, space") << "2024-04-05 03:12" << local.toMSecsSinceEpoch();
    QTest::newRow("date alone") << "2024-04-05"
                                << QDateTime(QDate(2024, 4, 5), QTime(0, 0)).toMSecsSinceEpoch();
    QTest::newRow("word") << "yesterday" << qint64(-1);
    QTest::newRow("unknown unit") << "10y" << qint64(-1);
    QTest::newRow("negative") << "-5m" << qint64(-1);
    QTest::newRow("empty") << "" << qint64(-1);
}

void TestAudit::parsesTimes() {
    QFETCH(QString, text);
    QFETCH(qint64, expected);
    QString error;
    const std::optional<qint64> parsed = parseAuditTime(text, 1'800'000'000'000, &error);
    if (expected < 0) {
        QVERIFY(!parsed);
        QVERIFY2(error.contains(u"ISO 8601") && error.contains(u"10m"), qPrintable(error));
    } else {
        QVERIFY2(parsed, qPrintable(error));
        QCOMPARE(*parsed, expected);
    }
}

// The CLI (seed, evict), the dashboard's writer (restore) and a guard (evict) in one trail,
// each with its actor and its reason; member ids with credentials masked in every field.
void TestAudit::everyWriterInOneTrail() {
    const QByteArray key = "team";
    const QByteArray secretMember =
        "http://alice:topsecret@127.0.0.1:" + QByteArray::number(m_closedPort);
    QTemporaryDir directory;
    QFile list(directory.filePath(QStringLiteral("list.txt")));
    QVERIFY(list.open(QIODevice::WriteOnly));
    list.write(proxyMember(0) + '\n' + proxyMember(1) + '\n' + secretMember + '\n');
    list.close();
    CliRun run = runCli(cliBase(key) + QStringList{QStringLiteral("seed"), list.fileName(),
                                                   QStringLiteral("--reason"),
                                                   QStringLiteral("onboarding batch 7")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    run = runCli(cliBase(key) + QStringList{QStringLiteral("evict"), proxyMember(0),
                                            QStringLiteral("--reason"),
                                            QStringLiteral("ticket OPS-42")});
    QVERIFY2(run.exitCode == 0, run.err.constData());

    // The dashboard's writes go through the writer, which names the dashboard.
    PoolWriter writer;
    QSignalSpy restored(&writer, &PoolWriter::membersRestored);
    writer.setTarget(m_redis.endpoint(), key);
    writer.restore({proxyMember(0)}, RestorePolicy::Min, 0, QStringLiteral("back up"));
    QVERIFY(restored.wait(10000));

    // A guard round evicts the member whose proxy refuses, its failed check as the reason.
    run = runCli(cliBase(key) +
                 QStringList{QStringLiteral("guard"), QStringLiteral("--target"), targetUrl(),
                             QStringLiteral("--fall"), QStringLiteral("1"),
                             QStringLiteral("--rounds"), QStringLiteral("1"),
                             QStringLiteral("--max-evicted-percent"), QStringLiteral("100")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(m_redis.run({"ZSCORE", key, secretMember}).isNil());

    run = runCli(cliBase(key) + QStringList{QStringLiteral("--json"), QStringLiteral("audit")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject report = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(report[QStringLiteral("trail")].toString(), QString::fromUtf8(PoolKeys(key).audit()));
    QVERIFY(report[QStringLiteral("complete")].toBool());
    const QJsonArray entries = report[QStringLiteral("entries")].toArray();
    QCOMPARE(actionsOf(entries),
             (QStringList{"evict", "restore", "evict", "seed"})); // newest first
    const QString host = QSysInfo::machineHostName();
    for (const QJsonValue &entry : entries) {
        QCOMPARE(entry[QStringLiteral("user")].toString(), QStringLiteral("default"));
        QCOMPARE(entry[QStringLiteral("host")].toString(), host);
        QCOMPARE_GT(entry[QStringLiteral("pid")].toInteger(), 0);
        QCOMPARE(entry[QStringLiteral("source")].toString(), QStringLiteral("audit"));
    }
    const QJsonObject guard = entries[0].toObject(), dashboard = entries[1].toObject(),
                      evict = entries[2].toObject(), seed = entries[3].toObject();
    QVERIFY(guard[QStringLiteral("program")].toString().startsWith(u"poolscope-cli"));
    QVERIFY(!guard[QStringLiteral("guard")].toString().isEmpty());
    QVERIFY2(guard[QStringLiteral("reason")].toString().contains(u"refused"),
             qPrintable(guard[QStringLiteral("reason")].toString()));
    QCOMPARE(guard[QStringLiteral("members")][0][QStringLiteral("member")].toString(),
             QStringLiteral("http://alice:****~53336a@127.0.0.1:%1").arg(m_closedPort));
    QVERIFY(dashboard[QStringLiteral("program")].toString().startsWith(u"poolscope dashboard"));
    QCOMPARE(dashboard[QStringLiteral("pid")].toInteger(), QCoreApplication::applicationPid());
    QCOMPARE(dashboard[QStringLiteral("reason")].toString(), QStringLiteral("back up"));
    QCOMPARE(dashboard[QStringLiteral("policy")].toString(), QStringLiteral("min"));
    QCOMPARE(dashboard[QStringLiteral("guard")].toString(), QString());
    QCOMPARE(evict[QStringLiteral("reason")].toString(), QStringLiteral("ticket OPS-42"));
    QCOMPARE(evict[QStringLiteral("members")][0][QStringLiteral("before")].toDouble(), 0.0);
    QCOMPARE(seed[QStringLiteral("reason")].toString(), QStringLiteral("onboarding batch 7"));
    QCOMPARE(seed[QStringLiteral("count")].toInt(), 3);
    QCOMPARE(seed[QStringLiteral("members")][0][QStringLiteral("before")], QJsonValue());
    QCOMPARE(seed[QStringLiteral("members")][0][QStringLiteral("after")].toDouble(), 0.0);
    QVERIFY(seed[QStringLiteral("program")].toString().startsWith(u"poolscope-cli"));
    // The password is nowhere in the stream, in any field.
    const RedisReply raw = m_redis.run({"XRANGE", PoolKeys(key).audit(), "-", "+"});
    QCOMPARE(raw.elements.size(), 4);
    QVERIFY(!raw.toDisplayString().contains(u"topsecret"));
    // The text form: one line per entry, who and why.
    run = runCli(cliBase(key) + QStringList{QStringLiteral("audit")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.out.count('\n'), 4);
    QVERIFY2(run.out.contains("reason: ticket OPS-42") && run.out.contains(" guard "),
             run.out.constData());
}

void TestAudit::auditCommandFilters_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("expected"); // "action/user", newest first
    QTest::addColumn<bool>("complete");
    const QStringList all{"evict/guard-user", "restore/alice", "evict/dashboard-user", "seed/alice",
                          "evict/"};
    QTest::newRow("everything") << QStringList() << all << true;
    QTest::newRow("one action") << QStringList{"--action", "evict"}
                                << QStringList{"evict/guard-user", "evict/dashboard-user", "evict/"}
                                << true;
    QTest::newRow("two actions") << QStringList{"--action", "seed,restore"}
                                 << QStringList{"restore/alice", "seed/alice"} << true;
    QTest::newRow("member") << QStringList{"--member", "m2"}
                            << QStringList{"evict/guard-user", "seed/alice"} << true;
    QTest::newRow("member with credentials")
        << QStringList{"--member", "http://bob:pw@m3"} << QStringList{"seed/alice"} << true;
    QTest::newRow("actor, any case") << QStringList{"--actor", "ALICE@ops-1"}
                                     << QStringList{"restore/alice", "seed/alice"} << true;
    QTest::newRow("the dashboard") << QStringList{"--actor", "poolscope dashboard"}
                                   << QStringList{"evict/dashboard-user"} << true;
    QTest::newRow("guards, old and new")
        << QStringList{"--actor", "guard"} << QStringList{"evict/guard-user", "evict/"} << true;
    QTest::newRow("since, relative") << QStringList{"--since", "1h"} << all.mid(0, 4) << true;
    QTest::newRow("since, at the old entry")
        << QStringList{"--since", "2020-09-13T12:26:40Z"} << all << true;
    QTest::newRow("since, after it")
        << QStringList{"--since", "2020-09-13T12:26:40.001Z"} << all.mid(0, 4) << true;
    QTest::newRow("limit") << QStringList{"--limit", "2"} << all.mid(0, 2) << false;
    QTest::newRow("filters together")
        << QStringList{"--action", "evict", "--actor", "user", "--since", "1d"}
        << QStringList{"evict/guard-user", "evict/dashboard-user"} << true;
}

// Known entries from three actors plus one from the old guard-events stream (written before the
// trail, at 2020-09-13T12:26:40Z), read back through the CLI with each filter.
void TestAudit::auditCommandFilters() {
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, expected);
    QFETCH(bool, complete);
    const QByteArray key = "filtered";
    if (m_redis.run({"EXISTS", PoolKeys(key).audit()}).integer == 0) {
        m_redis.run({"XADD", PoolKeys(key).guardEvents(), "1600000000000-0", "t", "1600000000000",
                     "kind", "evict", "member", "m9", "reason", "old guard"});
        auto connection = m_redis.connect();
        PoolOperations alice(*connection, key);
        alice.setActor({QStringLiteral("alice"), QStringLiteral("ops-1"),
                        QStringLiteral("poolscope-cli 9.9"), 11});
        SeedOptions options;
        options.reason = QStringLiteral("new list");
        alice.seed({"m1", "m2", "http://bob:pw@m3"}, options);
        PoolOperations dashboard(*connection, key);
        dashboard.setActor({QStringLiteral("dashboard-user"), QStringLiteral("desk-2"),
                            QStringLiteral("poolscope dashboard 9.9"), 22});
        dashboard.evict("m1", {}, QStringLiteral("flaky"));
        alice.restore("m1", RestorePolicy::Keep);
        PoolOperations guard(*connection, key);
        guard.setActor({QStringLiteral("guard-user"), QStringLiteral("ops-1"),
                        QStringLiteral("poolscope-cli 9.9"), 33});
        guard.evict("m2", "ops-1:33:beef", QStringLiteral("3 consecutive failed checks"));
    }
    const CliRun run = runCli(
        cliBase(key) + QStringList{QStringLiteral("--json"), QStringLiteral("audit")} + arguments);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject report = QJsonDocument::fromJson(run.out).object();
    QStringList found;
    for (const QJsonValue &entry : report[QStringLiteral("entries")].toArray())
        found << entry[QStringLiteral("action")].toString() + u'/' +
                     entry[QStringLiteral("user")].toString();
    QCOMPARE(found, expected);
    QCOMPARE(report[QStringLiteral("count")].toInt(), expected.size());
    QCOMPARE(report[QStringLiteral("complete")].toBool(), complete);
    // The old stream's entry, as the trail shows it.
    for (const QJsonValue &entry : report[QStringLiteral("entries")].toArray())
        if (entry[QStringLiteral("source")].toString() == u"guard-events") {
            QCOMPARE(entry[QStringLiteral("time")].toString(),
                     QStringLiteral("2020-09-13T12:26:40.000Z"));
            QCOMPARE(entry[QStringLiteral("reason")].toString(), QStringLiteral("old guard"));
            QCOMPARE(entry[QStringLiteral("members")][0][QStringLiteral("member")].toString(),
                     QStringLiteral("m9"));
        }
}

// A trail key that holds something else: every write is refused before it changes anything,
// naming the key and its type.
void TestAudit::trailOfTheWrongTypeRefusesEveryWrite() {
    const QByteArray key = "wrongtrail";
    m_redis.makePool(key, {"m0", "m1"}, 4);
    m_redis.run({"HSET", PoolKeys(key).evicted(), "m5", "1"});
    m_redis.run({"SET", PoolKeys(key).audit(), "not a stream"});
    const auto refused = [&](const QStringList &arguments) {
        const CliRun run = runCli(cliBase(key) + arguments, "127.0.0.1:9\n");
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(PoolKeys(key).audit()) && run.err.contains("string"),
                 run.err.constData());
    };
    refused({QStringLiteral("evict"), QStringLiteral("m0")});
    refused({QStringLiteral("restore"), QStringLiteral("m5"), QStringLiteral("--policy"),
             QStringLiteral("keep")});
    refused({QStringLiteral("seed"), QStringLiteral("-")});
    QCOMPARE(m_redis.run({"ZCARD", key}).integer, 2);
    QCOMPARE(m_redis.run({"ZSCORE", key, "m0"}).toDouble(), 4.0);
    QCOMPARE(m_redis.run({"HLEN", PoolKeys(key).evicted()}).integer, 1);
    QCOMPARE(m_redis.run({"GET", PoolKeys(key).audit()}).text, QByteArray("not a stream"));
}

void TestAudit::tooLongAReasonIsRefusedBeforeAnything() {
    const QByteArray key = "longreason";
    m_redis.makePool(key, {"m0"}, 1);
    const CliRun run =
        runCli(cliBase(key) + QStringList{QStringLiteral("evict"), QStringLiteral("m0"),
                                          QStringLiteral("--reason"),
                                          QString(kMaxAuditReasonLength + 1, u'x')});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("--reason"), run.err.constData());
    QCOMPARE(m_redis.run({"ZSCORE", key, "m0"}).toDouble(), 1.0);
    QCOMPARE(m_redis.run({"EXISTS", PoolKeys(key).audit()}).integer, 0);
}

// MAXLEN ~ trims whole listpack nodes (100 entries here): the trail stays near its cap.
void TestAudit::capTrimsTheTrail() {
    const QByteArray key = "capped-trail";
    m_redis.makePool(key, {"m0", "m1"}, 0);
    auto connection = m_redis.connect();
    PoolOperations pool(*connection, key);
    pool.setAuditCap(200);
    for (int i = 0; i < 500; ++i) {
        pool.evict("m0");
        pool.restore("m0", RestorePolicy::Keep);
    }
    const qint64 length = m_redis.run({"XLEN", PoolKeys(key).audit()}).integer;
    qInfo("1,000 actions, cap 200: %lld entries kept", length);
    QVERIFY2(length >= 200 && length <= 300, qPrintable(QString::number(length)));
    // The newest are kept.
    const QList<AuditEntry> newest = AuditTrail(*connection, PoolKeys(key)).after({}, 1);
    QCOMPARE(newest.value(0).action, AuditAction::Restore);
}

// A big seed through the CLI, killed with SIGKILL part-way: each batch's entry is written by the
// batch's own script, so every member in the pool is named by exactly one entry and no entry
// names a member that is not there.
void TestAudit::killNineMidSeedLeavesActionsAndEntriesInStep() {
    const QByteArray key = "killed-seed";
    constexpr int kMembers = 300000;
    QTemporaryDir directory;
    QFile list(directory.filePath(QStringLiteral("big.txt")));
    QVERIFY(list.open(QIODevice::WriteOnly));
    for (int i = 0; i < kMembers; ++i)
        list.write(QByteArray("127.") + QByteArray::number(i >> 16) + '.' +
                   QByteArray::number((i >> 8) & 255) + '.' + QByteArray::number(i & 255) +
                   ":8080\n");
    list.close();
    QProcess cli;
    cli.start(QStringLiteral(POOLSCOPE_CLI_PATH),
              cliBase(key) + QStringList{QStringLiteral("seed"), list.fileName(),
                                         QStringLiteral("--reason"), QStringLiteral("big one")});
    QVERIFY(cli.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(m_redis.run({"ZCARD", key}).integer > kMembers / 10, 60000);
    ::kill(pid_t(cli.processId()), SIGKILL);
    QVERIFY(cli.waitForFinished(10000));
    const qint64 inPool = m_redis.run({"ZCARD", key}).integer;
    qInfo("killed with %lld of %d members seeded", inPool, kMembers);
    QVERIFY2(inPool < kMembers, "the seed finished before the kill: the test proves nothing");

    QHash<QString, int> named;
    qint64 entries = 0;
    for (const AuditEntry &entry : wholeTrail(m_redis, key)) {
        QCOMPARE(entry.action, AuditAction::Seed);
        QCOMPARE(entry.reason, QStringLiteral("big one"));
        QCOMPARE(entry.count, qint64(entry.members.size()));
        for (const AuditMemberChange &change : entry.members)
            ++named[change.member];
        ++entries;
    }
    QCOMPARE(qint64(named.size()), inPool);
    for (auto it = named.cbegin(); it != named.cend(); ++it) {
        QVERIFY2(it.value() == 1, qPrintable(it.key()));
        QVERIFY2(!m_redis.run({"ZSCORE", key, it.key().toUtf8()}).isNil(), qPrintable(it.key()));
    }
    qInfo("%lld entries name the %lld members seeded", entries, inPool);
}

QTEST_GUILESS_MAIN(TestAudit)
#include "tst_audit.moc"
