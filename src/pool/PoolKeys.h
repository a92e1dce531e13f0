#pragma once

#include "text/MemberText.h"

#include <optional>

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {

// Where a pool lives in Redis.
//
// - The pool itself is the sorted set at the key the user names (member = proxy id,
//   score = allocations so far).
// - Evicted members and their counts live in a companion hash, "{<tag>}:evicted:<key>". Scripts
//   touch both keys at once, so in Redis Cluster they must hash to the same slot; <tag> is
//     * the pool key's own hash tag when it has one ("{eu}:proxies" ->
//     "{eu}:evicted:{eu}:proxies");
//     * the whole key when it has no braces ("proxies" -> "{proxies}:evicted:proxies");
//     * otherwise (braces that form no tag, e.g. "a}b") a short brace-free tag chosen to hash to
//       the pool key's slot ("{<t>}:evicted:a}b").
//   The pool key is spelled out whole after the fixed "}:evicted:", and <tag> never holds a '}',
//   so a companion name gives back its one pool key: no two pool keys share a companion.
// - Before 0.2 the companion was "{key}:evicted" (no braces), "key:evicted" (a tag) or
//   "{t}key:evicted", which "X" and "{X}" (and "a}b" and "{t}a}b") shared; legacyEvicted() names
//   it so `poolscope-cli migrate-companion` can move an old hash to its new name.
class PoolKeys {
public:
    explicit PoolKeys(QByteArray poolKey);

    const QByteArray &pool() const { return m_pool; }
    const QByteArray &evicted() const { return m_evicted; }
    // Health-check state, in the same slot (one script may touch them with the pool):
    // "{<tag>}:health:<key>" (a hash, one field per member), "{<tag>}:guard-events:<key>" (the
    // guard's actions before the audit trail: no longer written, still read) and
    // "{<tag>}:guard-lease:<key>" (the string a guard holds with SET NX PX).
    QByteArray health() const { return companionNamed("health"); }
    QByteArray guardEvents() const { return companionNamed("guard-events"); }
    QByteArray guardLease() const { return companionNamed("guard-lease"); }
    // "{<tag>}:guard-evicted:<key>": member -> id of the guard whose eviction it is. Set by a
    // guard's evict script, dropped by every restore and by an operator's evict, in the same
    // script: the last action decides whose eviction it is.
    QByteArray guardMarks() const { return companionNamed("guard-evicted"); }
    // "{<tag>}:audit:<key>": the pool's audit trail, a capped stream written by the seed, evict,
    // restore and migrate-companion scripts in the same script as the action (src/audit).
    QByteArray audit() const { return companionNamed("audit"); }
    // The companion name used before 0.2 (shared by some pairs of pool keys).
    QByteArray legacyEvicted() const;
    // Other pool keys whose legacy companion was this pool's legacy companion too.
    QList<QByteArray> legacySharers() const;

    // The pool key whose companion hash this key is, if it is one (so it must not be used as a
    // pool key itself).
    static std::optional<QByteArray> poolOfCompanion(const QByteArray &key);

private:
    QByteArray companionNamed(const char *kind) const;
    static QByteArray companionKey(const QByteArray &poolKey);
    static QByteArray legacyCompanionKey(const QByteArray &poolKey);
    QByteArray m_pool;
    QByteArray m_evicted;
};

} // namespace poolscope
