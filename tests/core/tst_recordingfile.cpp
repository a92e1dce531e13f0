// Recordings (src/recording), the file itself: a recorder killed with SIGKILL or stopped with
// SIGTERM, the default path per server and pool without secrets, a file's server identity, a
// truncated (damaged) file and the CLI's JSON about it.
#include "RecordingCase.h"

#include "RecordingPolls.h"
#include "RedisFixture.h"

#include "load/LoadRunner.h"
#include "monitor/PoolMonitor.h"
#include "recording/PoolRecorder.h"
#include "recording/RecordingReader.h"
#include "recording/RecordingWriter.h"

#include <cmath>

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

class TestRecordingFile : public QObject, public RecordingCase {
    Q_OBJECT

private Q_SLOTS:

    void initTestCase() { startCase(); }

    void cleanupTestCase() { m_redis.reset(); }

    // poolscope-cli record killed with SIGKILL while it writes under load: the file opens,
    // keeps every poll a reader had seen committed, and a new recorder takes it over.
    void killedRecorderLeavesAReadableFile() {
        QList<QByteArray> members;
        for (int i = 0; i < 30; ++i)
            members.append("k" + QByteArray::number(i));
        m_redis->run({"DEL", "killed"});
        m_redis->makePool("killed", members, 0);
        const QString path = file(QStringLiteral("killed.sqlite"));
        QProcess recorder;
        recorder.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                       {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                        QStringLiteral("killed"), QStringLiteral("record"), QStringLiteral("--db"),
                        path, QStringLiteral("--interval"), QStringLiteral("10")});
        QVERIFY(recorder.waitForStarted(10000));
        LoadSpec spec;
        spec.endpoint = m_redis->endpoint();
        spec.poolKey = "killed";
        spec.duration = std::chrono::milliseconds(5000);
        spec.ratePerSecond = 2000;
        LoadRunner runner;
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QVERIFY(runner.start(spec));

        QString error;
        std::unique_ptr<RecordingReader> reader;
        QTRY_VERIFY_WITH_TIMEOUT((reader = RecordingReader::open(path, &error)) != nullptr, 10000);
        // Every poll of the finest tier (a poll a second) the reader can see.
        const auto committed = [&reader] {
            const RecordingTimeRange range = reader->timeRange();
            return range.isEmpty()
                       ? 0
                       : reader->series("k0", range.fromMs, range.toMs, 10'000'000).size();
        };
        // The range and the frames are two reads: a slot's frame moved past the range between
        // them is missed by one look, so the most seen counts (and QTRY looks twice).
        qint64 seenBeforeKill = 0;
        QTRY_VERIFY_WITH_TIMEOUT((seenBeforeKill = std::max(seenBeforeKill, committed())) >= 2,
                                 10000);
        recorder.kill(); // SIGKILL, in the middle of its writes
        QVERIFY(recorder.waitForFinished(10000));
        QCOMPARE(recorder.exitStatus(), QProcess::CrashExit);
        runner.cancel();
        QVERIFY(finished.size() == 1 || finished.wait(10000));
        reader.reset();

