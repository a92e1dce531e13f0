// Prints the longest command in SLOWLOG sent by clients with a given name, in milliseconds,
// or "< threshold" when none was logged, then the microseconds and commands logged for that name
// ("total_us=N commands=M": with a threshold of 0 and a long enough log, that client's server
// time) and the 99th percentile of those commands' times ("p99_us=N"). Used by observer_cost.sh,
// exporter_scrape.sh and overview_cost.sh. Usage: bench_slowlog_max URL CLIENT_NAME THRESHOLD_US
#include "base/RedisError.h"
#include "client/RedisConnection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <QCoreApplication>

using namespace poolscope;

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    if (argc != 4) {
        std::fprintf(stderr, "usage: bench_slowlog_max URL CLIENT_NAME THRESHOLD_US\n");
        return 2;
    }
    const EndpointParseResult endpoint = parseEndpoint(QString::fromLocal8Bit(argv[1]));
    if (!endpoint.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(endpoint.error));
        return 2;
    }
    try {
        auto connection = RedisConnection::open(*endpoint.endpoint);
        const RedisReply log = connection->commandOrThrow({"SLOWLOG", "GET", "-1"});
        long long longest = -1;
        long long total = 0;
        long long commands = 0;
        std::vector<long long> times;
        QByteArray longestCommand;
        for (const RedisReply &entry : log.elements) {
            // id, unix time, microseconds, argv, client address, client name
            if (entry.elements.value(5).text != argv[2])
                continue;
            total += entry.elements.value(2).integer;
            ++commands;
            times.push_back(entry.elements.value(2).integer);
            if (entry.elements.value(2).integer > longest) {
                longest = entry.elements.value(2).integer;
                longestCommand = entry.elements.value(3).elements.value(0).text;
            }
        }
        if (longest < 0)
            std::printf("< %.2f ms", std::atof(argv[3]) / 1000.0);
        else
            std::printf("%.2f ms (%s)", double(longest) / 1000.0, longestCommand.constData());
        std::sort(times.begin(), times.end());
        const long long p99 =
            times.empty() ? 0 : times[size_t(std::ceil(0.99 * double(times.size()))) - 1];
        std::printf(" total_us=%lld commands=%lld p99_us=%lld\n", total, commands, p99);
    } catch (const RedisError &e) {
        std::fprintf(stderr, "%s\n", qPrintable(e.message()));
        return 1;
    }
    return 0;
}
