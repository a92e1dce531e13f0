#include "session/MemberColors.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace poolscope {

namespace {

// Distinct, saturated enough for 1.5 px lines on white; no greys (grey means "evicted").
constexpr std::array<QRgb, 20> kPalette{
    0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2,
    0x17becf, 0xbcbd22, 0x000075, 0x637939, 0xad494a, 0x7b4173, 0x469990,
    0xe6b800, 0xf032e6, 0x4b0082, 0x00b386, 0x202020, 0x9a6324,
};

} // namespace

QColor MemberColors::colorAt(qsizetype index) {
    if (index >= 0 && index < qsizetype(kPalette.size()))
        return QColor::fromRgb(kPalette[size_t(index)]);
    // Golden-angle hues, alternating lightness so neighbours differ even when hues come close.
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
