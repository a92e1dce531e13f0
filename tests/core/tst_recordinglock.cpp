// The recording's lock (src/recording): one writer per file, met by every name of the file and
// by other processes, recorders racing on a new file, a stale or empty pid note, and the system's
// reason when the file or its lock cannot be opened. Readers are never refused.
#include "RecordingPolls.h"
#include "RedisFixture.h"

#include "recording/PoolRecorder.h"
#include "recording/RecordingReader.h"
#include "recording/RecordingWriter.h"

#include <array>
#include <cerrno>
#include <cstring>

#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSysInfo>
#include <QThread>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

class TestRecordingLock : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;
    QTemporaryDir m_dir;

    QString file(const QString &name) const { return m_dir.filePath(name); }

    RecordingInfo info(const QByteArray &key, RecordingTiers tiers = defaultRecordingTiers()) {
        RecordingInfo result;
        result.server = m_redis->endpoint().toSafeUrl();
        result.poolKey = key;
        result.tiers = tiers;
        return result;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }

    void cleanupTestCase() { m_redis.reset(); }

    // One writer per file: the second is refused with the holder's pid and host; readers are
    // not; once the first closes, another writer may open it.
    void secondRecorderIsRefused() {
        const QString path = file(QStringLiteral("two.sqlite"));
        PoolRecorder first;
        QString error;
        QVERIFY2(first.open(path, info("two"), &error), qPrintable(error));
        QSignalSpy written(&first, &PoolRecorder::pollWritten);
        first.recordPoll(makePoll(5000, 4, 1));
        QVERIFY(written.wait(5000));

        PoolRecorder second;
        QVERIFY(!second.open(path, info("two"), &error));
        const QString pid = QString::number(QCoreApplication::applicationPid());
        QVERIFY2(error.contains(QStringLiteral("pid ") + pid) &&
                     error.contains(QSysInfo::machineHostName()) && error.contains(path),
                 qPrintable(error));
        QVERIFY(!second.isOpen());

        // The CLI says the same and fails.
        const CliRun refused =
            runCli({QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                    QStringLiteral("two"), QStringLiteral("record"), QStringLiteral("--db"), path});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("already being written") &&
                     refused.err.contains(("pid " + pid).toUtf8()),
                 refused.err.constData());

        const auto reader = RecordingReader::open(path, &error);
        QVERIFY2(reader, qPrintable(error));
        QCOMPARE(reader->series("member-2", 0, 10000, 100).size(), 1);
        first.recordPoll(makePoll(6000, 4, 2));
        QVERIFY(written.wait(5000));
        QCOMPARE(reader->series("member-2", 0, 10000, 100).size(), 2); // sees new polls

        first.close();
        QVERIFY2(second.open(path, info("two"), &error), qPrintable(error));
    }

    // The lock is the file's, not the name's: a symlink, a hard link and another process all
    // meet it; the refusal names the holder.
    void lockMeetsEveryNameOfTheFile() {
        const QString path = file(QStringLiteral("named.sqlite"));
        QString error;
        auto writer = RecordingWriter::open(path, info("named"), &error);
        QVERIFY2(writer, qPrintable(error));
        const QString symlink = file(QStringLiteral("symlink.sqlite"));
        const QString hardLink = file(QStringLiteral("hardlink.sqlite"));
        QVERIFY(QFile::link(path, symlink));
        QCOMPARE(
            ::link(QFile::encodeName(path).constData(), QFile::encodeName(hardLink).constData()),
            0);
        const QString pid = QString::number(QCoreApplication::applicationPid());
        for (const QString &name : {symlink, hardLink}) {
            QVERIFY(!RecordingWriter::open(name, info("named"), &error));
            QVERIFY2(error.contains(QStringLiteral("already being written")) &&
                         error.contains(QStringLiteral("pid ") + pid),
                     qPrintable(error));
        }
        for (const QString &name : {symlink, hardLink}) {
            const CliRun refused = runCli({QStringLiteral("--url"), m_redis->url(),
                                           QStringLiteral("--key"), QStringLiteral("named"),
                                           QStringLiteral("record"), QStringLiteral("--db"), name});
            QCOMPARE(refused.exitCode, 1);
            QVERIFY2(refused.err.contains("already being written") &&
                         refused.err.contains(("pid " + pid).toUtf8()),
                     refused.err.constData());
        }
        writer.reset();
        QVERIFY2(RecordingWriter::open(hardLink, info("named"), &error), qPrintable(error));
    }

    // Two recorders starting on a new file at the same moment: one records, the other is told
    // another recorder has it (never "table meta already exists").
    void recordersRacingOnANewFile() {
        m_redis->run({"DEL", "race"});
        m_redis->makePool("race", {"a"}, 1);
        for (int round = 0; round < 3; ++round) {
            const QString path = file(QStringLiteral("race-%1.sqlite").arg(round));
            std::array<QProcess, 2> recorders;
            for (QProcess &recorder : recorders)
                recorder.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                               {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                                QStringLiteral("race"), QStringLiteral("record"),
                                QStringLiteral("--db"), path, QStringLiteral("--interval"),
                                QStringLiteral("50"), QStringLiteral("--duration"),
                                QStringLiteral("0.5")});
            int recorded = 0;
            for (QProcess &recorder : recorders) {
                QVERIFY(recorder.waitForFinished(20000));
                const QByteArray err = recorder.readAllStandardError();
                QVERIFY2(!err.contains("already exists"), err.constData());
                if (recorder.exitCode() == 0)
                    ++recorded;
                else
                    QVERIFY2(err.contains("already being written"), err.constData());
            }
            QCOMPARE_GE(recorded, 1);
        }
        // In one process, two threads at once: exactly one opens it.
        const QString path = file(QStringLiteral("race-threads.sqlite"));
        std::array<std::unique_ptr<RecordingWriter>, 2> writers;
        std::array<QString, 2> errors;
        std::array<std::unique_ptr<QThread>, 2> threads;
        for (size_t i = 0; i < 2; ++i)
            threads[i].reset(QThread::create([&, i] {
                writers[i] = RecordingWriter::open(path, info("race"), &errors[i]);
                writers[i].reset(); // a writer belongs to its thread
                if (errors[i].isEmpty())
                    errors[i] = QStringLiteral("opened");
            }));
        for (auto &thread : threads)
            thread->start();
        for (auto &thread : threads)
            QVERIFY(thread->wait(20000));
        for (const QString &error : errors)
            QVERIFY2(error == QStringLiteral("opened") ||
                         error.contains(QStringLiteral("already being written")),
                     qPrintable(error));
    }

    // The pid note beside the file decides nothing: empty (a crash before it reached the disk)
    // or naming a process that is gone, it refuses no one.
    void emptyOrStaleLockFileRefusesNoOne_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("stale") << QByteArray("999999\npoolscope-cli\nanother-host\n");
        QTest::newRow("garbage") << QByteArray("\xff\x01 not a lock");
    }
    void emptyOrStaleLockFileRefusesNoOne() {
        QFETCH(QByteArray, content);
        const QString path = file(QStringLiteral("stale-%1.sqlite").arg(QTest::currentDataTag()));
        QFile lock(path + QStringLiteral(".lock"));
        QVERIFY(lock.open(QIODevice::WriteOnly));
        lock.write(content);
        lock.close();
        QString error;
        auto writer = RecordingWriter::open(path, info("stale"), &error);
        QVERIFY2(writer, qPrintable(error));
        QVERIFY(writer->appendPoll(makePoll(1000, 2, 1), &error));
        writer.reset();
        QVERIFY(!QFileInfo::exists(path + QStringLiteral(".lock")));
    }

    // Errors about the file or its lock give the system's reason.
    void lockErrorsSayWhy() {
        const QString directory = file(QStringLiteral("a-directory.sqlite"));
        QVERIFY(QDir().mkpath(directory));
        QString error;
        QVERIFY(!RecordingWriter::open(directory, info("why"), &error));
        QVERIFY2(error.contains(directory) &&
                     error.contains(QString::fromLocal8Bit(std::strerror(EISDIR))),
                 qPrintable(error));
        const QString path = file(QStringLiteral("lock-is-a-directory.sqlite"));
        QVERIFY(QDir().mkpath(path + QStringLiteral(".lock")));
        QVERIFY(!RecordingWriter::open(path, info("why"), &error));
        const QString reason = error.section(QStringLiteral("lock file"), 1);
        QVERIFY2(reason.contains(QStringLiteral(".lock")) &&
                     reason.contains(QStringLiteral(": ")) &&
                     !reason.section(QStringLiteral(": "), -1).trimmed().isEmpty(),
                 qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestRecordingLock)
#include "tst_recordinglock.moc"
