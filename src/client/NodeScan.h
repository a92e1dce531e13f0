#pragma once

#include "base/RedisError.h"
#include "client/RedisConnection.h"
#include "redis/NodeConnection.h"

#include <functional>

#include <QString>

namespace poolscope {

// Runs `visit` once per primary: on each primary of a Redis Cluster (its own connection, so a
// SCAN keeps one cursor per node), or on the one server. `nodeName` is "host:port" (or the
// socket path), for showing where a key lives.
// With `failed`, a primary that cannot be reached or read (a RedisError while connecting to it or
// in `visit`) is passed to it and the others are still visited; without, the error is thrown.
void forEachPrimary(
    RedisConnection &connection,
    const std::function<void(NodeConnection &node, const QString &nodeName)> &visit,
    const std::function<void(const QString &nodeName, const RedisError &error)> &failed = {});

// Where the key lives, for display: the owner's "host:port" in a cluster, else the server.
QString nodeNameOf(RedisConnection &connection, const QByteArray &key);

} // namespace poolscope
