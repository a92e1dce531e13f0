#include "session/OutsideChanges.h"

#include "session/DisplayFormat.h"

#include <algorithm>

#include <QCoreApplication>
#include <QHash>
#include <QLocale>

namespace poolscope {

QString nameSome(const QList<QByteArray> &members, int shown) {
    QStringList names;
    for (qsizetype i = 0; i < std::min<qsizetype>(shown, members.size()); ++i)
        names.append(QString::fromUtf8(members[i]));
    const QString text = names.join(QStringLiteral(", "));
    if (members.size() <= shown)
        return text;
    return QCoreApplication::translate("OutsideChanges", "%1 and %Ln more",
                                       "%1: member ids, then how many more are not named",
                                       int(members.size() - shown))
        .arg(text);
}

QStringList describeOutsideChanges(const PoolObservation &before, const PoolObservation &now,
                                   const QSet<QByteArray> &explained) {
    QStringList changes;
    if (before.stats.size > 0 && now.stats.size == 0 && before.stats.size > explained.size()) {
        changes.append(QCoreApplication::translate(
                           "OutsideChanges",
                           "pool vanished: %1 members gone (server restarted or key deleted?)")
                           .arg(QLocale().toString(before.stats.size)));
        return changes;
    }
    if (before.summaryMode || now.summaryMode)
        return changes;
    double fell = 0;
    QList<QByteArray> lowered;
    QList<QByteArray> left;
    const std::optional<PoolChanges> &known = now.snapshot.changes;
    if (known && before.snapshot.readId != 0 && known->sinceReadId == before.snapshot.readId) {
        // What changed since `before` is known already (SnapshotOrder): only those members,
        // about as many as the allocations between two polls, not the whole pool.
        for (const MemberChange &change : known->changed)
            if (change.now < change.before && !explained.contains(change.member)) {
                fell += change.before - change.now; // a new member's before is NaN: not here
                lowered.append(change.member);
            }
        const auto byMember = [](const EvictedMember &member, const QByteArray &name) {
            return member.member < name;
        };
        for (const QByteArray &member : known->gone) {
            const auto evicted = std::lower_bound(now.snapshot.evicted.cbegin(),
                                                  now.snapshot.evicted.cend(), member, byMember);
            const bool wasEvicted =
                evicted != now.snapshot.evicted.cend() && evicted->member == member;
            if (!wasEvicted && !explained.contains(member))
                left.append(member);
        }
    } else {
        QHash<QByteArray, double> previous;
        previous.reserve(before.snapshot.members.size());
        for (const PoolMember &member : before.snapshot.members)
            previous.insert(member.member, member.count);
        for (const PoolMember &member : now.snapshot.members) {
            const auto it = previous.constFind(member.member);
            if (it == previous.constEnd())
                continue;
            if (member.count < *it && !explained.contains(member.member)) {
                fell += *it - member.count;
                lowered.append(member.member);
            }
            previous.erase(it);
        }
        // What is left in previous is gone from the pool; evicted (by anyone) is not a loss.
        for (const EvictedMember &member : now.snapshot.evicted)
            previous.remove(member.member);
        for (auto it = previous.cbegin(); it != previous.cend(); ++it)
            if (!explained.contains(it.key()))
                left.append(it.key());
    }
    std::sort(lowered.begin(), lowered.end());
    std::sort(left.begin(), left.end());
    const bool primaryChanged = !before.primary.isEmpty() && before.primary != now.primary;
    if (!lowered.isEmpty() && primaryChanged)
        changes.append(QCoreApplication::translate(
                           "OutsideChanges",
                           "counts went back by %1 allocations on %L2 members after the "
                           "primary changed (%3): acknowledged by %4, never replicated")
                           .arg(formatCount(fell))
                           .arg(lowered.size())
                           .arg(nameSome(lowered), before.primary));
    else if (!lowered.isEmpty())
        changes.append(
            QCoreApplication::translate("OutsideChanges",
                                        "counts went back by %1 allocations on %L2 members (%3), "
                                        "not by poolscope: reset by another client?")
                .arg(formatCount(fell))
                .arg(lowered.size())
                .arg(nameSome(lowered)));
    if (!left.isEmpty())
        changes.append(
            QCoreApplication::translate("OutsideChanges",
                                        "%L1 members left the pool without an eviction here (%2)")
                .arg(left.size())
                .arg(nameSome(left)));
    return changes;
}

} // namespace poolscope
