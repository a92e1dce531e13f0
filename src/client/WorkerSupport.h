#pragma once

// What the poller (PoolMonitor) and the writer (PoolCommander) share: each runs one blocking
// Redis connection on a thread of its own and reports back with queued calls.

#include "endpoint/ConnectionOptions.h"

#include <chrono>
#include <utility>

#include <QMetaObject>
#include <QObject>
#include <QString>

namespace poolscope::worker {

constexpr std::chrono::milliseconds kDefaultCommandTimeout{1000};

// The worker's blocking calls bound how long a disconnect or the destructor can wait for it, so a
// command timeout is mandatory, and connecting may take no longer than a command.
inline ConnectionOptions boundedOptions(ConnectionOptions options,
                                        const QString &defaultClientName) {
    if (options.clientName.isEmpty())
        options.clientName = defaultClientName;
    if (options.commandTimeout <= std::chrono::milliseconds::zero())
        options.commandTimeout = kDefaultCommandTimeout;
    if (options.connectTimeout <= std::chrono::milliseconds::zero() ||
        options.connectTimeout > options.commandTimeout)
        options.connectTimeout = options.commandTimeout;
    return options;
}

// Runs function in context's thread (the worker's, or the owner's for reports).
template <typename Function> void post(QObject *context, Function &&function) {
    QMetaObject::invokeMethod(context, std::forward<Function>(function), Qt::QueuedConnection);
}

} // namespace poolscope::worker
