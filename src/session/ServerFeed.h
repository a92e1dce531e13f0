#pragma once

#include "session/PoolFeed.h"

#include <memory>

namespace poolscope {

class PoolWriter;

// The dashboard's feed: the poller (PoolMonitor) and the writer (PoolWriter), each with its own
// thread and connection to the server, named poolscope-poller and poolscope-writer.
class ServerFeed final : public PoolFeed {
    Q_OBJECT

public:
    explicit ServerFeed(QObject *parent = nullptr);
    // Stops the poller first, then the writer.
    ~ServerFeed() override;

    void connectTo(const Endpoint &endpoint, const QByteArray &poolKey) override;
    void disconnectFromServer() override;
    ConnectionState state() const override;
    void setPollInterval(std::chrono::milliseconds interval) override;
    std::chrono::milliseconds pollInterval() const override;
    void setPaused(bool paused) override;
    bool isPaused() const override;
    void pollNow() override;
    void setFullSnapshotThreshold(qint64 members) override;
    void setPinnedMembers(const QList<QByteArray> &members) override;
    void setVisibleRows(qint64 fromRank, int count) override;
    void setMemberSearch(const QByteArray &text) override;

    void seed(const QList<QByteArray> &members, const SeedOptions &options) override;
    void evict(const QList<QByteArray> &members, const QString &reason) override;
    void restore(const QList<QByteArray> &members, RestorePolicy policy, double startCount,
                 const QString &reason) override;
    void findPoolKeys() override;

private:
    std::unique_ptr<PoolMonitor> m_monitor;
    std::unique_ptr<PoolWriter> m_writer;
};

} // namespace poolscope
