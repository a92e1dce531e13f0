// PoolSession's pins: the one set of pinned members, handed to what keeps or reads them.
#include "session/PoolSession.h"

#include <algorithm>

namespace poolscope {

void PoolSession::pin(const QList<QByteArray> &members) {
    QSet<QByteArray> pins = m_pins;
    pins.unite(QSet<QByteArray>(members.cbegin(), members.cend()));
    setPins(QList<QByteArray>(pins.cbegin(), pins.cend()));
}

void PoolSession::unpin(const QList<QByteArray> &members) {
    QSet<QByteArray> pins = m_pins;
    pins.subtract(QSet<QByteArray>(members.cbegin(), members.cend()));
    setPins(QList<QByteArray>(pins.cbegin(), pins.cend()));
}

void PoolSession::togglePins(const QList<QByteArray> &members) {
    const bool allPinned = std::all_of(members.cbegin(), members.cend(),
                                       [this](const QByteArray &m) { return m_pins.contains(m); });
    if (allPinned)
        unpin(members);
    else
        pin(members);
}

void PoolSession::setPins(const QList<QByteArray> &members) {
    QSet<QByteArray> pins(members.cbegin(), members.cend());
    if (pins == m_pins)
        return;
    m_pins = std::move(pins);
    const QList<QByteArray> sorted = this->pins();
    // Their colour now, before the chart draws them: one handed out later would differ from the
    // legend swatch drawn with the first.
    m_colors.assign(sorted);
    m_history->setPinned(sorted);     // tracked past the history's limit
    m_feed->setPinnedMembers(sorted); // read on every poll of a big pool (the poller's thread)
    Q_EMIT pinsChanged(sorted);
}

QList<QByteArray> PoolSession::pins() const {
    QList<QByteArray> members(m_pins.cbegin(), m_pins.cend());
    std::sort(members.begin(), members.end());
    return members;
}

} // namespace poolscope
