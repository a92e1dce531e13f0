// poolscope-cli end to end: the real binary against a real redis-server.
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

    void watchPrintsOneLinePerPoll() {
        m_redis->run({"ZADD", "pool", "1", "a", "2", "b", "6", "c"});
        const CliRun run =
            cli({QStringLiteral("--json"), QStringLiteral("watch"), QStringLiteral("--interval"),
                 QStringLiteral("100"), QStringLiteral("--duration"), QStringLiteral("1"),
                 QStringLiteral("--full-snapshot-threshold"), QStringLiteral("2")});
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QVERIFY2(lines.size() >= 3, run.out);
        const QJsonObject poll = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(poll.value(QStringLiteral("size")).toInt(), 3);
        QCOMPARE(poll.value(QStringLiteral("max")).toDouble(), 6.0);
        QVERIFY(
            poll.value(QStringLiteral("mode")).toString().startsWith(QStringLiteral("summary")));
    }

    void passwordLeavesTheProcessList() {
        RedisServerOptions options;
        options.useTcp = true;
        options.extraArguments = {QStringLiteral("--requirepass"), QStringLiteral("pl-s3cret")};
        RedisFixture secured(options);
        QVERIFY2(secured.start(), qPrintable(secured.error()));
        QProcess watcher;
        watcher.start(
            QStringLiteral(POOLSCOPE_CLI_PATH),
            {QStringLiteral("--url"),
             QStringLiteral("redis://:pl-s3cret@127.0.0.1:%1/0").arg(secured.endpoint().port),
             QStringLiteral("watch"), QStringLiteral("--interval"), QStringLiteral("100"),
             QStringLiteral("--duration"), QStringLiteral("3")});
        QVERIFY(watcher.waitForStarted(10000));
        // Once it polls, the arguments have been parsed and scrubbed.
        QByteArray polled;
        QTRY_VERIFY2_WITH_TIMEOUT((polled += watcher.readAllStandardOutput()).contains("members 0"),
                                  watcher.readAllStandardError().constData(), 10000);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(watcher.processId()));
        QVERIFY(cmdline.open(QIODevice::ReadOnly));
        const QByteArray shown = cmdline.readAll();
        QVERIFY2(!shown.contains("pl-s3cret"), shown);
        QVERIFY2(shown.contains("redis://:*********@127.0.0.1"), shown);
        QVERIFY(watcher.waitForFinished(10000));
        QCOMPARE(watcher.exitCode(), 0);
    }

    // --sentinel-password is starred like a URL's password, both as "--opt VALUE" and
    // "--opt=VALUE". The sentinel never answers, so the CLI is still there to be read.
    void sentinelPasswordLeavesTheProcessList_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("two arguments") << QStringList{"--sentinel-password", "sp-s3cret"};
        QTest::newRow("with =") << QStringList{"--sentinel-password=sp-s3cret"};
    }
    void sentinelPasswordLeavesTheProcessList() {
        QFETCH(QStringList, arguments);
        LoopbackServer::Options silent;
        silent.kind = LoopbackServer::Kind::Silent;
        LoopbackServer sentinel(silent);
        QVERIFY2(sentinel.start(), qPrintable(sentinel.error()));
        QProcess cli;
        cli.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                  QStringList{QStringLiteral("--url"),
                              QStringLiteral("redis+sentinel://:url-s3cret@127.0.0.1:%1/mymaster")
                                  .arg(sentinel.port())} +
                      arguments + QStringList{QStringLiteral("stats")});
        QVERIFY(cli.waitForStarted(10000));
        // Connected to the sentinel: the arguments have been parsed and scrubbed.
        QTRY_VERIFY_WITH_TIMEOUT(sentinel.accepted() > 0, 10000);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(cli.processId()));
        QVERIFY(cmdline.open(QIODevice::ReadOnly));
        const QByteArray shown = cmdline.readAll();
        cli.kill();
        QVERIFY(cli.waitForFinished(10000));
        QVERIFY2(!shown.contains("s3cret"), shown);
        QVERIFY2(shown.contains("*********"), shown);
    }

    // `allocate -n 50000 | head -1`: once the reader is gone the allocations stop, the count made
    // is reported, and the exit code says it failed. stdout is a pipe whose read end the test
    // closes (QProcess::closeReadChannel only discards, it keeps the pipe open).
    void allocateStopsWhenItsOutputIsGone() {
        m_redis->makePool("pool", {"a:1", "b:1", "c:1"}, 0);
        int pipe[2];
        QCOMPARE(::pipe2(pipe, O_CLOEXEC), 0);
        QProcess cli;
        cli.setChildProcessModifier([out = pipe[1]] { ::dup2(out, STDOUT_FILENO); });
        cli.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                  {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                   QStringLiteral("pool"), QStringLiteral("allocate"), QStringLiteral("-n"),
                   QStringLiteral("50000")});
        const bool started = cli.waitForStarted(10000);
        ::close(pipe[1]);
        QVERIFY(started);
        char first[64] = {};
        QVERIFY(::read(pipe[0], first, sizeof first - 1) > 0); // head -1 read its line
        ::close(pipe[0]);
        QVERIFY(cli.waitForFinished(30000));
        const QByteArray errors = cli.readAllStandardError();
        QVERIFY2(cli.exitCode() != 0, errors.constData());
        const double made = sumOfScores(*m_redis, "pool");
        QVERIFY2(made < 50000, qPrintable(QString::number(made)));
        QVERIFY2(errors.contains("stopped after " + QByteArray::number(qint64(made)) +
                                 " of 50000 allocations"),
                 errors.constData());
    }

    // Nothing recorded (the server cannot be reached) is a failure, not "recorded 0 of 0".
    void recordFailsWhenNothingIsRecorded() {
        QTemporaryDir dir;
        const CliRun run =
            runCli({QStringLiteral("--url"),
                    QStringLiteral("redis://127.0.0.1:%1/0").arg(closedLoopbackPort()),
                    QStringLiteral("record"), QStringLiteral("--db"),
                    dir.filePath(QStringLiteral("r.sqlite")), QStringLiteral("--interval"),
                    QStringLiteral("100"), QStringLiteral("--duration"), QStringLiteral("0.5")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("no poll was recorded"), run.err.constData());
    }

    // Polls lost after some were stored (a full disk: here a file size limit put on the running
    // recorder, writes then fail with EFBIG) make the exit code a failure.
    void recordFailsWhenPollsAreLost() {
        m_redis->makePool("pool", documentationMembers(50), 0);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.sqlite"));
        QProcess cli;
        // Ignored, SIGXFSZ does not kill it: the write fails and SQLite reports it.
        cli.setChildProcessModifier([] { ::signal(SIGXFSZ, SIG_IGN); });
        cli.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                  {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                   QStringLiteral("pool"), QStringLiteral("record"), QStringLiteral("--db"), path,
                   QStringLiteral("--interval"), QStringLiteral("50"), QStringLiteral("--duration"),
                   QStringLiteral("2")});
        QVERIFY(cli.waitForStarted(10000));
        // Polls stored: each one adds pages to the write-ahead log, beyond what the schema took.
        const QString wal = path + QStringLiteral("-wal");
        qint64 opened = 0;
        QTRY_VERIFY_WITH_TIMEOUT((opened = QFileInfo(wal).size()) > 0, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(wal).size() > opened + 2 * 4096, 10000);
        rlimit limit{};
        QCOMPARE(::prlimit(pid_t(cli.processId()), RLIMIT_FSIZE, nullptr, &limit), 0);
        limit.rlim_cur = 1;
        QCOMPARE(::prlimit(pid_t(cli.processId()), RLIMIT_FSIZE, &limit, nullptr), 0);
        QVERIFY(cli.waitForFinished(20000));
        const QByteArray out = cli.readAllStandardOutput();
        const QByteArray errors = cli.readAllStandardError();
        QVERIFY2(!out.contains("recorded 0 of"), out.constData()); // some were stored
        QCOMPARE(cli.exitCode(), 1);
        QVERIFY2(errors.contains("polls were lost"), errors.constData());
    }

    void usageErrors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no command") << QStringList{} << "no command";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command";
        QTest::newRow("restore without policy") << QStringList{"restore", "a"} << "--policy";
        // Without an agreed count the guard would restore at 0, a flood.
        QTest::newRow("guard start without --start")
            << QStringList{"guard", "--target", "http://127.0.0.1:1/", "--restore-policy", "start"}
            << "guard --restore-policy start needs --start N";
        QTest::newRow("bad policy") << QStringList{"restore", "a", "--policy", "half"} << "half";
        QTest::newRow("scenario without policy")
            << QStringList{"scenario", "reset"} << "scenario reset needs --policy";
        QTest::newRow("scenario bad policy")
            << QStringList{"scenario", "reset", "--policy", "some"} << "unknown --policy \"some\"";
        QTest::newRow("bad n") << QStringList{"allocate", "-n", "zero"} << "-n";
        QTest::newRow("seed without file") << QStringList{"seed"} << "FILE";
    }
    void usageErrors() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const CliRun run = cli(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(expected.toUtf8()), run.err);
        // Under --json the same error is a JSON object on stdout, for scripts that parse it.
        const CliRun json = cli(arguments + QStringList{QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 2);
        const QJsonObject answer = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(answer.value(QStringLiteral("kind")).toString(), QStringLiteral("usage"));
        QVERIFY2(answer.value(QStringLiteral("error")).toString().contains(expected), json.out);
    }

    // The version comes from project(VERSION) in CMake, the same string the dashboard prints.
    void versionAndHelp() {
        const CliRun version = runCli({QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QCOMPARE(version.out, QByteArray("poolscope-cli " POOLSCOPE_VERSION "\n"));
        QVERIFY2(version.err.isEmpty(), version.err);
        const CliRun help = runCli({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.startsWith("Usage: poolscope-cli"), help.out);
        QVERIFY2(help.out.contains("--version"), help.out);
    }

    void badUrls_data() {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("expected");
        QTest::newRow("tls without host") << "rediss:///0"
                                          << "missing host";
        QTest::newRow("port") << "redis://127.0.0.1:99999/0"
                              << "99999";
        QTest::newRow("scheme") << "http://127.0.0.1"
                                << "http";
    }
    void badUrls() {
        QFETCH(QString, url);
        QFETCH(QString, expected);
        const CliRun run = runCli({QStringLiteral("--url"), url, QStringLiteral("list")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(expected.toUtf8()), run.err);
    }

    void connectionRefused() {
        const int port = RedisServerProcess::pickFreeTcpPort();
        const CliRun run =
            runCli({QStringLiteral("--url"), QStringLiteral("redis://127.0.0.1:%1/0").arg(port),
                    QStringLiteral("list")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("cannot connect"), run.err);
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

    // Issue 10.3: a dropped connection mid-seed is reported, with what was added, not SIGPIPE.
    void seedReportsADroppedConnection() {
        // Long entries (a 200-byte password each), so every pipelined write is bigger than the
        // socket's buffer and the CLI is usually writing when its connection is killed: the
        // write that follows a kill over a unix socket is what raised SIGPIPE.
        const QByteArray password(200, 'p');
        QByteArray list;
        for (int i = 0; i < 200000; ++i)
            list += "socks5://u:" + password + "@10." + QByteArray::number(i / 65536) + '.' +
                    QByteArray::number((i / 256) % 256) + '.' + QByteArray::number(i % 256) +
                    ":1080\n";
        QProcess process;
        process.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                      {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                       QStringLiteral("pool"), QStringLiteral("--json"), QStringLiteral("seed"),
                       QStringLiteral("-")});
        QVERIFY(process.waitForStarted());
        process.write(list);
        process.closeWriteChannel();
        // Kill the CLI's connection once part of the list is in, not before and not after.
        QTRY_VERIFY_WITH_TIMEOUT(m_redis->run({"ZCARD", "pool"}).integer > 20000, 60000);
        m_redis->run({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit); // not killed by SIGPIPE
        QCOMPARE(process.exitCode(), 1);
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(err.contains("seed stopped part-way"), err);
        const QJsonObject object =
            QJsonDocument::fromJson(process.readAllStandardOutput().trimmed()).object();
        const qint64 added = object.value(QStringLiteral("added_count")).toInteger();
        const qint64 unknown = object.value(QStringLiteral("unknown")).toInteger();
        const qint64 inPool = m_redis->run({"ZCARD", "pool"}).integer;
        QVERIFY2(added > 0 && added <= inPool && inPool <= added + unknown,
                 qPrintable(QStringLiteral("added %1, unknown %2, in pool %3")
                                .arg(added)
                                .arg(unknown)
                                .arg(inPool)));
        QVERIFY(err.contains(QByteArray::number(added) + " members were added"));
        QCOMPARE(object.value(QStringLiteral("complete")), QJsonValue(false));
    }

    // Issue 10.8: watch fails when no poll ever succeeded.
    void watchFailsWhenNoPollSucceeds_data() {
        QTest::addColumn<bool>("badSocket");
        QTest::addColumn<QByteArray>("reason");
        QTest::newRow("no such socket") << true << QByteArray("cannot connect");
        QTest::newRow("wrong type") << false << QByteArray("holds a string");
    }
    void watchFailsWhenNoPollSucceeds() {
        QFETCH(bool, badSocket);
        QFETCH(QByteArray, reason);
        m_redis->run({"SET", "pool", "x"});
        const QString url =
            badSocket ? QStringLiteral("unix:///nonexistent/poolscope.sock") : m_redis->url();
        const CliRun run =
            runCli({QStringLiteral("--url"), url, QStringLiteral("--key"), QStringLiteral("pool"),
                    QStringLiteral("watch"), QStringLiteral("--interval"), QStringLiteral("50"),
                    QStringLiteral("--duration"), QStringLiteral("0.5")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("no poll succeeded"), run.err);
        QVERIFY2(run.err.contains(reason), run.err);
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
