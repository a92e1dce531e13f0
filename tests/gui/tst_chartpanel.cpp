// The chart panel over a real session: the frame it draws for big pools, pinning, difference and
// summary modes polled from a real redis-server, coalesced redraws, the default mode, marker labels
// and their tooltips, the placeholder's pixels and the exported image. What the frame holds is
// tested without a window in tests/session/tst_chartframe.cpp; the legend and the line colours
// are in tst_chartlegend.cpp.

#include "chart/ChartPanel.h"
#include "session/PoolSession.h"
#include "pool/LuaScript.h"

#include "ChartHistory.h"
#include "RedisFixture.h"

#include <cmath>

#include <QDateTime>
#include <QDir>
#include <QGraphicsView>
#include <QGraphicsWidget>
#include <QScreen>
#include <QWindow>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

class TestChartPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void redrawsAreCoalesced();
    void bigPoolShowsEdgesBandAndPinned();
    void poolPastTheHistoryLimitKeepsChartedLinesGrowing();
    void differenceModeIsCountMinusMedian();
    void defaultModeFollowsTheFirstPoll_data();
    void defaultModeFollowsTheFirstPoll();
    void markerLabelsNeverOverlapAndHoverShowsThem();
    void placeholderIsDrawnWholeOnItsOwnBackground();
    void placeholderIsNeverLeftBehind();
    void summaryModeChartsTheBottomAsALine();
    void exportedImageHasATitleLine();
};

void TestChartPanel::redrawsAreCoalesced() {
    PoolSession session;
    ChartPanel chart(&session);
    feed(session.history(), 2, 5);
    chart.refreshNow();
    QSignalSpy refreshed(&chart, &ChartPanel::refreshed);
    for (int i = 0; i < 100; ++i)
        chart.scheduleRefresh();
    QVERIFY(refreshed.wait(2000));
    QVERIFY(!refreshed.wait(300)); // a second redraw would come 40 ms after the first
    QCOMPARE(refreshed.count(), 1);
}

void TestChartPanel::bigPoolShowsEdgesBandAndPinned() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    // 30 members at counts 100..129: m00 is the lowest, m29 the highest.
    for (int i = 0; i < 30; ++i)
        redis.makePool("pool", {"m" + QByteArray::number(i).rightJustified(2, '0')}, 100 + i);

    PoolSession session;
    ChartPanel chart(&session);
    chart.resize(1000, 500);
    session.setPollInterval(100ms);
    session.connectTo(redis.endpoint(), "pool");
    QTRY_VERIFY_WITH_TIMEOUT(session.latestObservation().has_value(), 10000);
    chart.refreshNow();
    QVERIFY(chart.frame().bandShown);
    const QList<QByteArray> charted = chart.frame().members();
    QCOMPARE(charted.size(), 2 * ChartPanel::kEdgeMembers);
    for (const char *member : {"m00", "m04", "m25", "m29"})
        QVERIFY2(charted.contains(member), member);
    QVERIFY(!charted.contains("m15"));
    // The legend says which lines are the top and which the bottom members.
    QStringList names;
    for (const ChartLine &line : chart.frame().lines)
        names.append(line.name);
    QVERIFY2(names.contains(QStringLiteral("▲ m29")) && names.contains(QStringLiteral("▼ m00")),
             qPrintable(names.join(u'|')));

    session.pin({"m15"});
    chart.refreshNow();
    QVERIFY(chart.frame().members().contains("m15"));
    QVERIFY(session.isPinned("m15"));
    session.togglePins({"m15"});
    chart.refreshNow();
    QVERIFY(!chart.frame().members().contains("m15"));

    // Rate mode has no count band.
    chart.setValueMode(ChartPanel::ValueMode::Rate);
    chart.refreshNow();
    QVERIFY(!chart.frame().bandShown);
    session.disconnectFromServer();
}

