// The chart's long windows (24 h, 7 days, all) and its zoom: dragging across the plot, zooming out
// by button, Esc, right click and double click, and the window shortcuts. Feeds the real history
// store directly (a simulated week); no server. Screenshots go to <build>/tests/screenshots/.
#include "chart/ChartPanel.h"
#include "session/PoolSession.h"

#include <cmath>

#include <QAbstractScrollArea>
#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QToolButton>
#include <QtTest>

using namespace poolscope;

namespace {

constexpr qint64 kMinuteMs = 60 * 1000;
constexpr qint64 kHourMs = 60 * kMinuteMs;
constexpr qint64 kDayMs = 24 * kHourMs;

// Lets the chart's scene lay out what the last refresh changed (axis label widths, legend), as
// the event loop would before the next paint, so a screenshot shows what a user sees.
QPixmap settledGrab(ChartPanel &chart) {
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    return chart.grabChart();
}

QString screenshotPath(const QString &name) {
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir + QStringLiteral("/chart-%1.png").arg(name);
}

// Eight days of polls, one a minute, ending now: six members whose allocations follow the day,
// member 5 evicted for half a day three days ago, and an event for each of those moments.
qint64 feedWeek(PoolSession &session) {
    PoolHistory &history = session.history();
    const qint64 end = QDateTime::currentMSecsSinceEpoch() / kMinuteMs * kMinuteMs;
    const qint64 start = end - 8 * kDayMs;
    QList<PoolMember> counts;
    for (int i = 0; i < 6; ++i)
        counts.append({"198.51.100." + QByteArray::number(10 + i) + ":3128", 0});
    const qint64 evictedFrom = end - 3 * kDayMs;
    const qint64 evictedTo = evictedFrom + kDayMs / 2;
    for (qint64 t = start; t <= end; t += kMinuteMs) {
        const double daily = 1.0 + std::sin(2 * M_PI * double(t % kDayMs) / double(kDayMs));
        QList<PoolMember> poll;
        for (int i = 0; i < counts.size(); ++i) {
            counts[i].count += std::floor(daily * (3 + i) * 4);
            if (i != 5 || t < evictedFrom || t >= evictedTo)
                poll.append(counts[i]);
        }
        history.record(t, poll);
    }
    session.addHistoryEvent(HistoryEvent::Kind::Evict, "198.51.100.15:3128",
                            QStringLiteral("evict 198.51.100.15:3128"), evictedFrom);
    session.addHistoryEvent(HistoryEvent::Kind::Restore, "198.51.100.15:3128",
                            QStringLiteral("restore 198.51.100.15:3128 (min)"), evictedTo);
    session.addHistoryEvent(HistoryEvent::Kind::Seed, {}, QStringLiteral("seed 2 from list"),
                            end - 2 * kHourMs);
    return end;
}

// Drags across the chart from one fraction of the plot's width to another.
void dragAcross(ChartPanel &chart, double fromFraction, double toFraction) {
    QWidget *view = chart.chartView();
    auto *area = qobject_cast<QAbstractScrollArea *>(view);
    QVERIFY(area);
    QWidget *viewport = area->viewport();
    const QRectF plot = chart.plotRect();
    const auto at = [&](double fraction) {
        const QPointF panel(plot.left() + fraction * plot.width(), plot.center().y());
        return viewport->mapFrom(&chart, panel.toPoint());
    };
    QTest::mousePress(viewport, Qt::LeftButton, {}, at(fromFraction));
    for (int step = 1; step <= 4; ++step)
        QTest::mouseMove(viewport, at(fromFraction + (toFraction - fromFraction) * step / 4));
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, at(toFraction));
}

QWidget *viewportOf(ChartPanel &chart) {
    return qobject_cast<QAbstractScrollArea *>(chart.chartView())->viewport();
}

QPoint plotCentre(ChartPanel &chart) {
    return viewportOf(chart)->mapFrom(&chart, chart.plotRect().center().toPoint());
}

} // namespace

