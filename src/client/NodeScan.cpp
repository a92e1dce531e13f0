#include "client/NodeScan.h"

#include "topology/ClusterRouter.h"
#include "topology/NodeText.h"

namespace poolscope {
namespace {

QString serverName(const RedisConnection &connection) {
    const Endpoint &endpoint = connection.endpoint();
    if (endpoint.transport == Endpoint::Transport::UnixSocket)
        return endpoint.socketPath;
    return topology::nodeText({endpoint.host, endpoint.port});
}

} // namespace

void forEachPrimary(
    RedisConnection &connection,
    const std::function<void(NodeConnection &node, const QString &nodeName)> &visit,
    const std::function<void(const QString &nodeName, const RedisError &error)> &failed) {
    topology::ClusterRouter *router = connection.cluster();
    if (!router) {
        visit(*connection.node(), serverName(connection));
        return;
    }
    for (const NodeAddress &primary : router->primaries()) {
        try {
            visit(router->node(primary), topology::nodeText(primary));
        } catch (const RedisError &error) {
            if (!failed)
                throw;
            failed(topology::nodeText(primary), error); // one hung primary must not hide the others
        }
    }
}

QString nodeNameOf(RedisConnection &connection, const QByteArray &key) {
    if (topology::ClusterRouter *router = connection.cluster())
        return topology::nodeText(router->ownerOf(key));
    return serverName(connection);
}

} // namespace poolscope
