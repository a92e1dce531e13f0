#include "history/PoolHistory.h"

#include "history/HistoryStorage.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

#include <QSet>

namespace poolscope {
using namespace historydetail;

struct PoolHistory::Data {
    explicit Data(const Limits &requested)
        : limits(requested) {
        limits.maxTrackedMembers = std::max(0, limits.maxTrackedMembers);
        const qint64 resolutions[kTierCount] = {limits.fineResolutionMs, limits.mediumResolutionMs,
                                                limits.coarseResolutionMs};
        const int points[kTierCount] = {limits.finePoints, limits.mediumPoints,
                                        limits.coarsePoints};
        for (int t = 0; t < kTierCount; ++t) {
            tiers[t].resolutionMs = std::max<qint64>(1, resolutions[t]);
            tiers[t].capacity = size_t(std::max(1, points[t]));
        }
    }

    Limits limits;
    Tier tiers[kTierCount];
    size_t currentSlot[kTierCount] = {}; // physical slot the latest sample went into
    std::vector<MemberTrack> members;
    std::vector<int> freeMembers;
    qint64 stalestScanFailedAt = -1;  // the poll in which every tracked member was current
    std::vector<qsizetype> newcomers; // record()'s scratch: positions of untracked members
    QHash<QByteArray, int> index;
    QSet<QByteArray> pinned;
    int trackedUnpinned = 0;
    std::deque<HistoryEvent> events;
    std::deque<qint64> gaps;
    qint64 latestMs = 0;
    bool hasData = false;
    bool splitFine = false; // a gap was marked after the latest sample: the next opens a slot
    std::vector<double> scratch;
    std::vector<int> slotByPosition; // member slot seen at each position of the last poll

    // Puts timeMs into each tier: the newest slot while it is young enough, else a new slot
    // (overwriting the oldest once the ring is full).
    void advance(qint64 timeMs) {
        bool coarseOpened = false;
        for (int t = 0; t < kTierCount; ++t) {
            Tier &tier = tiers[t];
            // A poll timer fires a little early or late: the finest tier opens a new slot once
            // 9/10 of its resolution has passed, so polls one resolution apart never share one.
            const qint64 slotSpan =
                t == 0 ? tier.resolutionMs - tier.resolutionMs / 10 : tier.resolutionMs;
            const bool afterGap = t == 0 && splitFine; // never one fine point across a gap
            if (tier.size > 0 && timeMs < tier.slotStartMs + slotSpan && !afterGap) {
                tier.times[currentSlot[t]] = timeMs;
                continue;
            }
            size_t slot;
            if (tier.size < tier.capacity) {
                slot = tier.size++;
                for (std::vector<double> *series :
                     {&tier.min, &tier.median, &tier.max, &tier.total}) {
                    reserveForOneMore(*series, tier.capacity);
                    series->push_back(kNaN);
                }
                reserveForOneMore(tier.times, tier.capacity);
                tier.times.push_back(timeMs);
                for (MemberTrack &member : members)
                    if (member.active)
                        member.values[t].appendMissing(tier.capacity);
            } else {
                slot = tier.head;
                tier.head = (tier.head + 1) % tier.capacity;
                tier.times[slot] = timeMs;
                for (MemberTrack &member : members)
                    if (member.active)
                        member.values[t].setMissing(slot);
            }
            tier.slotStartMs = timeMs;
            currentSlot[t] = slot;
            coarseOpened = coarseOpened || t == kTierCount - 1;
        }
        latestMs = timeMs;
        hasData = true;
        splitFine = false;
        if (coarseOpened)
            releaseFadedMembers();
    }

    void writeBand(double min, double median, double max, double total) {
        for (int t = 0; t < kTierCount; ++t) {
            const size_t slot = currentSlot[t];
            tiers[t].min[slot] = min;
            tiers[t].median[slot] = median;
            tiers[t].max[slot] = max;
            tiers[t].total[slot] = total;
        }
    }

    bool mayTrack(const QByteArray &name) const {
        return trackedUnpinned < limits.maxTrackedMembers || pinned.contains(name);
    }

