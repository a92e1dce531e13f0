#include "overview/OverviewTypes.h"

namespace poolscope {

OverviewConnection OverviewConnection::fromProfile(const ConnectionProfile &profile) {
    OverviewConnection connection;
    connection.name = profile.name;
    connection.group = profile.group;
    connection.environment = profile.environment;
    connection.pinnedPools = {profile.poolKey};
    QString error;
    if (const std::optional<Endpoint> endpoint = profileEndpoint(profile, &error))
        connection.endpoint = *endpoint;
    else
        connection.problem = error;
    return connection;
}

void TrendRing::append(const TrendPoint &point) {
    if (m_points.size() < kCapacity) {
        m_points.append(point);
        return;
    }
    m_points[m_next] = point;
    m_next = (m_next + 1) % kCapacity;
}

QList<TrendPoint> TrendRing::points() const {
    if (m_next == 0)
        return m_points;
    return m_points.mid(m_next) + m_points.first(m_next);
}

QString rowStateName(RowState state) {
    switch (state) {
    case RowState::Waiting:
        return QStringLiteral("waiting");
    case RowState::Ok:
        return QStringLiteral("ok");
    case RowState::NotAPool:
        return QStringLiteral("not-a-pool");
    case RowState::NodeUnreachable:
        return QStringLiteral("node-unreachable");
    case RowState::Unreachable:
        return QStringLiteral("unreachable");
    case RowState::NotPolled:
        return QStringLiteral("not-polled");
    }
    return {};
}

QString errorKindName(RedisError::Kind kind) {
    switch (kind) {
    case RedisError::Kind::Connection:
        return QStringLiteral("connection");
    case RedisError::Kind::Timeout:
        return QStringLiteral("timeout");
    case RedisError::Kind::Server:
        return QStringLiteral("server");
    case RedisError::Kind::Authentication:
        return QStringLiteral("authentication");
    case RedisError::Kind::Usage:
        return QStringLiteral("usage");
    case RedisError::Kind::Unsupported:
        return QStringLiteral("unsupported");
    }
    return {};
}

QString OverviewRow::id() const {
    // A pool key is any bytes: hex keeps it apart from the connection's name.
    return connection + QChar(u'\n') +
           (placeholder ? QStringLiteral("*") : QString::fromLatin1(pool.toHex()));
}

} // namespace poolscope
