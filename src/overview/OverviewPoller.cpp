#include "overview/OverviewPoller.h"

#include "client/BackgroundWorker.h"
#include "overview/ServerReader.h"

#include <algorithm>
#include <cmath>

#include <QDateTime>
#include <QTimer>

namespace poolscope {

using std::chrono::milliseconds;

QString serverStateName(OverviewServerStatus::State state) {
    switch (state) {
    case OverviewServerStatus::State::Waiting:
        return QStringLiteral("waiting");
    case OverviewServerStatus::State::Ok:
        return QStringLiteral("ok");
    case OverviewServerStatus::State::Partial:
        return QStringLiteral("partial");
    case OverviewServerStatus::State::Unreachable:
        return QStringLiteral("unreachable");
    case OverviewServerStatus::State::NotPolled:
        return QStringLiteral("not-polled");
    }
    return {};
}

// The context of a server's BackgroundWorker: does every blocking call of that server on its
// thread; its reports are delivered to the poller stamped with the generation of the connections
// it reads for.
class OverviewPoller::Worker : public QObject {
public:
    Worker(OverviewPoller *owner, WorkerLink link, int index, quint64 generation,
           const Endpoint &endpoint, const ConnectionOptions &options,
           const QList<QByteArray> &pinned)
        : m_owner(owner)
        , m_link(std::move(link))
        , m_index(index)
        , m_generation(generation)
        , m_options(options)
        , m_reader(endpoint, options, pinned) {}

