// Recordings (src/recording): a real pool recorded under load and read back per tier, series broken
// at missing polls, the file's bound over a simulated month, many members read at once. The file
// itself (a recorder killed, its path, server identity, damage, JSON) is in tst_recordingfile.cpp,
// one writer per file (the lock) in tst_recordinglock.cpp.
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

class TestRecording : public QObject, public RecordingCase {
    Q_OBJECT

private Q_SLOTS:

    void initTestCase() { startCase(); }

    void cleanupTestCase() { m_redis.reset(); }

    // Record a real pool while it is allocated from, stop, reopen: every tier holds exactly
    // the polls the slot rule keeps, with their values and times; the band and events too.
    void recordsUnderLoadAndReadsBackPerTier() {
        QList<QByteArray> members;
        for (int i = 0; i < 40; ++i)
            members.append("10.0.0." + QByteArray::number(i) + ":8080");
        m_redis->run({"DEL", "recorded"});
        m_redis->makePool("recorded", members, 0);
        const QString path = file(QStringLiteral("load.sqlite"));
        const RecordingTiers tiers = smallTiers();

        PoolRecorder recorder;
        QString error;
        QVERIFY2(recorder.open(path, info("recorded", tiers), &error), qPrintable(error));
        QSignalSpy written(&recorder, &PoolRecorder::pollWritten);
        QSignalSpy failed(&recorder, &PoolRecorder::writeFailed);
        PoolMonitor monitor;
        monitor.setPollInterval(std::chrono::milliseconds(20));
        QList<RecordingPoll> polled;
        connect(&monitor, &PoolMonitor::observationArrived, this,
                [&](const PoolObservation &observation) {
                    if (!polled.isEmpty() && observation.timeMs <= polled.back().timeMs)
                        return; // the recorder ignores it too
                    polled.append(
                        PoolRecorder::pollFrom(observation, recorder.wholePoolLimit(), {}, {}));
                    recorder.recordObservation(observation);
                });

        LoadSpec spec;
        spec.endpoint = m_redis->endpoint();
        spec.poolKey = "recorded";
        spec.total = 6000;
        spec.workers = 2;
        spec.pipeline = 4;
        spec.ratePerSecond = 3000; // about two seconds of polls while the counts move
        LoadRunner runner;
        QSignalSpy finished(&runner, &LoadRunner::finished);
        monitor.connectTo(m_redis->endpoint(), "recorded");
        QVERIFY(runner.start(spec));
        QVERIFY(finished.wait(30000));
        // A few polls after the load, so the last counts (6000 in all) are recorded.
        QTRY_VERIFY_WITH_TIMEOUT(!polled.isEmpty() && polled.back().total == 6000, 10000);
        const int target = int(polled.size()) + 3;
        QTRY_VERIFY_WITH_TIMEOUT(polled.size() >= target, 10000);
        monitor.disconnectFromServer();
        RecordingEvent seed{polled.first().timeMs, RecordingEventKind::Seed, {}, "seed 40"};
        RecordingEvent evict{polled.back().timeMs, RecordingEventKind::Evict, members[3],
                             "evict " + QString::fromUtf8(members[3])};
        recorder.recordEvent(seed);
        recorder.recordEvent(evict);
        recorder.close();
        QCOMPARE(failed.size(), 0);
        QCOMPARE(written.size(), polled.size());
        QCOMPARE_GT(polled.size(), 30);
        QCOMPARE_LT(polled.first().total, polled.back().total); // recorded while it moved
        QVERIFY2(!QFileInfo::exists(path + QStringLiteral(".lock")), "lock released on close");

        QString openError;
        const auto reader = RecordingReader::open(path, &openError);
        QVERIFY2(reader, qPrintable(openError));
        QCOMPARE(reader->info().poolKey, QByteArray("recorded"));
        QCOMPARE(reader->info().tiers, tiers);
        QCOMPARE(reader->info().schemaVersion, kRecordingSchemaVersion);
        QCOMPARE(reader->members().size(), members.size());
        const RecordingTimeRange range = reader->timeRange();
        QCOMPARE(range.fromMs, expectedFrames(polled, tiers[0], 0).first().timeMs);
        QCOMPARE(range.toMs, polled.back().timeMs);
        const qint64 span = range.toMs - range.fromMs;
        QCOMPARE_GT(span, 1000);
        for (int tier = 0; tier < kRecordingTierCount; ++tier) {
            const int wanted = wantedFor(tiers, tier, span);
            QCOMPARE(reader->tierFor(range.fromMs, range.toMs, wanted), tier);
            const QList<RecordingPoll> frames = expectedFrames(polled, tiers[size_t(tier)], tier);
            const auto series = reader->series(members, range.fromMs, range.toMs, wanted);
            QCOMPARE(series.size(), members.size());
            for (const QByteArray &member : members) {
                const QList<HistoryPoint> &points = series.value(member);
                QCOMPARE(points.size(), frames.size());
                for (qsizetype i = 0; i < frames.size(); ++i) {
                    QCOMPARE(points[i].timeMs, frames[i].timeMs);
                    const auto it = std::find_if(frames[i].members.begin(), frames[i].members.end(),
                                                 [&](const PoolMember &polledMember) {
                                                     return polledMember.member == member;
                                                 });
                    QVERIFY(it != frames[i].members.end());
                    QCOMPARE(points[i].count, it->count);
                }
            }
            const QList<BandPoint> band = reader->band(range.fromMs, range.toMs, wanted);
            QCOMPARE(band.size(), frames.size());
            const QList<HistoryPoint> total = reader->totalSeries(range.fromMs, range.toMs, wanted);
            for (qsizetype i = 0; i < frames.size(); ++i) {
                QCOMPARE(band[i].timeMs, frames[i].timeMs);
                QCOMPARE(band[i].min, frames[i].min);
                QCOMPARE(band[i].median, frames[i].median);
                QCOMPARE(band[i].max, frames[i].max);
                QCOMPARE(total[i].count, frames[i].total);
            }
        }
        QCOMPARE(reader->series(members[0], range.fromMs, range.toMs, 10'000'000).size(),
                 expectedFrames(polled, tiers[0], 0).size());
        QCOMPARE(reader->events(0, range.toMs), (QList<RecordingEvent>{seed, evict}));
        QCOMPARE(reader->historyEvents(0, range.toMs).at(1).kind, HistoryEvent::Kind::Evict);
        QVERIFY2(reader->lastError().isEmpty(), qPrintable(reader->lastError()));
    }

