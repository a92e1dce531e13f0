// The dashboard's pure logic: command line, rates, flood forecasts, chart decimation, CSV and
// the load-report summary. No server, no window.

#include "startup/AppOptions.h"
#include "session/ChartMath.h"
#include "session/CsvExport.h"
#include "session/DisplayFormat.h"
#include "session/Forecast.h"
#include "session/MemberColors.h"
#include "session/RateTracker.h"
#include "load/LoadRunner.h"

#include <cmath>
#include <limits>

#include <QStandardItemModel>
#include <QtTest>

using namespace poolscope;

class TestGuiLogic : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void options_data();
    void options();
    void rateTrackerCountsOnlyRises();
    void rateTrackerWindowSlides();
    void rateTrackerWindowSumsFollowTheWindow();
    void restoreForecast_data();
    void restoreForecast();
    void floodForecastText();
    void decimationKeepsExtremesAndBoundsSize();
    void decimationKeepsLineBreaks();
    void ratePointsNeverNegative();
    void paddedRangeIsNeverEmpty();
    void csv();
    void loadReportSummary();
    void memberColorsAreStableAndDistinct();
};

void TestGuiLogic::options_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("environmentUrl");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<bool>("embedded");
    QTest::addColumn<bool>("demo");
    QTest::addColumn<bool>("readOnly");
    QTest::addColumn<QString>("screenshot");
    QTest::addColumn<double>("after");

    QTest::newRow("defaults: embedded demo")
        << QStringList{} << QString() << true << true << true << false << QString() << 0.0;
    QTest::newRow("REDIS_URL: no embedded, no demo")
        << QStringList{} << QStringLiteral("redis://h:1/0") << true << false << false << false
        << QString() << 0.0;
    QTest::newRow("--url with --demo") << QStringList{"--url", "redis://h/0", "--demo"} << QString()
                                       << true << false << true << false << QString() << 0.0;
    QTest::newRow("read-only turns the default demo off")
        << QStringList{"--read-only"} << QString() << true << true << false << true << QString()
        << 0.0;
    QTest::newRow("--demo --read-only is refused")
        << QStringList{"--demo", "--read-only"} << QString() << false << false << false << false
        << QString() << 0.0;
    QTest::newRow("screenshot") << QStringList{"--screenshot", "/tmp/x.png", "--after", "2.5"}
                                << QString() << true << true << true << false
                                << QStringLiteral("/tmp/x.png") << 2.5;
    QTest::newRow("--after alone") << QStringList{"--after", "3"} << QString() << false << false
                                   << false << false << QString() << 0.0;
    QTest::newRow("--after not a number")
        << QStringList{"--screenshot", "a.png", "--after", "soon"} << QString() << false << false
        << false << false << QString() << 0.0;
    QTest::newRow("empty key") << QStringList{"--key", ""} << QString() << false << false << false
                               << false << QString() << 0.0;
    QTest::newRow("stray argument") << QStringList{"extra"} << QString() << false << false << false
                                    << false << QString() << 0.0;
}

void TestGuiLogic::options() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, environmentUrl);
    QFETCH(bool, ok);
    arguments.prepend(QStringLiteral("poolscope"));
    const AppOptionsResult result = parseAppOptions(arguments, environmentUrl, QStringLiteral("1"));
    QCOMPARE(result.options.has_value(), ok);
    if (!ok) {
        QVERIFY(!result.error.isEmpty());
        return;
    }
    QFETCH(bool, embedded);
    QFETCH(bool, demo);
    QFETCH(bool, readOnly);
    QFETCH(QString, screenshot);
    QFETCH(double, after);
    QCOMPARE(usesEmbeddedServer(*result.options), embedded);
    QCOMPARE(result.options->demo, demo);
    QCOMPARE(result.options->readOnly, readOnly);
    QCOMPARE(result.options->screenshotPath, screenshot);
    if (!screenshot.isEmpty())
        QCOMPARE(result.options->screenshotAfterSeconds, after);
    QCOMPARE(result.options->key, QByteArray("proxies"));
}

