#pragma once

#include <QByteArrayView>

namespace poolscope {

// The members table's natural order of proxy ids: scheme and credentials set aside, IPv4
// addresses by their numeric octets (45.76.1.1 before 45.76.1.10), then IPv6 addresses by their
// numeric groups, then host names with their digit runs compared as numbers (m2 before m10),
// each by host first and then by numeric port. Ids that tie (same host and port) fall back to the
// whole text, so the order is total.
// Negative, zero or positive, like strcmp.
int compareMembersNaturally(QByteArrayView a, QByteArrayView b);
inline bool memberNaturallyLess(QByteArrayView a, QByteArrayView b) {
    return compareMembersNaturally(a, b) < 0;
}

} // namespace poolscope