void TestChartPanel::poolPastTheHistoryLimitKeepsChartedLinesGrowing() {
    // 60 members but room for 20 series: the session records the ends of the pool, the pinned
    // and the charted members, and the history gives the places of members no longer seen to
    // newcomers. Allocations move the bottom of the pool on every poll, so within a few seconds
    // far more than 20 different members have been at an end; every charted line must still
    // have points, and the band and the decision to show it must come from the pool's size.
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    QList<QByteArray> members;
    for (int i = 0; i < 60; ++i)
        members.append("m" + QByteArray::number(i).rightJustified(2, '0'));
    redis.makePool("pool", members, 0);

    PoolHistory::Limits limits;
    limits.maxTrackedMembers = 20;
    PoolSession session(limits);
    ChartPanel chart(&session);
    chart.resize(1000, 500);
    session.pin({"m30"});
    session.setPollInterval(100ms);
    session.connectTo(redis.endpoint(), "pool");

    QTimer workers;
    int allocated = 0;
    QObject::connect(&workers, &QTimer::timeout, &workers, [&] {
        for (int i = 0; i < 3; ++i)
            if (redis.run({"EVAL", LuaScript::allocate().source(), "1", "pool"}).type ==
                RedisReply::Type::String)
                ++allocated;
    });
    workers.start(20);
    QSignalSpy polls(&session, &PoolSession::observationApplied);
    QTRY_VERIFY_WITH_TIMEOUT(polls.count() >= 40 && allocated >= 300, 30000);
    workers.stop();
    QVERIFY(polls.wait(5000)); // one more poll after the last allocation
    chart.refreshNow();

    QVERIFY(chart.frame().bandShown);
    QCOMPARE_LE(session.history().trackedMembers().size(), 21);
    const QList<QByteArray> charted = chart.frame().members();
    QCOMPARE(charted.size(), 2 * ChartPanel::kEdgeMembers + 1);
    QVERIFY(charted.contains("m30"));
    for (const QByteArray &member : charted)
        QVERIFY2(chart.frame().pointCount(member) > 0, member.constData());
    // The band covers all 60 members, not only the recorded ones: its max is the pool's max.
    const auto &latest = session.latestObservation();
    QVERIFY(latest.has_value());
    const QList<BandPoint> band = session.history().band(latest->timeMs, latest->timeMs);
    QCOMPARE(band.size(), 1);
    QCOMPARE(band[0].max, latest->stats.max);
    QCOMPARE(band[0].min, latest->stats.min);
    session.disconnectFromServer();
}

namespace {

// Runs `perTick` allocations of the real script every 20 ms until stopped.
class Workers {
public:
    Workers(testing::RedisFixture &redis, const QByteArray &key, int perTick) {
        QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this, &redis, key, perTick] {
            for (int i = 0; i < perTick; ++i)
                if (redis.run({"EVAL", LuaScript::allocate().source(), "1", key}).type ==
                    RedisReply::Type::String)
                    ++m_allocated;
        });
        m_timer.start(20);
    }
    void stop() { m_timer.stop(); }
    int allocated() const { return m_allocated; }

private:
    QTimer m_timer;
    int m_allocated = 0;
};

} // namespace

void TestChartPanel::differenceModeIsCountMinusMedian() {
    // A real pool under the real allocation script: 8 members at 0 (a fresh restore at zero
    // among them) and 8 far ahead at 500..507, so the median sits between them. In the
    // difference mode every line's last value is its count minus the median of the same poll;
    // with more members than individual series, the band is min - median .. max - median
    // around 0.
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    for (int i = 0; i < 8; ++i) {
        redis.makePool("pool", {"low" + QByteArray::number(i)}, 0);
        redis.makePool("pool", {"high" + QByteArray::number(i)}, 500 + i);
    }
    PoolSession session;
    ChartPanel chart(&session);
    chart.resize(1000, 500);
    chart.setValueMode(ChartPanel::ValueMode::DifferenceFromMedian);
    session.setPollInterval(100ms);
    session.connectTo(redis.endpoint(), "pool");
    Workers workers(redis, "pool", 2);
    QSignalSpy polls(&session, &PoolSession::observationApplied);
    QTRY_VERIFY_WITH_TIMEOUT(polls.count() >= 10 && workers.allocated() >= 100, 20000);
    QVERIFY(polls.wait(5000));
    chart.refreshNow(); // synchronously after the poll: the chart's last points are this poll's

    const PoolObservation latest = *session.latestObservation();
    QCOMPARE(latest.snapshot.members.size(), 16);
    QCOMPARE(chart.frame().members().size(), 16);
    for (const PoolMember &member : latest.snapshot.members)
        QCOMPARE(chart.frame().lastValue(member.member), member.count - latest.stats.median);
    QVERIFY(chart.frame().bandLastValues().isEmpty()); // 16 members: each has a line, no band

    chart.setMaxIndividualSeries(6);
    chart.refreshNow();
    const QList<double> band = chart.frame().bandLastValues();
    QCOMPARE(band.size(), 3);
    QCOMPARE(band[0], latest.stats.min - latest.stats.median);
    QCOMPARE(band[1], 0.0);
    QCOMPARE(band[2], latest.stats.max - latest.stats.median);
    QVERIFY(band[0] < -100 && band[2] > 100);
    for (const QByteArray &member : chart.frame().members()) {
        const auto it =
            std::find_if(latest.snapshot.members.cbegin(), latest.snapshot.members.cend(),
                         [&](const PoolMember &m) { return m.member == member; });
        QVERIFY(it != latest.snapshot.members.cend());
        QCOMPARE(chart.frame().lastValue(member), it->count - latest.stats.median);
    }
    workers.stop();
    session.disconnectFromServer();
}