void TestGuiLogic::rateTrackerCountsOnlyRises() {
    RateTracker rates(10000);
    rates.record(0, {{"a", 10}, {"b", 10}});
    rates.record(1000, {{"a", 20}, {"b", 15}, {"c", 0}}); // c seeded: no allocation
    rates.record(2000, {{"a", 30}, {"c", 0}, {"b", 0}});  // b evicted and restored at 0
    QCOMPARE(rates.memberRate("a"), 10.0);
    QCOMPARE(rates.memberRate("b"), 2.5);
    QCOMPARE(rates.memberRate("c"), 0.0);
    QCOMPARE(rates.poolRate(), 12.5);
    QCOMPARE(rates.totalAllocations(), 25.0);
    QCOMPARE(rates.memberAllocations().value("a"), 20.0);
}

void TestGuiLogic::rateTrackerWindowSlides() {
    RateTracker rates(2000);
    QCOMPARE(rates.poolRate(), 0.0);
    double count = 0;
    for (int second = 0; second <= 10; ++second) {
        count += second < 5 ? 100 : 10; // fast, then slow
        rates.record(second * 1000, {{"a", count}});
    }
    QCOMPARE(rates.poolRate(), 10.0); // only the last 2 s count
    QVERIFY(rates.coveredMs() >= 2000 && rates.coveredMs() <= 3000);
    rates.clear();
    QCOMPARE(rates.poolRate(), 0.0);
}

void TestGuiLogic::rateTrackerWindowSumsFollowTheWindow() {
    // The per-member sums are kept incrementally: members must leave them exactly when their
    // last allocation leaves the window, and a member absent from one poll must not count its
    // return as allocations.
    RateTracker rates(2000);
    rates.record(0, {{"a", 0}, {"b", 0}});
    rates.record(1000, {{"a", 5}, {"b", 3}});
    rates.record(2000, {{"a", 6}});            // b gone (evicted)
    rates.record(3000, {{"a", 7}, {"b", 50}}); // b back much higher: no allocation
    // The 2 s window now starts with the tick 1000-2000: b's first 3 have left it.
    QVERIFY(!rates.memberAllocations().contains("b"));
    QCOMPARE(rates.memberAllocations().value("a"), 2.0);
    rates.record(4000, {{"a", 8}, {"b", 51}});
    rates.record(5000, {{"a", 9}, {"b", 51}});
    // The window now holds the ticks 3000-4000 and 4000-5000: b's 3 from the first tick left it.
    QCOMPARE(rates.memberAllocations().value("b"), 1.0);
    QCOMPARE(rates.memberAllocations().value("a"), 2.0);
    QCOMPARE(rates.memberRate("a"), 1.0);
    rates.setWindowMs(1);
    QCOMPARE(rates.memberAllocations().size(), 1); // only a rose in the last tick
    QCOMPARE(rates.memberRate("a"), 1.0);
    rates.record(6000, {{"a", 9}, {"b", 51}});
    QVERIFY(rates.memberAllocations().isEmpty());
    QCOMPARE(rates.memberRate("a"), 0.0);
    QCOMPARE(rates.totalAllocations(), 8.0 + 1 + 1 + 2 + 1);
}

void TestGuiLogic::restoreForecast_data() {
    QTest::addColumn<int>("policy");
    QTest::addColumn<double>("saved");
    QTest::addColumn<double>("minimum");
    QTest::addColumn<double>("start");
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("allocations");
    QTest::addColumn<double>("seconds"); // -1: none

    QTest::newRow("zero") << int(RestorePolicy::Zero) << 40.0 << 42.0 << 0.0 << 1000.0 << 42.0
                          << 0.042;
    QTest::newRow("keep below") << int(RestorePolicy::Keep) << 40.0 << 100.0 << 0.0 << 10.0 << 60.0
                                << 6.0;
    QTest::newRow("keep above: no flood")
        << int(RestorePolicy::Keep) << 400.0 << 100.0 << 0.0 << 10.0 << 0.0 << 0.0;
    QTest::newRow("start") << int(RestorePolicy::Start) << 40.0 << 100.0 << 30.0 << 35.0 << 70.0
                           << 2.0;
    QTest::newRow("min: no flood")
        << int(RestorePolicy::Min) << 5.0 << 100.0 << 0.0 << 50.0 << 0.0 << 0.0;
    QTest::newRow("no rate measured")
        << int(RestorePolicy::Zero) << 5.0 << 100.0 << 0.0 << 0.0 << 100.0 << -1.0;
}

