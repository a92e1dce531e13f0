// The bounded history store: tiers, ring wrap-around, memory bound, rates, gaps, tracking limits.
#include "history/PoolHistory.h"

#include <cmath>

#include <QtTest>

using namespace poolscope;

namespace {

constexpr qint64 kSecond = 1000;

QList<QByteArray> names(int count, const char *prefix = "m") {
    QList<QByteArray> list;
    for (int i = 0; i < count; ++i)
        list << QByteArray(prefix) + QByteArray::number(i).rightJustified(4, '0');
    return list;
}

// Fine: 10 x 1 s, medium: 10 x 10 s, coarse: 10 x 100 s.
PoolHistory::Limits smallTiers() {
    PoolHistory::Limits limits;
    limits.fineResolutionMs = 1 * kSecond;
    limits.finePoints = 10;
    limits.mediumResolutionMs = 10 * kSecond;
    limits.mediumPoints = 10;
    limits.coarseResolutionMs = 100 * kSecond;
    limits.coarsePoints = 10;
    return limits;
}

QString describe(const QList<HistoryPoint> &points) {
    QStringList parts;
    for (const HistoryPoint &point : points)
        parts << QStringLiteral("%1:%2").arg(point.timeMs).arg(point.count);
    return parts.join(QLatin1Char(' '));
}

} // namespace

class TestHistory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void seriesUsesFinestTierForEachPart_data() {
        QTest::addColumn<qint64>("fromMs");
        QTest::addColumn<qint64>("toMs");
        QTest::addColumn<int>("points");
        QTest::addColumn<qint64>("firstMs");
        QTest::addColumn<qint64>("stepMs");

