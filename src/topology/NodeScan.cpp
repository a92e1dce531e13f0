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
    const std::function<void(RedisConnection &node, const QString &nodeName)> &visit,
    const std::function<void(const QString &nodeName, const RedisError &error)> &failed) {
    ClusterRouter *router = connection.cluster();
    if (!router) {
        visit(connection, serverName(connection));
        return;
    }
    for (const NodeAddress &primary : router->primaries()) {
        try {
            visit(router->node(primary), nodeText(primary));
        } catch (const RedisError &error) {
            if (!failed)
                throw;
            failed(nodeText(primary), error); // one hung primary must not hide the others
        }
    }
}

QString nodeNameOf(RedisConnection &connection, const QByteArray &key) {
    if (ClusterRouter *router = connection.cluster())
        return nodeText(router->ownerOf(key));
    return serverName(connection);
}

} // namespace poolscope::topology