void TestChartPanel::defaultModeFollowsTheFirstPoll_data() {
    QTest::addColumn<QList<double>>("counts");
    QTest::addColumn<bool>("chosenFirst"); // the mode was set before the first poll
    QTest::addColumn<int>("expected");
    const int cumulative = int(ChartPanel::ValueMode::Cumulative);
    const int difference = int(ChartPanel::ValueMode::DifferenceFromMedian);
    QTest::newRow("fair: within a few allocations")
        << QList<double>{40, 41, 41, 42, 44, 40} << false << difference;
    QTest::newRow("skewed") << QList<double>{0, 10, 50, 300} << false << cumulative;
    QTest::newRow("fair, but the mode was chosen")
        << QList<double>{7, 7, 8, 8} << true << cumulative;
}

void TestChartPanel::defaultModeFollowsTheFirstPoll() {
    QFETCH(QList<double>, counts);
    QFETCH(bool, chosenFirst);
    QFETCH(int, expected);
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    for (qsizetype i = 0; i < counts.size(); ++i)
        redis.makePool("pool", {"m" + QByteArray::number(i)}, counts[i]);
    PoolSession session;
    ChartPanel chart(&session);
    if (chosenFirst)
        chart.setValueMode(ChartPanel::ValueMode::Cumulative);
    session.setPollInterval(100ms);
    session.connectTo(redis.endpoint(), "pool");
    QSignalSpy polls(&session, &PoolSession::observationApplied);
    QTRY_VERIFY_WITH_TIMEOUT(polls.count() >= 1, 10000);
    QCOMPARE(int(chart.valueMode()), expected);
    // Decided once: a later flood does not switch the mode under the user's eyes.
    redis.run({"ZADD", "pool", "100000", "m0"});
    QVERIFY(polls.wait(5000));
    QVERIFY(polls.wait(5000));
    QCOMPARE(int(chart.valueMode()), expected);
    session.disconnectFromServer();
}

void TestChartPanel::markerLabelsNeverOverlapAndHoverShowsThem() {
    // Twelve events within a few seconds (a seed, evictions, restores with long member names)
    // and one at each edge: every drawn label lies inside the plot and over no other, and the
    // full text of each marker is in the tooltip at its line.
    PoolSession session;
    ChartPanel chart(&session);
    chart.resize(900, 450);
    const qint64 end = feed(session.history(), 3, 120);
    const qint64 start = end - 119 * 1000;
    QStringList labels{QStringLiteral("seed +12 at 0")};
    session.addHistoryEvent(HistoryEvent::Kind::Seed, {}, labels[0], start);
    for (int i = 0; i < 12; ++i) {
        const QByteArray member = "socks5-proxy-" + QByteArray::number(i) + ".example:1080";
        const bool evict = i % 2 == 0;
        labels.append(QStringLiteral("%1 %2 (%3)")
                          .arg(evict ? QStringLiteral("evict") : QStringLiteral("restore"),
                               QString::fromUtf8(member),
                               evict ? QStringLiteral("saved 4,321") : QStringLiteral("zero")));
        session.addHistoryEvent(evict ? HistoryEvent::Kind::Evict : HistoryEvent::Kind::Restore,
                                member, labels.last(), start + 60000 + i * 700);
    }
    labels.append(QStringLiteral("evict the last one at the right edge (saved 99)"));
    session.addHistoryEvent(HistoryEvent::Kind::Evict, "z", labels.last(), end);
    chart.refreshNow();
    const QPixmap shot = chart.grabChart(); // lays the chart out
    shot.save(screenshotPath(QStringLiteral("markers")));
    chart.refreshNow();

    const QRectF plot = chart.plotRect();
    const QList<ChartMarker> markers = chart.frame().markers;
    const QList<MarkerPlacement> placed = chart.markerPlacements();
    QCOMPARE(placed.size(), labels.size());
    int drawn = 0;
    for (qsizetype i = 0; i < placed.size(); ++i) {
        const MarkerPlacement &a = placed[i];
        const QString label = markers[a.marker].label;
        if (!a.text.isEmpty()) {
            ++drawn;
            QVERIFY2(plot.contains(a.box), qPrintable(label));
            for (qsizetype j = i + 1; j < placed.size(); ++j)
                QVERIFY2(
                    !a.box.intersects(placed[j].box),
                    qPrintable(label + QStringLiteral(" / ") + markers[placed[j].marker].label));
        }
        const QString tip = chart.markerToolTipAt(QPointF(a.x, plot.center().y()));
        QVERIFY2(tip.contains(label), qPrintable(tip));
    }
    QVERIFY2(drawn >= 6, qPrintable(QString::number(drawn)));
    // The seed at the left edge keeps its label.
    const auto seed = std::find_if(placed.cbegin(), placed.cend(), [&](const MarkerPlacement &p) {
        return markers[p.marker].kind == HistoryEvent::Kind::Seed;
    });
    QVERIFY(seed != placed.cend());
    QCOMPARE(seed->text, labels[0]);
    // Away from every marker there is no marker tooltip.
    QVERIFY(chart.markerToolTipAt(QPointF(plot.left() + plot.width() * 0.25, plot.bottom() - 5))
                .isEmpty());
}

