#pragma once

#include "endpoint/Endpoint.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>

namespace poolscope::topology {

// The Sentinel option of poolscope-cli and the dashboard, declared and read in one place:
// --sentinel-password PASSWORD, or (kept off the process list) $REDIS_SENTINEL_PASSWORD.
// The password never appears in a URL, log line or window title (Endpoint leaves it out).
QList<QCommandLineOption> sentinelCommandLineOptions();

// Sets endpoint.sentinelPassword from the option, else from the environment. Returns a usage
// error, or an empty string: the option without a redis+sentinel:// URL.
QString applySentinelCommandLine(const QCommandLineParser &parser, Endpoint &endpoint);

} // namespace poolscope::topology
