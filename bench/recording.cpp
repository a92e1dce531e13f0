// Recording benchmark: the recording's size for MEMBERS members over 24 simulated
// hours at one poll a second (next to the in-memory history fed the same polls), the write time
// per poll at 10,000 members (and what the caller's thread pays to hand a poll to PoolRecorder),
// and opening the day's recording and reading what a chart needs.
// Usage: bench_recording DIR [members] [seconds] [wide-members] [wide-polls]
#include "history/PoolHistory.h"
#include "recording/PoolRecorder.h"
#include "recording/RecordingReader.h"
#include "recording/RecordingWriter.h"

#include <algorithm>
#include <cstdio>
#include <random>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>

using namespace poolscope;

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

double mib(qint64 bytes) {
    return double(bytes) / (1024.0 * 1024.0);
}

qint64 recordingBytes(const QString &path) {
    return QFileInfo(path).size() + QFileInfo(path + QStringLiteral("-wal")).size();
}

// A fair pool under load: every poll, `perPoll` allocations go to the least-used members.
struct SimulatedPool {
    QList<PoolMember> members;
    std::mt19937 random{42};

    explicit SimulatedPool(int size) {
        for (int i = 0; i < size; ++i)
            members.append(
                {"10." + QByteArray::number(i / 250) + '.' + QByteArray::number(i % 250) + ":8080",
                 0});
    }

    void advance(int perPoll) {
        std::uniform_int_distribution<int> pick(0, int(members.size()) - 1);
        for (int i = 0; i < perPoll; ++i)
            members[pick(random)].count += 1;
    }

    RecordingPoll poll(qint64 timeMs) const {
        RecordingPoll poll;
        poll.timeMs = timeMs;
        poll.members = members;
        double low = members.first().count;
        double high = low;
        double total = 0;
        for (const PoolMember &member : members) {
            low = std::min(low, member.count);
            high = std::max(high, member.count);
            total += member.count;
        }
        poll.min = low;
        poll.max = high;
        poll.median = (low + high) / 2;
        poll.total = total;
        poll.memberCount = members.size();
        return poll;
    }
};

struct Timing {
    double medianMs = 0;
    double p99Ms = 0;
    double maxMs = 0;
    double meanMs = 0;
};

Timing summarize(std::vector<double> samples) {
    Timing timing;
    if (samples.empty())
        return timing;
    std::sort(samples.begin(), samples.end());
    timing.medianMs = samples[samples.size() / 2];
    timing.p99Ms = samples[std::min(samples.size() - 1, samples.size() * 99 / 100)];
    timing.maxMs = samples.back();
    double sum = 0;
    for (const double sample : samples)
        sum += sample;
    timing.meanMs = sum / double(samples.size());
    return timing;
}

