#pragma once

#include "overview/OverviewTable.h"
#include "overview/OverviewTypes.h"

#include <chrono>
#include <memory>
#include <vector>

#include <QList>
#include <QObject>

namespace poolscope {

// How one server of the overview fares.
struct OverviewServerStatus {
    enum class State { Waiting, Ok, Partial, Unreachable, NotPolled };
    QStringList connections; // the saved connections that reach it
    QString address;         // for people: the endpoint without its password
    State state = State::Waiting;
    RedisError::Kind errorKind = RedisError::Kind::Connection;
    QString problem;
    QString serverVersion;
    qint64 lastGoodPollMs = 0; // 0: never
    qint64 lastAttemptMs = 0;
    qint64 attempts = 0;         // readings started since setConnections
    int consecutiveFailures = 0; // the backoff's exponent
    qint64 nextDelayMs = 0;      // until the next reading (the interval, or the backoff)
    bool retrying = true;        // false: stopped until pollNow() (wrong credentials, ...)
    double lastReadingMs = 0;    // how long the last good reading took
};
// "waiting", "ok", "partial", "unreachable", "not-polled".
QString serverStateName(OverviewServerStatus::State state);

// Watches every pool on a list of connections: one worker thread and one connection per server
// (connections naming the same server share them), each server read every interval with the
// bounded commands of ServerReader, never two readings of a server at once. A server that fails
// is tried again after 2, 4, 8... intervals (at most maxBackoff), and at the interval again as
// soon as a reading succeeds. Wrong credentials and errors that retrying cannot help (an SSH
// host key refused) stop that server until pollNow() or new connections.
//
// Lives on the GUI (or CLI) thread and never waits on the network there: each server is read on a
// BackgroundWorker of its own, and destroying the poller stops them all at once (a bounded wait).
class OverviewPoller : public QObject {
    Q_OBJECT

public:
    static constexpr std::chrono::milliseconds kDefaultInterval{5000};
    static constexpr std::chrono::milliseconds kDefaultMaxBackoff{60000};

    explicit OverviewPoller(QObject *parent = nullptr);
    ~OverviewPoller() override;

    // Starts afresh with these connections: every server is read at once.
    void setConnections(const QList<OverviewConnection> &connections);
    void setInterval(std::chrono::milliseconds interval);
    std::chrono::milliseconds interval() const { return m_interval; }
    void setMaxBackoff(std::chrono::milliseconds maxBackoff);
    // Reads every server as soon as its reading under way (if any) is done, backoff forgotten.
    void pollNow();

    QList<OverviewRow> rows() const { return m_table.rows(); }
    QList<OverviewServerStatus> servers() const;
    // The alert engine's verdict for one pool's row (kept until it says otherwise).
    void setActiveAlerts(const QString &connection, const QByteArray &pool,
                         const QStringList &alerts);

Q_SIGNALS:
    // rows() changed: a server was read, failed, or alerts were set.
    void rowsChanged();
    void serverPolled(int server);
    // Every server has reported (a reading or a failure) since the last round; servers that are
    // not polled, or stopped, do not hold a round back.
    void roundCompleted(quint64 round);

private:
    class Worker;
    struct Server;
    void schedule(int index, std::chrono::milliseconds delay);
    void startReading(int index);
    void handleReading(quint64 generation, int index, const ServerReading &reading);
    void handleFailure(quint64 generation, int index, const ServerFailure &failure);
    void noteReported(int index);
    void stopAll();

    std::vector<std::unique_ptr<Server>> m_servers;
    OverviewTable m_table;
    quint64 m_generation = 0;
    quint64 m_round = 0;
    std::chrono::milliseconds m_interval = kDefaultInterval;
    std::chrono::milliseconds m_maxBackoff = kDefaultMaxBackoff;
};

} // namespace poolscope
