#pragma once

#include "overview/OverviewTypes.h"

#include <chrono>
#include <memory>
#include <optional>

#include <QHash>

namespace poolscope {

// Reads every pool of one server (every primary of a cluster) over one connection of its own:
// the Pools panel's bounded catalog (PoolCatalog: SCAN TYPE zset, single ranks, the whole pool
// only up to PoolCatalog::kExactSumLimit members), the pools pinned by name, and for each pool
// its guard lease (GET, O(1)) and its health hash: read whole (HGETALL) up to kHealthWholeLimit
// records, otherwise walked one HSCAN page per reading, the counts those of the last complete
// pass. Allocation rates come from two readings in a row, as the Pools panel's.
//
// Blocking and not thread-safe: one reader per server, used from one thread (its worker's).
class ServerReader {
public:
    static constexpr qint64 kHealthWholeLimit = 500; // HealthStore::kChunk
    static constexpr int kHealthPage = 500;

    // options: a command timeout is mandatory (worker::boundedOptions); clientName
    // "poolscope-overview" unless set.
    ServerReader(const Endpoint &endpoint, const ConnectionOptions &options,
                 QList<QByteArray> pinned);
    ~ServerReader();
    ServerReader(const ServerReader &) = delete;
    ServerReader &operator=(const ServerReader &) = delete;

    // Connects first when there is no connection (or it broke). Throws RedisError; a failure
    // that broke the connection drops it, so the next reading connects again.
    ServerReading read();
    bool isConnected() const { return m_connection != nullptr; }

private:
    struct HealthWalk {
        QByteArray cursor = "0";
        OverviewHealth counting; // the pass under way
        OverviewHealth completed;
    };

    QList<PoolReading> readPinnedMissing(const QList<QByteArray> &keys);
    void readLeasesAndHealth(QList<PoolReading> &pools, qint64 nowMs);

    Endpoint m_endpoint;
    ConnectionOptions m_options;
    QList<QByteArray> m_pinned;
    std::unique_ptr<RedisConnection> m_connection;
    struct Previous {
        QList<PoolOverview> pools;
        std::chrono::steady_clock::time_point at;
    };
    std::optional<Previous> m_previous;
    QHash<QByteArray, HealthWalk> m_walks; // pools whose health hash is walked
};

} // namespace poolscope
