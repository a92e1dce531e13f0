// PoolTableModel's row builders: a poll's snapshot, a window of ranks, the evicted hash, as rows;
// and live rows, whose derived values are worked out when read.
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

void PoolTableModel::setLiveRows(const PoolSnapshot &snapshot, const RateTracker *rates,
                                 const PoolHistory *history, qint64 nowMs) {
    if (m_live && !m_summary && updateLiveCounts(snapshot)) {
        m_nowMs = nowMs;
        setLiveSource(snapshot, rates, history);
        Q_EMIT dataChanged(index(0, Member + 1), index(int(m_rows.size()) - 1, ColumnCount - 1));
        return;
    }
    QList<Row> rows;
    rows.reserve(snapshot.members.size() + snapshot.evicted.size());
    for (const PoolMember &member : snapshot.members) {
        Row row;
        row.member = member.member;
        row.count = member.count;
        rows.append(row);
    }
    for (const EvictedMember &member : snapshot.evicted) {
        Row row;
        row.member = member.member;
        row.count = member.savedCount;
        row.evicted = true;
        rows.append(row);
    }
    // Before the rows go in: a proxy sorting them reads their derived values at once.
    m_live = true;
    setLiveSource(snapshot, rates, history);
    applyRows(rows, nowMs);
}

bool PoolTableModel::updateLiveCounts(const PoolSnapshot &snapshot) {
    const std::optional<PoolChanges> &changes = snapshot.changes;
    if (!changes || snapshot.readId == 0 || m_source.readId == 0 ||
        changes->sinceReadId != m_source.readId || !changes->gone.isEmpty() ||
        snapshot.members.size() != m_poolMembers ||
        snapshot.evicted.size() != m_rows.size() - m_poolMembers)
        return false;
    for (const EvictedMember &member : snapshot.evicted) {
        const int at = m_rowOf.value(member.member, -1);
        if (at < 0 || !m_rows[at].evicted || m_rows[at].count != member.savedCount)
            return false;
    }
    // Checked before anything is written: a member new to the pool takes the general path.
    QList<int> rowsChanged;
    rowsChanged.reserve(changes->changed.size());
    for (const MemberChange &change : changes->changed) {
        const int at = m_rowOf.value(change.member, -1);
        if (at < 0 || m_rows[at].evicted)
            return false;
        rowsChanged.append(at);
    }
    for (qsizetype i = 0; i < rowsChanged.size(); ++i)
        m_rows[rowsChanged[i]].count = changes->changed[i].now;
    return true;
}

void PoolTableModel::setLiveSource(const PoolSnapshot &snapshot, const RateTracker *rates,
                                   const PoolHistory *history) {
    LiveSource source;
    source.rates = rates;
    source.history = history;
    source.poolSize = snapshot.members.size();
    source.readId = snapshot.readId;
    source.poll = m_source.poll + 1;
    // As buildRows: the two lowest counts give every member "the minimum of the others".
    qsizetype lowestIndex = -1;
    for (qsizetype i = 0; i < snapshot.members.size(); ++i) {
        source.total += snapshot.members[i].count;
        if (lowestIndex < 0 || snapshot.members[i].count < snapshot.members[lowestIndex].count)
            lowestIndex = i;
    }
    source.lowest = lowestIndex >= 0 ? snapshot.members[lowestIndex].count : 0;
    source.secondLowest = std::numeric_limits<double>::infinity();
    for (qsizetype i = 0; i < snapshot.members.size(); ++i)
        if (i != lowestIndex)
            source.secondLowest = std::min(source.secondLowest, snapshot.members[i].count);
    m_source = source;
}

void PoolTableModel::derive(Row &row) const {
    row.derivedFor = m_source.poll;
    if (row.evicted) {
        row.share = 0;
        row.rate = 0;
        row.debt = 0;
        row.lastChangeMs =
            m_source.history ? m_source.history->lastChangeMs(row.member) : std::optional<qint64>{};
        return;
    }
    row.share = m_source.total > 0 ? row.count / m_source.total : 0;
    const RateTracker::Activity activity =
        m_source.rates ? m_source.rates->activity(row.member) : RateTracker::Activity{};
    row.rate = activity.ratePerSecond;
    row.lastChangeMs = activity.lastChangeMs;
    if (!activity.followed && m_source.history)
        row.lastChangeMs = m_source.history->lastChangeMs(row.member);
    row.debt = 0;
    if (m_source.poolSize > 1) {
        // The lowest member's others start at the second lowest (equal to it on a tie).
        const double othersMinimum =
            row.count == m_source.lowest ? m_source.secondLowest : m_source.lowest;
        row.debt = std::max(0.0, othersMinimum - row.count);
    }
}

} // namespace poolscope
