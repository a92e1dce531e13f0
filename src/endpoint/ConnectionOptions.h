#pragma once

#include "base/RedisError.h"

#include <chrono>
#include <functional>

#include <QString>

namespace poolscope {

// How a connection is made and behaves, whatever the endpoint: timeouts, the name it gives
// itself, whether it may route by key, and how its errors are worded.
struct ConnectionOptions {
    std::chrono::milliseconds connectTimeout{2000};
    std::chrono::milliseconds commandTimeout{1000};
    // Sent as CLIENT SETNAME so operators can tell our connections apart ("poolscope-poller").
    QString clientName;
    // Talk to exactly this node even when it is a Redis Cluster node (the cluster router's own
    // node connections, load workers). Otherwise a cluster node found behind a plain URL makes
    // the connection route every command to its key's owner (src/client).
    bool singleNode = false;
    // How the errors of this connection's owner are told to a person; empty: message(), in the
    // command line's words. A dashboard words the remedy by its own fields and buttons (called on
    // the owner's thread: a pure function).
    std::function<QString(const RedisError &)> describeError;
};

inline QString describe(const ConnectionOptions &options, const RedisError &error) {
    return options.describeError ? options.describeError(error) : error.message();
}

} // namespace poolscope