void TestChartPanel::placeholderIsDrawnWholeOnItsOwnBackground() {
    // No data: the placeholder is drawn over the grid lines on a box of its own, inside the view
    // even when the chart is small (it read "W iting for the first ho t…").
    PoolSession session;
    ChartPanel chart(&session);
    for (const QSize size : {QSize(900, 500), QSize(360, 240)}) {
        chart.resize(size);
        chart.refreshNow();
        QVERIFY(!chart.frame().placeholder.isEmpty());
        const QImage image = chart.grab().toImage();
        const QRectF box = chart.placeholderRect();
        QVERIFY2(QRectF(chart.rect()).contains(box),
                 qPrintable(QStringLiteral("%1x%2").arg(size.width()).arg(size.height())));
        const QFontMetricsF metrics(chart.font());
        QCOMPARE_GE(box.width(), metrics.horizontalAdvance(QStringLiteral("Not connected")));
        // A row just inside the box's top edge is its background all along: no grid line shows
        // through (a vertical grid line crosses every row of the plot).
        const double scale = double(image.width()) / chart.width();
        const int y = int((box.top() + 4) * scale);
        int dark = 0;
        for (int x = int(box.left()) + 8; x < int(box.right()) - 8; ++x)
            if (qGray(image.pixel(int(x * scale), y)) < 235)
                ++dark;
        QVERIFY2(dark == 0, qPrintable(QString::number(dark)));
    }
    chart.resize(900, 500);
    chart.refreshNow();
    chart.grabChart().save(screenshotPath(QStringLiteral("placeholder")));
}