class TestChartZoom : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void longWindowsShowTheirSpan_data() {
        QTest::addColumn<int>("window");
        QTest::addColumn<qint64>("span");
        QTest::addColumn<bool>("evictionShown");
        QTest::newRow("5 min") << int(ChartPanel::TimeWindow::FiveMinutes) << 5 * kMinuteMs
                               << false;
        QTest::newRow("1 h") << int(ChartPanel::TimeWindow::OneHour) << kHourMs << false;
        QTest::newRow("24 h") << int(ChartPanel::TimeWindow::Day) << kDayMs << false;
        QTest::newRow("7 days") << int(ChartPanel::TimeWindow::Week) << 7 * kDayMs << true;
        // The history holds a week (its coarsest tier): "all" is all of it.
        QTest::newRow("all") << int(ChartPanel::TimeWindow::Everything) << 7 * kDayMs << true;
    }
    void longWindowsShowTheirSpan() {
        QFETCH(int, window);
        QFETCH(qint64, span);
        QFETCH(bool, evictionShown);
        PoolSession session;
        ChartPanel chart(&session);
        chart.resize(1100, 520);
        const qint64 end = feedWeek(session);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setTimeWindow(ChartPanel::TimeWindow(window));
        chart.refreshNow();
        // The axis covers the window, rounded out to whole ticks (a 24 h window may get 6 h
        // ticks), and ends at the latest poll.
        QVERIFY2(chart.frame().time.spanMs() >= span - 5 * kMinuteMs &&
                     chart.frame().time.spanMs() <= span * 16 / 10,
                 qPrintable(QString::number(chart.frame().time.spanMs())));
        QCOMPARE_GE(chart.frame().time.toMs, end);
        QCOMPARE_LE(chart.frame().time.fromMs, end - span + 5 * kMinuteMs);
        QCOMPARE(chart.frame().markerLabels().contains(QStringLiteral("evict 198.51.100.15:3128")),
                 evictionShown);
        QCOMPARE(chart.frame().markerLabels().contains(QStringLiteral("seed 2 from list")),
                 (span >= 2 * kHourMs));
        // Every member is drawn, decimated to about the plot's width.
        QCOMPARE(chart.frame().members().size(), 6);
        const qsizetype points = chart.frame().pointCount("198.51.100.10:3128");
        QVERIFY2(points > 4 && points <= 2 * int(chart.frame().plotWidth) + 4,
                 qPrintable(QString::number(points)));
        if (ChartPanel::TimeWindow(window) == ChartPanel::TimeWindow::Week)
            QVERIFY(settledGrab(chart).save(screenshotPath(QStringLiteral("week"))));
    }

    void windowActionsAndShortcuts() {
        PoolSession session;
        ChartPanel chart(&session);
        chart.resize(900, 480);
        feedWeek(session);
        chart.show();
        QVERIFY(QTest::qWaitForWindowActive(&chart));
        const QList<QAction *> actions = chart.viewActions();
        QCOMPARE(actions.size(), 7); // five windows, zoom out, whole window
        QTest::keyClick(&chart, Qt::Key_3, Qt::AltModifier);
        QCOMPARE(chart.timeWindow(), ChartPanel::TimeWindow::Day);
        QVERIFY(actions[2]->isChecked());
        QTest::keyClick(&chart, Qt::Key_4, Qt::AltModifier);
        QCOMPARE(chart.timeWindow(), ChartPanel::TimeWindow::Week);
        actions[4]->trigger();
        QCOMPARE(chart.timeWindow(), ChartPanel::TimeWindow::Everything);
        QVERIFY(actions[4]->isChecked());
        QTest::keyClick(&chart, Qt::Key_1, Qt::AltModifier);
        QCOMPARE(chart.timeWindow(), ChartPanel::TimeWindow::FiveMinutes);
        // Zoom out and whole window do nothing until there is a zoom.
        QVERIFY(!actions[5]->isEnabled());
        QVERIFY(!actions[6]->isEnabled());
    }

    void dragZoomsIntoTheRangeAndStaysThere() {
        PoolSession session;
        ChartPanel chart(&session);
        chart.resize(1000, 500);
        const qint64 end = feedWeek(session);
        chart.setTimeWindow(ChartPanel::TimeWindow::Week);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.refreshNow();
        const qint64 windowFrom = chart.frame().time.fromMs;
        const qint64 windowTo = chart.frame().time.toMs;
        const auto *zoomOutButton = chart.findChild<QToolButton *>();
        QVERIFY(zoomOutButton && !zoomOutButton->isVisible());

        // Days 3 to 4 of the seven: the eviction lies inside, the seed two hours ago does not.
        dragAcross(chart, 3.0 / 7, 4.0 / 7);
        QVERIFY(chart.isZoomed());
        const double windowSpan = double(windowTo - windowFrom);
        const qint64 expectFrom = windowFrom + qint64(windowSpan * 3 / 7);
        const qint64 expectTo = windowFrom + qint64(windowSpan * 4 / 7);
        const qint64 slack = qint64(windowSpan / chart.frame().plotWidth) * 2; // two pixels
        QVERIFY2(chart.frame().time.fromMs <= expectFrom + slack &&
                     chart.frame().time.toMs >= expectTo - slack,
                 qPrintable(QStringLiteral("%1..%2")
                                .arg(chart.frame().time.fromMs)
                                .arg(chart.frame().time.toMs)));
        QVERIFY2(chart.frame().time.spanMs() <= (expectTo - expectFrom) * 2,
                 qPrintable(QString::number(chart.frame().time.spanMs())));
        QVERIFY(zoomOutButton->isVisible());
        QVERIFY(chart.frame().caption.contains(QStringLiteral("zoomed")));
        QVERIFY(!chart.frame().markerLabels().contains(QStringLiteral("seed 2 from list")));
        // Finer data than the window showed: the members' lines are drawn across the range.
        QCOMPARE_GT(chart.frame().pointCount("198.51.100.10:3128"), 100);

        // New polls do not move a zoomed chart.
        const qint64 zoomedFrom = chart.frame().time.fromMs;
        const qint64 zoomedTo = chart.frame().time.toMs;
        QList<PoolMember> poll{{"198.51.100.10:3128", 1e7}};
        session.history().record(end + kMinuteMs, poll);
        chart.refreshNow();
        QCOMPARE(chart.frame().time.fromMs, zoomedFrom);
        QCOMPARE(chart.frame().time.toMs, zoomedTo);

        // A second step, then the button goes back one step and again to the window.
        dragAcross(chart, 0.25, 0.5);
        QCOMPARE(chart.zoomDepth(), 2);
        QCOMPARE_LT(chart.frame().time.spanMs(), zoomedTo - zoomedFrom);
        QTest::mouseClick(const_cast<QToolButton *>(zoomOutButton), Qt::LeftButton);
        QCOMPARE(chart.zoomDepth(), 1);
        QCOMPARE(chart.frame().time.fromMs, zoomedFrom);
        QCOMPARE(chart.frame().time.toMs, zoomedTo);
        QVERIFY(settledGrab(chart).save(screenshotPath(QStringLiteral("zoomed"))));

        // A click is not a drag.
        QTest::mouseClick(viewportOf(chart), Qt::LeftButton, {}, plotCentre(chart));
        QCOMPARE(chart.zoomDepth(), 1);
    }

    void zoomOutGestures_data() {
        QTest::addColumn<QString>("gesture");
        QTest::addColumn<int>("depthAfter"); // from two steps deep
        QTest::newRow("Esc") << QStringLiteral("esc") << 1;
        QTest::newRow("right click") << QStringLiteral("right") << 1;
        QTest::newRow("double click") << QStringLiteral("double") << 0;
        QTest::newRow("Ctrl+0") << QStringLiteral("ctrl0") << 0;
        QTest::newRow("choosing a window") << QStringLiteral("window") << 0;
    }
    void zoomOutGestures() {
        QFETCH(QString, gesture);
        QFETCH(int, depthAfter);
        PoolSession session;
        ChartPanel chart(&session);
        chart.resize(1000, 500);
        feedWeek(session);
        chart.setTimeWindow(ChartPanel::TimeWindow::Day);
        chart.show();
        QVERIFY(QTest::qWaitForWindowActive(&chart));
        chart.refreshNow();
        const qint64 windowFrom = chart.frame().time.fromMs;
        const qint64 windowTo = chart.frame().time.toMs;
        dragAcross(chart, 0.1, 0.9);
        dragAcross(chart, 0.2, 0.6);
        QCOMPARE(chart.zoomDepth(), 2);
        QSignalSpy zoomChanged(&chart, &ChartPanel::zoomChanged);
        QWidget *viewport = viewportOf(chart);
        if (gesture == QLatin1String("esc")) {
            // Esc belongs to the chart: it zooms out once the chart has the focus.
            QTest::mouseClick(viewport, Qt::LeftButton, {}, plotCentre(chart));
            QTRY_VERIFY(chart.chartView()->hasFocus());
            QTest::keyClick(chart.chartView(), Qt::Key_Escape);
        } else if (gesture == QLatin1String("right")) {
            QTest::mouseClick(viewport, Qt::RightButton, {}, plotCentre(chart));
        } else if (gesture == QLatin1String("double")) {
            QTest::mouseDClick(viewport, Qt::LeftButton, {}, plotCentre(chart));
        } else if (gesture == QLatin1String("ctrl0")) {
            QTest::keyClick(&chart, Qt::Key_0, Qt::ControlModifier);
        } else {
            chart.setTimeWindow(ChartPanel::TimeWindow::Week);
        }
        QCOMPARE(chart.zoomDepth(), depthAfter);
        QCOMPARE(zoomChanged.count(), 1);
        if (depthAfter == 0 && gesture != QLatin1String("window")) {
            QCOMPARE(chart.frame().time.fromMs, windowFrom);
            QCOMPARE(chart.frame().time.toMs, windowTo);
        }
    }

    void narrowDragIsWidenedToTheMinimum() {
        PoolSession session;
        ChartPanel chart(&session);
        chart.resize(900, 480);
        const qint64 end = feedWeek(session);
        chart.refreshNow();
        chart.zoomTo(end - 100, end - 50);
        QVERIFY(chart.isZoomed());
        QCOMPARE_GE(chart.frame().time.spanMs(), ChartPanel::kMinimumZoomMs);
    }
};

QTEST_MAIN(TestChartZoom)
#include "tst_chartzoom.moc"
