#include "ClusterFixture.h"

#include "topology/ClusterSlotMap.h"
#include "topology/HashSlot.h"

#include <QDeadlineTimer>
#include <QThread>

namespace poolscope::testing {

bool ClusterFixture::start(int primaries) {
    QStringList addresses;
    for (int i = 0; i < primaries; ++i) {
        RedisServerOptions options;
        options.useTcp = true;
        // The bus port defaults to port + 10000, which fails above 55535: give it its own.
        options.extraArguments = {QStringLiteral("--cluster-enabled"),
                                  QStringLiteral("yes"),
                                  QStringLiteral("--cluster-port"),
                                  QString::number(RedisServerProcess::pickFreeTcpPort()),
                                  QStringLiteral("--cluster-node-timeout"),
                                  QStringLiteral("5000")};
        m_nodes.push_back(std::make_unique<RedisFixture>(options));
        if (!m_nodes.back()->start()) {
            m_error = m_nodes.back()->error();
            return false;
        }
        addresses << QStringLiteral("%1:%2")
                         .arg(m_nodes.back()->endpoint().host)
                         .arg(m_nodes.back()->endpoint().port);
    }
    const CliRun create =
        runProgram(QStringLiteral("redis-cli"),
                   QStringList{QStringLiteral("--cluster"), QStringLiteral("create")} + addresses +
                       QStringList{QStringLiteral("--cluster-yes")});
    if (create.exitCode != 0) {
        m_error =
            QStringLiteral("redis-cli --cluster create failed: %1 %2")
                .arg(QString::fromUtf8(create.out.right(1000)), QString::fromUtf8(create.err));
        return false;
    }
    // Every node must see every slot served before the tests start: poll CLUSTER INFO (the
    // nodes agree through their bus within a second or two).
    const QDeadlineTimer deadline(30000);
    for (const auto &node : m_nodes) {
        while (!node->run({"CLUSTER", "INFO"}).text.contains("cluster_state:ok")) {
            if (deadline.hasExpired()) {
                m_error = QStringLiteral("the cluster did not reach cluster_state:ok in 30 s");
                return false;
            }
            QThread::msleep(20); // waiting for other processes, no signal to wait on
        }
    }
    return true;
}

Endpoint ClusterFixture::endpoint() const {
    Endpoint endpoint;
    endpoint.topology = Endpoint::Topology::Cluster;
    for (const auto &node : m_nodes)
        endpoint.seeds.append({node->endpoint().host, node->endpoint().port});
    endpoint.host = endpoint.seeds.first().host;
    endpoint.port = endpoint.seeds.first().port;
    return endpoint;
}

int ClusterFixture::nodeOwning(int slot) {
    const topology::ClusterSlotMap map =
        topology::ClusterSlotMap::read(*m_nodes.front()->admin().node());
    const std::optional<NodeAddress> owner = map.ownerOf(slot);
    for (size_t i = 0; owner && i < m_nodes.size(); ++i)
        if (m_nodes[i]->endpoint().port == owner->port)
            return static_cast<int>(i);
    return -1;
}

QByteArray ClusterFixture::keyOn(int index, const QByteArray &prefix, bool hashTag) {
    const topology::ClusterSlotMap map =
        topology::ClusterSlotMap::read(*m_nodes.front()->admin().node());
    const int port = m_nodes[static_cast<size_t>(index)]->endpoint().port;
    for (int i = 0; i < 100000; ++i) {
        const QByteArray tag = prefix + QByteArray::number(i);
        const QByteArray key = hashTag ? "{" + tag + "}:proxies" : tag;
        const std::optional<NodeAddress> owner = map.ownerOf(topology::hashSlot(key));
        if (owner && owner->port == port)
            return key;
    }
    return {};
}

} // namespace poolscope::testing
