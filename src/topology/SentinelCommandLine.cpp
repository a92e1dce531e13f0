#include "topology/SentinelCommandLine.h"

namespace poolscope::topology {

namespace {
const QString kPassword = QStringLiteral("sentinel-password");
const char *const kPasswordVariable = "REDIS_SENTINEL_PASSWORD";
} // namespace

QList<QCommandLineOption> sentinelCommandLineOptions() {
    return {
        {kPassword,
         QStringLiteral("Sentinel: the password of the sentinels of a redis+sentinel:// URL (the "
                        "URL's own password is the primary's). $REDIS_SENTINEL_PASSWORD keeps it "
                        "off the process list."),
         QStringLiteral("PASSWORD")},
    };
}

QString applySentinelCommandLine(const QCommandLineParser &parser, Endpoint &endpoint) {
    const bool sentinel = endpoint.topology == Endpoint::Topology::Sentinel;
    if (parser.isSet(kPassword)) {
        if (!sentinel)
            return QStringLiteral("--%1 needs a redis+sentinel:// URL").arg(kPassword);
        endpoint.sentinelPassword = parser.value(kPassword);
        return {};
    }
    if (sentinel)
        endpoint.sentinelPassword = qEnvironmentVariable(kPasswordVariable);
    return {};
}

} // namespace poolscope::topology
