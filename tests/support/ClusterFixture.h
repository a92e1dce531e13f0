#pragma once

#include "RedisFixture.h"

#include <memory>
#include <vector>

namespace poolscope::testing {

// Three redis-server primaries on loopback made into one Redis Cluster (redis-cli --cluster
// create), for a whole test file; each node is killed by PID with its fixture.
class ClusterFixture {
public:
    // QVERIFY-friendly: false with the reason in error().
    bool start(int primaries = 3);
    const QString &error() const { return m_error; }

    RedisFixture &node(int index) { return *m_nodes[static_cast<size_t>(index)]; }
    int size() const { return static_cast<int>(m_nodes.size()); }
    // redis+cluster:// with every node as a seed.
    Endpoint endpoint() const;
    // Index of the primary serving `slot`, from node 0's view of the slot map.
    int nodeOwning(int slot);
    // A key whose slot lives on primary `index`: "{<prefix><n>}:proxies" with a hash tag, else
    // "<prefix><n>".
    QByteArray keyOn(int index, const QByteArray &prefix, bool hashTag);

private:
    std::vector<std::unique_ptr<RedisFixture>> m_nodes;
    QString m_error;
};

} // namespace poolscope::testing
