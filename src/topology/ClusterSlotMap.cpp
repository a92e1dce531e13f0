#include "topology/ClusterSlotMap.h"

#include "base/RedisError.h"

#include <algorithm>

#include <QSet>

namespace poolscope::topology {
namespace {

// Commands poolscope sends that carry no key; everything else not listed below is routed by
// its first argument.
bool isKeyless(const QByteArray &verb) {
    static const QSet<QByteArray> keyless{"PING",    "INFO",    "SCAN",     "SCRIPT",   "CLIENT",
                                          "CONFIG",  "SLOWLOG", "DBSIZE",   "TIME",     "CLUSTER",
                                          "COMMAND", "ACL",     "HELLO",    "AUTH",     "SELECT",
                                          "ROLE",    "WAIT",    "LATENCY",  "FUNCTION", "MEMORY",
                                          "DEBUG",   "ASKING",  "READONLY", "LASTSAVE", "MONITOR"};
    return keyless.contains(verb);
}

RedisError mapError(const NodeAddress &node, const QString &problem) {
    return RedisError(RedisError::Kind::Server,
                      QStringLiteral("cannot read the cluster's slot map from %1: %2")
                          .arg(nodeText(node), problem));
}

// CLUSTER SHARDS answers maps as flat arrays: name, value, name, value...
const RedisReply *field(const RedisReply &map, const char *name) {
    for (qsizetype i = 0; i + 1 < map.elements.size(); i += 2)
        if (map.elements[i].text == name)
            return &map.elements[i + 1];
    return nullptr;
}

QString hostOf(const RedisReply &nodeInfo, const NodeAddress &asked) {
    // "endpoint" is what the node advertises (cluster-announce-*), "?" when it does not know.
    for (const char *name : {"endpoint", "ip"}) {
        const RedisReply *value = field(nodeInfo, name);
        if (value && !value->text.isEmpty() && value->text != "?")
            return QString::fromUtf8(value->text);
    }
    return asked.host;
}

} // namespace

std::optional<ClusterRedirect> parseRedirect(const RedisReply &reply,
                                             const NodeAddress &answeredBy) {
    if (!reply.isError())
        return std::nullopt;
    const QList<QByteArray> words = reply.text.split(' ');
    if (words.size() < 3 || (words[0] != "MOVED" && words[0] != "ASK"))
        return std::nullopt;
    bool slotOk = false;
    const int slot = words[1].toInt(&slotOk);
    const QByteArray &address = words[2];
    const qsizetype colon = address.lastIndexOf(':');
    bool portOk = false;
    const int port = colon < 0 ? 0 : address.mid(colon + 1).toInt(&portOk);
    if (!slotOk || slot < 0 || slot >= ClusterSlotMap::kSlots || !portOk || port <= 0)
        return std::nullopt;
    ClusterRedirect redirect;
    redirect.kind = words[0] == "MOVED" ? ClusterRedirect::Kind::Moved : ClusterRedirect::Kind::Ask;
    redirect.slot = slot;
    QString host = QString::fromUtf8(address.left(colon));
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    redirect.node = {host.isEmpty() ? answeredBy.host : host, port};
    return redirect;
}

std::optional<QByteArray> routingKey(const RedisCommand &argv) {
    if (argv.size() < 2)
        return std::nullopt;
    const QByteArray verb = argv[0].toUpper();
    if (verb == "EVAL" || verb == "EVALSHA" || verb == "EVAL_RO" || verb == "EVALSHA_RO" ||
        verb == "FCALL" || verb == "FCALL_RO") {
        if (argv.size() < 4 || argv[2].toLongLong() <= 0)
            return std::nullopt;
        return argv[3];
    }
    if ((verb == "MEMORY" || verb == "OBJECT") && argv.size() >= 3)
        return argv[2]; // MEMORY USAGE key, OBJECT ENCODING key
    if (isKeyless(verb))
        return std::nullopt;
    return argv[1];
}

Endpoint nodeEndpoint(const Endpoint &cluster, const NodeAddress &node) {
    Endpoint endpoint = cluster;
    endpoint.topology = Endpoint::Topology::Direct;
    endpoint.transport = Endpoint::Transport::Tcp;
    endpoint.host = node.host;
    endpoint.port = node.port;
    endpoint.database = 0;
    endpoint.seeds.clear();
    return endpoint;
}

ClusterSlotMap ClusterSlotMap::read(NodeConnection &node) {
    const NodeAddress asked{node.endpoint().host, node.endpoint().port};
    const RedisReply shards = node.command({"CLUSTER", "SHARDS"});
    ClusterSlotMap map;
    if (!shards.isError()) {
        map = fromShards(shards, asked, node.endpoint().tls.enabled);
    } else {
        // Before Redis 7: CLUSTER SLOTS (deprecated since, still answered).
        const RedisReply slotList = node.command({"CLUSTER", "SLOTS"});
        if (slotList.isError())
            throw mapError(asked, QString::fromUtf8(slotList.text));
        map = fromSlots(slotList, asked);
    }
    if (map.unassignedSlots() == kSlots)
        throw mapError(asked, QStringLiteral("no slot has an owner yet (is the cluster created? "
                                             "redis-cli --cluster create ...)"));
    return map;
}

ClusterSlotMap ClusterSlotMap::fromShards(const RedisReply &reply, const NodeAddress &asked,
                                          bool tls) {
    ClusterSlotMap map;
    for (const RedisReply &shard : reply.elements) {
        const RedisReply *slotList = field(shard, "slots");
        const RedisReply *nodes = field(shard, "nodes");
        if (!slotList || !nodes)
            continue;
        std::optional<NodeAddress> primary;
        for (const RedisReply &nodeInfo : nodes->elements) {
            const RedisReply *role = field(nodeInfo, "role");
            if (!role || role->text != "master")
                continue;
            const RedisReply *port = field(nodeInfo, tls ? "tls-port" : "port");
            if (!port)
                port = field(nodeInfo, "port");
            if (!port)
                continue;
            primary = NodeAddress{hostOf(nodeInfo, asked), static_cast<int>(port->integer)};
        }
        if (!primary)
            continue;
        const int index = map.nodeIndex(*primary);
        for (qsizetype i = 0; i + 1 < slotList->elements.size(); i += 2) {
            const long long first = slotList->elements[i].integer;
            const long long last = slotList->elements[i + 1].integer;
            for (long long slot = std::max(0LL, first); slot <= last && slot < kSlots; ++slot)
                map.m_owner[static_cast<size_t>(slot)] = index;
        }
    }
    return map;
}

ClusterSlotMap ClusterSlotMap::fromSlots(const RedisReply &reply, const NodeAddress &asked) {
    ClusterSlotMap map;
    for (const RedisReply &range : reply.elements) {
        if (range.elements.size() < 3 || range.elements[2].elements.size() < 2)
            continue;
        const RedisReply &primary = range.elements[2];
        const QString host = primary.elements[0].text.isEmpty() || primary.elements[0].text == "?"
                                 ? asked.host
                                 : QString::fromUtf8(primary.elements[0].text);
        const int index = map.nodeIndex({host, static_cast<int>(primary.elements[1].integer)});
        const long long first = range.elements[0].integer;
        const long long last = range.elements[1].integer;
        for (long long slot = std::max(0LL, first); slot <= last && slot < kSlots; ++slot)
            map.m_owner[static_cast<size_t>(slot)] = index;
    }
    return map;
}

std::optional<NodeAddress> ClusterSlotMap::ownerOf(int slot) const {
    if (slot < 0 || slot >= kSlots)
        return std::nullopt;
    const int index = m_owner[static_cast<size_t>(slot)];
    if (index < 0)
        return std::nullopt;
    return m_nodes[index];
}

void ClusterSlotMap::assign(int slot, const NodeAddress &node) {
    if (slot >= 0 && slot < kSlots)
        m_owner[static_cast<size_t>(slot)] = nodeIndex(node);
}

QList<NodeAddress> ClusterSlotMap::primaries() const {
    QList<NodeAddress> result;
    QSet<int> seen;
    for (const int index : m_owner) {
        if (index >= 0 && !seen.contains(index)) {
            seen.insert(index);
            result.append(m_nodes[index]);
        }
    }
    return result;
}

int ClusterSlotMap::unassignedSlots() const {
    return static_cast<int>(std::count(m_owner.begin(), m_owner.end(), -1));
}

int ClusterSlotMap::nodeIndex(const NodeAddress &node) {
    const qsizetype found = m_nodes.indexOf(node);
    if (found >= 0)
        return static_cast<int>(found);
    m_nodes.append(node);
    return static_cast<int>(m_nodes.size() - 1);
}

} // namespace poolscope::topology
