#include "topology/SentinelResolver.h"

#include "base/RedisError.h"

#include <algorithm>
#include <mutex>
#include <thread>
#include <utility>

#include <QHash>
#include <QStringList>

namespace poolscope::topology {

namespace {

// A primary whose ROLE is not master: ask again this many times in all, waiting in between
// (a failover takes the sentinels a moment to agree on).
constexpr int kRoleAttempts = 5;
constexpr std::chrono::milliseconds kRoleRetryFirstWait{100};

// The preferred order of each sentinel list, shared by every connection of the process.
std::mutex g_orderMutex;
QHash<QString, QList<NodeAddress>> g_orders;

QString orderKey(const Endpoint &endpoint) {
    QStringList parts{endpoint.masterName};
    for (const NodeAddress &seed : endpoint.seeds)
        parts.append(nodeText(seed));
    return parts.join(u'\n');
}

void moveToFront(const Endpoint &endpoint, const NodeAddress &answered) {
    const std::lock_guard lock(g_orderMutex);
    QList<NodeAddress> &order = g_orders[orderKey(endpoint)];
    if (order.isEmpty())
        order = endpoint.seeds;
    order.removeAll(answered);
    order.prepend(answered);
}

QString joinNodes(const QList<NodeAddress> &nodes) {
    QStringList texts;
    for (const NodeAddress &node : nodes)
        texts.append(nodeText(node));
    return texts.join(QStringLiteral(", "));
}

// ROLE's first element: "master", "slave" or "sentinel". Empty when the user may not ask
// (ACL): then the check cannot be made and the sentinel's word is taken.
QByteArray roleOf(NodeConnection &connection) {
    const RedisReply reply = connection.command({"ROLE"});
    if (reply.isError() || reply.elements.isEmpty())
        return {};
    return reply.elements.first().text;
}

} // namespace

QList<NodeAddress> sentinelOrder(const Endpoint &endpoint) {
    const std::lock_guard lock(g_orderMutex);
    const QList<NodeAddress> order = g_orders.value(orderKey(endpoint));
    return order.isEmpty() ? endpoint.seeds : order;
}

Endpoint sentinelNodeEndpoint(const Endpoint &endpoint, const NodeAddress &sentinel) {
    Endpoint node;
    node.transport = Endpoint::Transport::Tcp;
    node.host = sentinel.host;
    node.port = sentinel.port;
    node.password = endpoint.sentinelPassword;
    node.tls = endpoint.tls;
    node.ssh = endpoint.ssh;
    return node;
}

SentinelAnswer askSentinels(const Endpoint &endpoint, const ConnectionOptions &options) {
    if (endpoint.seeds.isEmpty())
        throw RedisError(RedisError::Kind::Usage, QStringLiteral("no sentinel given"));
    ConnectionOptions sentinelOptions = options;
    sentinelOptions.connectTimeout = std::min(options.connectTimeout, kSentinelTimeout);
    sentinelOptions.commandTimeout = std::min(options.commandTimeout, kSentinelTimeout);

    QList<NodeAddress> unreachable;
    QList<NodeAddress> unaware;
    QStringList refusals;
    QString lastReason;
    for (const NodeAddress &sentinel : sentinelOrder(endpoint)) {
        std::unique_ptr<NodeConnection> connection;
        RedisReply reply;
        try {
            connection =
                NodeConnection::open(sentinelNodeEndpoint(endpoint, sentinel), sentinelOptions);
            reply = connection->command(
                {"SENTINEL", "get-master-addr-by-name", endpoint.masterName.toUtf8()});
        } catch (const RedisError &error) {
            if (error.kind() == RedisError::Kind::Authentication) {
                refusals.append(error.message());
                continue;
            }
            unreachable.append(sentinel);
            lastReason = error.message();
            continue;
        }
        if (reply.isError()) {
            // Not a sentinel (ERR unknown command), or a refusal (NOPERM): ask the next one.
            refusals.append(QStringLiteral("%1 answered: %2")
                                .arg(nodeText(sentinel), QString::fromUtf8(reply.text)));
            continue;
        }
        if (reply.type != RedisReply::Type::Array || reply.elements.size() != 2) {
            unaware.append(sentinel); // nil: this sentinel does not monitor that name
            continue;
        }
        bool portOk = false;
        const int port = reply.elements.at(1).text.toInt(&portOk);
        const QString host = QString::fromUtf8(reply.elements.at(0).text);
        if (!portOk || port < 1 || port > 65535 || host.isEmpty()) {
            refusals.append(QStringLiteral("%1 named an invalid address").arg(nodeText(sentinel)));
            continue;
        }
        moveToFront(endpoint, sentinel);
        SentinelAnswer answer;
        answer.primary = endpoint;
        answer.primary.topology = Endpoint::Topology::Direct;
        answer.primary.transport = Endpoint::Transport::Tcp;
        answer.primary.seeds.clear();
        answer.primary.masterName.clear();
        answer.primary.sentinelPassword.clear();
        answer.primary.host = host;
        answer.primary.port = port;
        answer.sentinel = sentinel;
        return answer;
    }
    if (!unaware.isEmpty())
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("no sentinel knows master \"%1\" (asked %2)")
                             .arg(endpoint.masterName, joinNodes(unaware)));
    if (!refusals.isEmpty())
        throw RedisError(unreachable.isEmpty() ? RedisError::Kind::Authentication
                                               : RedisError::Kind::Connection,
                         QStringLiteral("no sentinel answered for master \"%1\": %2")
                             .arg(endpoint.masterName, refusals.join(QStringLiteral("; "))));
    throw RedisError(RedisError::Kind::Connection,
                     QStringLiteral("no sentinel reachable (tried %1): %2")
                         .arg(joinNodes(unreachable), lastReason));
}

SentinelPrimary openSentinelPrimary(const Endpoint &endpoint, const ConnectionOptions &options) {
    auto wait = kRoleRetryFirstWait;
    QString lastRole;
    SentinelAnswer answer;
    for (int attempt = 1; attempt <= kRoleAttempts; ++attempt) {
        answer = askSentinels(endpoint, options);
        std::unique_ptr<NodeConnection> connection;
        try {
            connection = NodeConnection::open(answer.primary, options);
        } catch (const RedisError &error) {
            throw error.withMessage(
                QStringLiteral("primary of \"%1\" (named by sentinel %2): %3")
                    .arg(endpoint.masterName, nodeText(answer.sentinel), error.bareMessage()));
        }
        const QByteArray role = roleOf(*connection);
        if (role.isEmpty() || role == "master")
            return {std::move(connection), answer.sentinel};
        lastRole = QString::fromUtf8(role);
        if (attempt < kRoleAttempts) {
            std::this_thread::sleep_for(wait); // worker threads only; bounded
            wait *= 2;
        }
    }
    throw RedisError(RedisError::Kind::Connection,
                     QStringLiteral("sentinel %1 names %2:%3 as the primary of \"%4\", but its "
                                    "ROLE is %5 (asked %6 times)")
                         .arg(nodeText(answer.sentinel), answer.primary.host)
                         .arg(answer.primary.port)
                         .arg(endpoint.masterName, lastRole)
                         .arg(kRoleAttempts));
}

} // namespace poolscope::topology
