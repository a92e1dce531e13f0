#include "topology/ClusterRouter.h"

#include "base/RedisError.h"
#include "topology/HashSlot.h"

#include <algorithm>
#include <optional>
#include <thread>

namespace poolscope::topology {
namespace {

// A command is redirected at most this many times (a slot moving twice while we follow it is
// already rare); TRYAGAIN pauses grow from 2 ms to 100 ms, about 2 s in all.
constexpr int kMaxHops = 32;
constexpr auto kFirstPause = std::chrono::milliseconds(2);
constexpr auto kMaxPause = std::chrono::milliseconds(100);

QString verbOf(const RedisCommand &argv) {
    return QString::fromUtf8(argv.value(0)).toUpper();
}

ConnectionOptions singleNodeOptions(ConnectionOptions options) {
    options.singleNode = true; // the router does the routing
    return options;
}

} // namespace

ClusterRouter::ClusterRouter(const Endpoint &endpoint, const ConnectionOptions &options,
                             std::unique_ptr<NodeConnection> first)
    : m_endpoint(endpoint)
    , m_options(singleNodeOptions(options))
    , m_default{first->endpoint().host, first->endpoint().port} {
    m_map = ClusterSlotMap::read(*first);
    m_nodes.emplace(nodeText(m_default), std::move(first));
}

ClusterRouter::~ClusterRouter() = default;

std::unique_ptr<NodeConnection> ClusterRouter::openFirstNode(const Endpoint &endpoint,
                                                             const ConnectionOptions &options) {
    const QList<NodeAddress> seeds = endpoint.seeds;
    // A plain URL (also unix sockets), perhaps naming a cluster node.
    if (seeds.isEmpty() || endpoint.topology != Endpoint::Topology::Cluster)
        return NodeConnection::open(endpoint, singleNodeOptions(options));
    std::optional<RedisError> last;
    for (const NodeAddress &seed : seeds) {
        try {
            return NodeConnection::open(nodeEndpoint(endpoint, seed), singleNodeOptions(options));
        } catch (const RedisError &error) {
            // Wrong credentials are wrong on every node, and every node is reached through the same
            // SSH host: no point asking the others.
            if (error.kind() == RedisError::Kind::Authentication || error.retryCannotHelp())
                throw;
            last = error;
        }
    }
    if (seeds.size() == 1)
        throw *last;
    throw last->withMessage(
        QStringLiteral("no node of the cluster answered (%1 tried); the last: %2")
            .arg(seeds.size())
            .arg(last->bareMessage()));
}

template <typename Send> auto ClusterRouter::onNode(const NodeAddress &address, Send send) {
    NodeConnection &connection = node(address);
    try {
        return send(connection);
    } catch (const RedisError &error) {
        if (error.connectionLost() || connection.isBroken())
            m_nodes.erase(nodeText(address)); // the next command to it opens a new one
        throw;
    }
}

std::unique_ptr<NodeConnection> ClusterRouter::openOwnerOf(const QByteArray &key,
                                                           std::unique_ptr<NodeConnection> first,
                                                           const Endpoint &endpoint,
                                                           const ConnectionOptions &options) {
    if (!first->isClusterNode())
        return first;
    const int slot = topology::hashSlot(key);
    const std::optional<NodeAddress> owner = ClusterSlotMap::read(*first).ownerOf(slot);
    if (!owner)
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("hash slot %1 (key \"%2\") has no owner in the cluster: "
                                        "the cluster is down or not fully set up (CLUSTERDOWN)")
                             .arg(slot)
                             .arg(QString::fromUtf8(key)),
                         "CLUSTERDOWN");
    if (*owner == NodeAddress{first->endpoint().host, first->endpoint().port})
        return first;
    return NodeConnection::open(nodeEndpoint(endpoint, *owner), singleNodeOptions(options));
}

void ClusterRouter::refreshMap() {
    m_map = onNode(m_default, [](NodeConnection &node) { return ClusterSlotMap::read(node); });
}

NodeConnection &ClusterRouter::node(const NodeAddress &address) {
    const QString name = nodeText(address);
    auto found = m_nodes.find(name);
    if (found == m_nodes.end())
        found =
            m_nodes
                .emplace(name, NodeConnection::open(nodeEndpoint(m_endpoint, address), m_options))
                .first;
    return *found->second;
}

NodeAddress ClusterRouter::ownerOf(const QByteArray &key) const {
    const int slot = topology::hashSlot(key);
    if (const std::optional<NodeAddress> owner = m_map.ownerOf(slot))
        return *owner;
    throw RedisError(RedisError::Kind::Server,
                     QStringLiteral("hash slot %1 (key \"%2\") has no owner in the cluster: the "
                                    "cluster is down or not fully set up (CLUSTERDOWN)")
                         .arg(slot)
                         .arg(QString::fromUtf8(key)),
                     "CLUSTERDOWN");
}

NodeAddress ClusterRouter::targetOf(const RedisCommand &argv) const {
    if (const std::optional<QByteArray> key = routingKey(argv))
        return ownerOf(*key);
    return m_default;
}