void printTiming(const char *what, const Timing &timing) {
    std::printf("| %s | %.3f | %.3f | %.3f | %.3f |\n", what, timing.medianMs, timing.p99Ms,
                timing.maxMs, timing.meanMs);
}

} // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_recording DIR [members] [seconds] [wide-members] "
                             "[wide-polls]\n");
        return 2;
    }
    const QDir dir(QString::fromLocal8Bit(argv[1]));
    const int members = argc > 2 ? std::atoi(argv[2]) : 1000;
    const qint64 seconds = argc > 3 ? std::atoll(argv[3]) : 24 * 3600;
    const int wideMembers = argc > 4 ? std::atoi(argv[4]) : 10000;
    const int widePolls = argc > 5 ? std::atoi(argv[5]) : 600;
    QString error;
    RecordingInfo info;
    info.server = QStringLiteral("redis://127.0.0.1:6379/0");
    info.poolKey = "proxies";

    // 1. A day at one poll a second, with the in-memory history fed the same polls.
    const QString dayPath = dir.filePath(QStringLiteral("day.sqlite"));
    QFile::remove(dayPath);
    std::vector<double> dayWrites;
    qint64 historyBytes = 0;
    {
        auto writer = RecordingWriter::open(dayPath, info, &error);
        if (!writer) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        PoolHistory history;
        SimulatedPool pool(members);
        QElapsedTimer timer;
        for (qint64 second = 0; second < seconds; ++second) {
            pool.advance(members); // about one allocation per member and second
            const RecordingPoll poll = pool.poll(kStart + second * 1000);
            timer.start();
            if (!writer->appendPoll(poll, &error)) {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                return 1;
            }
            dayWrites.push_back(double(timer.nsecsElapsed()) / 1e6);
            history.record(poll.timeMs, poll.members);
        }
        historyBytes = history.bytesHeld();
        std::printf("\nrecording size: %d members, %lld s at 1 s (simulated)\n\n", members,
                    seconds);
        std::printf("| store | size (MiB) |\n|---|---|\n");
        std::printf("| recording file while recording (database + WAL) | %.1f |\n",
                    mib(recordingBytes(dayPath)));
    }
    std::printf("| recording file after close | %.1f |\n", mib(recordingBytes(dayPath)));
    std::printf("| in-memory history (PoolHistory::bytesHeld), same polls | %.1f |\n",
                mib(historyBytes));

    // 2. Write time per poll at wideMembers members.
    const QString widePath = dir.filePath(QStringLiteral("wide.sqlite"));
    QFile::remove(widePath);
    std::vector<double> wideWrites;
    std::vector<double> handOff;
    {
        auto writer = RecordingWriter::open(widePath, info, &error);
        if (!writer) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        SimulatedPool pool(wideMembers);
        QElapsedTimer timer;
        for (int i = 0; i < widePolls; ++i) {
            pool.advance(wideMembers);
            const RecordingPoll poll = pool.poll(kStart + i * 1000LL);
            timer.start();
            writer->appendPoll(poll, &error);
            wideWrites.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
    }
    {
        // What the dashboard's thread pays: PoolRecorder copies the poll and queues it.
        QFile::remove(widePath);
        PoolRecorder recorder;
        if (!recorder.open(widePath, info, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        QSignalSpy written(&recorder, &PoolRecorder::pollWritten);
        SimulatedPool pool(wideMembers);
        QElapsedTimer timer;
        for (int i = 0; i < std::min(widePolls, 100); ++i) {
            pool.advance(wideMembers);
            const RecordingPoll poll = pool.poll(kStart + i * 1000LL);
            timer.start();
            recorder.recordPoll(poll);
            handOff.push_back(double(timer.nsecsElapsed()) / 1e6);
            written.wait(5000); // one at a time, as polls arrive a second apart
        }
        recorder.close();
    }
    std::printf("\nwrite time per poll (ms)\n\n| poll | median | p99 | max | mean |\n"
                "|---|---|---|---|---|\n");
    printTiming(qPrintable(QStringLiteral("%1 members, recorder thread "
                                          "(RecordingWriter::appendPoll)")
                               .arg(members)),
                summarize(dayWrites));
    printTiming(qPrintable(QStringLiteral("%1 members, recorder thread "
                                          "(RecordingWriter::appendPoll)")
                               .arg(wideMembers)),
                summarize(wideWrites));
    printTiming(qPrintable(QStringLiteral("%1 members, caller's thread "
                                          "(PoolRecorder::recordPoll)")
                               .arg(wideMembers)),
                summarize(handOff));

    // 3. Open the day and read what a chart needs (the band, 10 members at the ends, and the
    // total, about 2,000 points each), then every member.
    QElapsedTimer timer;
    timer.start();
    auto reader = RecordingReader::open(dayPath, &error);
    if (!reader) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const QList<QByteArray> names = reader->members();
    const RecordingTimeRange range = reader->timeRange();
    const double openMs = double(timer.nsecsElapsed()) / 1e6;
    timer.start();
    const auto band = reader->band(range.fromMs, range.toMs, 2000);
    const auto total = reader->totalSeries(range.fromMs, range.toMs, 2000);
    QList<QByteArray> ends = names.mid(0, 5) + names.mid(names.size() - 5);
    const auto endSeries = reader->series(ends, range.fromMs, range.toMs, 2000);
    const auto events = reader->events(range.fromMs, range.toMs);
    const double chartMs = double(timer.nsecsElapsed()) / 1e6;
    // The same at 10 s (the middle tier: 8,640 points a series), for a chart that decimates.
    timer.start();
    const auto fineBand = reader->band(range.fromMs, range.toMs, 10000);
    const auto fineEnds = reader->series(ends, range.fromMs, range.toMs, 10000);
    const double fineChartMs = double(timer.nsecsElapsed()) / 1e6;
    timer.start();
    const auto all = reader->series(names, range.fromMs, range.toMs, 2000);
    const double allMs = double(timer.nsecsElapsed()) / 1e6;
    qint64 allPoints = 0;
    for (const auto &points : all)
        allPoints += points.size();
    std::printf("\nopening the day's recording (%d members) and reading it (ms)\n\n"
                "| step | time (ms) | points |\n|---|---|---|\n",
                members);
    std::printf("| open, members, time range | %.1f | %lld members |\n", openMs,
                qint64(names.size()));
    std::printf("| what a chart needs: band + total + 10 members + events (tier %d) | %.1f | "
                "%lld per series |\n",
                reader->tierFor(range.fromMs, range.toMs, 2000), chartMs, qint64(band.size()));
    std::printf("| the same at 10 s: band + 10 members (tier %d) | %.1f | %lld per series |\n",
                reader->tierFor(range.fromMs, range.toMs, 10000), fineChartMs,
                qint64(fineBand.size()));
    std::printf("| every member's series (tier %d) | %.1f | %lld in all |\n",
                reader->tierFor(range.fromMs, range.toMs, 2000), allMs, allPoints);
    std::printf("| total to a drawn-ready chart | %.1f | |\n", openMs + chartMs);
    Q_UNUSED(total);
    Q_UNUSED(endSeries);
    Q_UNUSED(fineEnds);
    Q_UNUSED(events);
    return 0;
}
