#include "RateTracker.h"

#include <algorithm>

namespace poolscope {

RateTracker::RateTracker(qint64 windowMs)
    : m_windowMs(std::max<qint64>(windowMs, 1)) {}

void RateTracker::setWindowMs(qint64 windowMs) {
    m_windowMs = std::max<qint64>(windowMs, 1);
    trim();
}

void RateTracker::record(qint64 timeMs, const QList<PoolMember> &members) {
    QHash<QByteArray, double> current;
    current.reserve(members.size());
    for (const PoolMember &member : members)
        current.insert(member.member, member.count);

    if (m_previousMs >= 0 && timeMs > m_previousMs) {
        Tick tick;
        tick.fromMs = m_previousMs;
        tick.toMs = timeMs;
        for (auto it = current.cbegin(); it != current.cend(); ++it) {
            const auto before = m_previous.constFind(it.key());
            if (before == m_previous.cend())
                continue;
            const double delta = it.value() - before.value();
            if (delta > 0) {
                tick.deltas.insert(it.key(), delta);
                tick.total += delta;
            }
        }
        m_totalAllocations += tick.total;
        m_ticks.push_back(std::move(tick));
    }
    if (m_previousMs < 0 || timeMs > m_previousMs) {
        m_previous = std::move(current);
        m_previousMs = timeMs;
    }
    trim();
}

void RateTracker::trim() {
    if (m_ticks.empty())
        return;
    const qint64 cutoff = m_ticks.back().toMs - m_windowMs;
    // Keep the tick that straddles the cutoff so the window is never shorter than asked.
    while (m_ticks.size() > 1 && m_ticks[1].fromMs <= cutoff)
        m_ticks.pop_front();
}

void RateTracker::clear() {
    m_ticks.clear();
    m_previous.clear();
    m_previousMs = -1;
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
    const qint64 covered = coveredMs();
    return covered > 0 ? windowAllocations() * 1000.0 / double(covered) : 0.0;
}

double RateTracker::memberRate(const QByteArray &member) const {
    const qint64 covered = coveredMs();
    if (covered <= 0)
        return 0.0;
    double total = 0;
    for (const Tick &tick : m_ticks)
        total += tick.deltas.value(member, 0.0);
    return total * 1000.0 / double(covered);
}

QHash<QByteArray, double> RateTracker::memberAllocations() const {
    QHash<QByteArray, double> totals;
    for (const Tick &tick : m_ticks)
        for (auto it = tick.deltas.cbegin(); it != tick.deltas.cend(); ++it)
            totals[it.key()] += it.value();
    return totals;
}

} // namespace poolscope
