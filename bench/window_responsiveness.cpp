// Window responsiveness: the real dashboard (MainWindow over a PoolSession) polls a pool at 1 s
// under steady allocation load, offscreen, with pinned members so the chart draws 20 series plus
// the band. Measures how late a 10 ms single-shot QTimer fires on the GUI thread (event-loop
// stall), the time of each chart update (ChartPanel::lastRefreshMs), the time the panels take
// to apply each poll and the time of each table update (MembersPanel::lastRefreshMs). Prints a
// markdown table; exits non-zero only when it could not run.
//
// Usage: bench_window_responsiveness [seconds=60] [members=10000] [rate=2000] [workers=2]
//                                    [sort=member|count]

#include "chart/ChartPanel.h"
#include "MainWindow.h"
#include "base/RedisError.h"
#include "client/RedisConnection.h"
#include "load/LoadRunner.h"
#include "members/MembersPanel.h"
#include "members/PoolTableModel.h"
#include "server/RedisServerProcess.h"
#include "session/PoolSession.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include <QApplication>
#include <QTableView>
#include <QElapsedTimer>
#include <QTimer>

using namespace poolscope;
using namespace std::chrono_literals;

namespace {

struct Distribution {
    QList<double> values;
    double percentile(double fraction) const {
        if (values.isEmpty())
            return 0;
        QList<double> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        const qsizetype index =
            std::min<qsizetype>(sorted.size() - 1, qsizetype(fraction * double(sorted.size())));
        return sorted[index];
    }
    double max() const {
        return values.isEmpty() ? 0 : *std::max_element(values.cbegin(), values.cend());
    }
};

QByteArray memberAt(int i) {
    return "10.0." + QByteArray::number(i / 250) + '.' + QByteArray::number(i % 250) + ":8080";
}

int fail(const QString &message) {
    std::fprintf(stderr, "window_responsiveness: %s\n", qPrintable(message));
    return 2;
}

// The offscreen platform warns on every window it shows; the table is what this prints.
void dropOffscreenNoise(QtMsgType type, const QMessageLogContext &, const QString &message) {
    if (message.contains(QStringLiteral("propagateSizeHints")))
        return;
    std::fprintf(stderr, "%s%s\n", type == QtWarningMsg ? "warning: " : "", qPrintable(message));
}

} // namespace

