#pragma once

#include "endpoint/Endpoint.h"
#include "redis/NodeConnection.h"
#include "topology/NodeText.h"

#include <chrono>
#include <memory>

#include <QList>
#include <QString>

namespace poolscope::topology {

// The guidelines ask for a short timeout per sentinel: a dead one must not delay the next. The
// resolver and the +switch-master watcher both use it.
inline constexpr std::chrono::milliseconds kSentinelTimeout{500};

// The primary of a Sentinel-managed master, and the sentinel that named it.
struct SentinelAnswer {
    Endpoint primary;     // Direct endpoint: the primary's host/port with the URL's user, password,
                          // database, TLS and SSH settings
    NodeAddress sentinel; // the sentinel that named it
};

// Sentinel clients guidelines, step 1 and 2: asks the sentinels in their preferred order (each
// with a short timeout), moves the first that answers to the front of that order (process-wide,
// per seed list and master name), and returns what it says with SENTINEL
// get-master-addr-by-name. Sentinels are reached through the normal connection path (TLS, SSH),
// with Endpoint::sentinelPassword. Throws RedisError:
//   Connection      "no sentinel reachable (tried a, b, c)"
//   Server          "no sentinel knows master NAME (asked a, b)"
//   Authentication  every sentinel that answered refused the sentinel password
SentinelAnswer askSentinels(const Endpoint &endpoint, const ConnectionOptions &options);

// Step 3: resolves, connects to the primary and checks that ROLE says master; a primary that
// says otherwise (a stale answer during a failover) is dropped and the sentinels are asked again,
// a bounded number of times. The connection's endpoint() is the primary. The client layer
// (src/client) calls it on every open of a Sentinel endpoint, so every reconnect resolves again.
struct SentinelPrimary {
    std::unique_ptr<NodeConnection> connection;
    NodeAddress sentinel; // the sentinel that named it
};
SentinelPrimary openSentinelPrimary(const Endpoint &endpoint, const ConnectionOptions &options);

// The sentinels in the order they will be asked next (the last one that answered first).
QList<NodeAddress> sentinelOrder(const Endpoint &endpoint);

// A Direct endpoint for one sentinel of `endpoint`: its TLS/SSH settings, the sentinel password,
// no user, database 0.
Endpoint sentinelNodeEndpoint(const Endpoint &endpoint, const NodeAddress &sentinel);

} // namespace poolscope::topology
