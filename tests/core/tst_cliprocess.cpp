// poolscope-cli end to end, the real binary against a real redis-server, as a process: watch and
// record, secrets kept out of the process list, a closed output, usage errors, bad URLs and
// connections that fail.
#include "LoopbackProxies.h"
#include "RedisFixture.h"

#include "pool/PoolKeys.h"
#include "recording/RecordingReader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QtTest>

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace poolscope;
using namespace poolscope::testing;

class TestCliProcess : public QObject {
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
        QCOMPARE_GT(::read(pipe[0], first, sizeof first - 1), 0); // head -1 read its line
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

    // The same on a real full disk: a 256 KiB tmpfs that fills up under the running recorder
    // (ENOSPC). Mounted here when the test may mount; otherwise inside a user and mount namespace
    // of the recorder's own, reached through /proc/PID/root. What was stored stays readable.
    void recordFailsOnAFullDisk() {
        m_redis->makePool("pool", documentationMembers(50), 7);
        QTemporaryDir dir;
        const QString mountPoint = dir.filePath(QStringLiteral("disk"));
        QVERIFY(QDir().mkpath(mountPoint));
        const QStringList record{QStringLiteral("--url"),
                                 m_redis->url(),
                                 QStringLiteral("--key"),
                                 QStringLiteral("pool"),
                                 QStringLiteral("record"),
                                 QStringLiteral("--db"),
                                 mountPoint + QStringLiteral("/r.sqlite"),
                                 QStringLiteral("--interval"),
                                 QStringLiteral("50")};
        QProcess cli;
        QString disk = mountPoint; // where this process sees the tmpfs
        int diskFd = -1;
        bool mounted = false;
        const auto unmount = qScopeGuard([&] {
            if (diskFd >= 0)
                ::close(diskFd);
            if (mounted)
                ::umount2(qPrintable(mountPoint), MNT_DETACH);
        });
        if (::mount("tmpfs", qPrintable(mountPoint), "tmpfs", 0, "size=256k") == 0) {
            mounted = true;
            cli.start(QStringLiteral(POOLSCOPE_CLI_PATH), record);
        } else {
            const int mountError = errno;
            const CliRun probe = runProgram(QStringLiteral("unshare"),
                                            {QStringLiteral("-rm"), QStringLiteral("true")});
            if (probe.exitCode != 0)
                QSKIP(qPrintable(QStringLiteral("cannot mount a tmpfs (%1) nor make a user and "
                                                "mount namespace (unshare -rm: %2)")
                                     .arg(QString::fromLocal8Bit(::strerror(mountError)),
                                          QString::fromLocal8Bit(probe.err.trimmed()))));
            disk.clear();
            cli.start(QStringLiteral("unshare"),
                      QStringList{QStringLiteral("-rm"), QStringLiteral("sh"), QStringLiteral("-c"),
                                  QStringLiteral("mount -t tmpfs -o size=256k tmpfs \"$0\" && "
                                                 "exec \"$@\""),
                                  mountPoint, QStringLiteral(POOLSCOPE_CLI_PATH)} +
                          record);
        }
        QVERIFY(cli.waitForStarted(10000));
        if (disk.isEmpty()) {
            // The recording exists once the tmpfs is mounted and the CLI runs. An open directory
            // keeps the tmpfs reachable after the namespace is gone with the CLI.
            const QString inside =
                QStringLiteral("/proc/%1/root%2").arg(cli.processId()).arg(mountPoint);
            QTRY_VERIFY2_WITH_TIMEOUT(QFileInfo::exists(inside + QStringLiteral("/r.sqlite")),
                                      cli.readAllStandardError().constData(), 10000);
            diskFd = ::open(qPrintable(inside), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            QVERIFY2(diskFd >= 0, ::strerror(errno));
            disk = QStringLiteral("/proc/self/fd/%1").arg(diskFd);
        }
        const QString wal = disk + QStringLiteral("/r.sqlite-wal");
        qint64 opened = 0;
        QTRY_VERIFY_WITH_TIMEOUT((opened = QFileInfo(wal).size()) > 0, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(wal).size() > opened + 2 * 4096, 10000);
        // Fill what the recorder has left; the next poll finds the disk full.
        QFile filler(disk + QStringLiteral("/filler"));
        QVERIFY2(filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered),
                 qPrintable(filler.errorString()));
        const QByteArray block(4096, 'x');
        int writeError = 0;
        while (writeError == 0)
            if (::write(filler.handle(), block.constData(), block.size()) < 0)
                writeError = errno;
        QCOMPARE(writeError, ENOSPC);
        QByteArray errors;
        QTRY_VERIFY2_WITH_TIMEOUT((errors += cli.readAllStandardError()).contains("was not stored"),
                                  errors.constData(), 10000);
        cli.terminate(); // stopped as by a service manager: lost polls still make it fail
        QVERIFY(cli.waitForFinished(20000));
        errors += cli.readAllStandardError();
        const QByteArray out = cli.readAllStandardOutput();
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 1);
        QVERIFY2(errors.contains("polls were lost"), errors.constData());
        const QRegularExpressionMatch counts =
            QRegularExpression(QStringLiteral("recorded (\\d+) of (\\d+) polls"))
                .match(QString::fromUtf8(out));
        QVERIFY2(counts.hasMatch(), out.constData());
        const int written = counts.captured(1).toInt();
        QCOMPARE_GT(written, 0);
        QCOMPARE_LT(written, counts.captured(2).toInt());
        // The disk is still full: what was stored reads back whole. SQLite resolves a symbolic
        // link by its text, which names the directory outside the namespace: there, read a copy
        // of the file's bytes.
        QString readable = disk + QStringLiteral("/r.sqlite");
        if (!mounted) {
            readable = dir.filePath(QStringLiteral("copy.sqlite"));
            for (const QString &suffix : {QString(), QStringLiteral("-wal")}) {
                const QString stored = disk + QStringLiteral("/r.sqlite") + suffix;
                QVERIFY(!QFileInfo::exists(stored) || QFile::copy(stored, readable + suffix));
            }
        }
        QString error;
        const auto reader = RecordingReader::open(readable, &error);
        QVERIFY2(reader, qPrintable(error));
        QCOMPARE(reader->members().size(), 50);
        const RecordingTimeRange range = reader->timeRange();
        QVERIFY(!range.isEmpty());
        const QList<BandPoint> band = reader->band(range.fromMs, range.toMs, 100000);
        QVERIFY2(reader->lastError().isEmpty(), qPrintable(reader->lastError()));
        QVERIFY(!band.isEmpty());
        QCOMPARE(band.last().max, 7.0);
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
};

QTEST_GUILESS_MAIN(TestCliProcess)
#include "tst_cliprocess.moc"
