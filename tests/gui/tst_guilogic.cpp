// The dashboard's pure logic: command line, flood forecasts, chart decimation, CSV and
// the load-report summary. No server, no window.

#include "startup/AppOptions.h"
#include "session/ChartMath.h"
#include "session/CsvExport.h"
#include "session/DisplayFormat.h"
#include "session/Forecast.h"
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
    void profileOption_data();
    void profileOption();
    void naturalOrder_data();
    void naturalOrder();
    void restoreForecast_data();
    void restoreForecast();
    void floodForecastText();
    void decimationKeepsExtremesAndBoundsSize();
    void decimationDrawsAFlippingLineAsOneStrokePerBucket();
    void decimationKeepsLineBreaks();
    void ratePointsNeverNegative();
    void paddedRangeIsNeverEmpty();
    void differenceFromMedian_data();
    void differenceFromMedian();
    void differenceBandIsCenteredOnTheMedian();
    void fairSpread_data();
    void fairSpread();
    void integerTicks_data();
    void integerTicks();
    void timeStepFitsTheLabels_data();
    void timeStepFitsTheLabels();
    void csv();
    void loadReportSummary();
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

// --profile NAME: a saved connection names the server, so no REDIS_URL, no embedded server and no
// demo; what does not go with it is refused by name.
void TestGuiLogic::profileOption_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("environmentUrl");
    QTest::addColumn<QString>("profile"); // empty: refused
    QTest::addColumn<QString>("error");   // a part of the refusal
    QTest::addColumn<bool>("readOnly");

    QTest::newRow("a name") << QStringList{"--profile", "prod"} << QString()
                            << QStringLiteral("prod") << QString() << false;
    QTest::newRow("trimmed") << QStringList{"--profile=  team a  "} << QString()
                             << QStringLiteral("team a") << QString() << false;
    QTest::newRow("REDIS_URL is not used")
        << QStringList{"--profile", "prod"} << QStringLiteral("redis://127.0.0.1:1/0")
        << QStringLiteral("prod") << QString() << false;
    QTest::newRow("with --read-only") << QStringList{"--profile", "prod", "--read-only"}
                                      << QString() << QStringLiteral("prod") << QString() << true;
    QTest::newRow("empty") << QStringList{"--profile", " "} << QString() << QString()
                           << QStringLiteral("--profile needs the name") << false;
    QTest::newRow("no name at all")
        << QStringList{"--profile"} << QString() << QString() << QStringLiteral("profile") << false;
    QTest::newRow("with --url") << QStringList{"--profile", "prod", "--url", "redis://127.0.0.1/0"}
                                << QString() << QString() << QStringLiteral("--url does not go")
                                << false;
    QTest::newRow("with --demo") << QStringList{"--demo", "--profile", "prod"} << QString()
                                 << QString() << QStringLiteral("--demo does not go") << false;
    QTest::newRow("with --recording")
        << QStringList{"--profile", "prod", "--recording", "team.sqlite"} << QString() << QString()
        << QStringLiteral("--recording does not go") << false;
}

void TestGuiLogic::profileOption() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, environmentUrl);
    QFETCH(QString, profile);
    QFETCH(QString, error);
    QFETCH(bool, readOnly);
    arguments.prepend(QStringLiteral("poolscope"));
    const AppOptionsResult result = parseAppOptions(arguments, environmentUrl, QStringLiteral("1"));
    if (profile.isEmpty()) {
        QVERIFY(!result.options);
        QVERIFY2(result.error.contains(error), qPrintable(result.error));
        return;
    }
    QVERIFY2(result.options, qPrintable(result.error));
    QCOMPARE(result.options->profileName, profile);
    QCOMPARE(result.options->url, QString());
    QVERIFY(!usesEmbeddedServer(*result.options));
    QVERIFY(!result.options->demo);
    QCOMPARE(result.options->readOnly, readOnly);
    QVERIFY(result.options->recordingPath.isEmpty());
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
        QCOMPARE_LT(qAbs(*forecast.seconds - seconds), 1e-9);
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
    const QList<QPointF> out = bucketMinMax(points, 200); // 500 buckets
    QVERIFY2(out.size() <= 2 * 501 + 2, qPrintable(QString::number(out.size())));
    QCOMPARE(out.constFirst(), points.constFirst());
    QCOMPARE(out.constLast(), points.constLast());
    // The extremes keep their values, within their bucket's time.
    const auto near = [&](double x, double y) {
        return std::any_of(out.cbegin(), out.cend(), [&](const QPointF &p) {
            return p.y() == y && std::floor(p.x() / 200) == std::floor(x / 200);
        });
    };
    QVERIFY(near(51234, 1e6));
    QVERIFY(near(77777, -5));
    for (qsizetype i = 1; i < out.size(); ++i)
        QCOMPARE_LE(out[i - 1].x(), out[i].x());
    const QList<QPointF> small{{0, 1}, {1, 2}, {2, 3}};
    QCOMPARE(bucketMinMax(small, 200), small);
}

