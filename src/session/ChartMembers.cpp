// Which members the chart draws: every member of a small pool; the top and bottom of a bigger one
// (sticky, so a fair pool keeps its lines); the top of a summary-mode pool; the pinned ones always.

#include "session/ChartMembers.h"

#include "pool/MemberSubset.h"
#include "session/DisplayFormat.h"

#include <algorithm>

#include <QHash>

namespace poolscope {

namespace {

QList<QByteArray> sortedPins(const QSet<QByteArray> &pinned) {
    QList<QByteArray> members(pinned.cbegin(), pinned.cend());
    std::sort(members.begin(), members.end());
    return members;
}

// A big pool read as a summary: the poller read its top and bottom members (and the pinned
// ones) by rank. The top members get lines: a member far ahead stays there, so its line grows.
// The bottom members do not: they are by definition the ones the script hands out next, so under
// load each leaves the bottom within a poll and a line per member would be a dot each. Keeping
// them charted after they left would need a count the summary does not read. What stays
// meaningful at the bottom is its level, so the frame draws the pool minimum as a line of its
// own, from the band every poll records; a member worth following at the bottom can be pinned.
ChartMemberChoice chooseSummaryMembers(const PoolSummary &summary, const ChartOptions &options) {
    ChartMemberChoice choice;
    choice.known = summary.size;
    const auto add = [&](const QByteArray &member, bool top) {
        if (choice.members.contains(member))
            return;
        choice.members.append(member);
        if (top)
            choice.top.insert(member);
    };
    const qsizetype edge = std::min<qsizetype>(options.edgeMembers, summary.top.size());
    for (qsizetype i = 0; i < edge; ++i)
        add(summary.top[i].member, true);
    for (const QByteArray &member : sortedPins(options.pinned))
        add(member, false);
    return choice;
}

} // namespace

ChartMemberChoice chooseChartMembers(const ChartSource &source, const ChartOptions &options,
                                     const ChartFrame *previous) {
    const PoolObservation *latest = source.latest;
    if (latest && latest->summaryMode)
        return chooseSummaryMembers(latest->summary, options);
    ChartMemberChoice choice;
    const QList<QByteArray> known = source.history->trackedMembers();
    // A pool too big for the history to record whole has fewer tracked members than members.
    choice.known = std::max<qsizetype>(known.size(), latest ? latest->snapshot.members.size() : 0);
    if (choice.known <= options.maxIndividual) {
        choice.members = known;
        std::sort(choice.members.begin(), choice.members.end(), naturalLess); // m2 before m10
        return choice;
    }
    // Top and bottom by the latest counts (the snapshot is in allocation order), plus the pinned.
    // Sticky: a charted member is only replaced by one that is more extreme by more than one
    // allocation, so a fair pool (counts within 1 of each other) keeps its lines and legend
    // instead of swapping them on every poll, while a real outlier enters at once.
    QSet<QByteArray> seen;
    const auto add = [&](const QByteArray &member) {
        if (!seen.contains(member)) {
            seen.insert(member);
            choice.members.append(member);
        }
    };
    if (latest) {
        const QSet<QByteArray> previousTop = previous ? previous->top : QSet<QByteArray>();
        const QSet<QByteArray> previousBottom = previous ? previous->bottom : QSet<QByteArray>();
        const QList<PoolMember> &members = latest->snapshot.members;
        const qsizetype n = members.size();
        const qsizetype edge = std::min<qsizetype>(options.edgeMembers, n / 2);
        // Counts of the members in play only: the previous picks and the candidates taken from
        // the ends. The picks are looked for from both ends inwards (where the top and bottom
        // usually still are) in a set of ten, until all are found.
        QHash<QByteArray, double> countOf;
        // A least-used pool's bottom picks, once allocated, sit among the many equal counts
        // mid-pool: the subset rules out the members passed on the way without hashing them.
        const QSet<QByteArray> picks = previousTop + previousBottom;
        const MemberSubset previousPicks(picks);
        for (qsizetype i = 0, j = n - 1; i <= j && countOf.size() < picks.size(); ++i, --j)
            for (const qsizetype at : {i, j})
                if (previousPicks.contains(members[at].member)) // at the middle: twice, harmless
                    countOf.insert(members[at].member, members[at].count);
        const auto pickEnd = [&](bool highest, const QSet<QByteArray> &before,
                                 const QSet<QByteArray> &taken) {
            const double sign = highest ? 1.0 : -1.0; // more extreme: a higher count at the top
            QSet<QByteArray> picked;
            for (const QByteArray &member : before)
                if (countOf.contains(member) && !taken.contains(member))
                    picked.insert(member);
            const auto memberAt = [&](qsizetype i) -> const PoolMember & {
                return members[highest ? n - 1 - i : i];
            };
            for (qsizetype i = 0; i < n && picked.size() < edge; ++i)
                if (!taken.contains(memberAt(i).member)) {
                    picked.insert(memberAt(i).member);
                    countOf.insert(memberAt(i).member, memberAt(i).count);
                }
            while (picked.size() > edge) // the pool shrank
                picked.erase(picked.begin());
            for (qsizetype i = 0; i < n; ++i) {
                const PoolMember &candidate = memberAt(i);
                if (picked.contains(candidate.member) || taken.contains(candidate.member))
                    continue;
                auto weakest = picked.end();
                for (auto it = picked.begin(); it != picked.end(); ++it)
                    if (weakest == picked.end() ||
                        sign * countOf.value(*it) < sign * countOf.value(*weakest))
                        weakest = it;
                if (weakest == picked.end() ||
                    sign * (candidate.count - countOf.value(*weakest)) <= 1.0)
                    break; // candidates only get less extreme from here
                picked.erase(weakest);
                picked.insert(candidate.member);
                countOf.insert(candidate.member, candidate.count);
            }
            return picked;
        };
        choice.top = pickEnd(true, previousTop, {});
        choice.bottom = pickEnd(false, previousBottom, choice.top);
        // In rank order, highest first, so the legend reads like the table. Redis orders equal
        // counts by member, so (count, member) descending is the rank order reversed.
        const auto byRankDescending = [&](const QSet<QByteArray> &set) {
            QList<QByteArray> ordered(set.cbegin(), set.cend());
            std::sort(ordered.begin(), ordered.end(),
                      [&](const QByteArray &a, const QByteArray &b) {
                          const double countA = countOf.value(a);
                          const double countB = countOf.value(b);
                          return countA != countB ? countA > countB : a > b;
                      });
            return ordered;
        };
        for (const QByteArray &member : byRankDescending(choice.top))
            add(member);
        for (const QByteArray &member : byRankDescending(choice.bottom))
            add(member);
    }
    for (const QByteArray &member : sortedPins(options.pinned))
        add(member);
    return choice;
}

} // namespace poolscope
