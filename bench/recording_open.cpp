// Opening a recording: writes what a day's recording of a pool holds (RecordingWriter, default
// tiers: the last hour at 1 s, the rest of the day at 10 s, as a recorder polling every second
// leaves it), then opens it in the offscreen dashboard the way File → Open recording… does
// (loadRecording, PoolSession::showRecording) and draws the chart over the whole day. Reports the
// time of each step. Target: opening and drawing under 1 s for 1,000 members.
//
// Usage: bench_recording_open [members=1000] [hours=24]

#include "chart/ChartPanel.h"
#include "MainWindow.h"
#include "session/PoolSession.h"
#include "session/RecordingLoader.h"
#include "recording/RecordingWriter.h"

#include <cstdio>

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

using namespace poolscope;

int main(int argc, char *argv[]) {
    QApplication app(argc, argv);
    const int members = argc > 1 ? std::atoi(argv[1]) : 1000;
    const int hours = argc > 2 ? std::atoi(argv[2]) : 24;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("day.sqlite"));

    QElapsedTimer timer;
    timer.start();
    {
        RecordingInfo info;
        info.server = QStringLiteral("redis://127.0.0.1:6379/0");
        info.poolKey = "proxies";
        QString error;
        auto writer = RecordingWriter::open(path, info, &error);
        if (!writer) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        RecordingPoll poll;
        for (int i = 0; i < members; ++i)
            poll.members.append(
                {"198.51.100." + QByteArray::number(i % 250) + ':' + QByteArray::number(1000 + i),
                 1000});
        const qint64 end = 1'700'000'000'000;
        const qint64 start = end - qint64(hours) * 3600 * 1000;
        qint64 second = 0;
        for (qint64 t = start; t <= end; t += t < end - 3600 * 1000 ? 10000 : 1000, ++second) {
            for (int k = 0; k < 40; ++k) // steady load spread over the pool
                poll.members[int((second * 40 + k) % members)].count += 1;
            poll.timeMs = t;
            poll.min = 1000;
            poll.median = 1000 + double(second * 40) / members;
            poll.max = poll.median + 1;
            poll.total = 0;
            poll.memberCount = members;
            if (!writer->appendPoll(poll, &error)) {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                return 1;
            }
        }
    }
    const double writeSeconds = timer.elapsed() / 1000.0;

    PoolSession session;
    MainWindow window(&session);
    window.resize(1360, 860);
    window.show();
    QApplication::processEvents();

    timer.restart();
    LoadedRecording loaded = loadRecording(path, kRecordingOverviewPoints);
    const double loadMs = double(timer.nsecsElapsed()) / 1e6;
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded.error));
        return 1;
    }
    const qint64 frames = loaded.frames;
    QElapsedTimer showTimer;
    showTimer.start();
    session.showRecording(std::move(loaded));
    window.chartPanel()->setTimeWindow(ChartPanel::TimeWindow::Everything);
    window.chartPanel()->refreshNow();
    QApplication::processEvents(); // the table and panels take the last poll
    const double showMs = double(showTimer.nsecsElapsed()) / 1e6;
    const double totalMs = double(timer.nsecsElapsed()) / 1e6;
    const double drawMs = window.chartPanel()->lastRefreshMs();
    // Then every frame, as the dashboard reads it next in the background, and its redraw.
    QElapsedTimer fullTimer;
    fullTimer.start();
    LoadedRecording full = loadRecording(path);
    const double fullMs = double(fullTimer.nsecsElapsed()) / 1e6;
    session.takeFullRecording(std::move(full.history));
    window.chartPanel()->refreshNow();
    const double fullDrawMs = window.chartPanel()->lastRefreshMs();

    std::printf("| members | recording | file | overview: frames, read | show + draw (chart "
                "redraw) | **open and draw** | then every frame: frames, read (background) | "
                "redraw |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    std::printf("| %d | %d h | %.1f MiB | %lld, %.0f ms | %.0f ms (%.0f ms) | **%.0f ms** | %lld, "
                "%.0f ms | %.0f ms |\n",
                members, hours, double(QFileInfo(path).size()) / (1024.0 * 1024.0),
                static_cast<long long>(frames), loadMs, showMs, drawMs, totalMs,
                static_cast<long long>(full.frames), fullMs, fullDrawMs);
    std::printf("target: open and draw under 1 s: %s (writing the recording took %.1f s)\n",
                totalMs < 1000 ? "met" : "MISSED", writeSeconds);
    return 0;
}