void TestGuiLogic::restoreForecast() {
    QFETCH(int, policy);
    QFETCH(double, saved);
    QFETCH(double, minimum);
    QFETCH(double, start);
    QFETCH(double, rate);
    QFETCH(double, allocations);
    QFETCH(double, seconds);
    const FloodForecast forecast =
        forecastRestore(RestorePolicy(policy), {saved}, minimum, start, rate);
    QCOMPARE(forecast.allocations, allocations);
    if (seconds < 0) {
        QVERIFY(!forecast.seconds);
        QVERIFY(forecast.text.contains(QStringLiteral("no allocations measured")));
    } else {
        QVERIFY(forecast.seconds);
        QVERIFY(qAbs(*forecast.seconds - seconds) < 1e-9);
    }
    if (allocations > 0)
        QVERIFY2(forecast.text.contains(QStringLiteral("will receive the next ~%1 allocations")
                                            .arg(formatCount(allocations))),
                 qPrintable(forecast.text));
    else
        QVERIFY(forecast.text.startsWith(QStringLiteral("No flood")));
}

void TestGuiLogic::floodForecastText() {
    const FloodForecast empty = forecastFlood(0, 1, std::nullopt, 100);
    QVERIFY(empty.poolEmpty);
    QVERIFY(empty.text.contains(QStringLiteral("empty")));
    const FloodForecast three = forecastFlood(0, 3, 50, 100);
    QCOMPARE(three.allocations, 150.0);
    QCOMPARE(three.perMember, 50.0);
    QCOMPARE(*three.seconds, 1.5);
    // Several members restored from different saved counts: each floods by its own gap.
    const FloodForecast keep = forecastRestore(RestorePolicy::Keep, {10, 90, 200}, 100, 0, 10);
    QCOMPARE(keep.allocations, 100.0); // 90 + 10 + 0
    QCOMPARE(*keep.seconds, 10.0);
}

void TestGuiLogic::decimationKeepsExtremesAndBoundsSize() {
    QList<QPointF> points;
    for (int i = 0; i < 100000; ++i)
        points.append(QPointF(i, (i == 51234) ? 1e6 : (i == 77777 ? -5 : std::sin(i / 100.0))));
    const QList<QPointF> out = decimateMinMax(points, 500);
    QVERIFY(out.size() <= 2 * 500 + 2);
    QCOMPARE(out.constFirst(), points.constFirst());
    QCOMPARE(out.constLast(), points.constLast());
    QVERIFY(out.contains(points[51234]));
    QVERIFY(out.contains(points[77777]));
    for (qsizetype i = 1; i < out.size(); ++i)
        QVERIFY(out[i - 1].x() < out[i].x());
    const QList<QPointF> small{{0, 1}, {1, 2}, {2, 3}};
    QCOMPARE(decimateMinMax(small, 500), small);
}

// Issue 12 item 3: an hour of 1 s points is decimated, and the outage's NaN break must survive.
void TestGuiLogic::decimationKeepsLineBreaks() {
    QList<QPointF> points;
    for (int i = 0; i < 3600; ++i) {
        if (i == 2000)
            points.append(QPointF(i - 0.5, std::numeric_limits<double>::quiet_NaN()));
        points.append(QPointF(i, i < 2000 ? 9431.0 + i : double(i - 2000)));
    }
    const QList<QPointF> out = decimateMinMax(points, 300);
    QVERIFY(out.size() <= 2 * 300 + 8);
    const auto breaks =
        std::count_if(out.cbegin(), out.cend(), [](const QPointF &p) { return std::isnan(p.y()); });
    QCOMPARE(breaks, 1);
    // Rates do not cross the break either (no made-up 0/s through an outage).
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const QList<QPointF> rates =
        ratePoints({{0, 0}, {1000, 10}, {1500, nan}, {5000, 50}, {6000, 60}});
    QCOMPARE(rates.size(), 3);
    QCOMPARE(rates[0], QPointF(1000, 10));
    QVERIFY(std::isnan(rates[1].y()));
    QCOMPARE(rates[2], QPointF(6000, 10));
    const auto at =
        std::find_if(out.cbegin(), out.cend(), [](const QPointF &p) { return std::isnan(p.y()); });
    QCOMPARE((at - 1)->y(), 9431.0 + 1999); // the last point before the outage
    QCOMPARE((at + 1)->y(), 0.0);           // the first after it
}