    void read() {
        try {
            ServerReading reading = m_reader.read();
            m_link.deliver([owner = m_owner, generation = m_generation, index = m_index,
                            reading = std::move(reading)] {
                owner->handleReading(generation, index, reading);
            });
        } catch (const RedisError &error) {
            const ServerFailure failure{error.kind(), describe(m_options, error),
                                        error.retryCannotHelp(),
                                        QDateTime::currentMSecsSinceEpoch()};
            m_link.deliver([owner = m_owner, generation = m_generation, index = m_index, failure] {
                owner->handleFailure(generation, index, failure);
            });
        }
    }

private:
    OverviewPoller *m_owner; // only named in deliveries
    WorkerLink m_link;
    int m_index;
    quint64 m_generation;
    ConnectionOptions m_options;
    ServerReader m_reader;
};

struct OverviewPoller::Server {
    QList<OverviewConnection> connections;
    OverviewServerStatus status;
    std::unique_ptr<QTimer> timer;
    bool reading = false;
    bool pollRequested = false;
    bool reported = false;                        // in the current round
    std::unique_ptr<BackgroundWorker> background; // none: not polled
    Worker *worker = nullptr;                     // its context, on its thread
    bool polled() const { return background != nullptr; }
};

OverviewPoller::OverviewPoller(QObject *parent)
    : QObject(parent) {}

OverviewPoller::~OverviewPoller() {
    stopAll();
}

void OverviewPoller::stopAll() {
    for (const auto &server : m_servers) {
        if (server->timer)
            server->timer->stop();
        if (server->background)
            server->background->requestStop(); // all asked first: their commands end together
    }
    m_servers.clear(); // each waits for its own, a bounded while
}

void OverviewPoller::setConnections(const QList<OverviewConnection> &connections) {
    stopAll();
    const quint64 generation = ++m_generation;
    m_round = 0;
    // Saved connections that name the same server (and credentials) share its reader.
    QList<QList<OverviewConnection>> groups;
    for (const OverviewConnection &connection : connections) {
        auto same = std::find_if(groups.begin(), groups.end(), [&](const auto &group) {
            return connection.problem.isEmpty() && group.first().problem.isEmpty() &&
                   group.first().endpoint == connection.endpoint;
        });
        if (same == groups.end())
            groups.append({connection});
        else
            same->append(connection);
    }
    m_table.reset(groups);
    for (qsizetype i = 0; i < groups.size(); ++i) {
        auto server = std::make_unique<Server>();
        const QList<OverviewConnection> &group = groups[i];
        server->connections = group;
        for (const OverviewConnection &connection : group)
            server->status.connections << connection.name;
        const OverviewConnection &first = group.first();
        if (!first.problem.isEmpty()) {
            server->status.state = OverviewServerStatus::State::NotPolled;
            server->status.problem = first.problem;
            server->status.errorKind = first.problemKind;
            server->status.retrying = false;
            m_servers.push_back(std::move(server));
            continue;
        }
        server->status.address = first.endpoint.toDisplayString();
        QList<QByteArray> pinned;
        for (const OverviewConnection &connection : group)
            for (const QByteArray &key : connection.pinnedPools)
                if (!pinned.contains(key))
                    pinned.append(key);
        const int index = int(i);
        server->background =
            std::make_unique<BackgroundWorker>(QStringLiteral("poolscope-overview"));
        server->worker = server->background->adopt(new Worker(this, server->background->link(),
                                                              index, generation, first.endpoint,
                                                              first.options, pinned));
        server->timer = std::make_unique<QTimer>();
        server->timer->setSingleShot(true);
        connect(server->timer.get(), &QTimer::timeout, this,
                [this, index] { startReading(index); });
        server->timer->start(0);
        m_servers.push_back(std::move(server));
    }
    Q_EMIT rowsChanged();
    // Nothing to wait for: the round is complete at once.
    QTimer::singleShot(0, this, [this, generation] {
        if (generation == m_generation)
            noteReported(-1);
    });
}

void OverviewPoller::setInterval(milliseconds interval) {
    m_interval = std::max(interval, milliseconds(10));
}

void OverviewPoller::setMaxBackoff(milliseconds maxBackoff) {
    m_maxBackoff = std::max(maxBackoff, milliseconds(10));
}

void OverviewPoller::pollNow() {
    for (const auto &server : m_servers) {
        if (!server->polled())
            continue;
        server->status.retrying = true;
        server->status.consecutiveFailures = 0;
        if (server->reading)
            server->pollRequested = true;
        else
            server->timer->start(0);
    }
}

QList<OverviewServerStatus> OverviewPoller::servers() const {
    QList<OverviewServerStatus> list;
    for (const auto &server : m_servers)
        list.append(server->status);
    return list;
}

void OverviewPoller::setActiveAlerts(const QString &connection, const QByteArray &pool,
                                     const QStringList &alerts) {
    if (m_table.setAlerts(connection, pool, alerts))
        Q_EMIT rowsChanged();
}

void OverviewPoller::schedule(int index, milliseconds delay) {
    Server &server = *m_servers[size_t(index)];
    server.status.nextDelayMs = delay.count();
    server.timer->start(delay);
}

void OverviewPoller::startReading(int index) {
    Server &server = *m_servers[size_t(index)];
    if (server.reading) {
        server.pollRequested = true;
        return;
    }
    server.reading = true;
    server.pollRequested = false;
    ++server.status.attempts;
    server.status.lastAttemptMs = QDateTime::currentMSecsSinceEpoch();
    server.background->post([worker = server.worker] { worker->read(); });
}

void OverviewPoller::handleReading(quint64 generation, int index, const ServerReading &reading) {
    if (generation != m_generation)
        return;
    Server &server = *m_servers[size_t(index)];
    server.reading = false;
    OverviewServerStatus &status = server.status;
    status.state = reading.unreadNodes.isEmpty() ? OverviewServerStatus::State::Ok
                                                 : OverviewServerStatus::State::Partial;
    status.problem.clear();
    for (const UnreadNode &node : reading.unreadNodes) {
        status.errorKind = node.kind;
        status.problem +=
            (status.problem.isEmpty() ? QString() : QStringLiteral("; ")) +
            QStringLiteral("cluster node %1 could not be read: %2").arg(node.node, node.message);
    }
    status.serverVersion = reading.serverVersion;
    status.lastGoodPollMs = reading.timeMs;
    status.lastReadingMs = reading.elapsedMs;
    status.consecutiveFailures = 0;
    status.retrying = true;
    m_table.applyReading(index, reading);
    schedule(index, server.pollRequested ? milliseconds(0) : m_interval);
    Q_EMIT rowsChanged();
    Q_EMIT serverPolled(index);
    noteReported(index);
}

void OverviewPoller::handleFailure(quint64 generation, int index, const ServerFailure &failure) {
    if (generation != m_generation)
        return;
    Server &server = *m_servers[size_t(index)];
    server.reading = false;
    OverviewServerStatus &status = server.status;
    status.state = OverviewServerStatus::State::Unreachable;
    status.errorKind = failure.kind;
    status.problem = failure.message;
    ++status.consecutiveFailures;
    m_table.applyFailure(index, failure);
    if (failure.kind == RedisError::Kind::Authentication || failure.retryCannotHelp) {
        // The same settings would fail the same way: knock no more until asked.
        status.retrying = false;
        status.nextDelayMs = 0;
        if (server.pollRequested)
            schedule(index, milliseconds(0));
    } else {
        const double factor = std::pow(2.0, std::min(status.consecutiveFailures, 30));
        const double ceiling = double(std::max(m_maxBackoff, m_interval).count());
        const auto delay =
            milliseconds(qint64(std::min(double(m_interval.count()) * factor, ceiling)));
        schedule(index, server.pollRequested ? milliseconds(0) : delay);
    }
    Q_EMIT rowsChanged();
    Q_EMIT serverPolled(index);
    noteReported(index);
}

void OverviewPoller::noteReported(int index) {
    if (index >= 0)
        m_servers[size_t(index)]->reported = true;
    for (const auto &server : m_servers)
        if (server->polled() && server->status.retrying && !server->reported)
            return;
    for (const auto &server : m_servers)
        server->reported = false;
    Q_EMIT roundCompleted(++m_round);
}

} // namespace poolscope
