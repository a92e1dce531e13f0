#pragma once

#include "overview/OverviewTypes.h"

#include <QList>

namespace poolscope {

// The overview's rows and how readings change them (pure logic, no I/O: the poller feeds it).
//
// Servers are given as lists of the connections that reach them (several saved connections may
// name one server: it is read once). A pool's row belongs to the connection that pinned it, else
// to the server's first connection. A pool that was read keeps its row, trend and alerts from
// reading to reading; a pool that is gone loses its row; a pool on a cluster primary that could
// not be read keeps its last figures and says why; when a whole server fails, its rows stay with
// their last figures (or one row per connection when none are known) and say why, with the time
// of their last good poll. A connection that has no row of its own gets one standing for it.
class OverviewTable {
public:
    // Starts afresh: one waiting row per connection (a connection with a problem: not polled).
    void reset(const QList<QList<OverviewConnection>> &servers);
    void applyReading(int server, const ServerReading &reading);
    void applyFailure(int server, const ServerFailure &failure);
    // The alert engine's verdict for one pool; false when no such row.
    bool setAlerts(const QString &connection, const QByteArray &pool, const QStringList &alerts);

    // Server by server (in the order given), each connection's rows by pool key.
    QList<OverviewRow> rows() const;
    qsizetype serverCount() const { return m_servers.size(); }
    qint64 lastGoodPollMs(int server) const;

private:
    struct Server {
        QList<OverviewConnection> connections;
        QList<OverviewRow> rows;
        qint64 lastGoodPollMs = 0;
    };
    const OverviewConnection &ownerOf(const Server &server, const QByteArray &pool) const;
    static void label(OverviewRow &row, const OverviewConnection &connection);
    void addConnectionRows(Server &server, RowState state, const QString &problem,
                           RedisError::Kind kind, const QString &noPoolsNote);
    static void sortRows(Server &server);

    QList<Server> m_servers;
};

} // namespace poolscope
