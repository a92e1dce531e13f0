#include "overview/OverviewTable.h"

#include <algorithm>

#include <QHash>
#include <QSet>

namespace poolscope {

void OverviewTable::reset(const QList<QList<OverviewConnection>> &servers) {
    m_servers.clear();
    for (const QList<OverviewConnection> &connections : servers) {
        Server server;
        server.connections = connections;
        for (const OverviewConnection &connection : connections) {
            OverviewRow row;
            label(row, connection);
            row.placeholder = true;
            if (!connection.problem.isEmpty()) {
                row.state = RowState::NotPolled;
                row.problem = connection.problem;
                row.errorKind = connection.problemKind;
            }
            server.rows.append(row);
        }
        m_servers.append(server);
    }
}

const OverviewConnection &OverviewTable::ownerOf(const Server &server,
                                                 const QByteArray &pool) const {
    for (const OverviewConnection &connection : server.connections)
        if (connection.pinnedPools.contains(pool))
            return connection;
    return server.connections.first();
}

void OverviewTable::label(OverviewRow &row, const OverviewConnection &connection) {
    row.connection = connection.name;
    row.group = connection.group;
    row.environment = connection.environment;
}

void OverviewTable::applyReading(int index, const ServerReading &reading) {
    if (index < 0 || index >= m_servers.size())
        return;
    Server &server = m_servers[index];
    server.lastGoodPollMs = reading.timeMs;
    QHash<QByteArray, OverviewRow> old;
    for (const OverviewRow &row : std::as_const(server.rows))
        if (!row.placeholder)
            old.insert(row.pool, row);
    QHash<QString, UnreadNode> unread;
    for (const UnreadNode &node : reading.unreadNodes)
        unread.insert(node.node, node);
    const auto markNodeUnread = [&unread](OverviewRow &row) {
        const UnreadNode node = unread.value(row.node);
        row.state = RowState::NodeUnreachable;
        row.errorKind = node.kind;
        row.problem =
            QStringLiteral("cluster node %1 could not be read: %2").arg(row.node, node.message);
        row.allocationRate.reset();
    };

    QList<OverviewRow> rows;
    for (const PoolReading &pool : reading.pools) {
        OverviewRow row = old.take(pool.key);
        const OverviewConnection &owner = ownerOf(server, pool.key);
        label(row, owner);
        row.pool = pool.key;
        row.placeholder = false;
        row.pinned = owner.pinnedPools.contains(pool.key);
        row.node = pool.figures.node;
        if (pool.nodeUnread) {
            markNodeUnread(row);
            rows.append(row);
            continue;
        }
        row.lastGoodPollMs = reading.timeMs;
        row.guardHolder = pool.guardHolder;
        row.guardKnown = pool.guardKnown;
        row.health = pool.health;
        if (!pool.isPool) {
            row.state = RowState::NotAPool;
            row.errorKind = RedisError::Kind::Usage;
            row.problem = pool.notPoolReason;
            row.hasFigures = false;
            row.members = 0;
            row.evicted = pool.figures.evicted;
            row.minimum = row.median = row.maximum = 0;
            row.jainIndex.reset();
            row.allocationRate.reset();
            rows.append(row);
            continue;
        }
        const PoolOverview &figures = pool.figures;
        row.state = RowState::Ok;
        row.problem.clear();
        row.hasFigures = true;
        row.members = figures.size;
        row.evicted = figures.evicted;
        row.minimum = figures.minimum;
        row.median = figures.median;
        row.maximum = figures.maximum;
        row.jainIndex = figures.jainIndex;
        row.allocationRate = figures.allocationRate;
        row.rateEstimated = figures.rateEstimated;
        row.trend.append({reading.timeMs, figures.allocationRate, figures.spread()});
        rows.append(row);
    }
    // Not read this time: kept (last figures) when their primary could not be read, else gone.
    for (OverviewRow &row : old) {
        if (!unread.contains(row.node))
            continue;
        markNodeUnread(row);
        rows.append(row);
    }
    server.rows = rows;
    addConnectionRows(server, RowState::Ok, {}, RedisError::Kind::Usage,
                      rows.isEmpty() ? QStringLiteral("no pools found") : QString());
    sortRows(server);
}

void OverviewTable::applyFailure(int index, const ServerFailure &failure) {
    if (index < 0 || index >= m_servers.size())
        return;
    Server &server = m_servers[index];
    for (OverviewRow &row : server.rows) {
        row.state = RowState::Unreachable;
        row.errorKind = failure.kind;
        row.problem = failure.message;
        row.allocationRate.reset();
        if (row.placeholder)
            row.lastGoodPollMs = server.lastGoodPollMs;
    }
    addConnectionRows(server, RowState::Unreachable, failure.message, failure.kind, {});
    sortRows(server);
}

void OverviewTable::addConnectionRows(Server &server, RowState state, const QString &problem,
                                      RedisError::Kind kind, const QString &noPoolsNote) {
    QSet<QString> shown;
    QString firstWithPools;
    for (const OverviewRow &row : std::as_const(server.rows)) {
        shown.insert(row.connection);
        if (firstWithPools.isEmpty() && !row.placeholder)
            firstWithPools = row.connection;
    }
    for (const OverviewConnection &connection : std::as_const(server.connections)) {
        if (shown.contains(connection.name))
            continue;
        OverviewRow row;
        label(row, connection);
        row.placeholder = true;
        row.state = state;
        row.errorKind = kind;
        row.lastGoodPollMs = server.lastGoodPollMs;
        row.problem =
            !problem.isEmpty() ? problem
            : !noPoolsNote.isEmpty()
                ? noPoolsNote
                : QStringLiteral("its server's pools are listed under \"%1\"").arg(firstWithPools);
        server.rows.append(row);
    }
}

void OverviewTable::sortRows(Server &server) {
    QHash<QString, qsizetype> order;
    for (qsizetype i = 0; i < server.connections.size(); ++i)
        order.insert(server.connections[i].name, i);
    std::stable_sort(server.rows.begin(), server.rows.end(),
                     [&order](const OverviewRow &a, const OverviewRow &b) {
                         const qsizetype ca = order.value(a.connection);
                         const qsizetype cb = order.value(b.connection);
                         if (ca != cb)
                             return ca < cb;
                         if (a.placeholder != b.placeholder)
                             return a.placeholder;
                         return a.pool < b.pool;
                     });
}

bool OverviewTable::setAlerts(const QString &connection, const QByteArray &pool,
                              const QStringList &alerts) {
    for (Server &server : m_servers)
        for (OverviewRow &row : server.rows)
            if (!row.placeholder && row.connection == connection && row.pool == pool) {
                row.alerts = alerts;
                row.alertsKnown = true;
                return true;
            }
    return false;
}

QList<OverviewRow> OverviewTable::rows() const {
    QList<OverviewRow> all;
    for (const Server &server : m_servers)
        all += server.rows;
    return all;
}

qint64 OverviewTable::lastGoodPollMs(int server) const {
    return server >= 0 && server < m_servers.size() ? m_servers[server].lastGoodPollMs : 0;
}

} // namespace poolscope
