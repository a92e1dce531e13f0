// ChartPanel's choice of the members it draws: every member of a small pool; the top and bottom
// of a bigger one (sticky, so a fair pool keeps its lines); the top of a summary-mode pool.

#include "chart/ChartPanel.h"

#include "session/DisplayFormat.h"
#include "session/PoolSession.h"

#include <algorithm>

#include <QHash>
#include <QSet>

namespace poolscope {

QList<QByteArray> ChartPanel::chooseMembers(qsizetype *knownCount) {
    if (const auto &observation = m_session->latestObservation();
        observation && observation->summaryMode)
        return chooseSummaryMembers(*observation, knownCount);
    const QList<QByteArray> known = m_session->history().trackedMembers();
    // A pool too big for the history to record whole has fewer tracked members than members.
    const auto &latest = m_session->latestObservation();
    *knownCount = std::max<qsizetype>(known.size(), latest ? latest->snapshot.members.size() : 0);
    if (*knownCount <= m_maxIndividual) {
        QList<QByteArray> all = known;
        std::sort(all.begin(), all.end(), naturalLess); // m1, m2, …, m10: numbers by value
        return all;
    }
    // Top and bottom by the latest counts (the snapshot is in allocation order), plus the pinned.
    // Sticky: a charted member is only replaced by one that is more extreme by more than one
    // allocation, so a fair pool (counts within 1 of each other) keeps its lines and legend
    // instead of swapping them on every poll, while a real outlier enters at once.
    QList<QByteArray> chosen;
    QSet<QByteArray> seen;
    const auto add = [&](const QByteArray &member) {
        if (!seen.contains(member)) {
            seen.insert(member);
            chosen.append(member);
        }
    };
    QSet<QByteArray> top;
    QSet<QByteArray> bottom;
    if (const auto &observation = m_session->latestObservation()) {
        const QList<PoolMember> &members = observation->snapshot.members;
        const qsizetype n = members.size();
        const qsizetype edge = std::min<qsizetype>(kEdgeMembers, n / 2);
        // Counts of the members in play only: the previous picks (one pass over the pool with a
        // lookup in a set of ten) and the candidates taken from the ends. A hash of all 10,000
        // counts on every refresh cost the GUI thread milliseconds.
        QHash<QByteArray, double> countOf;
        for (const PoolMember &member : members)
            if (m_topMembers.contains(member.member) || m_bottomMembers.contains(member.member))
                countOf.insert(member.member, member.count);
        const auto pickEnd = [&](bool highest, const QSet<QByteArray> &previous,
                                 const QSet<QByteArray> &taken) {
            // sign > 0: more extreme means a higher count.
            const double sign = highest ? 1.0 : -1.0;
            QSet<QByteArray> picked;
            for (const QByteArray &member : previous)
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
        top = pickEnd(true, m_topMembers, {});
        bottom = pickEnd(false, m_bottomMembers, top);
        // Chart them in rank order, highest first, so the legend reads like the table. Redis
        // orders equal counts by member, so (count, member) descending is the rank order reversed.
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
        for (const QByteArray &member : byRankDescending(top))
            add(member);
        for (const QByteArray &member : byRankDescending(bottom))
            add(member);
    }
    m_topMembers = top;
    m_bottomMembers = bottom;
    for (const QByteArray &member : m_session->pins())
        add(member);
    return chosen;
}

QList<QByteArray> ChartPanel::chooseSummaryMembers(const PoolObservation &observation,
                                                   qsizetype *knownCount) {
    // A big pool: the poller read its top and bottom members (and the pinned ones) by rank.
    // The top members get lines: a member far ahead stays there, so its line grows. The bottom
    // members do not: they are by definition the ones the script hands out next, so under load
    // each leaves the bottom within a poll and a line per member would be a dot each (issue 12,
    // item 15: "the bottom-5 lines never appear"). Keeping them charted after they left would need
    // a count the summary does not read. What stays meaningful at the bottom is its level, so the
    // chart draws the pool minimum as a line of its own (refreshNow), from the band every poll
    // records; a member worth following at the bottom can be pinned.
    const PoolSummary &summary = observation.summary;
    *knownCount = summary.size;
    QList<QByteArray> chosen;
    QSet<QByteArray> top;
    const auto add = [&](const QByteArray &member, QSet<QByteArray> *set) {
        if (chosen.contains(member))
            return;
        chosen.append(member);
        if (set)
            set->insert(member);
    };
    for (qsizetype i = 0; i < std::min<qsizetype>(kEdgeMembers, summary.top.size()); ++i)
        add(summary.top[i].member, &top);
    m_topMembers = top;
    m_bottomMembers.clear();
    for (const QByteArray &member : m_session->pins())
        add(member, nullptr);
    return chosen;
}

} // namespace poolscope
