#pragma once

#include "endpoint/ConnectionOptions.h"
#include "endpoint/Endpoint.h"
#include "redis/NodeConnection.h"
#include "topology/ClusterSlotMap.h"

#include <chrono>
#include <map>
#include <memory>

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope::topology {

// Redirections met, for reports: each is one command that had to be sent again.
struct ClusterCounters {
    qint64 moved = 0;    // MOVED: the slot has a new owner; the map was updated
    qint64 ask = 0;      // ASK: the key is being migrated; ASKING + the command to the target
    qint64 tryAgain = 0; // TRYAGAIN: a multi-key command mid-migration; retried after a pause
};

// A client of a Redis Cluster over blocking connections, one per node, opened when first
// needed. Each command goes to the primary owning its key's slot (keyless commands to the node
// first connected); MOVED updates the map and retries at the new owner; ASK sends ASKING and the
// one command to the named node and leaves the map alone; TRYAGAIN retries after a short,
// growing pause. CLUSTERDOWN and CROSSSLOT throw a RedisError saying what they mean. A
// redirected command never ran, so sending it again cannot run it twice.
//
// Not thread-safe, like NodeConnection: each thread has its own.
class ClusterRouter {
public:
    // Takes over `first`, a handshaken connection to a cluster node, and reads the slot map
    // through it. Other nodes are reached with `endpoint`'s credentials and TLS settings.
    ClusterRouter(const Endpoint &endpoint, const ConnectionOptions &options,
                  std::unique_ptr<NodeConnection> first);
    ~ClusterRouter();
    ClusterRouter(const ClusterRouter &) = delete;
    ClusterRouter &operator=(const ClusterRouter &) = delete;

    // Connects to the first of a Cluster endpoint's seeds that answers (for an endpoint without
    // seeds, or a Direct one, to its host:port). Throws the last seed's RedisError when none does.
    static std::unique_ptr<NodeConnection> openFirstNode(const Endpoint &endpoint,
                                                         const ConnectionOptions &options);

    // A connection to exactly the primary that owns `key`, given `first`, a connection to a node
    // of the cluster: `first` itself when it owns the key or is no cluster node at all. Other
    // nodes are reached with `endpoint`'s credentials and TLS settings. Throws RedisError.
    static std::unique_ptr<NodeConnection> openOwnerOf(const QByteArray &key,
                                                       std::unique_ptr<NodeConnection> first,
                                                       const Endpoint &endpoint,
                                                       const ConnectionOptions &options);

    RedisReply command(const RedisCommand &argv);
    // Commands are grouped by node, pipelined per node, and answered in the caller's order;
    // a redirected one is then followed on its own.
    QList<RedisReply> pipeline(const QList<RedisCommand> &commands);

    // The connection to one node (opened now if needed), e.g. to scan each primary's keys.
    NodeConnection &node(const NodeAddress &address);
    NodeAddress ownerOf(const QByteArray &key) const;
    QList<NodeAddress> primaries() const { return m_map.primaries(); }
    const ClusterCounters &counters() const { return m_counters; }
    // Reads the slot map again (after a failover or a reshard).
    void refreshMap();

private:
    RedisReply follow(const RedisCommand &argv, RedisReply reply, NodeAddress from);
    NodeAddress targetOf(const RedisCommand &argv) const;
    // Runs `send` on `address`'s connection; drops the connection if it broke.
    template <typename Send> auto onNode(const NodeAddress &address, Send send);

    Endpoint m_endpoint;
    ConnectionOptions m_options;
    ClusterSlotMap m_map;
    NodeAddress m_default;
    std::map<QString, std::unique_ptr<NodeConnection>> m_nodes; // by nodeText()
    ClusterCounters m_counters;
};

} // namespace poolscope::topology