        const auto after = RecordingReader::open(path, &error);
        QVERIFY2(after, qPrintable(error));
        const RecordingTimeRange range = after->timeRange();
        QVERIFY(!range.isEmpty());
        const auto series = after->series(members, range.fromMs, range.toMs, 10'000'000);
        QVERIFY2(after->lastError().isEmpty(), qPrintable(after->lastError()));
        QCOMPARE_GE(series.value("k0").size(), seenBeforeKill);
        for (const QByteArray &member : members) // every committed frame is whole
            QCOMPARE(series.value(member).size(), series.value("k0").size());
        QSqlDatabase check =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("integrity"));
        check.setDatabaseName(path);
        QVERIFY(check.open());
        {
            QSqlQuery query(check);
            QVERIFY(query.exec(QStringLiteral("PRAGMA integrity_check")) && query.next());
            QCOMPARE(query.value(0).toString(), QStringLiteral("ok"));
        }
        check.close();
        check = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("integrity"));

        // The dead recorder's lock is taken over.
        auto writer = RecordingWriter::open(path, info("killed"), &error);
        QVERIFY2(writer, qPrintable(error));
        QCOMPARE(writer->latestTimeMs(), range.toMs);
    }

    // SIGTERM (systemd's stop) ends `record` cleanly: exit 0, the file whole and unlocked.
    void recordStopsCleanlyOnSigterm() {
        m_redis->run({"DEL", "termed"});
        m_redis->makePool("termed", {"a", "b"}, 3);
        const QString path = file(QStringLiteral("termed.sqlite"));
        QProcess recorder;
        recorder.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                       {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                        QStringLiteral("termed"), QStringLiteral("record"), QStringLiteral("--db"),
                        path, QStringLiteral("--interval"), QStringLiteral("20")});
        QVERIFY(recorder.waitForStarted(10000));
        QString error;
        std::unique_ptr<RecordingReader> reader;
        QTRY_VERIFY_WITH_TIMEOUT((reader = RecordingReader::open(path, &error)) != nullptr &&
                                     !reader->timeRange().isEmpty(),
                                 10000);
        reader.reset();
        recorder.terminate(); // SIGTERM
        QVERIFY(recorder.waitForFinished(10000));
        QCOMPARE(recorder.exitStatus(), QProcess::NormalExit);
        QCOMPARE(recorder.exitCode(), 0);
        const QByteArray out = recorder.readAllStandardOutput();
        QVERIFY2(out.contains("recording pool \"termed\"") && out.contains("recorded "),
                 out.constData());
        QVERIFY(!QFileInfo::exists(path + QStringLiteral(".lock")));
        QCOMPARE(QFileInfo(path + QStringLiteral("-wal")).size(), 0);
        const auto after = RecordingReader::open(path, &error);
        QVERIFY2(after, qPrintable(error));
        const RecordingTimeRange range = after->timeRange();
        QCOMPARE(after->series("a", range.fromMs, range.toMs, 100).last().count, 3.0);
    }

    // The default file: in the data directory, one per server and pool, never a password.
    void defaultPathIsPerServerAndPoolWithoutSecrets() {
        Endpoint endpoint;
        endpoint.host = QStringLiteral("127.0.0.1");
        endpoint.port = 6390;
        endpoint.username = QStringLiteral("alice");
        endpoint.password = QStringLiteral("s3cret-pa55");
        const QString path = defaultRecordingPath(endpoint, "proxies:eu/west");
        QVERIFY2(!path.contains(QStringLiteral("s3cret")) &&
                     !path.contains(QStringLiteral("alice")),
                 qPrintable(path));
        QVERIFY(path.startsWith(defaultRecordingDirectory() + QLatin1Char('/')));
        const QString name = QFileInfo(path).fileName();
        QVERIFY2(name.startsWith(QStringLiteral("127.0.0.1-6390-db0_proxies_eu_west_")) &&
                     name.endsWith(QStringLiteral(".sqlite")),
                 qPrintable(name));
        QVERIFY(defaultRecordingPath(endpoint, "proxies:eu_west") != path);
        Endpoint otherPassword = endpoint;
        otherPassword.password = QStringLiteral("another");
        QCOMPARE(defaultRecordingPath(otherPassword, "proxies:eu/west"), path);
        Endpoint otherDatabase = endpoint;
        otherDatabase.database = 2;
        QVERIFY(defaultRecordingPath(otherDatabase, "proxies:eu/west") != path);
    }

    // A file is of one server, database and pool: `record` of another database or server into
    // it is refused, naming both, before anything is written; the same server under another
    // user name (or password) is the same recording.
    void anotherServerOrDatabaseIsRefused() {
        m_redis->run({"DEL", "ident"});
        m_redis->makePool("ident", {"a", "b"}, 1);
        const QString path = file(QStringLiteral("ident.sqlite"));
        const auto record = [&path](const Endpoint &endpoint) {
            return runCli({QStringLiteral("--url"), endpoint.toUrl(), QStringLiteral("--key"),
                           QStringLiteral("ident"), QStringLiteral("record"),
                           QStringLiteral("--db"), path, QStringLiteral("--interval"),
                           QStringLiteral("50"), QStringLiteral("--duration"),
                           QStringLiteral("0.3")});
        };
        const CliRun first = record(m_redis->endpoint());
        QVERIFY2(first.exitCode == 0, first.err.constData());
        const QList<qint64> before = framesPerTier(path);
        QCOMPARE_GT(before[0], 0);

        Endpoint otherDatabase = m_redis->endpoint();
        otherDatabase.database = 3;
        const CliRun refused = record(otherDatabase);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(m_redis->endpoint().toSafeUrl().toUtf8()) &&
                     refused.err.contains(otherDatabase.toSafeUrl().toUtf8()),
                 refused.err.constData());
        QCOMPARE(framesPerTier(path), before); // nothing written

        QString error;
        RecordingInfo otherServer = info("ident");
        otherServer.server = QStringLiteral("redis://127.0.0.1:1/0");
        QVERIFY(!RecordingWriter::open(path, otherServer, &error));
        QVERIFY2(error.contains(QStringLiteral("redis://127.0.0.1:1/0")) && error.contains(path),
                 qPrintable(error));
        Endpoint otherUser = m_redis->endpoint();
        otherUser.username = QStringLiteral("alice");
        otherUser.password = QStringLiteral("secret");
        RecordingInfo sameServer = info("ident");
        sameServer.server = otherUser.toSafeUrl();
        QVERIFY2(RecordingWriter::open(path, sameServer, &error), qPrintable(error));
        QCOMPARE(recordingServerIdentity(QStringLiteral("redis://u@LocalHost:6379/2")),
                 recordingServerIdentity(QStringLiteral("rediss://localhost:6379/2")));
        QVERIFY(recordingServerIdentity(QStringLiteral("redis://h:6379/2")) !=
                recordingServerIdentity(QStringLiteral("redis://h:6379/0")));
        QCOMPARE(recordingServerIdentity(QStringLiteral("redis+sentinel://b:1,a:2/m/0")),
                 recordingServerIdentity(QStringLiteral("redis+sentinel://a:2,b:1/m/0")));
    }

    // A truncated recording is called damaged (not a WAL problem, not "not a recording").
    void truncatedRecordingIsDamaged() {
        const QString path = file(QStringLiteral("truncated.sqlite"));
        QString error;
        {
            auto writer = RecordingWriter::open(path, info("cut"), &error);
            QVERIFY2(writer, qPrintable(error));
            for (int i = 0; i < 200; ++i)
                QVERIFY(writer->appendPoll(makePoll(1000 + i * 100, 50, i), &error));
        }
        QFile cut(path);
        QCOMPARE_GT(cut.size(), 8192);
        QVERIFY(cut.resize(cut.size() / 2));
        QVERIFY(!RecordingWriter::open(path, info("cut"), &error));
        QVERIFY2(error.contains(QStringLiteral("damaged")) && error.contains(path) &&
                     !error.contains(QStringLiteral("WAL")),
                 qPrintable(error));
        QVERIFY(!RecordingReader::open(path, &error)); // the viewer says the same
        QVERIFY2(error.contains(QStringLiteral("damaged")) && error.contains(path),
                 qPrintable(error));
    }

    // record --json: JSON lines, a start and a stop with the totals; a refusal is JSON too.
    void recordJson() {
        m_redis->run({"DEL", "json"});
        m_redis->makePool("json", {"a", "b"}, 2);
        const QString path = file(QStringLiteral("json.sqlite"));
        const QStringList arguments = {QStringLiteral("--url"),      m_redis->url(),
                                       QStringLiteral("--key"),      QStringLiteral("json"),
                                       QStringLiteral("--json"),     QStringLiteral("record"),
                                       QStringLiteral("--db"),       path,
                                       QStringLiteral("--interval"), QStringLiteral("50"),
                                       QStringLiteral("--duration"), QStringLiteral("0.3")};
        const CliRun run = runCli(arguments);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QJsonParseError parseError;
        const QJsonObject started = QJsonDocument::fromJson(lines[0], &parseError).object();
        QVERIFY2(parseError.error == QJsonParseError::NoError, lines[0].constData());
        QCOMPARE(started.value(QStringLiteral("event")).toString(), QStringLiteral("recording"));
        QCOMPARE(started.value(QStringLiteral("path")).toString(), path);
        const QJsonObject stopped = QJsonDocument::fromJson(lines[1], &parseError).object();
        QVERIFY2(parseError.error == QJsonParseError::NoError, lines[1].constData());
        QCOMPARE(stopped.value(QStringLiteral("event")).toString(), QStringLiteral("stopped"));
        QCOMPARE_GT(stopped.value(QStringLiteral("written")).toInteger(), 0);

        QStringList otherPool = arguments;
        otherPool[3] = QStringLiteral("other");
        const CliRun refused = runCli(otherPool);
        QCOMPARE(refused.exitCode, 1);
        const QJsonObject error = QJsonDocument::fromJson(refused.out.trimmed()).object();
        QVERIFY2(
            error.value(QStringLiteral("error")).toString().contains(QStringLiteral("\"other\"")),
            refused.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestRecordingFile)
#include "tst_recordingfile.moc"
