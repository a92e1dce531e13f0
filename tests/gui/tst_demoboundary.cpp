// Where the demo ends: the demo seeds and loads only the server it was started for, a session
// that goes on to another server writes nothing there and records it, and a recording opened
// from the File menu while a pool is watched replaces the live view without a crash. Real
// redis-servers; the second one is checked key by key and client by client.
#include "MainWindow.h"
#include "chart/ChartPanel.h"
#include "session/DemoDriver.h"
#include "session/PoolSession.h"
#include "session/SessionRecorder.h"
#include "recording/RecordingTypes.h"
#include "recording/RecordingWriter.h"

#include "MainWindowFixture.h"
#include "RedisFixture.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

// The clients connected to a server, by name (CLIENT LIST's "name=" fields).
QStringList clientNames(RedisFixture &redis) {
    const QString list = QString::fromUtf8(redis.run({"CLIENT", "LIST"}).text);
    QStringList names;
    for (const QString &line : list.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        for (const QString &field : line.split(QLatin1Char(' ')))
            if (field.startsWith(QStringLiteral("name=")) && field.size() > 5)
                names.append(field.mid(5));
    return names;
}

QStringList keysOf(RedisFixture &redis) {
    QStringList keys;
    for (const RedisReply &key : redis.run({"KEYS", "*"}).elements)
        keys.append(QString::fromUtf8(key.text));
    return keys;
}

void writeSmallRecording(const QString &path) {
    RecordingInfo info;
    info.server = QStringLiteral("redis://127.0.0.1:6379/0");
    info.poolKey = "recorded";
    const qint64 end = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000 - 600'000;
    info.createdMs = end - 60'000;
    QString error;
    std::unique_ptr<RecordingWriter> writer = RecordingWriter::open(path, info, &error);
    QVERIFY2(writer, qPrintable(error));
    for (qint64 t = info.createdMs; t <= end; t += 1000) {
        RecordingPoll poll;
        poll.timeMs = t;
        const double count = double((t - info.createdMs) / 1000);
        poll.members = {{"198.51.100.7:8080", count}, {"198.51.100.8:8080", count + 1}};
        poll.min = count;
        poll.median = count + 1;
        poll.max = count + 1;
        poll.total = 2 * count + 1;
        poll.memberCount = 2;
        QVERIFY2(writer->appendPoll(poll, &error), qPrintable(error));
    }
}

} // namespace

