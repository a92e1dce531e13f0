// Prints the longest command in SLOWLOG sent by clients with a given name, in milliseconds,
// or "< threshold" when none was logged. Used by observer_cost.sh.
// Usage: bench_slowlog_max URL CLIENT_NAME THRESHOLD_US
#include "base/RedisError.h"
#include "client/RedisConnection.h"

#include <cstdio>

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
        QByteArray longestCommand;
        for (const RedisReply &entry : log.elements) {
            // id, unix time, microseconds, argv, client address, client name
            if (entry.elements.value(5).text != argv[2])
                continue;
            if (entry.elements.value(2).integer > longest) {
                longest = entry.elements.value(2).integer;
                longestCommand = entry.elements.value(3).elements.value(0).text;
            }
        }
        if (longest < 0)
            std::printf("< %.2f ms\n", std::atof(argv[3]) / 1000.0);
        else
            std::printf("%.2f ms (%s)\n", double(longest) / 1000.0, longestCommand.constData());
    } catch (const RedisError &e) {
        std::fprintf(stderr, "%s\n", qPrintable(e.message()));
        return 1;
    }
    return 0;
}
