#pragma once

#include "endpoint/ConnectionOptions.h"
#include "endpoint/Endpoint.h"
#include "redis/RedisReply.h"

#include <chrono>
#include <memory>

#include <QByteArray>
#include <QList>
#include <QString>

struct redisContext; // hiredis stays out of our headers

namespace poolscope {

using RedisCommand = QList<QByteArray>;

// `reply` to `argv` itself, or, when it is an error reply, RedisError(Kind::Server) thrown with
// the command's name: what commandOrThrow() does with a reply.
RedisReply replyOrThrow(const RedisCommand &argv, RedisReply reply);

// One blocking connection to one Redis server: the host:port (or socket) of its endpoint,
// reached through the endpoint's transport (TLS, SSH), whatever the endpoint's topology says.
// Finding the server (Sentinel) or the key's owner (Cluster) is the business of the layers above
// (src/topology, src/client). Not thread-safe: each thread opens its own.
// After any I/O error or timeout the connection is broken for good (a late reply would be
// read as the answer to the next command): open a new one.
class NodeConnection {
public:
    // Connects, then AUTH, SELECT and CLIENT SETNAME. Throws RedisError.
    static std::unique_ptr<NodeConnection> open(const Endpoint &endpoint,
                                                const ConnectionOptions &options = {});
    ~NodeConnection();
    NodeConnection(const NodeConnection &) = delete;
    NodeConnection &operator=(const NodeConnection &) = delete;

    // Sends one command and waits for its reply. Error replies come back as
    // RedisReply::Type::Error; I/O failures and timeouts throw RedisError.
    RedisReply command(const RedisCommand &argv);
    // Like command(), but an error reply throws RedisError(Kind::Server).
    RedisReply commandOrThrow(const RedisCommand &argv);

    // Pipelining: queue commands, then read their replies in order.
    void append(const RedisCommand &argv);
    RedisReply readReply();
    QList<RedisReply> pipeline(const QList<RedisCommand> &commands);

    bool isBroken() const { return m_broken; }
    // The connection broke on the first command sent after at least kIdleGap of silence, closed
    // or reset by the peer (not a timeout): most likely the server's `timeout` closed it while
    // idle. A read that failed so may be repeated once on a new connection (a write may not:
    // it may have run).
    bool closedWhileIdle() const { return m_closedWhileIdle; }
    static constexpr std::chrono::milliseconds kIdleGap{1000}; // Redis's shortest timeout: 1 s
    const Endpoint &endpoint() const { return m_endpoint; }
    const ConnectionOptions &options() const { return m_options; }
    // The server's name and version from INFO server, read once on connect: "Redis 7.0.15",
    // "Valkey 8.0.1" (see serverVersionFromInfo in redis/ServerIdentity.h).
    QString serverVersion() const { return m_serverVersion; }
    // The server said cluster_enabled:1 (INFO cluster) during the handshake.
    bool isClusterNode() const { return m_clusterNode; }
    // Hands the connected, authenticated hiredis context to a caller that drives it itself (the
    // load runner, non-blocking); this connection is closed from then on. Free it with redisFree.
    redisContext *releaseContext();

private:
    NodeConnection(const Endpoint &endpoint, const ConnectionOptions &options);
    void handshake();
    [[noreturn]] void failFromContext(const char *during);

    struct ContextDeleter {
        void operator()(redisContext *context) const;
    };
    std::unique_ptr<redisContext, ContextDeleter> m_context;
    Endpoint m_endpoint;
    ConnectionOptions m_options;
    QString m_serverVersion;
    bool m_broken = false;
    std::chrono::steady_clock::time_point m_lastReplyAt = std::chrono::steady_clock::now();
    qsizetype m_unanswered = 0;   // sent, reply not read yet
    bool m_sentAfterIdle = false; // the commands in flight went out after kIdleGap of silence
    bool m_closedWhileIdle = false;
    bool m_handshaken = false; // past AUTH/SELECT/INFO: a failure before is a hint about the port
    bool m_clusterNode = false;
};

} // namespace poolscope