// A line that flips between two values at every point (a member of a fair pool against the
// median): one stroke per bucket, up then down then up, not a stroke per point.
void TestGuiLogic::decimationDrawsAFlippingLineAsOneStrokePerBucket() {
    QList<QPointF> points;
    for (int i = 0; i < 300; ++i)
        points.append(QPointF(i * 1000, i % 2));
    const QList<QPointF> out = bucketMinMax(points, 4000); // four points a bucket
    QVERIFY2(out.size() <= 2 * 76 + 2, qPrintable(QString::number(out.size())));
    int flat = 0;
    for (qsizetype i = 1; i < out.size(); ++i) {
        QCOMPARE_LE(out[i - 1].x(), out[i].x());
        if (out[i - 1].y() == out[i].y())
            ++flat; // from one bucket's stroke to the next one's, at the same level
    }
    // Inside each bucket a stroke across; between buckets a short flat step.
    QVERIFY2(flat >= 70, qPrintable(QString::number(flat)));
    // A rising line keeps its points' order.
    QList<QPointF> rising;
    for (int i = 0; i < 300; ++i)
        rising.append(QPointF(i * 1000, i));
    const QList<QPointF> risingOut = bucketMinMax(rising, 4000);
    for (qsizetype i = 1; i < risingOut.size(); ++i)
        QCOMPARE_LT(risingOut[i - 1].y(), risingOut[i].y());
}

