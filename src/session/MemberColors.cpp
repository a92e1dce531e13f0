#include "session/MemberColors.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace poolscope {

namespace {

// Picked farthest-first in CIELAB by CIEDE2000, after the four most familiar chart colours, from
// colours of lightness 30-67 and chroma at least 38 (visible as 1.5 px lines on white, never
// grey: grey means "evicted", and the pool's own lines are grey-blue), then each moved to the
// candidate farthest from all others. Any two of the first ten are at least 19 apart, of the
// first twenty 15, of all 14: the earlier twenty had blues 5.5 apart, and golden-angle hues
// from the 21st member on landed next to palette colours.
constexpr std::array<QRgb, 32> kPalette{
    0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0xfc0cfc, 0x545400, 0x840084, 0xc09c00,
    0x18b49c, 0x846cfc, 0x0018f0, 0x0c5424, 0x84540c, 0x00a8e4, 0x008460, 0xc0546c,
    0xd8846c, 0xfc6cb4, 0xa800f0, 0x90a800, 0xb484cc, 0x789cfc, 0xcc189c, 0x903000,
    0xb47824, 0x3c549c, 0x847800, 0x547830, 0xcc5400, 0x785490, 0x9c0c54, 0x9c0024,
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
