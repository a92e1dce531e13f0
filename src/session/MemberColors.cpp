#include "session/MemberColors.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace poolscope {

namespace {

// Picked farthest-first in CIELAB from saturated colours of lightness 28-68 (visible as 1.5 px
// lines on white): any two are at least 25 apart (the earlier hand-picked list had pairs at 14,
// navy beside indigo); no greys (grey means "evicted").
constexpr std::array<QRgb, 20> kPalette{
    0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0xf320f3, 0x910763, 0x0b52de,
    0x7e5d1a, 0x219f8a, 0x2020f3, 0x9f9f21, 0xf320ac, 0x7d09b8, 0x7e2b1a,
    0xf32066, 0xd5703d, 0x1a6d7e, 0x0b75de, 0xb87d09, 0x1a7e3b,
};

} // namespace

QColor MemberColors::colorAt(qsizetype index) {
    if (index >= 0 && index < qsizetype(kPalette.size()))
        return QColor::fromRgb(kPalette[size_t(index)]);
    // Golden-angle hues, alternating lightness so neighbours differ even when hues come close.
    // A member never assigned gets an index from its name's hash: spread by the golden angle too,
    // alike names land far apart.
    const double hue = std::fmod(double(index) * 0.618033988749895, 1.0);
    const double lightness = (index % 2 == 0) ? 0.42 : 0.55;
    return QColor::fromHslF(float(hue), 0.70f, float(lightness));
}

void MemberColors::assign(const QList<QByteArray> &members) {
    // Only the new members are sorted: a 10,000-member pool polled every second is almost never
    // new, and sorting all of it each time cost the GUI thread milliseconds.
    QList<QByteArray> fresh;
    for (const QByteArray &member : members)
        if (!m_colors.contains(member))
            fresh.append(member);
    std::sort(fresh.begin(), fresh.end());
    for (const QByteArray &member : fresh)
        if (!m_colors.contains(member)) // a batch may name a member twice
            m_colors.insert(member, colorAt(m_colors.size()));
}

QColor MemberColors::colorFor(const QByteArray &member) const {
    const auto found = m_colors.constFind(member);
    if (found != m_colors.constEnd())
        return *found;
    return colorAt(kPalette.size() + qsizetype(qHash(member, 0) % 997));
}

void MemberColors::clear() {
    m_colors.clear();
}

} // namespace poolscope