// What is on screen (the window's backing store) is what a whole repaint draws: when the plot area
// moves (here: a wider margin, as wider axis labels do), the placeholder is not redrawn in part and
// left behind elsewhere, two texts printed over each other.
void TestChartPanel::placeholderIsNeverLeftBehind() {
    PoolSession session;
    ChartPanel chart(&session);
    chart.resize(700, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.refreshNow();
    QVERIFY(!chart.frame().placeholder.isEmpty());
    auto *view = chart.findChild<QGraphicsView *>();
    QVERIFY(view && view->scene());
    QGraphicsWidget *plot = nullptr; // the chart itself, the scene's top widget
    for (QGraphicsItem *item : view->scene()->items())
        if (item->isWidget() && !item->parentItem())
            plot = static_cast<QGraphicsWidget *>(item);
    QVERIFY(plot);
    const auto onScreen = [&] {
        return chart.windowHandle()
            ->screen()
            ->grabWindow(chart.winId())
            .toImage()
            .convertToFormat(QImage::Format_RGB32);
    };
    const auto whole = [&] { return chart.grab().toImage().convertToFormat(QImage::Format_RGB32); };
    QTRY_VERIFY(onScreen() == whole());
    const QRectF before = chart.placeholderRect();
    plot->setContentsMargins(220, 0, 0, 60);
    QTRY_VERIFY(chart.placeholderRect() != before); // it moved with the plot area
    QTRY_VERIFY_WITH_TIMEOUT(onScreen() == whole(), 3000);
    onScreen().save(screenshotPath(QStringLiteral("placeholder-after-move")));
}

void TestChartPanel::summaryModeChartsTheBottomAsALine() {
    // A pool above the full-snapshot threshold under load: the bottom members are the next the
    // script hands out, so they change on every poll. The chart has no line per bottom member
    // (each would be a dot) but the pool minimum as a line over every poll; every member line it
    // draws keeps growing.
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    RedisCommand zadd{"ZADD", "big"};
    for (int i = 0; i < 300; ++i)
        zadd << QByteArray::number(3 * i) << "s" + QByteArray::number(i).rightJustified(3, '0');
    QVERIFY(!redis.run(zadd).isError());
    PoolSession session;
    session.setFullSnapshotThreshold(100);
    ChartPanel chart(&session);
    chart.resize(1000, 500);
    session.setPollInterval(100ms);
    session.connectTo(redis.endpoint(), "big");
    QTRY_VERIFY_WITH_TIMEOUT(session.isSummaryMode(), 10000);
    Workers workers(redis, "big", 3);
    QSignalSpy polls(&session, &PoolSession::observationApplied);
    QSignalSpy refreshed(&chart, &ChartPanel::refreshed);
    // The history keeps a point a second: six seconds of polls.
    QTRY_VERIFY_WITH_TIMEOUT(polls.count() >= 60 && workers.allocated() >= 600, 30000);
    workers.stop();
    QVERIFY(polls.wait(5000));
    chart.refreshNow();

    const qint64 now = session.history().latestTimeMs();
    const QList<BandPoint> band = session.history().band(now - 60000, now);
    const qsizetype recorded = band.size();
    QVERIFY2(recorded >= 5, qPrintable(QString::number(recorded)));
    const QList<QPointF> &minimum = chart.frame().minimum;
    QVERIFY(chart.frame().minimumShown);
    // A point a poll (each second), bucketed to the plot. The newest point is the latest poll,
    // which can come within its predecessor's bucket: then only the newest of the two is drawn.
    const auto bucketOf = [&](qsizetype i) {
        return std::floor(double(band[i].timeMs) / chart.frame().bucketMs);
    };
    const bool newestShares = bucketOf(recorded - 1) == bucketOf(recorded - 2);
    QCOMPARE(minimum.size(), recorded - (newestShares ? 1 : 0));
    QCOMPARE(minimum.constLast().y(), session.latestObservation()->stats.min);
    QCOMPARE_GT(minimum.constLast().y(), 0); // the bottom moved under the load
    const QList<QByteArray> charted = chart.frame().members();
    QCOMPARE(charted.size(), ChartPanel::kEdgeMembers);
    for (const QByteArray &member : charted)
        QVERIFY2(chart.frame().pointCount(member) >= recorded / 2,
                 qPrintable(member + ' ' + QByteArray::number(chart.frame().pointCount(member))));
    chart.grabChart().save(screenshotPath(QStringLiteral("summary")));
    session.disconnectFromServer();
}

void TestChartPanel::exportedImageHasATitleLine() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("pool:eu-west", {"a", "b", "c"}, 0);
    PoolSession session;
    ChartPanel chart(&session);
    chart.resize(900, 450);
    session.setPollInterval(100ms);
    session.connectTo(redis.endpoint(), "pool:eu-west");
    QSignalSpy polls(&session, &PoolSession::observationApplied);
    QTRY_VERIFY_WITH_TIMEOUT(polls.count() >= 25, 10000); // a few one-second history points
    chart.refreshNow();
    const QString title = chart.exportTitle();
    QVERIFY2(title.contains(QStringLiteral("pool:eu-west")), qPrintable(title));
    QVERIFY2(title.contains(redis.endpoint().toDisplayString()), qPrintable(title));
    // The time range shown: from and to, to the second.
    const QString today = QDate::currentDate().toString(QStringLiteral("yyyy-MM-dd"));
    QVERIFY2(title.contains(today) && title.contains(QStringLiteral(" – ")), qPrintable(title));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.png"));
    QVERIFY(chart.saveImage(path));
    const QImage saved(path);
    const QImage plain = chart.grabChart().toImage();
    QCOMPARE(saved.width(), plain.width());
    QCOMPARE_GT(saved.height(), plain.height() + 10);
    // The title line has ink.
    int dark = 0;
    for (int y = 0; y < saved.height() - plain.height(); ++y)
        for (int x = 0; x < saved.width(); ++x)
            if (qGray(saved.pixel(x, y)) < 100)
                ++dark;
    QVERIFY2(dark > 100, qPrintable(QString::number(dark)));
    QFile::remove(screenshotPath(QStringLiteral("export")));
    QFile::copy(path, screenshotPath(QStringLiteral("export")));
    session.disconnectFromServer();
}
QTEST_MAIN(TestChartPanel)
#include "tst_chartpanel.moc"
