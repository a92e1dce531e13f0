#pragma once

#include "audit/AuditEntry.h"
#include "pool/PoolKeys.h"

#include <optional>

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {

class RedisConnection;

// Which entries a reader wants. Every condition given must hold.
struct AuditFilter {
    QString member;                // a member's text contains it (masked first, like the trail)
    QString actor;                 // actorText() contains it, case-insensitive
    QList<AuditAction> actions;    // one of these; empty: any
    std::optional<qint64> sinceMs; // at or after (ms since the epoch); read from the stream as
    std::optional<qint64> untilMs; // ...its id range, so older entries are never read at all

    bool matches(const AuditEntry &entry) const;
};

// A time as `--since` takes it: ISO 8601 ("2024-04-05T03:12:00Z", "2024-04-05 03:12", a date
// alone; local time without an offset), or relative to now: a whole number and a unit, "90s",
// "10m", "2h", "1d", "1w". nullopt with the reason in *error.
std::optional<qint64> parseAuditTime(const QString &text, qint64 nowMs, QString *error);

// Reads a pool's audit trail with bounded commands only (XRANGE/XREVRANGE with COUNT). Blocking:
// for the dashboard, call it from a worker thread that owns the connection.
class AuditTrail {
public:
    static constexpr int kPageSize = 500;

    AuditTrail(RedisConnection &connection, PoolKeys keys);

    // The entries added after afterId (exclusive), oldest first, at most count: one
    // XRANGE (afterId + COUNT count. With an empty afterId the newest `count` entries, oldest
    // first (XREVRANGE + - COUNT count). *lastId: the id of the last entry returned (unchanged
    // when none), to pass as afterId next time. Entries of the old guard-events stream are not
    // included (nothing writes it any more). Throws RedisError.
    QList<AuditEntry> after(const QByteArray &afterId, int count, QByteArray *lastId = nullptr);
    // The number of entries in the trail (XLEN).
    qint64 length();

    const PoolKeys &keys() const { return m_keys; }
    qint64 commandsSent() const { return m_commands; }

private:
    RedisConnection &m_connection;
    PoolKeys m_keys;
    qint64 m_commands = 0;
};

// A walk over a pool's whole audit trail, in bounded steps: each step() sends at most one
// XREVRANGE (or XRANGE) of pageSize entries per stream and returns the entries it found that
// match the filter, in order. The old guard-events stream is merged in by id, so its entries are
// still read until it is deleted. A dashboard worker calls step() until atEnd(), posting each
// step's entries; it may stop between steps at any time.
class AuditWalk {
public:
    enum class Order { NewestFirst, OldestFirst };

    AuditWalk(RedisConnection &connection, const PoolKeys &keys, AuditFilter filter,
              Order order = Order::NewestFirst, int pageSize = AuditTrail::kPageSize);
    ~AuditWalk();
    AuditWalk(const AuditWalk &) = delete;
    AuditWalk &operator=(const AuditWalk &) = delete;

    // Throws RedisError (a user who may not read the old guard-events stream reads the trail
    // alone).
    QList<AuditEntry> step();
    bool atEnd() const;
    qint64 entriesRead() const { return m_entriesRead; }
    qint64 commandsSent() const { return m_commands; }

private:
    struct Source;
    bool refill(Source &source);

    RedisConnection &m_connection;
    AuditFilter m_filter;
    Order m_order;
    int m_pageSize;
    QList<Source> m_sources;
    qint64 m_entriesRead = 0;
    qint64 m_commands = 0;
};

// Adds an entry that goes with no change to the pool (a guard's "capped" or "uncapped"), with
// one short script, only while the guard guardId holds the pool's guard lease. False when it
// does not (nothing written). Throws RedisError.
bool addGuardNote(RedisConnection &connection, const PoolKeys &keys, const AuditActor &actor,
                  AuditAction action, qint64 count, const QString &reason,
                  const QByteArray &guardId, qint64 cap = kAuditTrailCap);

} // namespace poolscope
