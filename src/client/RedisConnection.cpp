#include "client/RedisConnection.h"

#include "topology/ClusterRouter.h"
#include "topology/SentinelResolver.h"

#include <utility>

namespace poolscope {
namespace {

ConnectionOptions singleNodeOptions(ConnectionOptions options) {
    options.singleNode = true;
    return options;
}

// The server to start from: the primary the sentinels name, the first cluster seed that
// answers, or the one server.
std::unique_ptr<NodeConnection> openFirstNode(const Endpoint &endpoint,
                                              const ConnectionOptions &options) {
    if (endpoint.topology == Endpoint::Topology::Sentinel)
        return topology::openSentinelPrimary(endpoint, singleNodeOptions(options)).connection;
    return topology::ClusterRouter::openFirstNode(endpoint, options);
}

} // namespace

RedisConnection::RedisConnection(const Endpoint &endpoint, const ConnectionOptions &options)
    : m_endpoint(endpoint)
    , m_options(options) {}

RedisConnection::~RedisConnection() = default;

std::unique_ptr<RedisConnection>
RedisConnection::openCluster(const Endpoint &endpoint, const ConnectionOptions &options,
                             std::unique_ptr<NodeConnection> first) {
    std::unique_ptr<RedisConnection> connection(new RedisConnection(endpoint, options));
    connection->m_serverVersion = first->serverVersion();
    connection->m_router =
        std::make_unique<topology::ClusterRouter>(endpoint, options, std::move(first));
    return connection;
}

std::unique_ptr<RedisConnection> RedisConnection::open(const Endpoint &endpoint,
                                                       const ConnectionOptions &options) {
    if (endpoint.topology == Endpoint::Topology::Cluster && !options.singleNode)
        return openCluster(endpoint, options,
                           topology::ClusterRouter::openFirstNode(endpoint, options));
    std::unique_ptr<NodeConnection> node;
    std::optional<NodeAddress> resolvedBy;
    if (endpoint.topology == Endpoint::Topology::Sentinel) { // resolved again on every open
        topology::SentinelPrimary primary = topology::openSentinelPrimary(endpoint, options);
        node = std::move(primary.connection);
        resolvedBy = primary.sentinel;
    } else {
        node = NodeConnection::open(endpoint, options);
    }
    std::unique_ptr<RedisConnection> connection;
    // A plain URL that names a cluster node: the user need not know it is one.
    if (node->isClusterNode() && !options.singleNode) {
        const Endpoint served = node->endpoint(); // read before node is moved from
        connection = openCluster(served, options, std::move(node));
    } else {
        connection.reset(new RedisConnection(node->endpoint(), options));
        connection->m_serverVersion = node->serverVersion();
        connection->m_node = std::move(node);
    }
    connection->m_resolvedBy = resolvedBy;
    return connection;
}

std::unique_ptr<NodeConnection> RedisConnection::openOwnerOf(const QByteArray &key,
                                                             const Endpoint &endpoint,
                                                             const ConnectionOptions &options) {
    return topology::ClusterRouter::openOwnerOf(key, openFirstNode(endpoint, options), endpoint,
                                                options);
}

// Cluster mode: the router's errors break this connection as a node's would break a plain one.
template <typename Call> auto RedisConnection::routed(Call call) {
    if (m_broken)
        throw RedisError(
            RedisError::Kind::Connection,
            QStringLiteral("connection to %1 is broken").arg(m_endpoint.toDisplayString()));
    try {
        return call(*m_router);
    } catch (const RedisError &error) {
        if (error.connectionLost())
            m_broken = true;
        throw;
    }
}

void RedisConnection::append(const RedisCommand &argv) {
    if (m_node) {
        m_node->append(argv);
        return;
    }
    m_routedQueue.append(argv); // sent, routed, by the next readReply()
}

RedisReply RedisConnection::readReply() {
    if (m_node)
        return m_node->readReply();
    if (m_routedReplies.isEmpty() && !m_routedQueue.isEmpty()) {
        const QList<RedisCommand> queued = std::exchange(m_routedQueue, {});
        m_routedReplies =
            routed([&queued](topology::ClusterRouter &router) { return router.pipeline(queued); });
    }
    if (m_routedReplies.isEmpty())
        throw RedisError(RedisError::Kind::Usage,
                         QStringLiteral("a reply was read that no command asked for"));
    return m_routedReplies.takeFirst();
}

RedisReply RedisConnection::command(const RedisCommand &argv) {
    if (m_node)
        return m_node->command(argv);
    if (m_routedQueue.isEmpty() && m_routedReplies.isEmpty())
        return routed([&argv](topology::ClusterRouter &router) { return router.command(argv); });
    append(argv);
    return readReply();
}

RedisReply RedisConnection::commandOrThrow(const RedisCommand &argv) {
    return replyOrThrow(argv, command(argv));
}

QList<RedisReply> RedisConnection::pipeline(const QList<RedisCommand> &commands) {
    if (m_node)
        return m_node->pipeline(commands);
    if (m_routedQueue.isEmpty() && m_routedReplies.isEmpty())
        return routed(
            [&commands](topology::ClusterRouter &router) { return router.pipeline(commands); });
    for (const RedisCommand &argv : commands)
        append(argv);
    QList<RedisReply> replies;
    replies.reserve(commands.size());
    for (qsizetype i = 0; i < commands.size(); ++i)
        replies.append(readReply());
    return replies;
}

} // namespace poolscope
