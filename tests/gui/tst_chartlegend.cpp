// The chart panel's legend and colours: a legend click hides and shows a line, a narrow chart
// hides the legend and fits its time labels, the legend sorts naturally and says "+N more" when
// short, and a pinned member's swatch is its line's colour (a real redis-server polled).

#include "chart/ChartPanel.h"
#include "session/PoolSession.h"

#include "ChartHistory.h"
#include "RedisFixture.h"

#include <QChartView>
#include <QLegendMarker>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

class TestChartLegend : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void legendClickTogglesSeries();
    void narrowChartFitsItsTimeLabelsAndHidesTheLegend();
    void legendSortsNaturallyAndFits();
    void legendRefitsAfterResizesWithoutPolls();
    void bandAfterAGapAddsNoNamelessEntries();
    void legendSwatchIsTheLineColour();
};

namespace {

// With POOLSCOPE_SHOTS set to a folder, saves a screenshot of widget there (for a look by eye).
void saveShot(QWidget &widget, const QString &name) {
    const QString dir = qEnvironmentVariable("POOLSCOPE_SHOTS");
    if (!dir.isEmpty())
        widget.grab().save(QDir(dir).filePath(name));
}

// Shows the chart at size and waits until it is on screen.
bool showAt(ChartPanel &chart, QSize size) {
    chart.resize(size);
    chart.show();
    return QTest::qWaitForWindowExposed(&chart);
}

// The labels of the legend entries the chart shows, sorted.
QStringList shownLegendLabels(const ChartPanel &chart) {
    QStringList labels;
    const auto *view = qobject_cast<const QChartView *>(chart.chartView());
    for (const QLegendMarker *marker : view->chart()->legend()->markers())
        if (marker->isVisible())
            labels.append(marker->label());
    labels.sort();
    return labels;
}

QStringList frameLegendLabels(const ChartPanel &chart) {
    QStringList labels = chart.frame().legendLabels();
    labels.sort();
    return labels;
}

} // namespace

void TestChartLegend::legendClickTogglesSeries() {
    PoolSession session;
    ChartPanel chart(&session);
    feed(session.history(), 3, 10);
    chart.refreshNow();
    QVERIFY(!chart.isSeriesHidden("m2"));
    chart.toggleSeriesVisible("m2");
    QVERIFY(chart.isSeriesHidden("m2"));
    QCOMPARE(chart.frame().members().size(), 3); // still in the legend, to be clicked back
    chart.toggleSeriesVisible("m2");
    QVERIFY(!chart.isSeriesHidden("m2"));
}

void TestChartLegend::narrowChartFitsItsTimeLabelsAndHidesTheLegend() {
    // At 800x500 the chart gets about 560x300: the time labels read "01:…" and the legend took
    // half the width.
    PoolSession session;
    ChartPanel chart(&session);
    feed(session.history(), 12, 300);
    chart.resize(1200, 600);
    chart.refreshNow();
    chart.grabChart();
    chart.refreshNow();
    QVERIFY(chart.frame().legendShown);
    for (const QSize size : {QSize(560, 300), QSize(420, 260)}) {
        chart.resize(size);
        chart.refreshNow();
        chart.grabChart(); // lays the plot out at this size
        chart.refreshNow();
        QVERIFY2(!chart.frame().legendShown, qPrintable(QString::number(chart.width())));
        const QStringList labels = chart.frame().time.labels();
        QVERIFY2(labels.size() >= 2, qPrintable(labels.join(' ')));
        const QFontMetricsF metrics(chart.font());
        double width = 0;
        for (const QString &label : labels)
            width += metrics.horizontalAdvance(label) + 8;
        // n labels centred on n ticks over the plot: they fit when their widths fit the plot.
        QVERIFY2(width <= chart.frame().plotWidth, qPrintable(QStringLiteral("%1 > %2: %3")
                                                                  .arg(width)
                                                                  .arg(chart.frame().plotWidth)
                                                                  .arg(labels.join(' '))));
    }
    chart.grabChart().save(screenshotPath(QStringLiteral("narrow")));
}

// Twenty members: the legend lists them m0, m1, …, m10 (not m1, m10, m11, …, m2), and in a short
// chart it shows what fits and "+N more" instead of running past the bottom.
void TestChartLegend::legendSortsNaturallyAndFits() {
    PoolSession session;
    ChartPanel chart(&session);
    QVERIFY(showAt(chart, {1000, 800}));
    feed(session.history(), 20, 30);
    chart.refreshNow();
    QCoreApplication::processEvents(); // the legend lays its new entries out
    QList<QByteArray> natural;
    for (int i = 0; i < 20; ++i)
        natural.append("m" + QByteArray::number(i));
    QCOMPARE(chart.frame().members(), natural);
    QStringList labels = chart.frame().legendLabels();
    labels.removeIf([](const QString &label) { return !label.startsWith(u'm'); });
    QCOMPARE(labels.size(), 20);
    QCOMPARE(labels.value(2), QStringLiteral("m2"));
    QCOMPARE(labels.value(10), QStringLiteral("m10"));
    QCOMPARE(chart.frame().legendOverflow, 0);
    saveShot(chart, QStringLiteral("legend-tall.png"));

    chart.resize(1000, 380);
    QCoreApplication::processEvents(); // the chart's scene takes the new size
    chart.refreshNow();
    QCOMPARE_GT(chart.frame().legendOverflow, 0);
    const QStringList shortLabels = chart.frame().legendLabels();
    QVERIFY2(shortLabels.constLast().startsWith(
                 QStringLiteral("+%1 more").arg(chart.frame().legendOverflow)),
             qPrintable(shortLabels.join(u'|')));
    QCOMPARE(shortLabels.value(1), QStringLiteral("m0")); // after the pool rate's entry
    QCoreApplication::processEvents();                    // the legend lays the entry out
    saveShot(chart, QStringLiteral("legend-short.png"));
}