    int track(const QByteArray &name) {
        int slot;
        if (!freeMembers.empty()) {
            slot = freeMembers.back();
            freeMembers.pop_back();
        } else {
            slot = int(members.size());
            members.emplace_back();
        }
        MemberTrack &member = members[size_t(slot)];
        member.name = name;
        for (int t = 0; t < kTierCount; ++t)
            member.values[t].reset(tiers[t].size);
        member.lastValue = kNaN;
        member.lastChangeMs = -1;
        member.lastSeenMs = 0;
        member.active = true;
        member.pinned = pinned.contains(name);
        if (!member.pinned)
            ++trackedUnpinned;
        index.insert(name, slot);
        return slot;
    }

    // Frees members whose every point has fallen off the oldest tier, so members that left the
    // pool long ago make room for new ones instead of holding their buffers forever.
    void releaseFadedMembers() {
        qint64 oldest = latestMs;
        for (const Tier &tier : tiers)
            if (tier.size > 0)
                oldest = std::min(oldest, tier.timeAt(0));
        for (size_t i = 0; i < members.size(); ++i) {
            MemberTrack &member = members[i];
            if (!member.active || member.pinned || member.lastSeenMs >= oldest)
                continue;
            // Seen before every slot but perhaps inside the oldest one: look there.
            bool anyLeft = false;
            for (int t = 0; t < kTierCount && !anyLeft; ++t)
                anyLeft =
                    tiers[t].size > 0 && !std::isnan(member.values[t].at(tiers[t].physical(0)));
            if (anyLeft)
                continue;
            release(i);
        }
    }

    void release(size_t i) {
        MemberTrack &member = members[i];
        index.remove(member.name);
        member.name = QByteArray();
        member.active = false;
        for (ValueBuffer &values : member.values)
            values.reset(0);
        --trackedUnpinned;
        freeMembers.push_back(int(i));
    }

    // At the limit, a new member takes the place of the unpinned member seen longest ago, if that
    // one was not in the poll being recorded. Big pools are recorded by their top, bottom and
    // charted members, which change from poll to poll: without this, the first members seen would
    // hold every place and later ones would get no series. Returns false when all are current.
    bool releaseStalest(qint64 nowMs) {
        if (stalestScanFailedAt == nowMs)
            return false; // nothing has aged within this poll since the last scan
        std::optional<size_t> stalest;
        for (size_t i = 0; i < members.size(); ++i) {
            const MemberTrack &member = members[i];
            if (!member.active || member.pinned || member.lastSeenMs >= nowMs)
                continue;
            if (!stalest || member.lastSeenMs < members[*stalest].lastSeenMs)
                stalest = i;
        }
        if (!stalest) {
            stalestScanFailedAt = nowMs;
            return false;
        }
        release(*stalest);
        return true;
    }

    // Finest tier whose data reaches back to fromMs; else the one reaching furthest back.
    int tierCovering(qint64 fromMs) const {
        int best = 0;
        for (int t = 0; t < kTierCount; ++t) {
            if (tiers[t].size == 0)
                continue;
            if (tiers[t].timeAt(0) <= fromMs)
                return t;
            if (tiers[best].size == 0 || tiers[t].timeAt(0) < tiers[best].timeAt(0))
                best = t;
        }
        return best;
    }

    // Calls visit(tier, physical slot) for the slots in [fromMs, toMs], oldest first, each part
    // of the range from the finest tier that still holds it.
    template <typename Visit> void forEachSlot(qint64 fromMs, qint64 toMs, Visit visit) const {
        for (int t = kTierCount - 1; t >= 0; --t) {
            const Tier &tier = tiers[t];
            // A finer tier takes over from its oldest slot on.
            qint64 endMs = toMs;
            bool endExclusive = false;
            for (int finer = t - 1; finer >= 0; --finer) {
                if (tiers[finer].size > 0) {
                    endMs = std::min(endMs, tiers[finer].timeAt(0));
                    endExclusive = tiers[finer].timeAt(0) <= toMs;
                    break;
                }
            }
            for (size_t k = tier.lowerBound(fromMs); k < tier.size; ++k) {
                const qint64 timeMs = tier.timeAt(k);
                if (timeMs > endMs || (endExclusive && timeMs == endMs))
                    break;
                visit(t, tier.physical(k));
            }
        }
    }