        // Fed one sample a second, t = 0..999 s, count = t. Fine keeps 990..999 s; medium keeps
        // slots ending 909..999 s; coarse keeps slots ending 99..999 s.
        QTest::newRow("fine") << 992 * kSecond << 999 * kSecond << 8 << 992 * kSecond << kSecond;
        QTest::newRow("medium") << 910 * kSecond << 985 * kSecond << 7 << 919 * kSecond
                                << 10 * kSecond;
        QTest::newRow("coarse") << 0LL << 900 * kSecond << 9 << 99 * kSecond << 100 * kSecond;
    }
    void seriesUsesFinestTierForEachPart() {
        QFETCH(qint64, fromMs);
        QFETCH(qint64, toMs);
        QFETCH(int, points);
        QFETCH(qint64, firstMs);
        QFETCH(qint64, stepMs);

        PoolHistory history(smallTiers());
        for (int t = 0; t < 1000; ++t)
            history.record(t * kSecond, {{"a", double(t)}});

        const QList<HistoryPoint> series = history.series("a", fromMs, toMs);
        QCOMPARE(series.size(), points);
        for (int i = 0; i < series.size(); ++i) {
            QCOMPARE(series[i].timeMs, firstMs + i * stepMs);
            // A bucket keeps its last sample, so each point is exact for its time.
            QCOMPARE(series[i].count, double(series[i].timeMs / kSecond));
        }
    }

    void wholeRangeJoinsTiersInTimeOrder() {
        PoolHistory history(smallTiers());
        for (int t = 0; t < 1000; ++t)
            history.record(t * kSecond, {{"a", double(t)}});
        const QList<HistoryPoint> series = history.series("a", 0, 999 * kSecond);
        QCOMPARE(series.size(), 9 + 9 + 10); // coarse, medium, fine
        QCOMPARE(series.front().timeMs, 99 * kSecond);
        QCOMPARE(series.back().timeMs, 999 * kSecond);
        for (int i = 1; i < series.size(); ++i)
            QVERIFY2(series[i - 1].timeMs < series[i].timeMs, qPrintable(describe(series)));
        QCOMPARE(history.latestTimeMs(), 999 * kSecond);
    }

    void ringWrapDropsOldest() {
        PoolHistory::Limits limits;
        limits.finePoints = 5;
        // Coarser tiers of one slot never reach before the fine ring: only it answers.
        limits.mediumPoints = 1;
        limits.coarsePoints = 1;
        PoolHistory history(limits);
        for (int t = 0; t < 20; ++t)
            history.record(t * kSecond, {{"a", double(t * 3)}});
        const QList<HistoryPoint> series = history.series("a", 0, 100 * kSecond);
        const QList<HistoryPoint> expected{{15 * kSecond, 45},
                                           {16 * kSecond, 48},
                                           {17 * kSecond, 51},
                                           {18 * kSecond, 54},
                                           {19 * kSecond, 57}};
        QCOMPARE(series, expected);
    }

    void samplesWithinOneResolutionShareASlot() {
        PoolHistory history(smallTiers());
        history.record(0, {{"a", 1}});
        history.record(400, {{"a", 2}});
        history.record(899, {{"a", 3}});
        history.record(900, {{"a", 4}}); // 9/10 of the resolution: a poll timer's early tick
        const QList<HistoryPoint> expected{{899, 3}, {900, 4}};
        QCOMPARE(history.series("a", 0, 10 * kSecond), expected);
        // Out-of-order samples are ignored rather than rewriting the past.
        history.record(500, {{"a", 100}});
        QCOMPARE(history.series("a", 0, 10 * kSecond), expected);
    }

    // Issue 12 item 1: a poll timer that ticks up to 5% early or late around 1 s must still
    // leave one point per poll, at the poll's time.
    void jitteredPollsKeepOnePointEach() {
        PoolHistory::Limits limits = smallTiers();
        limits.finePoints = 100;
        PoolHistory history(limits);
        const qint64 offsets[] = {0, -50, 40, -30, 50, -45, 10, -5, 30, -50};
        QList<HistoryPoint> expected;
        for (int i = 0; i < 60; ++i) {
            const qint64 timeMs = 100 * kSecond + i * kSecond + offsets[i % 10];
            history.record(timeMs, {{"a", double(i)}});
            expected.append({timeMs, double(i)});
        }
        QCOMPARE(history.series("a", 0, 1000 * kSecond), expected);
    }

    // A gap inside one fine slot (a quick reconnect, a switch to another pool and back) still
    // separates the points before and after it.
    void gapSplitsTheFineSlot() {
        PoolHistory history(smallTiers());
        history.record(0, {{"a", 1}});
        history.markGap(300, QStringLiteral("reconnect"));
        history.record(500, {{"a", 0}});
        const QList<HistoryPoint> points = history.series("a", 0, 10 * kSecond);
        QCOMPARE(points.size(), 3);
        QCOMPARE(points[0], (HistoryPoint{0, 1}));
        QVERIFY(std::isnan(points[1].count));
        QCOMPARE(points[2], (HistoryPoint{500, 0}));
    }

    void countsKeepFullPrecision_data() {
        QTest::addColumn<double>("first");
        QTest::addColumn<double>("second");
        QTest::newRow("small") << 0.0 << 5.0;
        QTest::newRow("huge but close") << 4e15 << 4e15 + 1;
        QTest::newRow("spread beyond 2^31") << 0.0 << 9e12;
        QTest::newRow("fractional") << 1.0 << 2.5;
        QTest::newRow("down again") << 100.0 << 0.0;
        QTest::newRow("spread of 65,534") << 0.0 << 65534.0;
        QTest::newRow("spread of 65,535") << 0.0 << 65535.0;
        QTest::newRow("falling by 65,535") << 65535.0 << 0.0;
    }
    void countsKeepFullPrecision() {
        QFETCH(double, first);
        QFETCH(double, second);
        PoolHistory history(smallTiers());
        history.record(0, {{"a", first}});
        history.record(kSecond, {{"a", second}});
        const QList<HistoryPoint> expected{{0, first}, {kSecond, second}};
        QCOMPARE(history.series("a", 0, kSecond), expected);
    }

    // Counts are kept as 16-bit offsets in blocks of 64 slots; blocks that do not fit hold doubles
    // until the ring overwrites them with counts that fit again. Every pattern reads back exactly,
    // across several wraps of a ring that does not end on a block boundary.
    void compactCountsReadBackExactlyAcrossWraps_data() {
        QTest::addColumn<int>("pattern");
        QTest::addColumn<bool>("compactAtEnd");
        QTest::newRow("steady") << 0 << true;
        QTest::newRow("busy: 1,000 a poll, a wrap spans 200,000") << 1 << true;
        QTest::newRow("resets to zero") << 2 << true;
        QTest::newRow("falling") << 3 << true;
        QTest::newRow("fractional now and then") << 4 << false;
        QTest::newRow("jumps of 70,000") << 5 << false;
    }
    void compactCountsReadBackExactlyAcrossWraps() {
        QFETCH(int, pattern);
        QFETCH(bool, compactAtEnd);
        const auto countAt = [pattern](int t) -> double {
            switch (pattern) {
            case 0:
                return 5000 + t * 3;
            case 1:
                return 1e9 + t * 1000.0;
            case 2:
                return (t % 150) * 400.0;
            case 3:
                return 1e6 - t * 7.0;
            case 4:
                return t % 37 == 0 ? t + 0.5 : t;
            default:
                return t * 70000.0;
            }
        };
        PoolHistory::Limits limits;
        limits.finePoints = 200; // three blocks of 64 and one of 8
        limits.mediumPoints = 1;
        limits.coarsePoints = 1;
        PoolHistory history(limits);
        PoolHistory steady(limits);
        constexpr int kPolls = 1000;
        for (int t = 0; t < kPolls; ++t) {
            // Now and then a missed poll, so blocks also hold missing slots.
            if (t % 97 != 5) {
                history.record(t * kSecond, {{"a", countAt(t)}});
                steady.record(t * kSecond, {{"a", double(t)}});
            } else {
                history.record(t * kSecond, {{"b", 0}});
                steady.record(t * kSecond, {{"b", 0}});
            }
        }
        const QList<HistoryPoint> series = history.series("a", 0, kPolls * kSecond);
        QList<HistoryPoint> expected;
        for (int t = kPolls - limits.finePoints; t < kPolls; ++t)
            if (t % 97 != 5)
                expected.append({t * kSecond, countAt(t)});
        QList<HistoryPoint> present;
        for (const HistoryPoint &point : series)
            if (!std::isnan(point.count))
                present.append(point);
        QCOMPARE(present, expected);
        // Once the ring has passed, a block that fits is back to 2 bytes a point.
        if (compactAtEnd)
            QVERIFY2(
                history.bytesHeld() <= steady.bytesHeld() + 1024,
                qPrintable(
                    QStringLiteral("%1 vs %2").arg(history.bytesHeld()).arg(steady.bytesHeld())));
        else
            QCOMPARE_GT(history.bytesHeld(), steady.bytesHeld() + 1024);
    }

    void memoryIsBoundedAndStopsGrowing() {
        // Tiers that fill within one simulated hour, so 2 hours shows the plateau.
        PoolHistory::Limits limits;
        limits.fineResolutionMs = kSecond;
        limits.finePoints = 600;
        limits.mediumResolutionMs = 10 * kSecond;
        limits.mediumPoints = 180;
        limits.coarseResolutionMs = 60 * kSecond;
        limits.coarsePoints = 60;
        PoolHistory history(limits);

        constexpr int kMembers = 1000;
        QList<PoolMember> members;
        for (const QByteArray &name : names(kMembers, "192.0.2.1:"))
            members.append({name, 0});
        const qint64 points = limits.finePoints + limits.mediumPoints + limits.coarsePoints;
        // Worst case 8 bytes a point, plus per-member and per-slot bookkeeping.
        const qint64 bound = kMembers * (points * 8 + 1024) + points * 64 + (1 << 20);
        // Counts are whole and close: the store must not spend more than 2 bytes a point on them.
        const qint64 compact = kMembers * points * 2;

        qint64 afterOneHour = 0;
        for (int t = 0; t < 2 * 3600; ++t) {
            for (qsizetype i = 0; i < members.size(); ++i)
                members[i].count += (t + i) % 3 == 0 ? 1 : 0;
            history.record(t * kSecond, members);
            if (t == 4000)
                afterOneHour = history.bytesHeld();
            if (t % 600 == 0)
                QVERIFY2(history.bytesHeld() < bound,
                         qPrintable(QStringLiteral("%1 bytes at t=%2 s, bound %3")
                                        .arg(history.bytesHeld())
                                        .arg(t)
                                        .arg(bound)));
        }
        const qint64 atEnd = history.bytesHeld();
        QCOMPARE(atEnd, afterOneHour);
        QVERIFY2(atEnd >= qint64(compact), qPrintable(QString::number(atEnd))); // honest
        QVERIFY2(atEnd < compact * 3 / 2, qPrintable(QString::number(atEnd)));
        QCOMPARE(history.trackedMembers().size(), kMembers);
        // At 7199 s: fine 6600..7199 s (600), medium slots ending 5409..6599 s (120), coarse
        // slots ending 3659..5399 s (30).
        const QList<HistoryPoint> series = history.series(members[7].member, 0, 7200 * kSecond);
        QCOMPARE(series.size(), 750);
        QCOMPARE(series.front().timeMs, 3659 * kSecond);
    }

    void rateDeltasAndLastChange() {
        PoolHistory::Limits limits = smallTiers();
        limits.finePoints = 60;
        PoolHistory history(limits);
        // a: +2 a second; b: flat; c: +1 a second, then reset to 0 at t = 25 s (a restore at zero).
        double c = 0;
        for (int t = 0; t <= 30; ++t) {
            c = t == 25 ? 0 : c + (t == 0 ? 0 : 1);
            history.record(t * kSecond, {{"a", 2.0 * t}, {"b", 7}, {"c", c}});
        }
        QCOMPARE(history.ratePerSecond("a", 10 * kSecond), 2.0);
        QCOMPARE(history.ratePerSecond("b", 10 * kSecond), 0.0);
        QCOMPARE(history.ratePerSecond("unknown", 10 * kSecond), 0.0);
        // The reset is not negative work: 9 rises of 1 in the last 10 s (20..24, then 25..30).
        QCOMPARE(history.ratePerSecond("c", 10 * kSecond), 0.9);

        const QHash<QByteArray, double> deltas = history.deltas(10 * kSecond);
        QCOMPARE(deltas.value("a"), 20.0);
        QCOMPARE(deltas.value("b"), 0.0);
        QCOMPARE(deltas.value("c"), 9.0);

        QCOMPARE(history.lastChangeMs("a"), std::optional<qint64>(30 * kSecond));
        QCOMPARE(history.lastChangeMs("b"), std::nullopt);
        QCOMPARE(history.lastChangeMs("c"), std::optional<qint64>(30 * kSecond));
        QCOMPARE(history.lastChangeMs("unknown"), std::nullopt);
    }

    void rateOverLongWindowUsesCoarserTier() {
        PoolHistory::Limits limits = smallTiers();
        limits.finePoints = 30; // 30 s of fine data; the 300 s window needs the medium tier
        limits.mediumPoints = 100;
        PoolHistory history(limits);
        for (int t = 0; t <= 600; ++t)
            history.record(t * kSecond, {{"a", 3.0 * t}});
        QCOMPARE(history.ratePerSecond("a", 300 * kSecond), 3.0);
        // From the first medium point inside the window (309 s) to the latest (600 s).
        QCOMPARE(history.deltas(300 * kSecond).value("a"), 3.0 * (600 - 309));
    }

    void gapsAndEvictionsBreakLines() {
        PoolHistory history(smallTiers());
        for (int t = 0; t < 10; ++t) {
            QList<PoolMember> members{{"a", double(t)}};
            if (t < 3 || t > 6)
                members.append({"evicted-for-a-while", 50});
            if (t == 5)
                continue; // nothing read at 5 s: the connection was down
            history.record(t * kSecond, members);
            if (t == 4)
                history.markGap(4500, QStringLiteral("connection lost"));
        }

        const QList<HistoryPoint> a = history.series("a", 0, 9 * kSecond);
        QCOMPARE(a.size(), 10); // 9 samples and one break
        QCOMPARE(a[4], (HistoryPoint{4000, 4}));
        QCOMPARE(a[5].timeMs, 4500);
        QVERIFY(std::isnan(a[5].count));
        QCOMPARE(a[6], (HistoryPoint{6000, 6}));

        const QList<HistoryPoint> b = history.series("evicted-for-a-while", 0, 9 * kSecond);
        QCOMPARE(b.size(), 7); // 0, 1, 2, break, 7, 8, 9
        QCOMPARE(b[2].timeMs, 2000);
        QCOMPARE(b[3].timeMs, 3000); // the first poll it was missing from
        QVERIFY(std::isnan(b[3].count));
        QCOMPARE(b[4], (HistoryPoint{7000, 50}));

        const QList<BandPoint> band = history.band(0, 9 * kSecond);
        QCOMPARE(band.size(), 10);
        QCOMPARE(band[5].timeMs, 4500);
        QVERIFY(std::isnan(band[5].min) && std::isnan(band[5].median) && std::isnan(band[5].max));
        QCOMPARE(band[0].min, 0.0);
        QCOMPARE(band[0].max, 50.0);
        QCOMPARE(band[0].median, 25.0);

        const QList<HistoryPoint> total = history.totalSeries(0, 9 * kSecond);
        QCOMPARE(total.size(), 10);
        QVERIFY(std::isnan(total[5].count));
        QCOMPARE(total.back(), (HistoryPoint{9000, 59}));

        const QList<HistoryEvent> events = history.events(0, 9 * kSecond);
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].kind, HistoryEvent::Kind::Gap);
        QCOMPARE(events[0].label, QStringLiteral("connection lost"));
    }

    void bandComesFromAllMembersInAnyOrder() {
        PoolHistory::Limits limits = smallTiers();
        limits.maxTrackedMembers = 1;
        PoolHistory history(limits);
        history.record(0, {{"x", 9}, {"y", 1}, {"z", 4}, {"w", 6}});
        const QList<BandPoint> band = history.band(0, 0);
        QCOMPARE(band.size(), 1);
        QCOMPARE(band[0].min, 1.0);
        QCOMPARE(band[0].median, 5.0); // between 4 and 6
        QCOMPARE(band[0].max, 9.0);
        QCOMPARE(history.totalSeries(0, 0).value(0).count, 20.0);

        history.recordBand(kSecond, 100, 200, 300, 4000);
        QCOMPARE(history.band(kSecond, kSecond).value(0).median, 200.0);
        QCOMPARE(history.totalSeries(kSecond, kSecond).value(0).count, 4000.0);
    }

    void pinnedMembersAreTrackedPastTheLimit() {
        PoolHistory::Limits limits = smallTiers();
        limits.maxTrackedMembers = 3;
        PoolHistory history(limits);
        QList<PoolMember> members;
        for (const QByteArray &name : names(10))
            members.append({name, 1});
        history.record(0, members);
        QCOMPARE(history.trackedMembers().size(), 3);
        QVERIFY(history.series("m0007", 0, kSecond).isEmpty());

        history.setPinned({"m0007"});
        history.record(kSecond, members);
        QCOMPARE(history.trackedMembers().size(), 4);
        QVERIFY(history.trackedMembers().contains("m0007"));
        QCOMPARE(history.series("m0007", 0, kSecond), (QList<HistoryPoint>{{kSecond, 1}}));
        // Still no room for unpinned newcomers.
        QVERIFY(history.series("m0008", 0, kSecond).isEmpty());
    }

    void newcomersReplaceTheStalest() {
        // Big pools are recorded by their top, bottom and charted members, which churn: a
        // newcomer takes the place of the member seen longest ago, never of one in its own poll,
        // whatever the order of the poll, and never of a pinned one.
        PoolHistory::Limits limits = smallTiers();
        limits.maxTrackedMembers = 2;
        PoolHistory history(limits);
        history.setPinned({"p"});
        history.record(0, {{"a", 1}, {"b", 1}, {"p", 1}});
        history.record(kSecond, {{"a", 2}, {"b", 2}, {"p", 2}});
        history.record(2 * kSecond, {{"c", 3}, {"a", 3}, {"p", 3}}); // b not seen: c replaces it
        QList<QByteArray> tracked = history.trackedMembers();
        std::sort(tracked.begin(), tracked.end());
        QCOMPARE(tracked, (QList<QByteArray>{"a", "c", "p"}));
        QVERIFY(history.series("b", 0, 10 * kSecond).isEmpty());
        QCOMPARE(history.series("c", 0, 10 * kSecond), (QList<HistoryPoint>{{2 * kSecond, 3}}));

        // Newcomers listed before the current members: no current member is given up.
        history.record(3 * kSecond, {{"x", 0}, {"y", 0}, {"a", 4}, {"c", 4}});
        QVERIFY(history.series("x", 0, 10 * kSecond).isEmpty());
        QVERIFY(history.series("y", 0, 10 * kSecond).isEmpty());
        QCOMPARE(history.series("a", 0, 10 * kSecond).size(), 4);
        QCOMPARE(history.series("c", 0, 10 * kSecond).size(), 2);

        // p (pinned) was missed for a while but keeps its place and its points.
        history.record(4 * kSecond, {{"z", 0}, {"a", 5}});
        QVERIFY(history.trackedMembers().contains("p"));
        QVERIFY(history.trackedMembers().contains("z")); // took c's place
        QVERIFY(!history.trackedMembers().contains("c"));
        QCOMPARE(history.series("p", 0, 10 * kSecond).size(), 3);
    }

    void membersThatAgedOutMakeRoom() {
        PoolHistory::Limits limits = smallTiers();
        limits.maxTrackedMembers = 2;
        PoolHistory history(limits);
        for (int t = 0; t < 5; ++t)
            history.record(t * kSecond, {{"old1", 1}, {"old2", 1}});
        // Past every tier's reach (10 x 100 s), old1 and old2 are gone; newcomers get tracked.
        for (int t = 5; t < 1200; ++t)
            history.record(t * kSecond, {{"new", double(t)}});
        QCOMPARE(history.trackedMembers(), QList<QByteArray>{"new"});
        QVERIFY(history.series("old1", 0, 2000 * kSecond).isEmpty());
        history.record(1200 * kSecond, {{"new", 1200}, {"newer", 1}});
        QCOMPARE(history.trackedMembers().size(), 2);
        QVERIFY(history.trackedMembers().contains("newer"));
    }

    void eventsAreBoundedAndOrdered() {
        PoolHistory history;
        for (int i = 0; i < 10050; ++i)
            history.addEvent({i * kSecond, HistoryEvent::Kind::Note, {}, QString::number(i)});
        QList<HistoryEvent> all = history.events(0, 20000 * kSecond);
        QCOMPARE(all.size(), 10000);
        QCOMPARE(all.front().label, QStringLiteral("50"));
        QCOMPARE(all.back().label, QStringLiteral("10049"));

        history.addEvent(
            {7500 * kSecond + 1, HistoryEvent::Kind::Evict, "m1", QStringLiteral("late")});
        const QList<HistoryEvent> around = history.events(7500 * kSecond, 7501 * kSecond);
        QCOMPARE(around.size(), 3);
        QCOMPARE(around[1].label, QStringLiteral("late"));
        QCOMPARE(around[1].member, QByteArray("m1"));
    }

    void clearForgetsEverything() {
        PoolHistory history(smallTiers());
        history.record(0, {{"a", 1}});
        history.addEvent({0, HistoryEvent::Kind::Seed, {}, QStringLiteral("seed")});
        const qint64 empty = PoolHistory(smallTiers()).bytesHeld();
        QCOMPARE_GT(history.bytesHeld(), empty);
        history.clear();
        QVERIFY(history.trackedMembers().isEmpty());
        QVERIFY(history.series("a", 0, kSecond).isEmpty());
        QVERIFY(history.events(0, kSecond).isEmpty());
        QCOMPARE(history.bytesHeld(), empty);
    }
};

QTEST_GUILESS_MAIN(TestHistory)
#include "tst_history.moc"