class TestDemoBoundary : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The demo seeds its own server's empty pool and loads it; the person then types another
    // server's address: nothing is seeded or allocated there, no load client connects to it,
    // and going back to the demo's server brings the load back.
    void demoWritesOnlyToItsOwnServer() {
        RedisFixture demoServer;
        QVERIFY2(demoServer.start(), qPrintable(demoServer.error()));
        RedisFixture usersServer;
        QVERIFY2(usersServer.start(), qPrintable(usersServer.error()));
        usersServer.run({"SET", "unrelated", "kept"});

        Dashboard d;
        DemoDriver::Settings settings;
        settings.ratePerSecond = 100;
        settings.restartDelay = 100ms;
        DemoDriver demo(&d.session, demoServer.endpoint(), settings);
        demo.setEnabled(true);
        QSignalSpy seeded(&demo, &DemoDriver::demoSeeded);
        QVERIFY(d.connectTo(demoServer));
        QVERIFY(seeded.wait(10000));
        QTRY_VERIFY_WITH_TIMEOUT(demo.isLoadRunning(), 10000);

        QVERIFY(d.connectTo(usersServer)); // its "proxies" is empty, as a new user's would be
        QVERIFY(!demo.isOnDemoServer());
        for (int i = 0; i < 10; ++i) // a second of polls: time for a seed or a load to start
            QVERIFY(d.nextPoll());
        QVERIFY(!demo.isLoadRunning());
        QCOMPARE(keysOf(usersServer), QStringList{QStringLiteral("unrelated")});
        QCOMPARE(usersServer.run({"GET", "unrelated"}).text, QByteArray("kept"));
        const QStringList clients = clientNames(usersServer);
        QVERIFY2(!clients.join(QLatin1Char(' ')).contains(QStringLiteral("load")),
                 qPrintable(clients.join(QLatin1Char(' '))));
        const QByteArray commands = usersServer.run({"INFO", "commandstats"}).text;
        QVERIFY2(!commands.contains("cmdstat_evalsha") && !commands.contains("cmdstat_zadd"),
                 commands.constData());

        // Reconnects to the user's server (a lost connection) start nothing either.
        usersServer.run({"CLIENT", "KILL", "TYPE", "normal"});
        for (int i = 0; i < 10; ++i)
            QVERIFY(d.nextPoll());
        QVERIFY(!demo.isLoadRunning());
        QCOMPARE(keysOf(usersServer), QStringList{QStringLiteral("unrelated")});

        // Back on the demo's server, the demo goes on.
        QVERIFY(d.connectTo(demoServer));
        QVERIFY(demo.isOnDemoServer());
        QTRY_VERIFY_WITH_TIMEOUT(demo.isLoadRunning(), 10000);
        demo.setEnabled(false);
    }

    // The embedded server is never recorded; a server reached from it is, from its first poll.
    void serversReachedFromTheDemoAreRecorded() {
        RedisFixture demoServer;
        QVERIFY2(demoServer.start(), qPrintable(demoServer.error()));
        RedisFixture usersServer;
        QVERIFY2(usersServer.start(), qPrintable(usersServer.error()));
        usersServer.makePool(kKey, documentationMembers(3), 4);
        QTemporaryDir recordings;
        Dashboard d;
        SessionRecorder recorder(&d.session);
        recorder.setDirectory(recordings.path());
        recorder.setUnrecordedServer(demoServer.endpoint());
        d.window.setSessionRecorder(&recorder);
        QVERIFY(d.connectTo(demoServer));
        QVERIFY(d.nextPoll());
        QVERIFY(!recorder.isRecording());
        QVERIFY(QDir(recordings.path()).isEmpty());

        QVERIFY(d.connectTo(usersServer));
        QTRY_VERIFY_WITH_TIMEOUT(recorder.isRecording(), 10000);
        QVERIFY(d.window.recordAction()->isChecked());
        QCOMPARE(recorder.recordingPath(),
                 recordings.filePath(recordingFileName(usersServer.endpoint(), kKey)));
    }

    // File > Open recording… while a live pool is watched (the demo's): the recording replaces
    // the live view, its members and pins are shown, and the window stays up.
    void recordingOpensFromARunningSession() {
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.makePool(kKey, documentationMembers(4), 2);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("incident.sqlite"));
        writeSmallRecording(path);
        if (QTest::currentTestFailed())
            return;

        Dashboard d;
        d.window.show();
        QVERIFY(d.connectTo(redis));
        for (int i = 0; i < 3; ++i) // a history to keep when the live pool is left
            QVERIFY(d.nextPoll());
        d.session.pin({documentationMembers(1).constFirst()});
        QSignalSpy loaded(&d.session, &PoolSession::historyLoaded);
        d.window.openRecording(path);
        QTRY_VERIFY_WITH_TIMEOUT(d.session.isShowingRecording(), 10000);
        QCOMPARE(d.session.mode(), SessionMode::Recording);
        QTRY_VERIFY_WITH_TIMEOUT(loaded.size() >= 2, 10000); // the overview, then every frame
        QCOMPARE(d.session.poolKey(), QByteArray("recorded"));
        QCOMPARE(d.model()->rowCount(), 2);
        QVERIFY(d.session.isPinned(documentationMembers(1).constFirst()));
        QVERIFY(d.window.windowTitle().contains(QStringLiteral("incident.sqlite")));
        d.window.chartPanel()->refreshNow();
        QCOMPARE_GT(d.window.chartPanel()->frame().pointCount("198.51.100.7:8080"), 10);

        // Going back to the live pool finds its kept history.
        QVERIFY(d.connectTo(redis));
        QVERIFY(!d.session.isShowingRecording());
        // The table takes the live rows after the first poll is applied (on a busy machine a
        // little later).
        QTRY_COMPARE_WITH_TIMEOUT(d.model()->rowCount(), 4, 10000);
    }
};

QTEST_MAIN(TestDemoBoundary)
#include "tst_demoboundary.moc"
