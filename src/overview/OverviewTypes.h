// What the overview of every pool on every chosen connection is made of: the connections it
// watches, what one reading of a server finds, and the rows it shows.
#pragma once

#include "catalog/PoolCatalog.h"
#include "profiles/ConnectionProfile.h"
#include "endpoint/Endpoint.h"
#include "client/RedisConnection.h"
#include "base/RedisError.h"

#include <optional>

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace poolscope {

// One saved connection the overview watches: where it is, how it is labelled, and the pools the
// user pinned on it by name (shown even when a scan does not find them).
struct OverviewConnection {
    QString name;
    QString group;
    Environment environment = Environment::None;
    Endpoint endpoint; // with its password, when it needs one (never shown, never stored)
    ConnectionOptions options;
    QList<QByteArray> pinnedPools;
    // Set when the connection cannot be polled at all (a damaged saved connection, a password
    // nobody gave): it is shown with this reason and never polled.
    QString problem;
    RedisError::Kind problemKind = RedisError::Kind::Usage;

    // The connection for a saved one: its endpoint (password still to be added), group,
    // environment and its pool key pinned. A profile that does not check gets its problem set.
    static OverviewConnection fromProfile(const ConnectionProfile &profile);
};

// How many members the pool's health hash (written by `check` and the guard) says are up and down
// after their last check. Records of members that are neither up nor down (never checked, or on
// an address that is never probed) are counted in records only.
struct OverviewHealth {
    enum class Source {
        None,  // not known yet: the hash is being walked for the first time
        Whole, // the hash is small and was read whole at this reading
        Walk,  // a big hash, one HSCAN page per reading: the counts of the last complete pass
    };
    Source source = Source::None;
    qint64 up = 0;
    qint64 down = 0;
    qint64 records = 0;
    qint64 asOfMs = 0; // when the counts were complete (the reading, or the walk's end)
    bool known() const { return source != Source::None; }
    bool operator==(const OverviewHealth &) const = default;
};

// What one reading of a server found about one pool.
struct PoolReading {
    QByteArray key;
    // False for a pinned key that holds no pool now; notPoolReason says what it holds instead.
    bool isPool = true;
    QString notPoolReason;
    // A pinned pool on a cluster primary that could not be read (ServerReading::unreadNodes):
    // not read this time, figures.node names the primary.
    bool nodeUnread = false;
    PoolOverview figures; // size, min / median / max, evicted, rate, Jain (small pools), node
    // The guard lease's value (the guard holding the pool); empty: no guard holds it.
    QByteArray guardHolder;
    bool guardKnown = false; // false: the lease could not be read (an ACL without it)
    OverviewHealth health;
};

// One reading of one server (every primary of a cluster).
struct ServerReading {
    qint64 timeMs = 0; // when it was complete, ms since the epoch
    QList<PoolReading> pools;
    QList<UnreadNode> unreadNodes; // cluster primaries that could not be read: their pools kept
    QString serverVersion;
    double elapsedMs = 0;
};

// A reading that failed as a whole: the kind decides, the message is for people.
struct ServerFailure {
    RedisError::Kind kind = RedisError::Kind::Connection;
    QString message;
    bool retryCannotHelp = false; // the same settings fail again however often they try
    qint64 timeMs = 0;
};

// One point of a row's trend.
struct TrendPoint {
    qint64 timeMs = 0;
    std::optional<double> allocationRate;
    double spread = 0;
    bool operator==(const TrendPoint &) const = default;
};

// The last kCapacity points, oldest first: a row's memory stays flat however long it runs.
class TrendRing {
public:
    static constexpr int kCapacity = 60; // five minutes at the default 5 s

    void append(const TrendPoint &point);
    QList<TrendPoint> points() const; // oldest first
    qsizetype size() const { return m_points.size(); }
    bool operator==(const TrendRing &other) const { return points() == other.points(); }

private:
    QList<TrendPoint> m_points; // a ring once full: m_next is the oldest
    qsizetype m_next = 0;
};

// Why a row shows what it shows.
enum class RowState {
    Waiting,         // its server has not answered yet
    Ok,              // read at the last poll
    NotAPool,        // a pinned key that holds no pool now (problem says what it holds)
    NodeUnreachable, // its cluster primary could not be read: last known figures
    Unreachable,     // its server could not be read: last known figures (or none)
    NotPolled,       // the connection cannot be polled (problem says why)
};
// "waiting", "ok", "not-a-pool", "node-unreachable", "unreachable", "not-polled": for JSON.
QString rowStateName(RowState state);
// "connection", "timeout", "server", "authentication", "usage", "unsupported": for JSON.
QString errorKindName(RedisError::Kind kind);

struct OverviewRow {
    QString connection;
    QString group;
    Environment environment = Environment::None;
    QByteArray pool;          // empty for a connection's own row (placeholder)
    bool placeholder = false; // no pool known: the row stands for the connection
    bool pinned = false;
    QString node;
    RowState state = RowState::Waiting;
    RedisError::Kind errorKind = RedisError::Kind::Connection; // when problem is set
    QString problem;

    bool hasFigures = false; // read at least once
    qint64 members = 0;
    qint64 evicted = 0;
    double minimum = 0;
    double median = 0;
    double maximum = 0;
    // Exact (the pool was read whole: PoolCatalog::kExactSumLimit members at most); nullopt for
    // bigger pools, whose every count is never read at once.
    std::optional<double> jainIndex;
    std::optional<double> allocationRate; // nullopt until two readings (or after a failure)
    bool rateEstimated = false;
    OverviewHealth health;
    QByteArray guardHolder;
    bool guardKnown = false;
    // Filled by the alert engine; alertsKnown false until one has looked at the pool.
    QStringList alerts;
    bool alertsKnown = false;
    qint64 lastGoodPollMs = 0; // 0: never
    TrendRing trend;

    double spread() const { return maximum - minimum; }
    // Identifies the row across readings (the model keeps selections by it).
    QString id() const;
};

} // namespace poolscope

Q_DECLARE_METATYPE(poolscope::ServerReading)
Q_DECLARE_METATYPE(poolscope::ServerFailure)
