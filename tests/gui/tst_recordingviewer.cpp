// Recordings in the dashboard: a recording opened offline (no server at all) shows its lines and
// markers read-only with every write action disabled and exports its history; a broken file is
// named; a dashboard closed and opened again on the same pool shows the earlier history (real
// redis-server, the dashboard's own recorder). Screenshots go to <build>/tests/screenshots/.
#include "MainWindow.h"
#include "RecentRecordings.h"
#include "actions/PoolActions.h"
#include "chart/ChartPanel.h"
#include "connection/StatusBarPanel.h"
#include "fairness/FairnessPanel.h"
#include "members/MembersPanel.h"
#include "members/PoolTableModel.h"
#include "session/PoolSession.h"
#include "session/SessionRecorder.h"
#include "startup/AppOptions.h"
#include "recording/RecordingReader.h"
#include "recording/RecordingWriter.h"

#include "RedisFixture.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QSettings>
#include <QTemporaryDir>
#include <QTableView>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

constexpr qint64 kSecond = 1000;

QString screenshotPath(const QString &name) {
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir + QStringLiteral("/recording-%1.png").arg(name);
}

// Two hours of a six-member pool at one poll a second, ending an hour ago (as if looked at after
// an incident): member 5 evicted for twenty minutes, then restored at zero and flooded.
struct RecordedPool {
    qint64 start = 0;
    qint64 end = 0;
    qint64 evictedAt = 0;
    qint64 restoredAt = 0;
};

RecordedPool writeRecording(const QString &path) {
    RecordedPool pool;
    pool.end = QDateTime::currentMSecsSinceEpoch() / kSecond * kSecond - 3600 * kSecond;
    pool.start = pool.end - 2 * 3600 * kSecond;
    pool.evictedAt = pool.start + 3000 * kSecond;
    pool.restoredAt = pool.evictedAt + 1200 * kSecond;
    RecordingInfo info;
    info.server = QStringLiteral("redis://127.0.0.1:6379/0");
    info.poolKey = "proxies";
    info.createdMs = pool.start;
    QString error;
    std::unique_ptr<RecordingWriter> writer = RecordingWriter::open(path, info, &error);
    if (!writer)
        qFatal("cannot write the recording: %s", qPrintable(error));
    QList<PoolMember> counts;
    for (int i = 0; i < 6; ++i)
        counts.append({"198.51.100." + QByteArray::number(20 + i) + ":8080", 1000});
    writer->appendEvent({pool.start, RecordingEventKind::Seed, {}, "seed 6 from list"});
    for (qint64 t = pool.start; t <= pool.end; t += kSecond) {
        RecordingPoll poll;
        poll.timeMs = t;
        const bool evicted = t >= pool.evictedAt && t < pool.restoredAt;
        if (t == pool.restoredAt)
            counts[5].count = 0;
        for (int i = 0; i < counts.size(); ++i) {
            if (i == 5 && evicted)
                continue;
            // The restored member at zero takes most allocations until it caught up.
            const bool flooded =
                i == 5 && t >= pool.restoredAt && counts[5].count < counts[0].count;
            counts[i].count += flooded ? 5 : ((t / kSecond + i) % 3 == 0 ? 1 : 0);
            poll.members.append(counts[i]);
        }
        QList<double> values;
        for (const PoolMember &member : poll.members)
            values.append(member.count);
        std::sort(values.begin(), values.end());
        poll.min = values.constFirst();
        poll.max = values.constLast();
        poll.median = values[values.size() / 2];
        poll.total = std::accumulate(values.begin(), values.end(), 0.0);
        poll.memberCount = poll.members.size();
        poll.evictedCount = evicted ? 1 : 0;
        if (!writer->appendPoll(poll, &error))
            qFatal("cannot write a poll: %s", qPrintable(error));
        if (t == pool.evictedAt)
            writer->appendEvent(
                {t, RecordingEventKind::Evict, counts[5].member,
                 "evict 198.51.100.25:8080 (saved " + QString::number(counts[5].count) + ")"});
        if (t == pool.restoredAt)
            writer->appendEvent({t, RecordingEventKind::Restore, counts[5].member,
                                 "restore 198.51.100.25:8080 (zero)"});
    }
    return pool;
}

