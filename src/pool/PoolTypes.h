#pragma once

#include <optional>

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {

struct PoolMember {
    QByteArray member;
    double count = 0;
    bool operator==(const PoolMember &) const = default;
};

struct EvictedMember {
    QByteArray member;
    double savedCount = 0;
    bool operator==(const EvictedMember &) const = default;
};

// A member whose count changed between two reads of a pool, or that is new in the later one.
struct MemberChange {
    QByteArray member;
    double before = 0; // NaN: not in the earlier read
    double now = 0;
    bool operator==(const MemberChange &) const = default;
};

// What changed between two full reads of a pool (SnapshotOrder): proportional to the allocations
// between them, not to the pool, so per-poll work can follow it instead of comparing every member.
struct PoolChanges {
    quint64 sinceReadId = 0;     // the read these changes are against (PoolSnapshot::readId)
    QList<MemberChange> changed; // in allocation order of the later read
    QList<QByteArray> gone;      // members of the earlier read missing from the later one
};

// The pool as read at one moment (well, over a few short commands: see PoolOperations::snapshot).
struct PoolSnapshot {
    QList<PoolMember> members;    // ascending by count, ties by member: allocation order
    QList<EvictedMember> evicted; // ascending by member
    qint64 commandsSent = 0;      // how many commands the read took
    // Set when the members were put in order by a SnapshotOrder: a number no other read has (0:
    // none), and what changed since that order's previous read (nullopt: not known).
    quint64 readId = 0;
    std::optional<PoolChanges> changes;
};

// What a restored member's count becomes.
enum class RestorePolicy {
    Keep,  // its saved count: it rejoins where it left off
    Zero,  // zero: it soaks up every allocation until it catches up (the flood)
    Start, // the agreed starting count
    Min,   // the pool's current lowest count: it joins the rotation without a flood
};

QString restorePolicyName(RestorePolicy policy);
std::optional<RestorePolicy> parseRestorePolicy(const QString &name);
// The name and one line for people choosing a policy, in the window's language (the CLI installs
// no translation: English there).
QString restorePolicyLabel(RestorePolicy policy);
QString restorePolicyDescription(RestorePolicy policy);
QList<RestorePolicy> allRestorePolicies();

struct SeedOptions {
    double startCount = 0;
    bool startAtPoolMinimum = false; // seed at the pool's lowest count instead of startCount
    bool overwrite = false;          // reset the count of members already in the pool
    bool dryRun = false;             // report what would happen, write nothing
    int batchSize = 200;             // members per script call: keeps each call well under 1 ms
    QString reason;                  // why, for the audit entries (optional)
};

struct SeedResult {
    double startCount = 0; // the count new members got (resolved when startAtPoolMinimum)
    // With startAtPoolMinimum every batch reads the minimum as it runs: the highest count a
    // batch used (equal to startCount when the minimum did not move).
    double highestStartCount = 0;
    QList<QByteArray> added;
    QList<QByteArray> alreadyPresent; // kept their count
    QList<QByteArray> overwritten;
    QList<QByteArray> evicted; // not re-added: restore them instead
};

struct EvictResult {
    QByteArray member;
    double savedCount = 0;
    // An operator's eviction by a user who may not write the guard's marks hash: a guard's old
    // mark on the member (if any) is still there.
    bool guardMarkKept = false;
};

struct RestoreResult {
    QByteArray member;
    RestorePolicy policy = RestorePolicy::Keep;
    double savedCount = 0;
    double restoredCount = 0;
    // The pool's lowest count just before the restore, read atomically with it; nullopt for an
    // empty pool. The flood forecast is this minus restoredCount.
    std::optional<double> poolMinimumBefore;
    bool guardMarkKept = false; // as in EvictResult
};

// Largest count we accept: beyond 2^53 a double score can no longer count one by one.
inline constexpr double kMaxCount = 9007199254740992.0;
// Empty when acceptable, else why not ("-1 is negative", "nan is not a number", ...).
QString validateCount(double count);
// Parses a user-supplied count; on failure returns nullopt and sets *error.
std::optional<double> parseCount(const QString &text, QString *error);
QString formatCount(double count);

} // namespace poolscope