int main(int argc, char **argv) {
    qInstallMessageHandler(dropOffscreenNoise);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("poolscope-bench"));
    QCoreApplication::setApplicationName(QStringLiteral("window-responsiveness"));
    const QStringList args = app.arguments();
    const int seconds = args.size() > 1 ? args[1].toInt() : 60;
    const int members = args.size() > 2 ? args[2].toInt() : 10000;
    const double rate = args.size() > 3 ? args[3].toDouble() : 2000;
    const int workers = args.size() > 4 ? args[4].toInt() : 2;
    const QString sortColumn = args.size() > 5 ? args[5] : QStringLiteral("member");
    const bool sortByCount = sortColumn == QStringLiteral("count");
    if (seconds <= 0 || members <= 20 || rate < 0 || workers <= 0 ||
        (!sortByCount && sortColumn != QStringLiteral("member")))
        return fail(QStringLiteral("usage: bench_window_responsiveness [seconds] [members > 20] "
                                   "[rate] [workers] [member|count]"));

    RedisServerProcess server;
    QString error;
    if (!server.start(&error))
        return fail(QStringLiteral("cannot start redis-server: ") + error);
    const QByteArray key = "bench-pool";
    try {
        auto admin = RedisConnection::open(server.endpoint());
        int batches = 0;
        for (int batch = 0; batch < members; batch += 1000, ++batches) {
            RedisCommand zadd{"ZADD", key};
            for (int i = batch; i < std::min(members, batch + 1000); ++i)
                zadd << "0" << memberAt(i);
            admin->append(zadd);
        }
        for (int i = 0; i < batches; ++i)
            if (admin->readReply().isError())
                return fail(QStringLiteral("ZADD failed"));
    } catch (const RedisError &e) {
        return fail(e.message());
    }

    LoadRunner load;
    LoadSpec spec;
    spec.endpoint = server.endpoint();
    spec.poolKey = key;
    spec.workers = workers;
    spec.ratePerSecond = rate;
    spec.duration = std::chrono::milliseconds(qint64(seconds + 60) * 1000);
    if (!load.start(spec))
        return fail(QStringLiteral("cannot start the load"));
    LoadReport loadReport;
    bool loadFinished = false;
    QObject::connect(&load, &LoadRunner::finished, &app, [&](const LoadReport &report) {
        loadReport = report;
        loadFinished = true;
    });

    PoolSession session;
    // Panel time per poll: from the first to the last handler of observationApplied.
    QElapsedTimer applyClock;
    Distribution apply;
    QObject::connect(&session, &PoolSession::observationApplied, &app,
                     [&applyClock] { applyClock.start(); });
    MainWindow window(&session);
    QObject::connect(&session, &PoolSession::observationApplied, &app,
                     [&] { apply.values.append(double(applyClock.nsecsElapsed()) / 1e6); });
    window.resize(1360, 860);
    window.show();
    session.setPollInterval(1s);
    // 10 pinned + top 5 + bottom 5 = 20 member series, plus the band and the median.
    QList<QByteArray> pinned;
    for (int i = 0; i < 10; ++i)
        pinned.append(memberAt(i * (members / 10) + 3));
    session.pin(pinned);
    // Sorted by count, the table re-sorts every row on every poll; by member (the default) not.
    if (sortByCount)
        window.membersPanel()->tableView()->sortByColumn(PoolTableModel::Count,
                                                         Qt::DescendingOrder);

    Distribution chart;
    Distribution table;
    qsizetype seriesCount = 0;
    bool measuring = false;
    QObject::connect(window.membersPanel(), &MembersPanel::refreshed, &app, [&] {
        if (measuring)
            table.values.append(window.membersPanel()->lastRefreshMs());
    });
    QObject::connect(window.chartPanel(), &ChartPanel::refreshed, &app, [&] {
        if (measuring) {
            chart.values.append(window.chartPanel()->lastRefreshMs());
            seriesCount = std::max(seriesCount, window.chartPanel()->frame().members().size());
        }
    });

    session.connectTo(server.endpoint(), key);
    // Warm up: connected and a few polls in, so start-up costs are not counted.
    QElapsedTimer warmup;
    warmup.start();
    while (apply.values.size() < 3 && warmup.elapsed() < 20000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 100);
    if (apply.values.size() < 3)
        return fail(QStringLiteral("the dashboard saw no polls"));
    apply.values.clear();

    // The probe: a 10 ms single-shot timer, re-armed on every firing; lateness = how much later
    // than 10 ms after arming it fired.
    Distribution lateness;
    QTimer probe;
    probe.setSingleShot(true);
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(10);
    QElapsedTimer armed;
    QObject::connect(&probe, &QTimer::timeout, &app, [&] {
        lateness.values.append(std::max(0.0, double(armed.nsecsElapsed()) / 1e6 - 10.0));
        armed.start();
        probe.start();
    });
    measuring = true;
    armed.start();
    probe.start();
    QTimer::singleShot(seconds * 1000, &app, [&] {
        probe.stop();
        measuring = false;
        QCoreApplication::exit(0);
    });
    QApplication::exec();
    const bool bandShown = window.chartPanel()->frame().bandShown;
    load.cancel();
    QElapsedTimer wait;
    wait.start();
    while (!loadFinished && wait.elapsed() < 10000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 100);

    std::printf("### Window responsiveness (%d s, %d members, load %.0f/s over %d workers, poll "
                "1 s, table sorted by %s, offscreen)\n\n",
                seconds, members, rate, workers, qPrintable(sortColumn));
    std::printf("| measure | samples | p50 ms | p99 ms | max ms | target |\n");
    std::printf("|---|---|---|---|---|---|\n");
    std::printf("| 10 ms timer lateness (event-loop stall) | %lld | %.2f | %.2f | %.2f | p99 < 16, "
                "max < 50 |\n",
                qint64(lateness.values.size()), lateness.percentile(0.5), lateness.percentile(0.99),
                lateness.max());
    std::printf("| chart update per tick (%lld series%s) | %lld | %.2f | %.2f | %.2f | – |\n",
                qint64(seriesCount), bandShown ? " + band" : "", qint64(chart.values.size()),
                chart.percentile(0.5), chart.percentile(0.99), chart.max());
    std::printf(
        "| panels applying one poll (fairness, status, actions) | %lld | %.2f | %.2f | %.2f | "
        "– |\n",
        qint64(apply.values.size()), apply.percentile(0.5), apply.percentile(0.99), apply.max());
    std::printf("| table update per poll (%d rows, own event) | %lld | %.2f | %.2f | %.2f | – |\n",
                members, qint64(table.values.size()), table.percentile(0.5), table.percentile(0.99),
                table.max());
    std::printf("\nload: %lld allocations (%.0f/s) while measured; mode: %s\n",
                loadReport.allocated, loadReport.ratePerSecond(),
                session.latestObservation() ? qPrintable(session.latestObservation()->mode) : "?");
    const bool met = lateness.percentile(0.99) < 16 && lateness.max() < 50;
    std::printf("targets %s\n", met ? "met" : "MISSED");
    return 0;
}