    // Lines break where a member was missing between two of its points, and at gap events
    // (here the one a writer adds when it resumes a recording).
    void seriesBreakAtMissingPollsAndGaps() {
        const QString path = file(QStringLiteral("breaks.sqlite"));
        QString error;
        {
            auto writer = RecordingWriter::open(path, info("breaks", smallTiers()), &error);
            QVERIFY2(writer, qPrintable(error));
            RecordingPoll poll = makePoll(1'000'000, 3, 10);
            QVERIFY(writer->appendPoll(poll, &error));
            poll = makePoll(1'000'200, 3, 11);
            poll.members.removeAt(1); // member-1 evicted for one poll
            QVERIFY(writer->appendPoll(poll, &error));
            QVERIFY(writer->appendPoll(makePoll(1'000'400, 3, 12), &error));
            QVERIFY(writer->appendPoll(makePoll(1'000'300, 3, 99), &error)); // older: ignored
        }
        {
            auto writer = RecordingWriter::open(path, info("breaks", smallTiers()), &error);
            QVERIFY2(writer, qPrintable(error));
            QCOMPARE(writer->latestTimeMs(), 1'000'400);
            QVERIFY(writer->appendPoll(makePoll(1'005'000, 3, 20), &error));
        }
        const auto reader = RecordingReader::open(path, &error);
        QVERIFY2(reader, qPrintable(error));
        const QList<HistoryPoint> evicted = reader->series("member-1", 0, 2'000'000, 10'000'000);
        QCOMPARE(evicted.size(), 5);
        QCOMPARE(evicted[0].timeMs, 1'000'000);
        QCOMPARE(evicted[1].timeMs, 1'000'200);
        QVERIFY(std::isnan(evicted[1].count));
        QCOMPARE(evicted[2].timeMs, 1'000'400);
        QCOMPARE(evicted[3].timeMs, 1'005'000); // "recording resumed"
        QVERIFY(std::isnan(evicted[3].count));
        QCOMPARE(evicted[4].count, 20.0 + 7 % 13);
        const QList<BandPoint> band = reader->band(0, 2'000'000, 10'000'000);
        QCOMPARE(band.size(), 5);
        QVERIFY(std::isnan(band[3].min) && std::isnan(band[3].median) && std::isnan(band[3].max));
        const QList<RecordingEvent> events = reader->events(0, 2'000'000);
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].kind, RecordingEventKind::Gap);
        QVERIFY(events[0].breaksLines());
        QCOMPARE(reader->series("never-recorded", 0, 2'000'000, 100).size(), 0);

        // Another pool's key is refused on an existing file, with the file and both keys named.
        QVERIFY(!RecordingWriter::open(path, info("another"), &error));
        QVERIFY2(error.contains(path) && error.contains(QStringLiteral("\"breaks\"")) &&
                     error.contains(QStringLiteral("\"another\"")),
                 qPrintable(error));
        QVERIFY(!RecordingReader::open(file(QStringLiteral("missing.sqlite")), &error));
        QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));
    }

    // A month of polls fed straight to the store with a simulated clock: each tier keeps only
    // its retention, and the file stops growing once the coarsest tier is full.
    void compactionKeepsTheFileBoundedOverAMonth() {
        const QString path = file(QStringLiteral("month.sqlite"));
        const RecordingTiers tiers = defaultRecordingTiers();
        QString error;
        auto writer = RecordingWriter::open(path, info("month", tiers), &error);
        QVERIFY2(writer, qPrintable(error));
        constexpr qint64 kStep = 300'000; // a poll every 5 minutes keeps the test short
        constexpr qint64 kStart = 1'700'000'000'000;
        constexpr qint64 kDay = 86'400'000;
        constexpr int kMembers = 100;
        qint64 sizeAfter31Days = 0;
        qint64 largest = 0;
        RecordingEvent note;
        note.kind = RecordingEventKind::Note;
        for (qint64 t = kStart, n = 0; t <= kStart + 35 * kDay; t += kStep, ++n) {
            QVERIFY2(writer->appendPoll(makePoll(t, kMembers, n), &error), qPrintable(error));
            if (n % 12 == 0) { // an event an hour
                note.timeMs = t;
                QVERIFY(writer->appendEvent(note, &error));
            }
            if (t >= kStart + 31 * kDay && sizeAfter31Days == 0)
                sizeAfter31Days = fileBytes(path);
            largest = std::max(largest, fileBytes(path));
        }
        const QList<qint64> frames = framesPerTier(path);
        for (int tier = 0; tier < kRecordingTierCount; ++tier) {
            const RecordingTier &t = tiers[size_t(tier)];
            const qint64 bound =
                std::max(t.retentionMs, kStep) / std::max(t.resolutionMs, kStep) + 1;
            QVERIFY2(frames[tier] <= bound,
                     qPrintable(QStringLiteral("tier %1: %2 frames, bound %3")
                                    .arg(tier)
                                    .arg(frames[tier])
                                    .arg(bound)));
            QCOMPARE_GE(frames[tier], bound - 2);
        }
        // Frames of 100 members at about 2 bytes each: the coarse tier's 8,640 frames take
        // under 4 MiB, the WAL at most about 4 MiB more (journal_size_limit, checkpoints every
        // 1,000 pages); the file may not keep growing after the first month.
        qDebug("file %lld bytes, WAL %lld bytes, largest %lld bytes", QFileInfo(path).size(),
               QFileInfo(path + QStringLiteral("-wal")).size(), largest);
        const qint64 bound = 9 * 1024 * 1024;
        QVERIFY2(largest < bound, qPrintable(QStringLiteral("largest %1 bytes").arg(largest)));
        QVERIFY2(fileBytes(path) <= sizeAfter31Days * 11 / 10,
                 qPrintable(QStringLiteral("%1 bytes after 31 days, %2 after 35")
                                .arg(sizeAfter31Days)
                                .arg(fileBytes(path))));
        const auto reader = RecordingReader::open(path, &error);
        QVERIFY2(reader, qPrintable(error));
        const RecordingTimeRange range = reader->timeRange();
        QCOMPARE(range.toMs, kStart + 35 * kDay);
        QCOMPARE_GE(range.fromMs, kStart + 5 * kDay - kStep);
        QCOMPARE_LE(reader->events(0, range.toMs).size(), 30 * 24 + 1);
        // The whole month at about 2,000 points comes from the coarsest tier.
        QCOMPARE(reader->tierFor(range.fromMs, range.toMs, 2000), 2);
        QCOMPARE(reader->series("member-5", range.fromMs, range.toMs, 2000).size(), frames[2]);
        // Every member at once (the result grows while frames are read into it).
        QList<QByteArray> names;
        for (int i = 0; i < kMembers; ++i)
            names.append("member-" + QByteArray::number(i));
        const auto all = reader->series(names, range.fromMs, range.toMs, 2000);
        QCOMPARE(all.size(), kMembers);
        const qint64 lastN = (range.toMs - kStart) / kStep;
        for (int i = 0; i < kMembers; ++i) {
            const QList<HistoryPoint> &points = all.value(names[i]);
            QCOMPARE(points.size(), frames[2]);
            QCOMPARE(points.last().timeMs, range.toMs);
            QCOMPARE(points.last().count, double(lastN + (i * 7) % 13));
        }
    }

    // Reading 1,000 members at once (the chart's "every member"): each gets its own points.
    void readsManyMembersAtOnce() {
        const QString path = file(QStringLiteral("many.sqlite"));
        QString error;
        constexpr int kMembers = 1000;
        {
            auto writer = RecordingWriter::open(path, info("many", smallTiers()), &error);
            QVERIFY2(writer, qPrintable(error));
            for (int poll = 0; poll < 3; ++poll)
                QVERIFY(writer->appendPoll(makePoll(2'000'000 + poll * 1000, kMembers, poll * 5),
                                           &error));
        }
        const auto reader = RecordingReader::open(path, &error);
        QVERIFY2(reader, qPrintable(error));
        const QList<QByteArray> names = reader->members();
        QCOMPARE(names.size(), kMembers);
        const auto all = reader->series(names, 0, 3'000'000, 10'000'000);
        QCOMPARE(all.size(), kMembers);
        for (int i = 0; i < kMembers; ++i) {
            const QList<HistoryPoint> &points = all.value("member-" + QByteArray::number(i));
            QCOMPARE(points.size(), 3);
            QCOMPARE(points[2].timeMs, 2'002'000);
            QCOMPARE(points[2].count, double(10 + (i * 7) % 13));
        }
    }
};

QTEST_GUILESS_MAIN(TestRecording)
#include "tst_recording.moc"