// An hour of 1 s points is decimated, and the outage's NaN break must survive.
void TestGuiLogic::decimationKeepsLineBreaks() {
    QList<QPointF> points;
    for (int i = 0; i < 3600; ++i) {
        if (i == 2000)
            points.append(QPointF(i - 0.5, std::numeric_limits<double>::quiet_NaN()));
        points.append(QPointF(i, i < 2000 ? 9431.0 + i : double(i - 2000)));
    }
    const QList<QPointF> out = bucketMinMax(points, 12); // 300 buckets
    QCOMPARE_LE(out.size(), 2 * 300 + 8);
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
    QCOMPARE_GT(paddedRange(none).high, paddedRange(none).low);
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

void TestGuiLogic::differenceFromMedian_data() {
    QTest::addColumn<QList<HistoryPoint>>("history");
    QTest::addColumn<QList<BandPoint>>("band");
    QTest::addColumn<QList<double>>("expected"); // NaN: a break in the line
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("same polls") << QList<HistoryPoint>{{1000, 10}, {2000, 14}, {3000, 15}}
                                << QList<BandPoint>{{1000, 8, 10, 12},
                                                    {2000, 9, 12, 20},
                                                    {3000, 10, 15.5, 30}}
                                << QList<double>{0, 2, -0.5};
    QTest::newRow("a flood: restored at zero, far below the median")
        << QList<HistoryPoint>{{1000, 0}, {2000, 300}, {3000, 600}}
        << QList<BandPoint>{{1000, 0, 9000, 9001}, {2000, 300, 9001, 9002}, {3000, 600, 9001, 9002}}
        << QList<double>{-9000, -8701, -8401};
    QTest::newRow("coarser band: the latest median at or before the point")
        << QList<HistoryPoint>{{1500, 7}, {2500, 9}, {9000, 20}}
        << QList<BandPoint>{{1000, 0, 5, 9}, {2000, 0, 6, 9}} << QList<double>{2, 3, 14};
    QTest::newRow("no median yet") << QList<HistoryPoint>{{500, 3}, {1000, 4}}
                                   << QList<BandPoint>{{1000, 0, 1, 9}} << QList<double>{nan, 3};
    QTest::newRow("a break in the band or in the line stays a break")
        << QList<HistoryPoint>{{1000, 5}, {2000, 6}, {3000, nan}, {4000, 9}}
        << QList<BandPoint>{{1000, 0, 4, 9},
                            {2000, nan, nan, nan},
                            {3000, 0, 5, 9},
                            {4000, 0, 8, 9}}
        << QList<double>{1, nan, nan, 1};
    QTest::newRow("empty") << QList<HistoryPoint>{} << QList<BandPoint>{{1000, 0, 1, 2}}
                           << QList<double>{};
}

void TestGuiLogic::differenceFromMedian() {
    QFETCH(QList<HistoryPoint>, history);
    QFETCH(QList<BandPoint>, band);
    QFETCH(QList<double>, expected);
    const QList<QPointF> points = differencePoints(history, band);
    QCOMPARE(points.size(), expected.size());
    for (qsizetype i = 0; i < points.size(); ++i) {
        QCOMPARE(points[i].x(), double(history[i].timeMs));
        if (std::isnan(expected[i]))
            QVERIFY2(std::isnan(points[i].y()), qPrintable(QString::number(i)));
        else
            QCOMPARE(points[i].y(), expected[i]);
    }
}

void TestGuiLogic::differenceBandIsCenteredOnTheMedian() {
    const QList<BandPoint> band{{1000, 90, 100, 130}, {2000, 0, 101, 102}};
    const DifferenceBand d = differenceBand(band);
    QCOMPARE(d.lower, (QList<QPointF>{{1000, -10}, {2000, -101}}));
    QCOMPARE(d.upper, (QList<QPointF>{{1000, 30}, {2000, 1}}));
    QCOMPARE(d.median, (QList<QPointF>{{1000, 0}, {2000, 0}}));
}

void TestGuiLogic::fairSpread_data() {
    QTest::addColumn<qint64>("members");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::addColumn<bool>("fair");
    QTest::newRow("demo-like: all within 1") << qint64(12) << 40.0 << 41.0 << true;
    QTest::newRow("within the limit") << qint64(12) << 40.0 << 45.0 << true;
    QTest::newRow("one allocation past it") << qint64(12) << 40.0 << 46.0 << false;
    QTest::newRow("skewed") << qint64(30) << 100.0 << 129.0 << false;
    QTest::newRow("one member is no pool to compare") << qint64(1) << 5.0 << 5.0 << false;
    QTest::newRow("empty") << qint64(0) << 0.0 << 0.0 << false;
}

void TestGuiLogic::fairSpread() {
    QFETCH(qint64, members);
    QFETCH(double, min);
    QFETCH(double, max);
    QFETCH(bool, fair);
    QCOMPARE(isFairSpread(members, min, max, 5), fair);
}

void TestGuiLogic::integerTicks_data() {
    QTest::addColumn<double>("low");
    QTest::addColumn<double>("high");
    QTest::addColumn<int>("maxIntervals");
    QTest::addColumn<double>("step");
    QTest::newRow("all counts 0 (padded to 0..2)") << 0.0 << 2.0 << 5 << 1.0;
    QTest::newRow("0..7.3") << 0.0 << 7.3 << 5 << 2.0;
    QTest::newRow("a narrow band high up") << 1000.2 << 1003.1 << 5 << 1.0;
    QTest::newRow("differences around 0") << -3.2 << 2.5 << 5 << 2.0;
    QTest::newRow("a flood far below 0") << -9450.0 << 80.0 << 5 << 5000.0;
    QTest::newRow("large counts") << 0.0 << 123456.0 << 6 << 50000.0;
    QTest::newRow("one interval only") << 0.0 << 3.0 << 1 << 5.0;
}

void TestGuiLogic::integerTicks() {
    QFETCH(double, low);
    QFETCH(double, high);
    QFETCH(int, maxIntervals);
    QFETCH(double, step);
    const AxisTicks ticks = poolscope::integerTicks({low, high, true}, maxIntervals);
    QCOMPARE(ticks.step, step);
    QVERIFY(ticks.low <= low && ticks.high >= high);
    QVERIFY(ticks.count >= 2 && ticks.count - 1 <= maxIntervals);
    QCOMPARE(ticks.low + (ticks.count - 1) * ticks.step, ticks.high);
    // Every tick a whole number with a label of its own.
    QStringList labels;
    for (int i = 0; i < ticks.count; ++i) {
        const double value = ticks.low + i * ticks.step;
        QCOMPARE(value, std::round(value));
        labels.append(QString::asprintf("%.0f", value));
    }
    QCOMPARE(QSet<QString>(labels.cbegin(), labels.cend()).size(), labels.size());
}

void TestGuiLogic::timeStepFitsTheLabels_data() {
    QTest::addColumn<qint64>("spanMs");
    QTest::addColumn<int>("maxIntervals");
    QTest::addColumn<qint64>("stepMs");
    QTest::addColumn<QString>("format");
    QTest::newRow("5 min, wide") << qint64(300000) << 7 << qint64(60000) << QStringLiteral("HH:mm");
    QTest::newRow("5 min, narrow")
        << qint64(300000) << 3 << qint64(120000) << QStringLiteral("HH:mm");
    QTest::newRow("1 min, wide") << qint64(60000) << 7 << qint64(10000)
                                 << QStringLiteral("HH:mm:ss");
    QTest::newRow("1 min, narrow")
        << qint64(60000) << 2 << qint64(30000) << QStringLiteral("HH:mm:ss");
    QTest::newRow("a day") << qint64(86400000) << 4 << qint64(21600000)
                           << QStringLiteral("dd MMM HH:mm");
    QTest::newRow("a week, one interval")
        << qint64(604800000) << 1 << qint64(604800000) << QStringLiteral("dd MMM");
}

void TestGuiLogic::timeStepFitsTheLabels() {
    QFETCH(qint64, spanMs);
    QFETCH(int, maxIntervals);
    QFETCH(qint64, stepMs);
    QFETCH(QString, format);
    QCOMPARE(niceTimeStepMs(spanMs, maxIntervals), stepMs);
    QCOMPARE_LE(spanMs, stepMs * maxIntervals);
    QCOMPARE(timeLabelFormat(stepMs), format);
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
    QCOMPARE_GE(lines.size(), 3);
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

    // A run through a failover says what the CLI's report says: the primaries and the loss.
    LoadReport failover;
    failover.allocated = 5000;
    failover.unknown = 128;
    failover.elapsedSeconds = 10;
    failover.connectionLosses = 2;
    failover.reconnects = 2;
    failover.primaries = {QStringLiteral("127.0.0.1:7001"), QStringLiteral("127.0.0.1:7002")};
    failover.lossChecked = true;
    failover.lostInFailover = 0;
    failover.baselineSum = 1000;
    failover.finalSum = 6100;
    const QString accounted = describeLoadReport(failover);
    QVERIFY2(accounted.contains(QStringLiteral("outcome unknown (no reply, never retried): 128")),
             qPrintable(accounted));
    QVERIFY2(accounted.contains(QStringLiteral(
                 "failover: the primary went from 127.0.0.1:7001 to 127.0.0.1:7002")),
             qPrintable(accounted));
    QVERIFY2(accounted.contains(QStringLiteral("lost in failover: 0 acknowledged allocations")),
             qPrintable(accounted));
    QVERIFY2(accounted.contains(QStringLiteral("connections lost mid-run: 2, reconnected: 2")),
             qPrintable(accounted));
    LoadReport unchecked = failover;
    unchecked.lossChecked = false;
    unchecked.lossCheck = QStringLiteral("the pool could not be read before the run");
    QVERIFY(describeLoadReport(unchecked).contains(
        QStringLiteral("lost in failover: not checked (the pool could not be "
                       "read before the run)")));
}

void TestGuiLogic::naturalOrder_data() {
    QTest::addColumn<QByteArrayList>("shuffled");
    QTest::addColumn<QByteArrayList>("sorted");
    QTest::newRow("numbers by value") << QByteArrayList{"m19", "m1", "m20", "m2", "m10"}
                                      << QByteArrayList{"m1", "m2", "m10", "m19", "m20"};
    QTest::newRow("addresses") << QByteArrayList{"10.0.0.10:80", "10.0.0.9:80", "10.0.1.1:80"}
                               << QByteArrayList{"10.0.0.9:80", "10.0.0.10:80", "10.0.1.1:80"};
    QTest::newRow("leading zeros, text") << QByteArrayList{"b", "a10", "a010", "a9", "a"}
                                         << QByteArrayList{"a", "a9", "a010", "a10", "b"};
    QTest::newRow("long numbers") << QByteArrayList{"p123456789012345678901", "p99"}
                                  << QByteArrayList{"p99", "p123456789012345678901"};
}

void TestGuiLogic::naturalOrder() {
    QFETCH(QByteArrayList, shuffled);
    QFETCH(QByteArrayList, sorted);
    std::sort(shuffled.begin(), shuffled.end(), naturalLess);
    QCOMPARE(shuffled, sorted);
    for (const QByteArray &member : sorted)
        QVERIFY(!naturalLess(member, member));
}

QTEST_MAIN(TestGuiLogic)
#include "tst_guilogic.moc"
