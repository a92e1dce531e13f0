// The chart's cost with its window full: a fair pool of N members (the allocation script's order,
// RATE allocations a second; the poll timer is re-armed after each poll, so polls come a little
// more than a second apart) polled for five minutes, shown as a
// recording in the chart panel, offscreen. Then, poll by poll, the time of each redraw
// (ChartPanel::refreshNow: the frame and the Qt Charts series) and of painting the chart
// (QWidget::grab: the raster engine, as a window's repaint). Run it under valgrind's callgrind
// to count instructions per redraw and paint (docs/dashboard-cost.md).
//
// Usage: bench_chart_paint [members=1000] [mode=difference|cumulative] [polls=20] [rate=500]
//                          [screenshot.png]

#include "chart/ChartPanel.h"
#include "session/PoolSession.h"
#include "session/RecordingLoader.h"

#include <cstdio>

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QRandomGenerator>

using namespace poolscope;

namespace {

QByteArray nameOf(qint64 i) {
    return "m" + QByteArray::number(i).rightJustified(7, '0');
}

// The pool after `allocations` allocations of the script (the lowest count, ties by name): a
// snapshot in allocation order.
QList<PoolMember> poolAfter(qint64 members, qint64 allocations) {
    const qint64 round = allocations / members;
    const qint64 ahead = allocations % members; // the first `ahead` names have one more
    QList<PoolMember> snapshot;
    snapshot.reserve(members);
    for (qint64 i = ahead; i < members; ++i)
        snapshot.append({nameOf(i), double(round)});
    for (qint64 i = 0; i < ahead; ++i)
        snapshot.append({nameOf(i), double(round + 1)});
    return snapshot;
}

// Records a poll as PoolSession does: every member of a pool the history can hold, else its
// ends and the band from the poll's statistics.
void record(PoolHistory &history, qint64 timeMs, const QList<PoolMember> &snapshot) {
    if (snapshot.size() <= history.maxTrackedMembers()) {
        history.record(timeMs, snapshot);
        return;
    }
    QList<PoolMember> ends = snapshot.mid(0, 10) + snapshot.mid(snapshot.size() - 10);
    history.record(timeMs, ends);
    double total = 0;
    for (const PoolMember &member : snapshot)
        total += member.count;
    history.recordBand(timeMs, snapshot.constFirst().count, snapshot[snapshot.size() / 2].count,
                       snapshot.constLast().count, total);
}

} // namespace

int main(int argc, char **argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qint64 members = args.size() > 1 ? args[1].toLongLong() : 1000;
    const bool difference = args.size() <= 2 || args[2] != QLatin1String("cumulative");
    const int polls = args.size() > 3 ? args[3].toInt() : 20;
    const int rate = args.size() > 4 ? args[4].toInt() : 500;
    const QString shot = args.size() > 5 ? args[5] : QString();

    QRandomGenerator random(42);
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - 300 * 1000;
    // The allocations made by the time of poll s: polls 1.004 s apart, the workers' rate a
    // little uneven.
    const auto madeBy = [&](qint64 s) {
        return qint64(double(rate) * 1.004 * double(s)) + qint64(random.bounded(rate / 25 + 1));
    };
    qint64 allocations = 0;
    LoadedRecording loaded;
    loaded.path = QStringLiteral("bench");
    loaded.info.poolKey = "bench";
    loaded.history = std::make_unique<PoolHistory>();
    for (int s = 0; s <= 300; ++s) {
        allocations = madeBy(s);
        record(*loaded.history, start + s * 1000, poolAfter(members, allocations));
    }
    loaded.lastCounts = poolAfter(members, allocations);
    loaded.lastMemberCount = members;
    loaded.range.fromMs = start;
    loaded.range.toMs = start + 300 * 1000;

    PoolSession session;
    session.showRecording(std::move(loaded));
    ChartPanel chart(&session);
    chart.setValueMode(difference ? ChartPanel::ValueMode::DifferenceFromMedian
                                  : ChartPanel::ValueMode::Cumulative);
    chart.setTimeWindow(ChartPanel::TimeWindow::FiveMinutes);
    chart.resize(820, 420);
    chart.refreshNow();
    chart.grabChart(); // lays the chart out
    chart.refreshNow();
    chart.grabChart();

    double refreshMs = 0;
    double paintMs = 0;
    QElapsedTimer clock;
    for (int i = 1; i <= polls; ++i) {
        allocations = madeBy(300 + i);
        record(session.history(), start + (300 + i) * 1000, poolAfter(members, allocations));
        clock.start();
        chart.refreshNow();
        refreshMs += double(clock.nsecsElapsed()) / 1e6;
        clock.start();
        const QPixmap painted = chart.grab();
        paintMs += double(clock.nsecsElapsed()) / 1e6;
        if (i == polls && !shot.isEmpty())
            painted.save(shot);
    }
    qsizetype points = 0;
    for (const ChartLine &line : chart.frame().lines)
        points += line.points.size();
    std::printf("| %lld | %s | %lld lines, %lld points, %lld band runs | %.2f | %.2f |\n", members,
                difference ? "difference" : "cumulative", qint64(chart.frame().lines.size()),
                qint64(points), qint64(chart.frame().band.size()), refreshMs / polls,
                paintMs / polls);
    return 0;
}