RedisReply ClusterRouter::command(const RedisCommand &argv) {
    if (verbOf(argv) == QLatin1String("SCRIPT")) {
        // SCRIPT LOAD / FLUSH concern every primary's script cache: the scripts run where keys
        // are. The first primary's answer is the answer.
        std::optional<RedisReply> first;
        for (const NodeAddress &primary : m_map.primaries()) {
            RedisReply reply =
                onNode(primary, [&argv](NodeConnection &node) { return node.command(argv); });
            if (!first)
                first = std::move(reply);
        }
        if (first)
            return *first;
    }
    const NodeAddress target = targetOf(argv);
    RedisReply reply = onNode(target, [&argv](NodeConnection &node) { return node.command(argv); });
    return follow(argv, std::move(reply), target);
}

QList<RedisReply> ClusterRouter::pipeline(const QList<RedisCommand> &commands) {
    QList<NodeAddress> targets;
    targets.reserve(commands.size());
    QList<NodeAddress> nodes; // in order of first use
    for (const RedisCommand &argv : commands) {
        targets.append(targetOf(argv));
        if (!nodes.contains(targets.last()))
            nodes.append(targets.last());
    }
    QList<RedisReply> replies(commands.size());
    for (const NodeAddress &address : nodes) {
        onNode(address, [&](NodeConnection &node) {
            for (qsizetype i = 0; i < commands.size(); ++i)
                if (targets[i] == address)
                    node.append(commands[i]);
            for (qsizetype i = 0; i < commands.size(); ++i)
                if (targets[i] == address)
                    replies[i] = node.readReply();
            return 0;
        });
    }
    for (qsizetype i = 0; i < commands.size(); ++i) {
        try {
            replies[i] = follow(commands[i], std::move(replies[i]), targets[i]);
        } catch (const RedisError &error) {
            // A command refused to the end (TRYAGAIN for too long, CLUSTERDOWN) did not run; the
            // others' replies must not be lost with it: they may have written.
            if (error.kind() != RedisError::Kind::Server ||
                !refusedBeforeRunning(error.serverCode()))
                throw;
            replies[i] = RedisReply{RedisReply::Type::Error,
                                    error.serverCode() + ' ' + error.message().toUtf8(),
                                    0,
                                    {}};
        }
    }
    return replies;
}

RedisReply ClusterRouter::follow(const RedisCommand &argv, RedisReply reply, NodeAddress from) {
    auto pause = kFirstPause;
    int movedInARow = 0;
    for (int hop = 0; hop < kMaxHops && reply.isError(); ++hop) {
        const QByteArray code = reply.errorCode();
        if (code == "CLUSTERDOWN")
            throw RedisError(RedisError::Kind::Server,
                             QStringLiteral("%1 refused by %2: the cluster is down (%3); it serves "
                                            "no commands until every slot has a live primary")
                                 .arg(verbOf(argv), nodeText(from), QString::fromUtf8(reply.text)),
                             code);
        if (code == "CROSSSLOT")
            throw RedisError(RedisError::Kind::Server,
                             QStringLiteral("%1 names keys in different hash slots (CROSSSLOT), "
                                            "which Redis Cluster cannot run as one command; give "
                                            "the keys a common hash tag, e.g. {pool}:a, {pool}:b")
                                 .arg(verbOf(argv)),
                             code);
        const std::optional<ClusterRedirect> redirect = parseRedirect(reply, from);
        if (redirect && redirect->kind == ClusterRedirect::Kind::Moved) {
            ++m_counters.moved;
            // MOVED again right after a MOVED: the nodes do not agree yet (SETSLOT NODE reaches
            // them one by one, and an importing node sends a command without ASKING back to the
            // old owner). Pause as for TRYAGAIN instead of bouncing between them.
            if (movedInARow++ > 0) {
                std::this_thread::sleep_for(pause);
                pause = std::min<std::chrono::milliseconds>(pause * 2, kMaxPause);
            }
            m_map.assign(redirect->slot, redirect->node);
            from = redirect->node;
            reply = onNode(from, [&argv](NodeConnection &node) { return node.command(argv); });
            continue;
        }
        movedInARow = 0;
        if (redirect) { // ASK: this one command, at the importing node
            ++m_counters.ask;
            const QList<RedisReply> replies = onNode(redirect->node, [&argv](NodeConnection &node) {
                return node.pipeline({RedisCommand{"ASKING"}, argv});
            });
            reply = replies.value(1);
            if (reply.errorCode() == "TRYAGAIN")
                continue; // counted below, then sent to the owner again
        } else if (code == "TRYAGAIN") {
            // A multi-key command met a slot mid-migration with its keys on both sides.
            ++m_counters.tryAgain;
            std::this_thread::sleep_for(pause);
            pause = std::min<std::chrono::milliseconds>(pause * 2, kMaxPause);
            from = targetOf(argv);
            reply = onNode(from, [&argv](NodeConnection &node) { return node.command(argv); });
        } else {
            return reply; // an ordinary error reply: the caller's business
        }
    }
    if (parseRedirect(reply, from) || reply.errorCode() == "TRYAGAIN")
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("%1 was redirected %2 times without an answer (the last "
                                        "from %3: %4); the cluster is being resharded too fast "
                                        "or is misconfigured")
                             .arg(verbOf(argv))
                             .arg(kMaxHops)
                             .arg(nodeText(from), QString::fromUtf8(reply.text)),
                         reply.errorCode());
    return reply;
}

} // namespace poolscope::topology
