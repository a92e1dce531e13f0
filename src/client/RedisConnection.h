#pragma once

#include "base/RedisError.h"
#include "endpoint/ConnectionOptions.h"
#include "endpoint/Endpoint.h"
#include "redis/NodeConnection.h"
#include "redis/RedisReply.h"

#include <memory>
#include <optional>

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {
namespace topology {
class ClusterRouter;
}

// A connection to the owner of each command's key, whatever the endpoint names: one server
// (redis://, unix://), the primary the sentinels name (redis+sentinel://, resolved again on every
// open), or a Redis Cluster (redis+cluster://, or a plain URL naming a cluster node), where each
// command goes to its key's owner (see topology::ClusterRouter). The rest of the code sends its
// commands through this and does not care which it is. Not thread-safe: each thread opens its
// own. After any I/O error or timeout the connection is broken for good (a late reply would be
// read as the answer to the next command): open a new one.
class RedisConnection {
public:
    // Connects (resolving a Sentinel endpoint's primary, or reading a cluster's slot map), then
    // AUTH, SELECT and CLIENT SETNAME. Throws RedisError.
    static std::unique_ptr<RedisConnection> open(const Endpoint &endpoint,
                                                 const ConnectionOptions &options = {});
    // A connection to exactly the server that owns `key`: the one server, the primary the
    // sentinels name, or the cluster primary owning the key's slot. Load workers drive it
    // directly. Throws RedisError.
    static std::unique_ptr<NodeConnection>
    openOwnerOf(const QByteArray &key, const Endpoint &endpoint, const ConnectionOptions &options);
    ~RedisConnection();
    RedisConnection(const RedisConnection &) = delete;
    RedisConnection &operator=(const RedisConnection &) = delete;

    // Sends one command and waits for its reply. Error replies come back as
    // RedisReply::Type::Error; I/O failures and timeouts throw RedisError.
    RedisReply command(const RedisCommand &argv);
    // Like command(), but an error reply throws RedisError(Kind::Server).
    RedisReply commandOrThrow(const RedisCommand &argv);

    // Pipelining: queue commands, then read their replies in order.
    void append(const RedisCommand &argv);
    RedisReply readReply();
    QList<RedisReply> pipeline(const QList<RedisCommand> &commands);

    bool isBroken() const { return m_node ? m_node->isBroken() : m_broken; }
    // See NodeConnection::closedWhileIdle; never for a cluster (its nodes reconnect on their own).
    bool closedWhileIdle() const { return m_node && m_node->closedWhileIdle(); }
    // Sentinel endpoints: the primary the sentinels named. Otherwise the endpoint opened.
    const Endpoint &endpoint() const { return m_endpoint; }
    const ConnectionOptions &options() const { return m_options; }
    // Sentinel endpoints: the sentinel that named the primary. Empty for every other endpoint.
    const std::optional<NodeAddress> &resolvedBy() const { return m_resolvedBy; }
    // The server's name and version from INFO server, read once on connect (for a cluster, the
    // first node's): "Redis 7.0.15", "Valkey 8.0.1".
    QString serverVersion() const { return m_serverVersion; }

    // Redis Cluster: the router behind this connection, or null for a single server.
    topology::ClusterRouter *cluster() const { return m_router.get(); }
    // The server said cluster_enabled:1 (INFO cluster) during the handshake.
    bool isClusterNode() const { return m_router || m_node->isClusterNode(); }
    // The connection to the one server (or the primary the sentinels named); null for a cluster.
    NodeConnection *node() const { return m_node.get(); }

private:
    RedisConnection(const Endpoint &endpoint, const ConnectionOptions &options);
    static std::unique_ptr<RedisConnection> openCluster(const Endpoint &endpoint,
                                                        const ConnectionOptions &options,
                                                        std::unique_ptr<NodeConnection> first);
    template <typename Call> auto routed(Call call);

    Endpoint m_endpoint;
    ConnectionOptions m_options;
    QString m_serverVersion;
    std::optional<NodeAddress> m_resolvedBy;
    std::unique_ptr<NodeConnection> m_node; // one server
    // Redis Cluster instead: the router and this connection's own state.
    std::unique_ptr<topology::ClusterRouter> m_router;
    bool m_broken = false;
    QList<RedisCommand> m_routedQueue; // append()ed, not yet sent
    QList<RedisReply> m_routedReplies; // answered, not yet read
};

} // namespace poolscope
