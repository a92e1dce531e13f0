#include "members/MemberOrder.h"

#include <array>
#include <optional>

#include <QList>

namespace poolscope {

namespace {

enum class HostClass { IPv4, IPv6, Name };

struct HostPort {
    HostClass hostClass = HostClass::Name;
    QByteArrayView host;
    quint32 ipv4 = 0;
    std::array<quint16, 8> ipv6{};
    qint64 port = -1; // none
};

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

char lower(char c) {
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

std::optional<qint64> parseNumber(QByteArrayView text, qint64 maximum) {
    if (text.isEmpty() || text.size() > 10)
        return std::nullopt;
    qint64 value = 0;
    for (char c : text) {
        if (!isDigit(c))
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    if (value > maximum)
        return std::nullopt;
    return value;
}

std::optional<quint32> parseIPv4(QByteArrayView text) {
    quint32 value = 0;
    int parts = 0;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] != '.')
            continue;
        const auto octet = parseNumber(text.sliced(start, i - start), 255);
        if (!octet || ++parts > 4)
            return std::nullopt;
        value = (value << 8) | quint32(*octet);
        start = i + 1;
    }
    return parts == 4 ? std::optional<quint32>(value) : std::nullopt;
}

std::optional<quint16> parseHexGroup(QByteArrayView text) {
    if (text.isEmpty() || text.size() > 4)
        return std::nullopt;
    quint16 value = 0;
    for (char c : text) {
        const char l = lower(c);
        int digit = 0;
        if (isDigit(l))
            digit = l - '0';
        else if (l >= 'a' && l <= 'f')
            digit = l - 'a' + 10;
        else
            return std::nullopt;
        value = quint16(value * 16 + digit);
    }
    return value;
}

// Groups of an IPv6 address ("2001:db8::1"); an IPv4 tail ("::ffff:1.2.3.4") is accepted.
std::optional<std::array<quint16, 8>> parseIPv6(QByteArrayView text) {
    if (text.size() < 2 || !text.contains(':'))
        return std::nullopt;
    const qsizetype gap = text.indexOf("::");
    const auto parseGroups = [](QByteArrayView part, QList<quint16> &groups) {
        if (part.isEmpty())
            return true;
        qsizetype start = 0;
        for (qsizetype i = 0; i <= part.size(); ++i) {
            if (i < part.size() && part[i] != ':')
                continue;
            const QByteArrayView piece = part.sliced(start, i - start);
            if (i == part.size() && piece.contains('.')) {
                const auto v4 = parseIPv4(piece);
                if (!v4)
                    return false;
                groups.append(quint16(*v4 >> 16));
                groups.append(quint16(*v4 & 0xffff));
                return true;
            }
            const auto group = parseHexGroup(piece);
            if (!group)
                return false;
            groups.append(*group);
            start = i + 1;
        }
        return true;
    };
    QList<quint16> head;
    QList<quint16> tail;
    if (gap >= 0) {
        if (text.sliced(gap + 2).contains("::"))
            return std::nullopt;
        if (!parseGroups(text.first(gap), head) || !parseGroups(text.sliced(gap + 2), tail) ||
            head.size() + tail.size() > 7)
            return std::nullopt;
    } else if (!parseGroups(text, head) || head.size() != 8) {
        return std::nullopt;
    }
    std::array<quint16, 8> groups{};
    for (qsizetype i = 0; i < head.size(); ++i)
        groups[size_t(i)] = head[i];
    for (qsizetype i = 0; i < tail.size(); ++i)
        groups[size_t(8 - tail.size() + i)] = tail[i];
    return groups;
}

HostPort parseMember(QByteArrayView member) {
    QByteArrayView rest = member;
    if (const qsizetype scheme = rest.indexOf("://"); scheme >= 0)
        rest = rest.sliced(scheme + 3);
    if (const qsizetype slash = rest.indexOf('/'); slash >= 0)
        rest = rest.first(slash);
    if (const qsizetype at = rest.lastIndexOf('@'); at >= 0)
        rest = rest.sliced(at + 1);

    HostPort parsed;
    QByteArrayView host = rest;
    if (rest.startsWith('[')) {
        const qsizetype close = rest.indexOf(']');
        if (close > 0) {
            host = rest.sliced(1, close - 1);
            const QByteArrayView after = rest.sliced(close + 1);
            if (after.startsWith(':'))
                parsed.port = parseNumber(after.sliced(1), 65535).value_or(-1);
        }
    } else if (const qsizetype colon = rest.lastIndexOf(':'); colon >= 0) {
        if (rest.first(colon).contains(':')) {
            // Several colons and no brackets: a bare IPv6 address, or one with a port after it.
            if (!parseIPv6(rest)) {
                const auto port = parseNumber(rest.sliced(colon + 1), 65535);
                if (port && parseIPv6(rest.first(colon))) {
                    host = rest.first(colon);
                    parsed.port = *port;
                }
            }
        } else if (const auto port = parseNumber(rest.sliced(colon + 1), 65535)) {
            host = rest.first(colon);
            parsed.port = *port;
        }
    }
    parsed.host = host;
    if (const auto v4 = parseIPv4(host)) {
        parsed.hostClass = HostClass::IPv4;
        parsed.ipv4 = *v4;
    } else if (const auto v6 = parseIPv6(host)) {
        parsed.hostClass = HostClass::IPv6;
        parsed.ipv6 = *v6;
    }
    return parsed;
}

template <typename T> int compareValues(const T &a, const T &b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

// Text with digit runs compared as numbers, letters without regard to case.
int compareNatural(QByteArrayView a, QByteArrayView b) {
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            qsizetype endA = i;
            qsizetype endB = j;
            while (endA < a.size() && isDigit(a[endA]))
                ++endA;
            while (endB < b.size() && isDigit(b[endB]))
                ++endB;
            qsizetype startA = i;
            qsizetype startB = j;
            while (startA + 1 < endA && a[startA] == '0')
                ++startA;
            while (startB + 1 < endB && b[startB] == '0')
                ++startB;
            if (const int byLength = compareValues(endA - startA, endB - startB); byLength != 0)
                return byLength;
            for (; startA < endA; ++startA, ++startB)
                if (a[startA] != b[startB])
                    return compareValues(a[startA], b[startB]);
            i = endA;
            j = endB;
            continue;
        }
        if (const int c = compareValues(lower(a[i]), lower(b[j])); c != 0)
            return c;
        ++i;
        ++j;
    }
    return compareValues(a.size() - i, b.size() - j);
}

} // namespace

int compareMembersNaturally(QByteArrayView a, QByteArrayView b) {
    const HostPort left = parseMember(a);
    const HostPort right = parseMember(b);
    if (const int c = compareValues(int(left.hostClass), int(right.hostClass)); c != 0)
        return c;
    int byHost = 0;
    switch (left.hostClass) {
    case HostClass::IPv4:
        byHost = compareValues(left.ipv4, right.ipv4);
        break;
    case HostClass::IPv6:
        byHost = compareValues(left.ipv6, right.ipv6);
        break;
    case HostClass::Name:
        byHost = compareNatural(left.host, right.host);
        break;
    }
    if (byHost != 0)
        return byHost;
    if (const int c = compareValues(left.port, right.port); c != 0)
        return c;
    if (const int c = compareNatural(a, b); c != 0)
        return c;
    return compareValues(a, b);
}

} // namespace poolscope
