// The chart panel: which members it draws, the band for big pools, pinning, legend toggles,
// event markers, rate mode, coalesced redraws and decimation. Uses the real history store; the
// big-pool case polls a real redis-server.

#include "chart/ChartPanel.h"
#include "session/PoolSession.h"
#include "pool/LuaScript.h"

#include "RedisFixture.h"

#include <cmath>

#include <QDateTime>
#include <QtTest>

using namespace poolscope;
using namespace std::chrono_literals;

class TestChartPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void smallPoolChartsEveryMember();
    void markersFollowEvents();
    void legendClickTogglesSeries();
    void rateModeShowsAllocationsPerSecond();
    void redrawsAreCoalesced();
    void longHistoryIsDecimated();
    void bigPoolShowsEdgesBandAndPinned();
    void poolPastTheHistoryLimitKeepsChartedLinesGrowing();
};

namespace {

// Records `seconds` polls ending now, one per second: member i gains (i + 1) per poll.
qint64 feed(PoolHistory &history, int members, int seconds) {
    const qint64 end = QDateTime::currentMSecsSinceEpoch();
    const qint64 start = end - qint64(seconds - 1) * 1000;
    for (int s = 0; s < seconds; ++s) {
        QList<PoolMember> counts;
        for (int i = 0; i < members; ++i)
            counts.append({"m" + QByteArray::number(i), double(s * (i + 1))});
        history.record(start + s * 1000, counts);
    }
    return end;
}

} // namespace

void TestChartPanel::smallPoolChartsEveryMember() {
    PoolSession session;
    ChartPanel chart(&session);
    chart.resize(900, 500);
    feed(session.history(), 4, 30);
    chart.refreshNow();
    QCOMPARE(chart.chartedMembers().size(), 4);
    QVERIFY(!chart.isBandShown());
    QCOMPARE(chart.pointCount("m0"), 30);
    QCOMPARE(chart.lastValue("m3"), 29.0 * 4);
    QVERIFY(chart.placeholderText().isEmpty());
}

void TestChartPanel::markersFollowEvents() {
    PoolSession session;
    ChartPanel chart(&session);
    chart.resize(900, 500);
    feed(session.history(), 3, 20);
    session.addHistoryEvent(HistoryEvent::Kind::Evict, "m1", QStringLiteral("evict m1 (saved 5)"),
                            session.history().latestTimeMs() - 5000);
    QTRY_VERIFY(chart.markerLabels().contains(QStringLiteral("evict m1 (saved 5)")));
    // An event long before the window is not drawn.
    session.addHistoryEvent(HistoryEvent::Kind::Seed, {}, QStringLiteral("old seed"),
                            session.history().latestTimeMs() - 3600 * 1000);
    chart.refreshNow();
    QVERIFY(!chart.markerLabels().contains(QStringLiteral("old seed")));
    chart.setTimeWindow(ChartPanel::TimeWindow::Everything);
    chart.refreshNow();
    QVERIFY(chart.markerLabels().contains(QStringLiteral("evict m1 (saved 5)")));
}

void TestChartPanel::legendClickTogglesSeries() {
    PoolSession session;
    ChartPanel chart(&session);
    feed(session.history(), 3, 10);
    chart.refreshNow();
    QVERIFY(!chart.isSeriesHidden("m2"));
    chart.toggleSeriesVisible("m2");
    QVERIFY(chart.isSeriesHidden("m2"));
    QCOMPARE(chart.chartedMembers().size(), 3); // still in the legend, to be clicked back
    chart.toggleSeriesVisible("m2");
    QVERIFY(!chart.isSeriesHidden("m2"));
}

void TestChartPanel::rateModeShowsAllocationsPerSecond() {
    PoolSession session;
    ChartPanel chart(&session);
    feed(session.history(), 3, 20);
    chart.setValueMode(ChartPanel::ValueMode::Rate);
    chart.refreshNow();
    QVERIFY(qAbs(chart.lastValue("m0") - 1.0) < 1e-9);
    QVERIFY(qAbs(chart.lastValue("m2") - 3.0) < 1e-9);
    chart.setValueMode(ChartPanel::ValueMode::Cumulative);
    chart.refreshNow();
    QCOMPARE(chart.lastValue("m2"), 19.0 * 3);
}

void TestChartPanel::redrawsAreCoalesced() {
    PoolSession session;
    ChartPanel chart(&session);
    feed(session.history(), 2, 5);
    chart.refreshNow();
    const quint64 before = chart.refreshCount();
    QSignalSpy refreshed(&chart, &ChartPanel::refreshed);
    for (int i = 0; i < 100; ++i)
        chart.scheduleRefresh();
    QVERIFY(refreshed.wait(2000));
    QCOMPARE(chart.refreshCount(), before + 1);
}

void TestChartPanel::longHistoryIsDecimated() {
    PoolSession session;
    ChartPanel chart(&session);
    chart.resize(800, 400);
    chart.setTimeWindow(ChartPanel::TimeWindow::OneHour);
    feed(session.history(), 2, 3600);
    chart.refreshNow();
    const qsizetype points = chart.pointCount("m1");
    QVERIFY2(points > 100 && points <= 2 * 1000 + 2, qPrintable(QString::number(points)));
    QCOMPARE(chart.lastValue("m1"), 3599.0 * 2);
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
    QVERIFY(chart.isBandShown());
    const QList<QByteArray> charted = chart.chartedMembers();
    QCOMPARE(charted.size(), 2 * ChartPanel::kEdgeMembers);
    for (const char *member : {"m00", "m04", "m25", "m29"})
        QVERIFY2(charted.contains(member), member);
    QVERIFY(!charted.contains("m15"));

    chart.pinMembers({"m15"});
    chart.refreshNow();
    QVERIFY(chart.chartedMembers().contains("m15"));
    QVERIFY(chart.isPinned("m15"));
    chart.togglePinned({"m15"});
    chart.refreshNow();
    QVERIFY(!chart.chartedMembers().contains("m15"));

    // Rate mode has no count band.
    chart.setValueMode(ChartPanel::ValueMode::Rate);
    chart.refreshNow();
    QVERIFY(!chart.isBandShown());
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
    chart.pinMembers({"m30"});
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

    QVERIFY(chart.isBandShown());
    QVERIFY(session.history().trackedMembers().size() <= 21);
    const QList<QByteArray> charted = chart.chartedMembers();
    QCOMPARE(charted.size(), 2 * ChartPanel::kEdgeMembers + 1);
    QVERIFY(charted.contains("m30"));
    for (const QByteArray &member : charted)
        QVERIFY2(chart.pointCount(member) > 0, member.constData());
    // The band covers all 60 members, not only the recorded ones: its max is the pool's max.
    const auto &latest = session.latestObservation();
    QVERIFY(latest.has_value());
    const QList<BandPoint> band = session.history().band(latest->timeMs, latest->timeMs);
    QCOMPARE(band.size(), 1);
    QCOMPARE(band[0].max, latest->stats.max);
    QCOMPARE(band[0].min, latest->stats.min);
    session.disconnectFromServer();
}

QTEST_MAIN(TestChartPanel)
#include "tst_chartpanel.moc"