void TestGuiLogic::ratePointsNeverNegative() {
    const QList<HistoryPoint> history{{0, 0}, {1000, 50}, {2000, 100}, {3000, 0}, {3500, 25}};
    const QList<QPointF> rates = ratePoints(history);
    QCOMPARE(rates.size(), 4);
    QCOMPARE(rates[0], QPointF(1000, 50));
    QCOMPARE(rates[2], QPointF(3000, 0)); // restored at zero: not a negative rate
    QCOMPARE(rates[3], QPointF(3500, 50));
    QCOMPARE(countPoints(history).size(), history.size());
}

void TestGuiLogic::paddedRangeIsNeverEmpty() {
    ValueRange none;
    QVERIFY(paddedRange(none).high > paddedRange(none).low);
    ValueRange flat;
    flat.include(5);
    const ValueRange padded = paddedRange(flat);
    QVERIFY(padded.low <= 5 && padded.high > 5);
    ValueRange wide;
    wide.include(100);
    wide.include(200);
    wide.include(std::numeric_limits<double>::quiet_NaN());
    QVERIFY(paddedRange(wide).low < 100 && paddedRange(wide).high > 200);
}

void TestGuiLogic::csv() {
    QCOMPARE(csvField(QStringLiteral("plain")), QStringLiteral("plain"));
    QCOMPARE(csvField(QStringLiteral("a,b")), QStringLiteral("\"a,b\""));
    QCOMPARE(csvField(QStringLiteral("say \"hi\"")), QStringLiteral("\"say \"\"hi\"\"\""));

    QStandardItemModel model(2, 2);
    model.setHorizontalHeaderLabels({QStringLiteral("member"), QStringLiteral("count")});
    model.setItem(0, 0, new QStandardItem(QStringLiteral("x,1")));
    model.setItem(0, 1, new QStandardItem(QStringLiteral("3")));
    model.setItem(1, 0, new QStandardItem(QStringLiteral("y")));
    model.setItem(1, 1, new QStandardItem(QStringLiteral("4")));
    QString text;
    QTextStream out(&text);
    writeModelCsv(out, model, Qt::DisplayRole);
    out.flush();
    QCOMPARE(text, QStringLiteral("member,count\n\"x,1\",3\ny,4\n"));

    PoolHistory history;
    history.record(1000, {{"b", 1}, {"a", 2}});
    history.record(3000, {{"b", 5}, {"a", 2}});
    QString csv;
    QTextStream historyOut(&csv);
    writeHistoryCsv(historyOut, history, {"a", "b"}, 0, 10000);
    historyOut.flush();
    const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.constFirst(), QStringLiteral("time,member,count"));
    QVERIFY(lines.size() >= 3);
    QVERIFY(lines[1].startsWith(QStringLiteral("1970-01-01T00:00:01.000Z,a,2")));
    QVERIFY(lines.constLast().endsWith(QStringLiteral(",b,5")));
}

void TestGuiLogic::loadReportSummary() {
    LoadReport empty;
    empty.requested = 10;
    empty.empty = 10;
    QVERIFY(
        describeLoadReport(empty).startsWith(QStringLiteral("pool is empty: no proxy allocated")));

    LoadReport naive;
    naive.atomic = false;
    naive.allocated = 100;
    naive.collisions = 42;
    naive.elapsedSeconds = 1;
    naive.errorsByKind.insert(QStringLiteral("OOM"), 2);
    const QString text = describeLoadReport(naive);
    QVERIFY(text.contains(QStringLiteral("allocated 100")));
    QVERIFY(text.contains(QStringLiteral("42 collisions")));
    QVERIFY(text.contains(QStringLiteral("OOM 2")));
}

void TestGuiLogic::memberColorsAreStableAndDistinct() {
    MemberColors first;
    first.assign({"c", "a", "b"});
    MemberColors second;
    second.assign({"b", "c", "a"});
    for (const QByteArray &member : {QByteArray("a"), QByteArray("b"), QByteArray("c")})
        QCOMPARE(first.colorFor(member), second.colorFor(member));
    QSet<QRgb> seen;
    for (int i = 0; i < 40; ++i)
        seen.insert(MemberColors::colorAt(i).rgb());
    QCOMPARE(seen.size(), 40);
}

QTEST_MAIN(TestGuiLogic)
#include "tst_guilogic.moc"