    // Allocations a member made over the window: the sum of its count's rises between
    // consecutive points (a reset to a lower count is not negative work).
    struct Rise {
        double amount = 0;
        qint64 firstMs = 0;
        qint64 lastMs = 0;
        int points = 0;
    };
    Rise riseOf(const MemberTrack &member, int t, size_t fromLogical) const {
        Rise rise;
        const Tier &tier = tiers[t];
        double previous = kNaN;
        for (size_t k = fromLogical; k < tier.size; ++k) {
            const double value = member.values[t].at(tier.physical(k));
            if (std::isnan(value))
                continue;
            if (rise.points == 0)
                rise.firstMs = tier.timeAt(k);
            else
                rise.amount += std::max(0.0, value - previous);
            rise.lastMs = tier.timeAt(k);
            previous = value;
            ++rise.points;
        }
        return rise;
    }
};

PoolHistory::PoolHistory()
    : PoolHistory(Limits{}) {}

PoolHistory::PoolHistory(Limits limits)
    : m_data(std::make_unique<Data>(limits)) {}

PoolHistory::~PoolHistory() = default;

void PoolHistory::record(qint64 timeMs, const QList<PoolMember> &members) {
    Data &d = *m_data;
    if (d.hasData && timeMs < d.latestMs)
        return; // out of order: the rings only move forward
    d.advance(timeMs);

    // The band covers every member read, tracked or not.
    std::vector<double> &counts = d.scratch;
    counts.clear();
    counts.reserve(size_t(members.size()));
    long double total = 0;
    for (const PoolMember &member : members) {
        counts.push_back(member.count);
        total += member.count;
    }
    if (counts.empty()) {
        d.writeBand(0, 0, 0, 0);
    } else {
        // Snapshots arrive sorted by count; only shuffled input pays for a selection.
        const size_t middle = counts.size() / 2;
        double low;
        double high;
        double median;
        if (std::is_sorted(counts.begin(), counts.end())) {
            low = counts.front();
            high = counts.back();
            median = counts[middle];
            if (counts.size() % 2 == 0)
                median = counts[middle - 1] + (median - counts[middle - 1]) / 2;
        } else {
            const auto [minIt, maxIt] = std::minmax_element(counts.begin(), counts.end());
            low = *minIt;
            high = *maxIt;
            std::nth_element(counts.begin(), counts.begin() + qsizetype(middle), counts.end());
            median = counts[middle];
            if (counts.size() % 2 == 0) {
                const double below =
                    *std::max_element(counts.begin(), counts.begin() + qsizetype(middle));
                median = below + (median - below) / 2;
            }
        }
        d.writeBand(low, median, high, double(total));
    }

    // Polls list members in much the same order each time: try last poll's slot at this
    // position before hashing the name.
    d.slotByPosition.resize(size_t(members.size()), -1);
    const auto write = [&](int slot, const PoolMember &member) {
        MemberTrack &track = d.members[size_t(slot)];
        for (int t = 0; t < kTierCount; ++t)
            track.values[t].set(d.currentSlot[t], member.count);
        if (!std::isnan(track.lastValue) && track.lastValue != member.count)
            track.lastChangeMs = timeMs;
        track.lastValue = member.count;
        track.lastSeenMs = timeMs;
    };
    // Members already tracked first, so that none of this poll's members can be taken for stale
    // when a newcomer needs a place.
    std::vector<qsizetype> &newcomers = d.newcomers;
    newcomers.clear();
    for (qsizetype position = 0; position < members.size(); ++position) {
        const PoolMember &member = members[position];
        int &cached = d.slotByPosition[size_t(position)];
        int slot = cached;
        if (slot < 0 || !d.members[size_t(slot)].active ||
            d.members[size_t(slot)].name != member.member)
            slot = d.index.value(member.member, -1);
        cached = slot;
        if (slot < 0)
            newcomers.push_back(position);
        else
            write(slot, member);
    }
    for (const qsizetype position : newcomers) {
        const PoolMember &member = members[position];
        if (d.index.contains(member.member))
            continue; // named twice in one poll
        if (!d.mayTrack(member.member) && !d.releaseStalest(timeMs))
            continue;
        const int slot = d.track(member.member);
        d.slotByPosition[size_t(position)] = slot;
        write(slot, member);
    }
}

void PoolHistory::recordBand(qint64 timeMs, double min, double median, double max, double total) {
    Data &d = *m_data;
    if (d.hasData && timeMs < d.latestMs)
        return;
    d.advance(timeMs);
    d.writeBand(min, median, max, total);
}

void PoolHistory::addEvent(const HistoryEvent &event) {
    Data &d = *m_data;
    const auto later = std::upper_bound(
        d.events.begin(), d.events.end(), event.timeMs,
        [](qint64 timeMs, const HistoryEvent &existing) { return timeMs < existing.timeMs; });
    d.events.insert(later, event);
    while (d.events.size() > kMaxEvents)
        d.events.pop_front();
}

void PoolHistory::markGap(qint64 timeMs, const QString &reason) {
    Data &d = *m_data;
    if (timeMs >= d.latestMs)
        d.splitFine = true;
    d.gaps.insert(std::upper_bound(d.gaps.begin(), d.gaps.end(), timeMs), timeMs);
    while (d.gaps.size() > kMaxGaps)
        d.gaps.pop_front();
    HistoryEvent event;
    event.timeMs = timeMs;
    event.kind = HistoryEvent::Kind::Gap;
    event.label = reason;
    addEvent(event);
}

void PoolHistory::setPinned(const QList<QByteArray> &members) {
    Data &d = *m_data;
    d.pinned = QSet<QByteArray>(members.cbegin(), members.cend());
    d.trackedUnpinned = 0;
    for (MemberTrack &member : d.members) {
        if (!member.active)
            continue;
        member.pinned = d.pinned.contains(member.name);
        if (!member.pinned)
            ++d.trackedUnpinned;
    }
}

int PoolHistory::maxTrackedMembers() const {
    return m_data->limits.maxTrackedMembers;
}

QList<HistoryPoint> PoolHistory::series(const QByteArray &member, qint64 fromMs,
                                        qint64 toMs) const {
    const Data &d = *m_data;
    QList<HistoryPoint> points;
    const int slot = d.index.value(member, -1);
    if (slot < 0 || fromMs > toMs)
        return points;
    const MemberTrack &track = d.members[size_t(slot)];
    LineBreaks breaks(d.gaps, fromMs);
    d.forEachSlot(fromMs, toMs, [&](int t, size_t physical) {
        const qint64 timeMs = d.tiers[t].times[physical];
        const double count = track.values[t].at(physical);
        if (const auto breakMs = breaks.before(timeMs, !std::isnan(count)))
            points.append({*breakMs, kNaN});
        if (!std::isnan(count))
            points.append({timeMs, count});
    });
    return points;
}

QList<BandPoint> PoolHistory::band(qint64 fromMs, qint64 toMs) const {
    const Data &d = *m_data;
    QList<BandPoint> points;
    if (fromMs > toMs)
        return points;
    LineBreaks breaks(d.gaps, fromMs);
    d.forEachSlot(fromMs, toMs, [&](int t, size_t physical) {
        const Tier &tier = d.tiers[t];
        const bool present = !std::isnan(tier.median[physical]);
        if (const auto breakMs = breaks.before(tier.times[physical], present))
            points.append({*breakMs, kNaN, kNaN, kNaN});
        if (present)
            points.append({tier.times[physical], tier.min[physical], tier.median[physical],
                           tier.max[physical]});
    });
    return points;
}

QList<HistoryPoint> PoolHistory::totalSeries(qint64 fromMs, qint64 toMs) const {
    const Data &d = *m_data;
    QList<HistoryPoint> points;
    if (fromMs > toMs)
        return points;
    LineBreaks breaks(d.gaps, fromMs);
    d.forEachSlot(fromMs, toMs, [&](int t, size_t physical) {
        const Tier &tier = d.tiers[t];
        const double total = tier.total[physical];
        if (const auto breakMs = breaks.before(tier.times[physical], !std::isnan(total)))
            points.append({*breakMs, kNaN});
        if (!std::isnan(total))
            points.append({tier.times[physical], total});
    });
    return points;
}

QList<HistoryEvent> PoolHistory::events(qint64 fromMs, qint64 toMs) const {
    const Data &d = *m_data;
    QList<HistoryEvent> found;
    auto it = std::lower_bound(
        d.events.begin(), d.events.end(), fromMs,
        [](const HistoryEvent &existing, qint64 timeMs) { return existing.timeMs < timeMs; });
    for (; it != d.events.end() && it->timeMs <= toMs; ++it)
        found.append(*it);
    return found;
}

QList<QByteArray> PoolHistory::trackedMembers() const {
    QList<QByteArray> names;
    for (const MemberTrack &member : m_data->members)
        if (member.active)
            names.append(member.name);
    return names;
}

double PoolHistory::ratePerSecond(const QByteArray &member, qint64 windowMs) const {
    const Data &d = *m_data;
    const int slot = d.index.value(member, -1);
    if (slot < 0 || !d.hasData || windowMs <= 0)
        return 0;
    const qint64 fromMs = d.latestMs - windowMs;
    const int t = d.tierCovering(fromMs);
    const Data::Rise rise = d.riseOf(d.members[size_t(slot)], t, d.tiers[t].lowerBound(fromMs));
    if (rise.points < 2 || rise.lastMs <= rise.firstMs)
        return 0;
    return rise.amount * 1000.0 / double(rise.lastMs - rise.firstMs);
}

QHash<QByteArray, double> PoolHistory::deltas(qint64 windowMs) const {
    const Data &d = *m_data;
    QHash<QByteArray, double> rises;
    if (!d.hasData || windowMs <= 0)
        return rises;
    const qint64 fromMs = d.latestMs - windowMs;
    const int t = d.tierCovering(fromMs);
    const size_t from = d.tiers[t].lowerBound(fromMs);
    rises.reserve(d.index.size());
    for (const MemberTrack &member : d.members)
        if (member.active)
            rises.insert(member.name, d.riseOf(member, t, from).amount);
    return rises;
}

std::optional<qint64> PoolHistory::lastChangeMs(const QByteArray &member) const {
    const int slot = m_data->index.value(member, -1);
    if (slot < 0 || m_data->members[size_t(slot)].lastChangeMs < 0)
        return std::nullopt;
    return m_data->members[size_t(slot)].lastChangeMs;
}

qint64 PoolHistory::latestTimeMs() const {
    return m_data->latestMs;
}

qint64 PoolHistory::bytesHeld() const {
    const Data &d = *m_data;
    qint64 bytes = qint64(sizeof(Data));
    for (const Tier &tier : d.tiers)
        bytes += tier.bytes();
    bytes += qint64(d.members.capacity() * sizeof(MemberTrack));
    for (const MemberTrack &member : d.members) {
        for (const ValueBuffer &values : member.values)
            bytes += values.bytes();
        bytes += keyBytes(member.name); // shared with the index's copy of the key
    }
    bytes += qint64(d.freeMembers.capacity() * sizeof(int));
    bytes += d.index.capacity() * kHashEntryOverhead;
    bytes += d.pinned.capacity() * kHashEntryOverhead;
    for (const QByteArray &name : d.pinned)
        bytes += keyBytes(name);
    for (const HistoryEvent &event : d.events)
        bytes += qint64(sizeof(HistoryEvent)) + keyBytes(event.member) +
                 (event.label.isEmpty() ? 0 : event.label.capacity() * 2 + kByteArrayHeader);
    bytes += qint64(d.gaps.size() * sizeof(qint64));
    bytes += qint64(d.scratch.capacity() * sizeof(double));
    bytes += qint64(d.slotByPosition.capacity() * sizeof(int));
    return bytes;
}

void PoolHistory::clear() {
    m_data = std::make_unique<Data>(m_data->limits);
}

} // namespace poolscope
