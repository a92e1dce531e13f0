#pragma once

#include "client/RedisConnection.h"
#include "endpoint/Endpoint.h"
#include "server/RedisServerProcess.h"

#include <memory>
#include <vector>

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace poolscope::testing {

// One primary, one replica and three sentinels (quorum 2, down-after-milliseconds 1000), all on
// loopback TCP ports, started by the test and stopped by PID when this object goes away. Shared
// by the tests of a file (initTestCase / cleanupTestCase).
class SentinelTopology {
public:
    static constexpr const char *kMasterName = "poolmaster";

    SentinelTopology() = default;
    ~SentinelTopology();
    SentinelTopology(const SentinelTopology &) = delete;
    SentinelTopology &operator=(const SentinelTopology &) = delete;

    // Starts everything and waits until the sentinels see the replica and each other (their
    // quorum check passes). QVERIFY-friendly: false with the reason in error().
    bool start();
    const QString &error() const { return m_error; }

    // redis+sentinel://127.0.0.1:s1,127.0.0.1:s2,127.0.0.1:s3/poolmaster
    Endpoint endpoint(const QString &masterName = QString::fromLatin1(kMasterName)) const;
    // The servers by their current role.
    RedisServerProcess &server(int index) { return *m_servers.at(static_cast<size_t>(index)); }
    int serverPort(int index) const;
    int sentinelPort(int index) const { return m_sentinelPorts.at(static_cast<size_t>(index)); }
    // A connection to sentinel `index` (throws on failure).
    std::unique_ptr<RedisConnection> sentinel(int index) const;
    // "host:port" the sentinels name as primary now (asks sentinel 0).
    QString primaryNamed() const;
    // Server `index` is linked to its primary and every sentinel lists it as a replica with no
    // other flag (a failover candidate).
    bool replicaHealthy(int index) const;

private:
    bool startSentinel(int index, int primaryPort);
    void stopSentinels();

    std::vector<std::unique_ptr<RedisServerProcess>> m_servers; // [0] primary at start, [1] replica
    std::vector<std::unique_ptr<QProcess>> m_sentinels;
    std::vector<int> m_sentinelPorts;
    std::unique_ptr<QTemporaryDir> m_directory;
    QString m_error;
};

} // namespace poolscope::testing
