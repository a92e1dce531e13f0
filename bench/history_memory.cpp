// History memory: feeds the history store 1,000 members for 24 simulated hours at one poll a
// second, the way the dashboard does, then reports the bytes the store holds and the process's
// peak RSS beside what a naive store of every sample would need.
#include "history/PoolHistory.h"

#include <cstdio>

#include <QCoreApplication>
#include <QElapsedTimer>

#include <sys/resource.h>

using namespace poolscope;

namespace {

double peakRssMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

} // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    const int members = argc > 1 ? std::atoi(argv[1]) : 1000;
    const qint64 seconds = argc > 2 ? std::atoll(argv[2]) : 24 * 3600;
    const double rssBefore = peakRssMiB();

    QList<PoolMember> poll;
    for (int i = 0; i < members; ++i)
        poll.append(
            {"198.51.100." + QByteArray::number(i % 250) + ':' + QByteArray::number(1000 + i), 0});

    PoolHistory history;
    const qint64 start = 1'700'000'000'000;
    QElapsedTimer timer;
    timer.start();
    for (qint64 second = 0; second < seconds; ++second) {
        // Steady load spread over the pool: each second a few members get allocations.
        for (int k = 0; k < 40; ++k)
            poll[int((second * 40 + k) % members)].count += 1;
        history.record(start + second * 1000, poll);
    }
    const double feedSeconds = timer.elapsed() / 1000.0;
    const double heldMiB = double(history.bytesHeld()) / (1024.0 * 1024.0);
    // A naive store: every sample of every member as (qint64 time, double count).
    const double naiveMiB = double(members) * double(seconds) * 16.0 / (1024.0 * 1024.0);

    std::printf(
        "| members | simulated | store holds | peak RSS (process) | naive store | feed time |\n");
    std::printf("|---|---|---|---|---|---|\n");
    std::printf(
        "| %d | %.1f h at 1 s | %.1f MiB | %.1f MiB (%.1f at start) | %.0f MiB | %.1f s |\n",
        members, double(seconds) / 3600.0, heldMiB, peakRssMiB(), rssBefore, naiveMiB, feedSeconds);
    std::printf("target: store under 32 MiB: %s\n", heldMiB < 32.0 ? "met" : "MISSED");
    // A quick read back, so the numbers describe a store that still answers.
    const auto series = history.series(poll[0].member, start, start + seconds * 1000);
    std::printf("read back: %lld points for one member over the whole range\n",
                static_cast<long long>(series.size()));
    return series.isEmpty() ? 1 : 0;
}
