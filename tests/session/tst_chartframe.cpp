// The chart's frame (makeChartFrame) from a history and options, with no window and no server:
// which members get lines and how they are named, the values in each mode, the band and its
// envelope, outages, summary mode, markers, axes, legend, caption, placeholder, and the dots that
// make a line too short to see visible.

#include "session/ChartFrame.h"

#include "pool/PoolStats.h"

#include <cmath>

#include <QDateTime>
#include <QtTest>

using namespace poolscope;

namespace {

constexpr qint64 kEnd = 1'800'000'000'000; // a fixed "now": the frames do not depend on the clock

// Records `seconds` polls ending at kEnd, one per second: member i gains (i + 1) per poll.
void feed(PoolHistory &history, int members, int seconds) {
    const qint64 start = kEnd - qint64(seconds - 1) * 1000;
    for (int s = 0; s < seconds; ++s) {
        QList<PoolMember> counts;
        for (int i = 0; i < members; ++i)
            counts.append({"m" + QByteArray::number(i), double(s * (i + 1))});
        history.record(start + s * 1000, counts);
    }
}

// A poll's observation of these members (any order): the snapshot in allocation order.
PoolObservation observe(qint64 timeMs, QList<PoolMember> members) {
    std::sort(members.begin(), members.end(), [](const PoolMember &a, const PoolMember &b) {
        return a.count != b.count ? a.count < b.count : a.member < b.member;
    });
    PoolObservation observation;
    observation.timeMs = timeMs;
    QList<double> counts;
    for (const PoolMember &member : members)
        counts.append(member.count);
    observation.stats = computePoolStats(counts);
    observation.snapshot.members = std::move(members);
    return observation;
}

ChartSource sourceOf(const PoolHistory &history, const PoolObservation *latest = nullptr) {
    ChartSource source;
    source.history = &history;
    source.latest = latest;
    source.hasTarget = true;
    source.state = ConnectionState::Connected;
    return source;
}

ChartOptions optionsFor(ChartMode mode = ChartMode::Cumulative) {
    ChartOptions options;
    options.mode = mode;
    options.plotWidth = 600;
    options.plotHeight = 300;
    options.nowMs = kEnd;
    return options;
}

// 30 members at counts 100..129, m00 the lowest, recorded for 20 s.
PoolObservation bigPool(PoolHistory &history, double extra = 0) {
    QList<PoolMember> members;
    for (int i = 0; i < 30; ++i)
        members.append({"m" + QByteArray::number(i).rightJustified(2, '0'), 100.0 + i});
    for (int s = 0; s < 20; ++s)
        history.record(kEnd - (19 - s) * 1000, members);
    members[15].count += extra;
    history.record(kEnd + 1000, members);
    return observe(kEnd + 1000, members);
}

} // namespace

