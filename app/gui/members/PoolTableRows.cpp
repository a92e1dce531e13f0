// PoolTableModel's row builders: a poll's snapshot, a window of ranks, the evicted hash, as rows.
#include "members/PoolTableModel.h"

#include "history/PoolHistory.h"
#include "session/RateTracker.h"

#include <algorithm>
#include <limits>

namespace poolscope {

QList<PoolTableModel::Row> PoolTableModel::buildRows(const PoolSnapshot &snapshot,
                                                     const RateTracker *rates,
                                                     const PoolHistory *history) {
    QList<Row> rows;
    rows.reserve(snapshot.members.size() + snapshot.evicted.size());
    double total = 0;
    // The two lowest counts give every member "the minimum of the others" in O(1).
    qsizetype lowestIndex = -1;
    for (qsizetype i = 0; i < snapshot.members.size(); ++i) {
        total += snapshot.members[i].count;
        if (lowestIndex < 0 || snapshot.members[i].count < snapshot.members[lowestIndex].count)
            lowestIndex = i;
    }
    const double lowest = lowestIndex >= 0 ? snapshot.members[lowestIndex].count : 0;
    double secondLowest = std::numeric_limits<double>::infinity();
    for (qsizetype i = 0; i < snapshot.members.size(); ++i)
        if (i != lowestIndex)
            secondLowest = std::min(secondLowest, snapshot.members[i].count);

    for (qsizetype i = 0; i < snapshot.members.size(); ++i) {
        const PoolMember &member = snapshot.members[i];
        Row row;
        row.member = member.member;
        row.count = member.count;
        row.share = total > 0 ? member.count / total : 0;
        // The rate tracker follows every member polled; the history only those it records.
        const RateTracker::Activity activity =
            rates ? rates->activity(member.member) : RateTracker::Activity{};
        row.rate = activity.ratePerSecond;
        row.lastChangeMs = activity.lastChangeMs;
        if (!activity.followed && history)
            row.lastChangeMs = history->lastChangeMs(member.member);
        if (snapshot.members.size() > 1) {
            const double othersMinimum = (i == lowestIndex) ? secondLowest : lowest;
            row.debt = std::max(0.0, othersMinimum - member.count);
        }
        rows.append(row);
    }
    rows.append(buildEvictedRows(snapshot.evicted, history));
    return rows;
}

QList<PoolTableModel::Row> PoolTableModel::buildRankRows(const QList<RankedMember> &ranked,
                                                         double total, double lowest,
                                                         double secondLowest,
                                                         const RateTracker *rates,
                                                         const PoolHistory *history) {
    QList<Row> rows;
    rows.reserve(ranked.size());
    for (const RankedMember &member : ranked) {
        Row row;
        row.member = member.member;
        row.count = member.count;
        row.share = total > 0 ? member.count / total : -1; // -1: unknown until the totals scan
        // Summary mode follows only the top, bottom and pinned members from poll to poll: the
        // others' rate is unknown (-1), as is that of a member followed for one poll only, and
        // their last change comes from the history if at all.
        const RateTracker::Activity activity =
            rates ? rates->activity(member.member) : RateTracker::Activity{};
        row.rate = activity.rateKnown ? activity.ratePerSecond : -1;
        row.lastChangeMs = activity.lastChangeMs;
        const double othersMinimum = member.rank == 0 ? secondLowest : lowest;
        row.debt = std::max(0.0, othersMinimum - member.count);
        if (!activity.followed && history)
            row.lastChangeMs = history->lastChangeMs(member.member);
        rows.append(row);
    }
    return rows;
}

QList<PoolTableModel::Row> PoolTableModel::buildEvictedRows(const QList<EvictedMember> &evicted,
                                                            const PoolHistory *history) {
    QList<Row> rows;
    rows.reserve(evicted.size());
    for (const EvictedMember &member : evicted) {
        Row row;
        row.member = member.member;
        row.count = member.savedCount;
        row.evicted = true;
        if (history)
            row.lastChangeMs = history->lastChangeMs(member.member);
        rows.append(row);
    }
    return rows;
}

} // namespace poolscope
