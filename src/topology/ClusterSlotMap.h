#pragma once

#include "endpoint/Endpoint.h"
#include "redis/NodeConnection.h"
#include "redis/RedisReply.h"
#include "topology/NodeText.h"

#include <optional>
#include <vector>

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope::topology {

// A MOVED or ASK error reply: "MOVED 3999 127.0.0.1:7002".
struct ClusterRedirect {
    enum class Kind { Moved, Ask };
    Kind kind = Kind::Moved;
    int slot = 0;
    NodeAddress node;
};
// nullopt for any other reply. An empty host ("MOVED 3999 :7002", a node that does not know its
// address) means the host of the node that answered: `answeredBy`.
std::optional<ClusterRedirect> parseRedirect(const RedisReply &reply,
                                             const NodeAddress &answeredBy = {});

// The key a command is routed by: its first key, or nullopt for a command without keys (INFO,
// SCAN, SCRIPT LOAD, PING...) and scripts declaring none.
std::optional<QByteArray> routingKey(const RedisCommand &argv);

// The endpoint of one node of a cluster: credentials and TLS from `cluster`, topology Direct.
Endpoint nodeEndpoint(const Endpoint &cluster, const NodeAddress &node);

// Which primary owns each of the 16384 hash slots.
class ClusterSlotMap {
public:
    static constexpr int kSlots = 16384;

    // Reads CLUSTER SHARDS (Redis 7), falling back to CLUSTER SLOTS (older servers). Throws
    // RedisError when the node answers neither, or when no slot has an owner.
    static ClusterSlotMap read(NodeConnection &node);
    // From the replies themselves (for tests): `asked` is the node they came from.
    static ClusterSlotMap fromShards(const RedisReply &reply, const NodeAddress &asked,
                                     bool tls = false);
    static ClusterSlotMap fromSlots(const RedisReply &reply, const NodeAddress &asked);

    std::optional<NodeAddress> ownerOf(int slot) const;
    void assign(int slot, const NodeAddress &node);
    // Every primary owning at least one slot, in the order of their first slot.
    QList<NodeAddress> primaries() const;
    // Slots with no owner (a cluster that is not fully covered answers CLUSTERDOWN).
    int unassignedSlots() const;

private:
    int nodeIndex(const NodeAddress &node);

    std::vector<int> m_owner = std::vector<int>(kSlots, -1); // index into m_nodes
    QList<NodeAddress> m_nodes;
};

} // namespace poolscope::topology