class TestChartFrame : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void smallPoolChartsEveryMember() {
        PoolHistory history;
        feed(history, 4, 30);
        const ChartFrame frame = makeChartFrame(sourceOf(history), optionsFor());
        QCOMPARE(frame.members(), (QList<QByteArray>{"m0", "m1", "m2", "m3"}));
        QVERIFY(!frame.bandShown);
        QCOMPARE(frame.line("m0")->points.size(), 30);
        QCOMPARE(frame.lastValue("m3"), 29.0 * 4);
        QVERIFY(frame.placeholder.isEmpty());
        QCOMPARE(frame.caption, QStringLiteral("4 members"));
        QCOMPARE(frame.line("m1")->width, 1.6);
        QVERIFY(frame.line("m1")->dots.isEmpty());
    }

    void valueModes_data() {
        QTest::addColumn<int>("mode");
        QTest::addColumn<double>("m0");
        QTest::addColumn<double>("m2");
        QTest::newRow("cumulative") << int(ChartMode::Cumulative) << 19.0 << 19.0 * 3;
        QTest::newRow("rate") << int(ChartMode::Rate) << 1.0 << 3.0;
        // Counts 19, 38, 57, 76 at the last poll: the median is 47.5.
        QTest::newRow("difference") << int(ChartMode::DifferenceFromMedian) << -28.5 << 9.5;
    }
    void valueModes() {
        QFETCH(int, mode);
        QFETCH(double, m0);
        QFETCH(double, m2);
        PoolHistory history;
        feed(history, 4, 20);
        const ChartFrame frame = makeChartFrame(sourceOf(history), optionsFor(ChartMode(mode)));
        QCOMPARE(frame.lastValue("m0"), m0);
        QCOMPARE(frame.lastValue("m2"), m2);
        // The pool's allocation rate has a line of its own in every mode: 1 + 2 + 3 + 4 a second.
        QCOMPARE_GE(frame.poolRate.size(), 10);
        QCOMPARE(frame.poolRate.constLast().y(), 10.0);
        QCOMPARE(frame.rateAxis.high, 15.0); // a round number above the rate
        QCOMPARE_GE(frame.values.labels().size(), 2);
    }

    void longHistoryIsBucketedToThePlot() {
        PoolHistory history;
        feed(history, 2, 3600);
        ChartOptions options = optionsFor();
        options.windowMs = 3600 * 1000;
        const ChartFrame frame = makeChartFrame(sourceOf(history), options);
        const qsizetype points = frame.line("m1")->points.size();
        const qsizetype buckets = qsizetype(600 / kEnvelopePixels);
        QVERIFY2(points > buckets / 2 && points <= 2 * buckets + 4,
                 qPrintable(QString::number(points)));
        QCOMPARE(frame.lastValue("m1"), 3599.0 * 2);
    }

    void bigPoolChartsItsEdgesPinnedAndABand() {
        PoolHistory history;
        const PoolObservation latest = bigPool(history);
        ChartOptions options = optionsFor();
        ChartFrame frame = makeChartFrame(sourceOf(history, &latest), options);
        QVERIFY(frame.bandShown);
        QCOMPARE(frame.memberCount, 30);
        // The top members first, highest first, then the bottom ones, as the table ranks them.
        QCOMPARE(frame.members(), (QList<QByteArray>{"m29", "m28", "m27", "m26", "m25", "m04",
                                                     "m03", "m02", "m01", "m00"}));
        QCOMPARE(frame.line("m29")->name, QStringLiteral("▲ m29"));
        QCOMPARE(frame.line("m00")->name, QStringLiteral("▼ m00"));
        QCOMPARE(frame.line("m29")->edge, ChartLine::Edge::Top);
        QCOMPARE(frame.bandName, QStringLiteral("pool min–max (30)"));
        QCOMPARE(frame.caption,
                 QStringLiteral("30 members: top 5, bottom 5, 0 pinned + min/median/max band"));

        // Pinned: charted, thicker, no ▲ or ▼.
        options.pinned = {"m15", "m29"};
        frame = makeChartFrame(sourceOf(history, &latest), options, &frame);
        QVERIFY(frame.members().contains("m15"));
        QCOMPARE(frame.line("m15")->width, 2.6);
        QCOMPARE(frame.line("m29")->name, QStringLiteral("m29"));

        // Rate mode has no count band.
        options.mode = ChartMode::Rate;
        frame = makeChartFrame(sourceOf(history, &latest), options, &frame);
        QVERIFY(!frame.bandShown);
        QVERIFY(frame.band.isEmpty());
        QVERIFY(frame.caption.endsWith(QStringLiteral("2 pinned")));
    }

    // Members that left keep their lines' history; the caption and the band count the pool now.
    void captionCountsThePoolAsItIsNow() {
        PoolHistory history;
        const PoolObservation before = bigPool(history);
        const PoolObservation now = observe(kEnd + 2000, before.snapshot.members.mid(0, 12));
        history.record(now.timeMs, now.snapshot.members);
        ChartOptions options = optionsFor();
        options.maxIndividual = 5;
        const ChartFrame frame = makeChartFrame(sourceOf(history, &now), options);
        QCOMPARE(frame.memberCount, 30); // the history still tracks all 30
        QVERIFY2(frame.caption.startsWith(QStringLiteral("12 members: top 5")),
                 qPrintable(frame.caption));
        QCOMPARE(frame.bandName, QStringLiteral("pool min–max (12)"));
    }

    void edgeMembersAreSticky_data() {
        // Allocations m15 gets on top of its 115; the lowest of the top five is m25 at 125.
        QTest::addColumn<double>("extra");
        QTest::addColumn<bool>("charted");
        QTest::newRow("one more than the top's lowest: the lines stay") << 11.0 << false;
        QTest::newRow("two more: a real outlier enters at once") << 12.0 << true;
    }
    void edgeMembersAreSticky() {
        QFETCH(double, extra);
        QFETCH(bool, charted);
        PoolHistory history;
        const PoolObservation before = bigPool(history);
        const ChartFrame first = makeChartFrame(sourceOf(history, &before), optionsFor());
        PoolHistory later;
        const PoolObservation after = bigPool(later, extra);
        const ChartFrame next = makeChartFrame(sourceOf(later, &after), optionsFor(), &first);
        QCOMPARE(next.members().contains("m15"), charted);
        QCOMPARE(next.top.size(), 5);
        // Without the frame before, the highest count is always charted.
        QVERIFY(makeChartFrame(sourceOf(later, &after), optionsFor()).top.contains("m15"));
    }

    void differenceModeIsCountMinusMedian() {
        PoolHistory history;
        QList<PoolMember> members;
        for (int i = 0; i < 8; ++i) {
            members.append({"low" + QByteArray::number(i), 0});
            members.append({"high" + QByteArray::number(i), 500.0 + i});
        }
        history.record(kEnd - 1000, members);
        history.record(kEnd, members);
        const PoolObservation latest = observe(kEnd, members);
        ChartOptions options = optionsFor(ChartMode::DifferenceFromMedian);
        ChartFrame frame = makeChartFrame(sourceOf(history, &latest), options);
        QCOMPARE(frame.lines.size(), 16);
        for (const PoolMember &member : latest.snapshot.members)
            QCOMPARE(frame.lastValue(member.member), member.count - latest.stats.median);
        QVERIFY(frame.bandLastValues().isEmpty());     // each member has a line: no band
        QCOMPARE(frame.zeroLine.constLast().y(), 0.0); // but the zero line

        options.maxIndividual = 6;
        frame = makeChartFrame(sourceOf(history, &latest), options);
        QCOMPARE(frame.bandLastValues(), (QList<double>{latest.stats.min - latest.stats.median, 0.0,
                                                        latest.stats.max - latest.stats.median}));
        QCOMPARE(frame.bandName, QStringLiteral("pool min–max − median (16)"));
        QCOMPARE(frame.medianName, QStringLiteral("pool median (0)"));
        QCOMPARE(frame.values.title, QStringLiteral("count − median"));
    }

    // A fair pool whose median flips at every poll: the band's edges zigzag between 0 and ±1 at
    // each point. Drawn as their envelope per bucket: flat at +1 and -1, a point per bucket.
    void flippingBandIsDrawnAsItsEnvelope() {
        PoolHistory history;
        for (int s = 0; s < 300; ++s) {
            const double q = s;
            const QList<PoolMember> members =
                s % 2 == 0 ? QList<PoolMember>{{"a", q}, {"b", q}, {"c", q}, {"d", q + 1}}
                           : QList<PoolMember>{{"a", q}, {"b", q + 1}, {"c", q + 1}, {"d", q + 1}};
            history.record(kEnd - (299 - s) * 1000, members);
        }
        ChartOptions options = optionsFor(ChartMode::DifferenceFromMedian);
        options.maxIndividual = 2;
        const ChartFrame frame = makeChartFrame(sourceOf(history), options);
        QVERIFY(frame.bandShown);
        QCOMPARE(frame.band.size(), 1);
        const ChartBandRun &run = frame.band.constFirst();
        QVERIFY2(run.upper.size() <= qsizetype(600 / kEnvelopePixels) + 2,
                 qPrintable(QString::number(run.upper.size())));
        for (qsizetype i = 1; i < run.upper.size() - 1; ++i) { // the last point: the last poll
            QCOMPARE(run.upper[i].y(), 1.0);
            QCOMPARE(run.lower[i].y(), -1.0);
            QCOMPARE(run.median[i].y(), 0.0);
            QCOMPARE_GT(run.upper[i].x(), run.upper[i - 1].x());
        }
        QCOMPARE(run.upper.constLast(), QPointF(double(kEnd), 0.0)); // s = 299: min a, median b
        QCOMPARE(run.lower.constLast(), QPointF(double(kEnd), -1.0));
    }

    void outagesBreakTheBandIntoRuns() {
        PoolHistory history;
        QList<PoolMember> members;
        for (int i = 0; i < 6; ++i)
            members.append({"m" + QByteArray::number(i), double(i)});
        for (int s = 0; s < 60; ++s) {
            if (s == 30)
                history.markGap(kEnd - (60 - s) * 1000 - 500, QStringLiteral("poll failed"));
            history.record(kEnd - (59 - s) * 1000, members);
        }
        ChartOptions options = optionsFor();
        options.maxIndividual = 2;
        const ChartFrame frame = makeChartFrame(sourceOf(history), options);
        QCOMPARE(frame.band.size(), 2);
        // The gap is marked on the chart, unlabelled.
        QCOMPARE(frame.markers.size(), 1);
        QCOMPARE(frame.markers.constFirst().kind, HistoryEvent::Kind::Gap);
    }

    void summaryModeChartsTheBottomAsALine() {
        PoolHistory history;
        PoolObservation latest;
        for (int s = 0; s < 10; ++s) {
            const qint64 t = kEnd - (9 - s) * 1000;
            history.record(t, {{"top0", 1000.0 + s}, {"top1", 900.0 + s}});
            history.recordBand(t, 10.0 + s, 500, 1000.0 + s, 0);
        }
        latest.timeMs = kEnd;
        latest.summaryMode = true;
        latest.summary.size = 100000;
        latest.summary.top = {{99999, "top0", 1009}, {99998, "top1", 909}};
        latest.stats.size = 100000;
        const ChartFrame frame = makeChartFrame(sourceOf(history, &latest), optionsFor());
        QCOMPARE(frame.members(), (QList<QByteArray>{"top0", "top1"}));
        QVERIFY(frame.minimumShown && frame.bandShown);
        QCOMPARE(frame.minimum.size(), 10);
        QCOMPARE(frame.minimum.constLast().y(), 19.0);
        QCOMPARE(frame.minimumName, QStringLiteral("pool minimum"));
        QVERIFY2(frame.caption.startsWith(QStringLiteral("100,000 members (summary): top 5")),
                 qPrintable(frame.caption));
    }

    void markersFollowTheWindow() {
        PoolHistory history;
        feed(history, 3, 20);
        HistoryEvent evict{kEnd - 5000, HistoryEvent::Kind::Evict, "m1", "evict m1 (saved 5)"};
        HistoryEvent old{kEnd - 3600 * 1000, HistoryEvent::Kind::Seed, {}, "old seed"};
        history.addEvent(evict);
        history.addEvent(old);
        ChartSource source = sourceOf(history);
        source.eventText = [](const QString &text) { return text.toUpper(); };
        ChartOptions options = optionsFor();
        QCOMPARE(makeChartFrame(source, options).markerLabels(),
                 QStringList{QStringLiteral("EVICT M1 (SAVED 5)")});
        options.windowMs = 0; // all the history holds
        QCOMPARE(makeChartFrame(source, options).markers.size(), 2);
    }

    void countAxisHasWholeTicksOnly_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("cumulative") << int(ChartMode::Cumulative);
        QTest::newRow("difference") << int(ChartMode::DifferenceFromMedian);
    }
    void countAxisHasWholeTicksOnly() {
        // All counts 0: the axis read 0, 0, 1, 1, 2, 2 (six ticks over 0..2 printed with %.0f).
        QFETCH(int, mode);
        PoolHistory history;
        for (int s = 0; s < 20; ++s)
            history.record(kEnd - (19 - s) * 1000, {{"a", 0}, {"b", 0}, {"c", 0}});
        const QStringList labels =
            makeChartFrame(sourceOf(history), optionsFor(ChartMode(mode))).values.labels();
        QVERIFY2(labels.size() >= 2, qPrintable(labels.join(',')));
        QCOMPARE(QSet<QString>(labels.cbegin(), labels.cend()).size(), labels.size());
        QVERIFY2(labels.contains(QStringLiteral("0")), qPrintable(labels.join(',')));
    }

    void timeLabelsFitThePlot_data() {
        QTest::addColumn<double>("plotWidth");
        QTest::addColumn<qint64>("windowMs");
        for (const double width : {900.0, 560.0, 300.0})
            for (const qint64 window : {qint64(300000), qint64(3600000)})
                QTest::addRow("%d px, %lld min", int(width), window / 60000) << width << window;
    }
    void timeLabelsFitThePlot() {
        QFETCH(double, plotWidth);
        QFETCH(qint64, windowMs);
        PoolHistory history;
        feed(history, 3, 3600);
        ChartOptions options = optionsFor();
        options.plotWidth = plotWidth;
        options.windowMs = windowMs;
        const ChartFrame frame = makeChartFrame(sourceOf(history), options);
        const QStringList labels = frame.time.labels();
        QVERIFY2(labels.size() >= 2, qPrintable(labels.join(' ')));
        double width = 0;
        for (const QString &label : labels)
            width += 7.0 * double(label.size()) + 8; // the default text width: 7 px a character
        QVERIFY2(width <= plotWidth, qPrintable(labels.join(' ')));
        // The axis covers the window, in whole steps, and ends at or after the latest poll.
        QVERIFY(frame.time.toMs >= kEnd && frame.time.fromMs <= kEnd - windowMs + 1000);
        QCOMPARE_LT(frame.time.toMs - frame.time.fromMs, windowMs * 16 / 10);
    }

    void placeholderSaysWhyTheChartIsEmpty_data() {
        QTest::addColumn<bool>("hasTarget");
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("failure");
        QTest::addColumn<bool>("polled"); // an observation came
        QTest::addColumn<bool>("emptyPool");
        QTest::addColumn<QString>("expected");
        const int connected = int(ConnectionState::Connected);
        QTest::newRow("no target")
            << false << connected << QString() << false << false << QStringLiteral("Not connected");
        QTest::newRow("reconnecting")
            << true << int(ConnectionState::Reconnecting) << QString() << false << false
            << QStringLiteral("No connection to Redis: retrying…");
        QTest::newRow("refused") << true << int(ConnectionState::Disconnected)
                                 << QStringLiteral("WRONGPASS") << false << false
                                 << QStringLiteral("Not connected (the events panel says why)");
        QTest::newRow("not a sorted set")
            << true << connected << QStringLiteral("not a sorted set") << false << false
            << QStringLiteral("Reading the pool fails: not a sorted set");
        QTest::newRow("first poll") << true << connected << QString() << false << false
                                    << QStringLiteral("Waiting for the first poll…");
        QTest::newRow("no pool") << true << connected << QString() << true << true
                                 << QStringLiteral("No pool at this key yet: Seed… to add proxies");
        QTest::newRow("a pool, no points yet") << true << connected << QString() << true << false
                                               << QStringLiteral("Collecting data…");
    }
    void placeholderSaysWhyTheChartIsEmpty() {
        QFETCH(bool, hasTarget);
        QFETCH(int, state);
        QFETCH(QString, failure);
        QFETCH(bool, polled);
        QFETCH(bool, emptyPool);
        QFETCH(QString, expected);
        const PoolHistory history;
        const PoolObservation latest =
            observe(kEnd, emptyPool ? QList<PoolMember>() : QList<PoolMember>{{"a", 1}});
        ChartSource source = sourceOf(history, polled ? &latest : nullptr);
        source.hasTarget = hasTarget;
        source.state = ConnectionState(state);
        source.pollFailure = failure;
        const ChartFrame frame = makeChartFrame(source, optionsFor());
        QCOMPARE(frame.placeholder, expected);
        // Nothing to show: the axis spans a few seconds before now, not an empty week.
        QCOMPARE_LE(frame.time.toMs - frame.time.fromMs, 60000);
    }

    void legendListsWhatFitsPinnedFirst() {
        PoolHistory history;
        feed(history, 20, 30);
        ChartOptions options = optionsFor();
        ChartFrame frame = makeChartFrame(sourceOf(history), options);
        QStringList labels = frame.legendLabels();
        QCOMPARE(labels.value(0), QStringLiteral("pool rate (/s, right axis)"));
        QCOMPARE(labels.value(1), QStringLiteral("m0")); // natural order: m2 before m10
        QCOMPARE(labels.value(3), QStringLiteral("m2"));
        QCOMPARE(labels.value(11), QStringLiteral("m10"));
        QCOMPARE(frame.legendOverflow, 0);

        options.legendRows = 8;
        options.pinned = {"m17"};
        options.hidden = {"m0"};
        frame = makeChartFrame(sourceOf(history), options);
        labels = frame.legendLabels();
        QCOMPARE(labels.size(), 8);
        QCOMPARE(frame.legendOverflow, 20 - 6);
        QCOMPARE(labels.constLast(), QStringLiteral("+14 more (see the table)"));
        QVERIFY(frame.line("m17")->inLegend);
        QVERIFY(!frame.line("m9")->inLegend);
        // A hidden line keeps its entry, dimmed, to be clicked back on; its values leave the axis.
        const auto m0 = std::find_if(frame.legend.cbegin(), frame.legend.cend(),
                                     [](const ChartLegendEntry &e) { return e.member == "m0"; });
        QVERIFY(m0 != frame.legend.cend() && m0->dimmed);
        QCOMPARE(qRound(m0->color.alphaF() * 100), 25);
        QVERIFY(frame.caption.contains(QStringLiteral("1 hidden")));

        // Narrow: no legend, and the caption says where the colours are.
        options.legendShown = false;
        frame = makeChartFrame(sourceOf(history), options);
        QVERIFY(frame.legend.isEmpty());
        QVERIFY(frame.caption.contains(QStringLiteral("legend hidden")));
    }

    // One poll (a recording of a single poll, the first poll of a pool): every line is a single
    // point, which Qt Charts draws as nothing. The frame gives each a dot, and the band a width.
    void aSinglePollIsVisible() {
        PoolHistory history;
        QList<PoolMember> members;
        for (int i = 0; i < 30; ++i)
            members.append({"m" + QByteArray::number(i), double(i % 3)});
        history.record(kEnd, members);
        const PoolObservation latest = observe(kEnd, members);
        ChartOptions options = optionsFor(ChartMode::DifferenceFromMedian);
        options.windowMs = 0;
        const ChartFrame frame = makeChartFrame(sourceOf(history, &latest), options);
        QVERIFY(frame.placeholder.isEmpty());
        QCOMPARE(frame.lines.size(), 10);
        for (const ChartLine &line : frame.lines)
            QCOMPARE(line.dots, line.points);
        QCOMPARE(frame.band.size(), 1);
        const ChartBandRun &run = frame.band.constFirst();
        const double msPerPixel = double(frame.time.toMs - frame.time.fromMs) / 600;
        QCOMPARE_GE((run.upper.constLast().x() - run.upper.constFirst().x()) / msPerPixel,
                    kEnvelopePixels - 0.01);
    }

    // A recording of two polls: the lines are two points each, and the pool rate one point,
    // which as a line would draw nothing: it is a dot, at its value on the rate axis.
    void twoPollsDrawTheirPointsAndTheRate() {
        PoolHistory history;
        history.record(kEnd - 1000, {{"a", 0}, {"b", 0}});
        history.record(kEnd, {{"a", 1}, {"b", 1}});
        ChartOptions options = optionsFor();
        options.windowMs = 0;
        const ChartFrame frame = makeChartFrame(sourceOf(history), options);
        QVERIFY(frame.placeholder.isEmpty());
        QCOMPARE(frame.pointCount("a"), 2);
        QCOMPARE(frame.pointCount("b"), 2);
        QCOMPARE(frame.poolRate.size(), 1);
        QCOMPARE(frame.poolRateDots.size(), 1);
        const QPointF dot = frame.poolRateDots.constFirst();
        QCOMPARE(dot.x(), frame.poolRate.constFirst().x());
        const double onRateAxis =
            frame.rateAxis.low + (dot.y() - frame.values.low) /
                                     (frame.values.high - frame.values.low) *
                                     (frame.rateAxis.high - frame.rateAxis.low);
        QCOMPARE(onRateAxis, 2.0); // two allocations in a second
        // Three polls: the rate is a line, no dot.
        history.record(kEnd + 1000, {{"a", 2}, {"b", 2}});
        QVERIFY(makeChartFrame(sourceOf(history), options).poolRateDots.isEmpty());
    }

    // Two polls a second apart in a window of a week (an old event keeps the axis wide): a
    // segment well under a pixel. Drawn as a dot; a line that moves across pixels is not.
    void aSegmentTooShortToSeeIsADot() {
        PoolHistory history;
        history.addEvent({kEnd - 6 * 24 * 3600 * 1000LL, HistoryEvent::Kind::Note, {}, "old"});
        history.record(kEnd - 1000, {{"flat", 5}, {"tall", 0}});
        history.record(kEnd, {{"flat", 5}, {"tall", 100}});
        ChartOptions options = optionsFor();
        options.windowMs = 0;
        const ChartFrame frame = makeChartFrame(sourceOf(history), options);
        QCOMPARE(frame.line("flat")->dots.size(), 1);
        QVERIFY(frame.line("tall")->dots.isEmpty()); // 100 counts tall: a visible stroke
        // In the 5-minute window the same second is a few pixels wide: a line.
        QVERIFY(makeChartFrame(sourceOf(history), optionsFor()).line("flat")->dots.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestChartFrame)
#include "tst_chartframe.moc"
