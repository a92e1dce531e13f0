#include "session/ServerFeed.h"

#include "monitor/PoolWriter.h"
#include "session/DisplayFormat.h"

namespace poolscope {

ServerFeed::ServerFeed(QObject *parent)
    : PoolFeed(parent)
    , m_monitor(std::make_unique<PoolMonitor>())
    , m_writer(std::make_unique<PoolWriter>()) {
    connect(m_monitor.get(), &PoolMonitor::stateChanged, this, &PoolFeed::stateChanged);
    connect(m_monitor.get(), &PoolMonitor::observationArrived, this, &PoolFeed::observationArrived);
    connect(m_monitor.get(), &PoolMonitor::pollFailed, this, &PoolFeed::pollFailed);
    connect(m_monitor.get(), &PoolMonitor::authenticationFailed, this,
            &PoolFeed::authenticationFailed);
    connect(m_monitor.get(), &PoolMonitor::memberSearchUpdated, this,
            &PoolFeed::memberSearchUpdated);

    connect(m_writer.get(), &PoolWriter::seedProgressed, this, &PoolFeed::seedProgressed);
    connect(m_writer.get(), &PoolWriter::seedFinished, this, &PoolFeed::seedFinished);
    connect(m_writer.get(), &PoolWriter::membersEvicted, this, &PoolFeed::membersEvicted);
    connect(m_writer.get(), &PoolWriter::membersRestored, this, &PoolFeed::membersRestored);
    connect(m_writer.get(), &PoolWriter::poolKeysFound, this, &PoolFeed::poolKeysFound);
    connect(m_writer.get(), &PoolWriter::commandFailed, this, &PoolFeed::commandFailed);
    connect(m_writer.get(), &PoolWriter::busyChanged, this, [this](bool busy) {
        if (!busy)
            Q_EMIT commandsSettled();
    });
}

ServerFeed::~ServerFeed() {
    m_monitor.reset();
    m_writer.reset();
}

void ServerFeed::connectTo(const Endpoint &endpoint, const QByteArray &poolKey) {
    ConnectionOptions pollerOptions;
    pollerOptions.clientName = QStringLiteral("poolscope-poller");
    ConnectionOptions writerOptions;
    writerOptions.clientName = QStringLiteral("poolscope-writer");
    writerOptions.commandTimeout = std::chrono::milliseconds(5000);
    // Errors name the dashboard's fields and buttons, not command-line flags.
    pollerOptions.describeError = dashboardErrorText;
    writerOptions.describeError = dashboardErrorText;
    m_writer->setTarget(endpoint, poolKey, writerOptions);
    m_monitor->connectTo(endpoint, poolKey, pollerOptions);
}

void ServerFeed::disconnectFromServer() {
    m_monitor->disconnectFromServer();
}

ConnectionState ServerFeed::state() const {
    return m_monitor->state();
}

void ServerFeed::setPollInterval(std::chrono::milliseconds interval) {
    m_monitor->setPollInterval(interval);
}

std::chrono::milliseconds ServerFeed::pollInterval() const {
    return m_monitor->pollInterval();
}

void ServerFeed::setPaused(bool paused) {
    m_monitor->setPaused(paused);
}

bool ServerFeed::isPaused() const {
    return m_monitor->isPaused();
}

void ServerFeed::pollNow() {
    m_monitor->pollNow();
}

void ServerFeed::setFullSnapshotThreshold(qint64 members) {
    m_monitor->setFullSnapshotThreshold(members);
}

void ServerFeed::setPinnedMembers(const QList<QByteArray> &members) {
    m_monitor->setPinnedMembers(members);
}

void ServerFeed::setVisibleRows(qint64 fromRank, int count) {
    m_monitor->setVisibleRows(fromRank, count);
}

void ServerFeed::setMemberSearch(const QByteArray &text) {
    m_monitor->setMemberSearch(text);
}

void ServerFeed::seed(const QList<QByteArray> &members, const SeedOptions &options) {
    m_writer->seed(members, options);
}

void ServerFeed::evict(const QList<QByteArray> &members, const QString &reason) {
    m_writer->evict(members, reason);
}

void ServerFeed::restore(const QList<QByteArray> &members, RestorePolicy policy, double startCount,
                         const QString &reason) {
    m_writer->restore(members, policy, startCount, reason);
}

void ServerFeed::findPoolKeys() {
    m_writer->findPoolKeys();
}

} // namespace poolscope