// Resized with no poll to redraw it (paused, or a quiet pool), the legend shows the entries that
// fit, also when it comes back after a narrow spell: it used to come back with every entry, the
// ones that did not fit too, running past the chart's bottom until the next poll.
void TestChartLegend::legendRefitsAfterResizesWithoutPolls() {
    PoolSession session;
    ChartPanel chart(&session);
    QVERIFY(showAt(chart, {1000, 800}));
    feed(session.history(), 20, 30);
    chart.refreshNow();
    QTRY_COMPARE(shownLegendLabels(chart), frameLegendLabels(chart));
    QCOMPARE(chart.frame().legendOverflow, 0);

    chart.resize(1000, 380);
    QTRY_COMPARE_GT(chart.frame().legendOverflow, 0);
    QTRY_COMPARE(shownLegendLabels(chart), frameLegendLabels(chart));
    const QStringList shortLegend = frameLegendLabels(chart);

    chart.resize(ChartPanel::kNarrowWidth - 40, 380);
    QTRY_VERIFY(!chart.frame().legendShown);
    chart.resize(1000, 380);
    QTRY_VERIFY(chart.frame().legendShown);
    QTRY_COMPARE(shownLegendLabels(chart), shortLegend);
    saveShot(chart, QStringLiteral("legend-shown-again.png"));
}

// After a gap (an outage, a pause) the band is drawn in runs, each a series of its own: a later
// run's series added nameless swatches at the legend's end.
void TestChartLegend::bandAfterAGapAddsNoNamelessEntries() {
    PoolSession session;
    ChartPanel chart(&session);
    QVERIFY(showAt(chart, {1000, 800}));
    PoolHistory &history = session.history();
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - 29000;
    for (int s = 0; s < 30; ++s) {
        if (s == 15)
            history.markGap(start + 14500, QStringLiteral("polling paused"));
        recordPoll(history, 24, s, start + s * 1000);
    }
    chart.refreshNow();
    QVERIFY(chart.frame().bandShown);
    QCOMPARE_GE(chart.frame().band.size(), 2);
    QTRY_COMPARE(shownLegendLabels(chart), frameLegendLabels(chart));
    QVERIFY(!shownLegendLabels(chart).contains(QString()));
}

// Summary mode, a member pinned before the first poll: its line and its legend swatch are one
// colour (the colour handed out at the first poll recoloured the line, not the swatch). Read from
// the pixels: the swatch is what only the widget draws.
void TestChartLegend::legendSwatchIsTheLineColour() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    for (int i = 0; i < 8; ++i)
        redis.makePool("pool", {"m" + QByteArray::number(i)}, 10 + i);
    PoolSession session;
    session.setFullSnapshotThreshold(4);
    ChartPanel chart(&session);
    chart.resize(1000, 600);
    session.pin({"m3"});
    chart.refreshNow();
    QSignalSpy polls(&session, &PoolSession::observationApplied);
    session.setPollInterval(100ms);
    session.connectTo(redis.endpoint(), "pool");
    QTRY_VERIFY_WITH_TIMEOUT(polls.count() >= 2, 10000);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.refreshNow();
    QCoreApplication::processEvents(); // the legend lays its new entries out
    QVERIFY(chart.frame().members().contains("m3"));
    QCOMPARE(chart.frame().line("m3")->color, session.colors().colorFor("m3"));
    // Each line's colour fills its swatch in the legend, right of the plot and its rate axis.
    const QImage image = chart.grab().toImage();
    image.save(screenshotPath(QStringLiteral("legend-swatches")));
    const double legendLeft = chart.plotRect().right() + 40;
    for (const ChartLine &line : chart.frame().lines) {
        int swatch = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = int(legendLeft); x < image.width(); ++x)
                if (qRgb(qRed(image.pixel(x, y)), qGreen(image.pixel(x, y)),
                         qBlue(image.pixel(x, y))) == line.color.rgb())
                    ++swatch;
        QVERIFY2(swatch >= 20, qPrintable(line.member + ": " + QByteArray::number(swatch)));
    }
    session.disconnectFromServer();
}

QTEST_MAIN(TestChartLegend)
#include "tst_chartlegend.moc"