// A small recording: `polls` polls (five unless asked) of two members, a minute ago.
void writeSmallRecording(const QString &path, int polls = 5) {
    RecordingInfo info;
    info.server = QStringLiteral("redis://127.0.0.1:6379/0");
    info.poolKey = "small";
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - 60 * kSecond;
    info.createdMs = start;
    QString error;
    std::unique_ptr<RecordingWriter> writer = RecordingWriter::open(path, info, &error);
    if (!writer)
        qFatal("cannot write the recording: %s", qPrintable(error));
    for (int i = 0; i < polls; ++i) {
        RecordingPoll poll;
        poll.timeMs = start + i * kSecond;
        poll.members = {{"a", double(i)}, {"b", double(i)}};
        poll.min = poll.median = poll.max = i;
        poll.total = 2 * i;
        poll.memberCount = 2;
        if (!writer->appendPoll(poll, &error))
            qFatal("cannot write a poll: %s", qPrintable(error));
    }
}

} // namespace

class TestRecordingViewer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void offlineDashboardShowsARecordingReadOnly() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("incident.sqlite"));
        const RecordedPool pool = writeRecording(path);

        PoolSession session; // never connected: no server exists in this test
        MainWindow window(&session);
        window.resize(1360, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(&session, &PoolSession::historyLoaded);
        window.openRecording(path);
        // The overview, then every frame.
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 20000);
        QVERIFY(session.isShowingRecording());
        QVERIFY(!session.hasTarget());
        QCOMPARE(session.state(), ConnectionState::Disconnected);
        QVERIFY2(window.windowTitle().contains(QStringLiteral("recording incident.sqlite")) &&
                     window.windowTitle().contains(QStringLiteral("(read only)")),
                 qPrintable(window.windowTitle()));

        // Lines and markers, over the whole recording.
        ChartPanel *chart = window.chartPanel();
        QCOMPARE(chart->timeWindow(), ChartPanel::TimeWindow::Everything);
        chart->refreshNow();
        QCOMPARE(chart->frame().members().size(), 6);
        QCOMPARE_GT(chart->frame().pointCount("198.51.100.20:8080"), 100);
        QCOMPARE_LE(chart->frame().time.fromMs, pool.start);
        QCOMPARE_GE(chart->frame().time.toMs, pool.end);
        const QStringList markers = chart->frame().markerLabels();
        QVERIFY2(markers.contains(QStringLiteral("restore 198.51.100.25:8080 (zero)")) &&
                     markers.contains(QStringLiteral("seed 6 from list")),
                 qPrintable(markers.join(QLatin1Char('|'))));
        // The last poll is in the table.
        QTRY_COMPARE(window.membersPanel()->model()->rowCount(), 6);
        // The recording's own figures, not live ones: when its last poll was (no ticking age),
        // no round trip, and its rate over its last polls (two allocations a second).
        QCOMPARE(window.statusPanel()->sinceText(),
                 QStringLiteral("recording: last poll %1")
                     .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(pool.end),
                                             QLocale::ShortFormat)));
        QCOMPARE(window.statusPanel()->roundTripText(), QString());
        // Its members get the palette in order, as when polled (not colours derived from their
        // names, alike for alike names).
        for (int i = 0; i < 6; ++i) {
            const QByteArray member = "198.51.100." + QByteArray::number(20 + i) + ":8080";
            QVERIFY2(session.colors().contains(member), member.constData());
            QCOMPARE(session.colors().colorFor(member), MemberColors::colorAt(i));
        }
        QCOMPARE(session.recordingRatePerSecond().value_or(-1), 2.0);
        const QString rate = window.fairnessPanel()->valueText(FairnessPanel::Field::Rate);
        QVERIFY2(rate.startsWith(QLocale().toString(2.0, 'f', 1)) &&
                     rate.contains(QStringLiteral("recording")),
                 qPrintable(rate));

        // Every write action disabled, also with a member selected, and the reason said.
        window.membersPanel()->tableView()->selectRow(0);
        PoolActions *actions = window.actions();
        for (QAction *action : {actions->seedAction(), actions->evictAction(),
                                actions->restoreAction(), actions->testAllocationsAction(),
                                actions->demoResetAction(), actions->refreshAction()}) {
            QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
        }
        QVERIFY(!session.canWrite());
        QVERIFY(session.writeBlockReason().contains(QStringLiteral("recording")));
        QVERIFY(!session.evict({"198.51.100.20:8080"})); // refused, not sent anywhere

        // The history exports from the recording.
        const QString csv = dir.filePath(QStringLiteral("history.csv"));
        QVERIFY(actions->exportHistoryCsv(csv));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("198.51.100.25:8080"));
        QVERIFY2(text.count('\n') > 1000, text.left(300).constData());

        // Zoomed into the restore and its flood: the screenshot of an incident looked at later.
        chart->zoomTo(pool.restoredAt - 300 * kSecond, pool.restoredAt + 900 * kSecond);
        QVERIFY(chart->isZoomed());
        QVERIFY(chart->frame().markerLabels().contains(
            QStringLiteral("restore 198.51.100.25:8080 (zero)")));
        QVERIFY(!chart->frame().markerLabels().contains(QStringLiteral("seed 6 from list")));
        for (int i = 0; i < 3; ++i) // the chart's scene lays out the new axis labels
            QCoreApplication::processEvents();
        QVERIFY2(!actions->evictAction()->isEnabled(), "evict enabled at the screenshot");
        QVERIFY(window.grab().save(screenshotPath(QStringLiteral("zoomed"))));
    }

    // A recording of a poll or two draws its points (a line too short to see as a dot), with no
    // placeholder over them.
    void shortRecordingDrawsItsPoints_data() {
        QTest::addColumn<int>("polls");
        for (const int polls : {1, 2, 3, 5})
            QTest::addRow("%d polls", polls) << polls;
    }

    void shortRecordingDrawsItsPoints() {
        QFETCH(int, polls);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("short.sqlite"));
        writeSmallRecording(path, polls);
        PoolSession session;
        MainWindow window(&session);
        window.resize(1360, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(&session, &PoolSession::historyLoaded);
        window.openRecording(path);
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() >= 1, 20000);
        ChartPanel *chart = window.chartPanel();
        // What the window draws by itself, after loading.
        QTRY_VERIFY_WITH_TIMEOUT(
            !chart->frame().lines.isEmpty() && chart->frame().mode == chart->valueMode(), 5000);
        QVERIFY2(chart->frame().placeholder.isEmpty(), qPrintable(chart->frame().placeholder));
        QCOMPARE(chart->frame().members(), (QList<QByteArray>{"a", "b"}));
        for (const QByteArray member : {"a", "b"}) {
            const ChartLine *line = chart->frame().line(member);
            QVERIFY(line);
            QVERIFY2(!line->points.isEmpty(), member.constData());
            QVERIFY(line->points.size() >= 2 || !line->dots.isEmpty());
        }
        // The pool's rate: none from one poll, a dot from two, a line from more.
        QCOMPARE(chart->frame().poolRate.size(), polls - 1);
        QCOMPARE(chart->frame().poolRateDots.size(), polls == 2 ? 1 : 0);
        QVERIFY(window.grab().save(screenshotPath(QStringLiteral("short-%1").arg(polls))));
    }

    // File ▸ Open recording… starts in the recordings folder; File ▸ Recent recordings lists the
    // recordings shown, newest first, and drops a file that is gone, with a note.
    void recentRecordingsAndTheStartFolder() {
        QSettings().remove(QStringLiteral("recentRecordings"));
        QTemporaryDir dir;
        const QString first = dir.filePath(QStringLiteral("first.sqlite"));
        const QString second = dir.filePath(QStringLiteral("second.sqlite"));
        writeSmallRecording(first);
        writeSmallRecording(second);
        // Each recording in a window of its own: the list is kept in the settings, for every
        // window.
        const auto showIn = [](MainWindow &window, const QString &path) {
            QSignalSpy loaded(window.session(), &PoolSession::historyLoaded);
            window.openRecording(path);
            return QTest::qWaitFor([&loaded] { return loaded.count() >= 2; }, 10000);
        };
        {
            PoolSession session;
            MainWindow window(&session);
            SessionRecorder recorder(&session);
            recorder.setDirectory(dir.path());
            window.setSessionRecorder(&recorder);
            QCOMPARE(window.recordingsFolder(), dir.path());
            QVERIFY(showIn(window, first));
        }
        {
            PoolSession session;
            MainWindow window(&session);
            QVERIFY(showIn(window, second));
        }
        PoolSession session;
        MainWindow window(&session);
        RecentRecordings *recent = window.recentRecordings();
        QCOMPARE(recent->paths(), (QStringList{second, first}));
        recent->refresh();
        QStringList listed;
        for (QAction *action : recent->menu()->actions())
            if (!action->data().toString().isEmpty())
                listed.append(action->data().toString());
        QCOMPARE(listed, (QStringList{second, first}));

        // Chosen from the menu: shown, and first in the list again.
        recent->menu()->actions().at(1)->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(session.recordingPath(), first, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(recent->paths().value(0), first, 10000);

        QVERIFY(QFile::remove(second));
        QStringList notes;
        connect(&session, &PoolSession::messageLogged, this,
                [&notes](const LogEntry &entry) { notes.append(entry.text); });
        recent->refresh();
        QCOMPARE(recent->paths(), QStringList{first});
        QVERIFY2(notes.join(u'|').contains(second), qPrintable(notes.join(u'|')));
    }

    void aFileThatIsNoRecordingIsNamed() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.sqlite"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a database\n");
        file.close();
        PoolSession session;
        MainWindow window(&session);
        QStringList errors;
        connect(&session, &PoolSession::messageLogged, this, [&errors](const LogEntry &entry) {
            if (entry.severity == LogSeverity::Error)
                errors.append(entry.text);
        });
        window.openRecording(path);
        QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), 10000);
        QVERIFY2(errors.constFirst().contains(QStringLiteral("notes.sqlite")),
                 qPrintable(errors.constFirst()));
        QVERIFY(!session.isShowingRecording());
    }

    void recordingOptionTakesNoServer_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        QTest::newRow("alone") << QStringList{"--recording", "a.sqlite"} << QString();
        QTest::newRow("with --url")
            << QStringList{"--recording", "a.sqlite", "--url", "redis://127.0.0.1:6379"}
            << QStringLiteral("--url does not go with it");
        QTest::newRow("with --demo") << QStringList{"--recording", "a.sqlite", "--demo"}
                                     << QStringLiteral("--demo does not go with it");
    }
    void recordingOptionTakesNoServer() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        const AppOptionsResult parsed =
            parseAppOptions(QStringList{"poolscope"} + arguments, {}, QStringLiteral("0"));
        if (error.isEmpty()) {
            QVERIFY2(parsed.options.has_value(), qPrintable(parsed.error));
            QCOMPARE(parsed.options->recordingPath, QStringLiteral("a.sqlite"));
            QVERIFY(!parsed.options->demo);
            QVERIFY(!usesEmbeddedServer(*parsed.options));
        } else {
            QVERIFY(!parsed.options.has_value());
            QVERIFY2(parsed.error.contains(error), qPrintable(parsed.error));
        }
    }

    // A pool too big to record whole keeps the members the chart draws (and its ends).
    void bigPoolRecordsTheChartedMembers() {
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        QList<QByteArray> members;
        for (int i = 0; i < 30; ++i)
            members << "192.0.2." + QByteArray::number(i) + ":80";
        for (int i = 0; i < members.size(); ++i) // member 17 is in the middle, far from the ends
            redis.run({"ZADD", "big", QByteArray::number(i), members[i]});
        QTemporaryDir recordings;
        {
            PoolSession session;
            session.setPollInterval(100ms);
            SessionRecorder recorder(&session);
            recorder.setDirectory(recordings.path());
            recorder.setWholePoolLimit(5);
            session.setChartedMembers({members[17]});
            QSignalSpy polls(&session, &PoolSession::observationApplied);
            session.connectTo(redis.endpoint(), "big");
            QTRY_VERIFY_WITH_TIMEOUT(recorder.isRecording(), 10000);
            QTRY_VERIFY_WITH_TIMEOUT(polls.size() >= 3, 10000);
            session.disconnectFromServer();
        }
        QString error;
        const std::unique_ptr<RecordingReader> reader = RecordingReader::open(
            recordings.filePath(recordingFileName(redis.endpoint(), "big")), &error);
        QVERIFY2(reader, qPrintable(error));
        const QList<QByteArray> recorded = reader->members();
        QVERIFY2(recorded.contains(members[17]), recorded.join(' ').constData());
        QVERIFY(recorded.contains(members[0]));
        QVERIFY2(recorded.size() < members.size(), recorded.join(' ').constData());
    }

    void dashboardOpenedAgainShowsTheEarlierHistory() {
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.run(
            {"ZADD", "proxies", "5", "192.0.2.1:80", "7", "192.0.2.2:80", "9", "192.0.2.3:80"});
        QTemporaryDir recordings;
        qint64 firstPollMs = 0;
        double firstCount = 0;
        {
            PoolSession session;
            session.setPollInterval(100ms);
            MainWindow window(&session);
            SessionRecorder recorder(&session);
            recorder.setDirectory(recordings.path());
            window.setSessionRecorder(&recorder);
            QVERIFY(window.recordAction()->isChecked());
            QSignalSpy polls(&session, &PoolSession::observationApplied);
            session.connectTo(redis.endpoint(), "proxies");
            QTRY_VERIFY_WITH_TIMEOUT(recorder.isRecording(), 10000);
            QTRY_VERIFY_WITH_TIMEOUT(polls.size() >= 5, 10000);
            redis.run({"ZINCRBY", "proxies", "100", "192.0.2.1:80"});
            QTRY_VERIFY_WITH_TIMEOUT(
                !session.history().series("192.0.2.1:80", 0, LLONG_MAX).isEmpty() &&
                    session.history().series("192.0.2.1:80", 0, LLONG_MAX).constLast().count == 105,
                10000);
            const QList<HistoryPoint> first =
                session.history().series("192.0.2.1:80", 0, LLONG_MAX);
            firstPollMs = first.constFirst().timeMs;
            firstCount = first.constFirst().count;
            session.disconnectFromServer();
        } // the window closes, the recorder writes what is queued and releases the file
        QCOMPARE(firstCount, 5.0);
        QVERIFY(
            QFileInfo::exists(recordings.filePath(recordingFileName(redis.endpoint(), "proxies"))));

        PoolSession session;
        session.setPollInterval(100ms);
        MainWindow window(&session);
        SessionRecorder recorder(&session);
        recorder.setDirectory(recordings.path());
        QSignalSpy past(&recorder, &SessionRecorder::pastLoaded);
        session.connectTo(redis.endpoint(), "proxies");
        QTRY_COMPARE_WITH_TIMEOUT(past.count(), 2, 20000); // the overview, then every frame
        QCOMPARE_GE(past.constFirst().at(0).toLongLong(), 5);
        // The earlier dashboard's polls are back: the first one and the rise to 105.
        const QList<HistoryPoint> series = session.history().series("192.0.2.1:80", 0, LLONG_MAX);
        QVERIFY(!series.isEmpty());
        QCOMPARE(series.constFirst().timeMs, firstPollMs);
        QCOMPARE(series.constFirst().count, 5.0);
        QString seen;
        for (const HistoryPoint &p : series)
            seen += QStringLiteral(" %1@%2").arg(p.count).arg(p.timeMs - firstPollMs);
        QVERIFY2(std::any_of(series.cbegin(), series.cend(),
                             [&](const HistoryPoint &p) {
                                 return p.count == 105 && p.timeMs > firstPollMs;
                             }),
                 qPrintable(seen));
        // And the chart draws them.
        window.chartPanel()->setTimeWindow(ChartPanel::TimeWindow::Everything);
        window.chartPanel()->refreshNow();
        QCOMPARE_LE(window.chartPanel()->frame().time.fromMs, firstPollMs);
        QCOMPARE_GE(window.chartPanel()->frame().pointCount("192.0.2.1:80"), 5);
        // The new dashboard records on into the same file.
        QTRY_VERIFY_WITH_TIMEOUT(recorder.isRecording(), 10000);
        session.disconnectFromServer();
    }

    // A pool with a recording that ended a minute ago: the recorded past and the new polls are
    // not joined by lines across the minute nobody watched (nor by the band).
    void recordedPastAndNewPollsAreNotJoined_data() {
        QTest::addColumn<bool>("recording"); // this dashboard records too (writes its own gap)
        QTest::newRow("not recording") << false;
        QTest::newRow("recording") << true;
    }
    void recordedPastAndNewPollsAreNotJoined() {
        QFETCH(bool, recording);
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        const QByteArray member = "192.0.2.1:80";
        redis.run({"ZADD", "proxies", "50", member, "60", "192.0.2.2:80"});
        QTemporaryDir recordings;
        const qint64 end = QDateTime::currentMSecsSinceEpoch() - 60 * kSecond;
        {
            RecordingInfo info;
            info.server = redis.endpoint().toSafeUrl();
            info.poolKey = "proxies";
            info.createdMs = end - 30 * kSecond;
            QString error;
            const auto writer = RecordingWriter::open(
                recordings.filePath(recordingFileName(redis.endpoint(), "proxies")), info, &error);
            QVERIFY2(writer, qPrintable(error));
            for (qint64 t = end - 30 * kSecond; t <= end; t += kSecond) {
                RecordingPoll poll;
                poll.timeMs = t;
                poll.members = {{member, 10}, {"192.0.2.2:80", 20}};
                poll.min = 10;
                poll.median = 20;
                poll.max = 20;
                poll.total = 30;
                poll.memberCount = 2;
                QVERIFY2(writer->appendPoll(poll, &error), qPrintable(error));
            }
        }
        PoolSession session;
        session.setPollInterval(100ms);
        SessionRecorder recorder(&session);
        recorder.setDirectory(recordings.path());
        recorder.setEnabled(recording);
        QSignalSpy past(&recorder, &SessionRecorder::pastLoaded);
        QSignalSpy polls(&session, &PoolSession::observationApplied);
        session.connectTo(redis.endpoint(), "proxies");
        QTRY_COMPARE_WITH_TIMEOUT(past.count(), 2, 20000);
        const int before = int(polls.count());
        QTRY_VERIFY_WITH_TIMEOUT(polls.count() >= before + 3, 10000);
        // Between the last recorded point and the first new one: a break (NaN).
        const auto brokenAfterPast = [end](const auto &points, auto value) {
            bool pastSeen = false;
            for (const auto &point : points) {
                if (point.timeMs <= end && !std::isnan(value(point)))
                    pastSeen = true;
                else if (point.timeMs > end && std::isnan(value(point)))
                    return pastSeen;
                else if (point.timeMs > end)
                    return false; // joined: a new point right after the past
            }
            return false;
        };
        const QList<HistoryPoint> series = session.history().series(member, 0, LLONG_MAX);
        QString seen;
        for (const HistoryPoint &p : series)
            seen += QStringLiteral(" %1@%2").arg(p.count).arg(p.timeMs - end);
        QVERIFY2(brokenAfterPast(series, [](const HistoryPoint &p) { return p.count; }),
                 qPrintable(seen));
        QVERIFY(brokenAfterPast(session.history().band(0, LLONG_MAX),
                                [](const BandPoint &p) { return p.median; }));
        QCOMPARE(series.constLast().count, 50.0); // the new polls are there
    }
};

QTEST_MAIN(TestRecordingViewer)
#include "tst_recordingviewer.moc"
