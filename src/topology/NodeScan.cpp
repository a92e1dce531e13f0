#include "topology/NodeScan.h"

#include "topology/ClusterRouter.h"

namespace poolscope::topology {
namespace {

QString serverName(const RedisConnection &connection) {
    const Endpoint &endpoint = connection.endpoint();
    if (endpoint.transport == Endpoint::Transport::UnixSocket)
        return endpoint.socketPath;
    return nodeText({endpoint.host, endpoint.port});
}

} // namespace

void forEachPrimary(
    RedisConnection &connection,
    const std::function<void(RedisConnection &node, const QString &nodeName)> &visit) {
    ClusterRouter *router = connection.cluster();
    if (!router) {
        visit(connection, serverName(connection));
        return;
    }
    for (const NodeAddress &primary : router->primaries())
        visit(router->node(primary), nodeText(primary));
}

QString nodeNameOf(RedisConnection &connection, const QByteArray &key) {
    if (ClusterRouter *router = connection.cluster())
        return nodeText(router->ownerOf(key));
    return serverName(connection);
}

} // namespace poolscope::topology
