#include "session/RateTracker.h"

#include <algorithm>

namespace poolscope {

RateTracker::RateTracker(qint64 windowMs)
    : m_windowMs(std::max<qint64>(windowMs, 1)) {}

void RateTracker::setWindowMs(qint64 windowMs) {
    m_windowMs = std::max<qint64>(windowMs, 1);
    trim();
}

QList<QByteArray> RateTracker::record(qint64 timeMs, const QList<PoolMember> &members) {
    QList<QByteArray> arrived;
    if (m_previousMs >= 0 && timeMs <= m_previousMs)
        return arrived; // an older or repeated poll changes nothing
    const bool hasPrevious = m_previousMs >= 0;
    const quint64 poll = ++m_polls;
    Tick tick;
    tick.fromMs = m_previousMs;
    tick.toMs = timeMs;
    m_previous.reserve(members.size());
    for (const PoolMember &member : members) {
        auto before = m_previous.find(member.member);
        if (before == m_previous.end()) {
            m_previous.insert(member.member, {member.count, poll, -1, timeMs}); // new: none yet
            arrived.append(member.member);
            continue;
        }
        // A member missing from the last poll that came back (restored) starts afresh: its rise
        // is not an allocation, and its last change is not known.
        const bool continuous = before->poll + 1 == poll || m_allPresentAt + 1 == poll;
        const double delta = member.count - before->count;
        if (!continuous) {
            arrived.append(member.member);
            before->lastChangeMs = -1;
            before->sinceMs = timeMs;
        } else if (delta != 0) {
            before->lastChangeMs = timeMs;
            if (delta > 0) {
                tick.deltas.emplace_back(member.member, delta);
                tick.total += delta;
            }
        }
        before->count = member.count;
        before->poll = poll;
    }
    // Members gone from this poll are forgotten, so a later return counts as new.
    if (m_previous.size() > members.size())
        m_previous.removeIf([poll](const auto &entry) { return entry.value().poll != poll; });
    m_previousMs = timeMs;
    if (hasPrevious)
        addTick(std::move(tick));
    return arrived;
}

QList<QByteArray> RateTracker::recordChanges(qint64 timeMs, const PoolChanges &changes) {
    QList<QByteArray> arrived;
    if (m_previousMs < 0 || timeMs <= m_previousMs)
        return arrived; // changes need a poll before them; an older one changes nothing
    const quint64 poll = ++m_polls;
    Tick tick;
    tick.fromMs = m_previousMs;
    tick.toMs = timeMs;
    for (const QByteArray &member : changes.gone)
        m_previous.remove(member); // a later return counts as new
    for (const MemberChange &change : changes.changed) {
        auto before = m_previous.find(change.member);
        if (before == m_previous.end()) { // new in the pool (before is NaN)
            m_previous.insert(change.member, {change.now, poll, -1, timeMs});
            arrived.append(change.member);
            continue;
        }
        const double delta = change.now - before->count;
        if (delta != 0) {
            before->lastChangeMs = timeMs;
            if (delta > 0) {
                tick.deltas.emplace_back(change.member, delta);
                tick.total += delta;
            }
        }
        before->count = change.now;
        before->poll = poll;
    }
    m_allPresentAt = poll; // the members not named are in the pool as they were
    m_previousMs = timeMs;
    addTick(std::move(tick));
    return arrived;
}

void RateTracker::addTick(Tick &&tick) {
    m_totalAllocations += tick.total;
    for (const auto &[member, delta] : std::as_const(tick.deltas)) {
        m_windowAllocations[member] += delta;
        ++m_windowTicks[member];
    }
    m_ticks.push_back(std::move(tick));
    trim();
}

void RateTracker::dropOldestTick() {
    const Tick &oldest = m_ticks.front();
    for (const auto &[member, delta] : oldest.deltas) {
        const auto ticks = m_windowTicks.find(member);
        if (ticks == m_windowTicks.end())
            continue;
        if (--*ticks == 0) {
            m_windowTicks.erase(ticks);
            m_windowAllocations.remove(member);
        } else {
            m_windowAllocations[member] -= delta;
        }
    }
    m_ticks.pop_front();
}

void RateTracker::trim() {
    if (m_ticks.empty())
        return;
    const qint64 cutoff = m_ticks.back().toMs - m_windowMs;
    // Keep the tick that straddles the cutoff so the window is never shorter than asked.
    while (m_ticks.size() > 1 && m_ticks[1].fromMs <= cutoff)
        dropOldestTick();
}

void RateTracker::recordPoolAllocations(qint64 timeMs, std::optional<double> allocations) {
    if (m_previousPoolMs >= 0 && timeMs <= m_previousPoolMs)
        return;
    if (allocations && m_previousPoolMs >= 0)
        m_poolTicks.push_back({m_previousPoolMs, timeMs, *allocations});
    m_previousPoolMs = timeMs;
    while (m_poolTicks.size() > 1 && m_poolTicks[1].fromMs <= timeMs - m_windowMs)
        m_poolTicks.pop_front();
    // A tick older than the window (unknown stretches since) says nothing about now.
    if (!m_poolTicks.empty() && m_poolTicks.back().toMs <= timeMs - m_windowMs)
        m_poolTicks.clear();
}

void RateTracker::clearPoolAllocations() {
    m_poolTicks.clear();
    m_previousPoolMs = -1;
}

void RateTracker::clear() {
    clearPoolAllocations();
    m_ticks.clear();
    m_previous.clear();
    m_windowAllocations.clear();
    m_windowTicks.clear();
    m_previousMs = -1;
    m_polls = 0;
    m_allPresentAt = 0;
    m_totalAllocations = 0;
}

qint64 RateTracker::coveredMs() const {
    if (m_ticks.empty())
        return 0;
    return m_ticks.back().toMs - m_ticks.front().fromMs;
}

double RateTracker::windowAllocations() const {
    double total = 0;
    for (const Tick &tick : m_ticks)
        total += tick.total;
    return total;
}

double RateTracker::poolRate() const {
    if (!m_poolTicks.empty()) {
        double total = 0;
        qint64 span = 0;
        for (const PoolTick &tick : m_poolTicks) {
            total += tick.total;
            span += tick.toMs - tick.fromMs;
        }
        return span > 0 ? total * 1000.0 / double(span) : 0.0;
    }
    const qint64 covered = coveredMs();
    return covered > 0 ? windowAllocations() * 1000.0 / double(covered) : 0.0;
}

RateTracker::Activity RateTracker::activity(const QByteArray &member) const {
    Activity activity;
    const auto found = m_previous.constFind(member);
    activity.followed =
        found != m_previous.cend() && (found->poll == m_polls || m_allPresentAt == m_polls);
    if (!activity.followed)
        return activity;
    if (found->lastChangeMs >= 0)
        activity.lastChangeMs = found->lastChangeMs;
    activity.rateKnown = found->sinceMs < m_previousMs;
    if (!activity.rateKnown || m_ticks.empty())
        return activity;
    const qint64 from = std::max(m_ticks.front().fromMs, found->sinceMs);
    const qint64 span = m_ticks.back().toMs - from;
    if (span > 0)
        activity.ratePerSecond = m_windowAllocations.value(member, 0.0) * 1000.0 / double(span);
    return activity;
}

double RateTracker::memberRate(const QByteArray &member) const {
    const qint64 covered = coveredMs();
    if (covered <= 0)
        return 0.0;
    return m_windowAllocations.value(member, 0.0) * 1000.0 / double(covered);
}

} // namespace poolscope
