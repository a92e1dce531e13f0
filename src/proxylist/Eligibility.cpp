// The eligibility rules: schemes, ports, and which addresses count as public.
#include "proxylist/Eligibility.h"

#include "proxylist/RuleChecker.h"

#include <QCoreApplication>
#include <QHash>
#include <QStringList>

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace poolscope {

namespace {

// Copies printable ASCII into a NUL-terminated buffer for inet_pton; false for anything else
// (an embedded NUL would otherwise let "1.2.3.4\0junk" pass).
template <size_t N> bool toAsciiBuffer(const QString &text, std::array<char, N> &buffer) {
    if (text.isEmpty() || text.size() >= qsizetype(N))
        return false;
    buffer.fill('\0');
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (c <= 0x20 || c >= 0x7f)
            return false;
        buffer[i] = static_cast<char>(c);
    }
    return true;
}

// Strict dotted decimal only (inet_pton): four parts 0-255 without leading zeros.
bool parseIpv4(const QString &host, quint32 &addressHostOrder) {
    std::array<char, INET_ADDRSTRLEN> ascii;
    in_addr address{};
    if (!toAsciiBuffer(host, ascii) || inet_pton(AF_INET, ascii.data(), &address) != 1)
        return false;
    addressHostOrder = ntohl(address.s_addr);
    return true;
}

// What inet_aton (and so getaddrinfo, curl, most proxy clients) also reads as IPv4: hexadecimal
// (0x7f000001) and octal (0177.0.0.1) parts, and 1-3 parts (127.1, 2130706433). A list entry
// written that way reaches the address it encodes, whatever it looks like.
bool parseLooseIpv4(const QString &host, quint32 &addressHostOrder) {
    std::array<char, 256> ascii;
    in_addr address{};
    if (!toAsciiBuffer(host, ascii) || inet_aton(ascii.data(), &address) == 0)
        return false;
    addressHostOrder = ntohl(address.s_addr);
    return true;
}

bool parseIpv6(const QString &host, std::array<quint8, 16> &bytes) {
    std::array<char, INET6_ADDRSTRLEN> ascii;
    in6_addr address{};
    if (!toAsciiBuffer(host, ascii) || inet_pton(AF_INET6, ascii.data(), &address) != 1)
        return false;
    std::memcpy(bytes.data(), &address, bytes.size());
    return true;
}

QString dottedDecimal(quint32 address) {
    return QStringLiteral("%1.%2.%3.%4")
        .arg(address >> 24)
        .arg((address >> 16) & 0xff)
        .arg((address >> 8) & 0xff)
        .arg(address & 0xff);
}

// The ways HOST departs from dotted decimal ("hexadecimal", "octal", "shortened"), as a list.
QString looseIpv4FormNames(const QString &host) {
    const QStringList parts = host.split(u'.');
    bool hex = false;
    bool octal = false;
    for (const QString &part : parts) {
        if (part.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
            hex = true;
        else if (part.size() > 1 && part.startsWith(u'0'))
            octal = true;
    }
    QStringList forms;
    if (hex)
        forms << QCoreApplication::translate("ProxyList", "hexadecimal",
                                             "a way of writing an IPv4 address: 0x7f.0.0.1");
    if (octal)
        forms << QCoreApplication::translate("ProxyList", "octal",
                                             "a way of writing an IPv4 address: 0177.0.0.1");
    if (parts.size() < 4)
        forms << QCoreApplication::translate(
            "ProxyList", "shortened",
            "a way of writing an IPv4 address: 127.1 (fewer than 4 parts)");
    return forms.join(u'/');
}

// Labels of 1-63 [a-z0-9-] not starting or ending with '-', at most 253 characters, and a
// letter in the last label so that digits-and-dots strings such as "999.1.1.1" are not names.
bool isValidDnsName(const QString &host) {
    if (host.isEmpty() || host.size() > 253)
        return false;
    qsizetype labelStart = 0;
    bool lastLabelHasLetter = false;
    for (qsizetype i = 0; i <= host.size(); ++i) {
        if (i == host.size() || host[i] == u'.') {
            const qsizetype length = i - labelStart;
            if (length < 1 || length > 63 || host[labelStart] == u'-' || host[i - 1] == u'-')
                return false;
            labelStart = i + 1;
            continue;
        }
        const QChar c = host[i];
        const bool isLetter = c >= u'a' && c <= u'z';
        if (!isLetter && !(c >= u'0' && c <= u'9') && c != u'-')
            return false;
        if (labelStart == i)
            lastLabelHasLetter = false;
        lastLabelHasLetter = lastLabelHasLetter || isLetter;
    }
    return lastLabelHasLetter;
}

bool inIpv4Network(quint32 address, quint32 network, int prefixLength) {
    const quint32 mask = prefixLength == 0 ? 0 : ~quint32(0) << (32 - prefixLength);
    return (address & mask) == network;
}

constexpr quint32 ipv4(quint8 a, quint8 b, quint8 c, quint8 d) {
    return quint32(a) << 24 | quint32(b) << 16 | quint32(c) << 8 | quint32(d);
}

// The kinds of address that are not public. The documentation ranges count: nothing answers
// there, so they are not public either.
enum class AddressKind {
    Public,
    Unspecified,
    Reserved,
    Private,
    Cgnat,
    Loopback,
    LinkLocal,
    SiteLocal,
    Documentation,
    Multicast,
    Broadcast,
    DeprecatedCompatible,
};

struct Text {
    const char *source;
    const char *comment;
};

QString translated(const Text &text) {
    return QCoreApplication::translate("ProxyList", text.source, text.comment);
}

// "%1 is a loopback address", a whole sentence per kind (indexed by AddressKind).
constexpr Text kKindSentences[] = {
    {"", ""},
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is an unspecified address", "%1: an IP address"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a reserved address", "%1: an IP address"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a private address", "%1: an IP address"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a CGNAT address",
                       "%1: an IP address; CGNAT: carrier-grade NAT, 100.64.0.0/10"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a loopback address", "%1: an IP address"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a link-local address", "%1: an IP address"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a site-local address", "%1: an IP address"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a documentation address",
                       "%1: an IP address in a range reserved for examples in documentation"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a multicast address", "%1: an IP address"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a broadcast address", "%1: an IP address"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a reserved (deprecated IPv4-compatible) address",
                       "%1: an IPv6 address of the form ::a.b.c.d"),
};

// The kind alone, in parentheses after the IPv4 address an IPv6 address carries.
constexpr Text kKindLabels[] = {
    {"", ""},
    QT_TRANSLATE_NOOP3("ProxyList", "unspecified", "a kind of IP address: 0.0.0.0 (unspecified)"),
    QT_TRANSLATE_NOOP3("ProxyList", "reserved", "a kind of IP address: 240.0.0.1 (reserved)"),
    QT_TRANSLATE_NOOP3("ProxyList", "private", "a kind of IP address: 10.0.0.1 (private)"),
    QT_TRANSLATE_NOOP3("ProxyList", "CGNAT", "a kind of IP address: 100.64.0.1 (CGNAT)"),
    QT_TRANSLATE_NOOP3("ProxyList", "loopback", "a kind of IP address: 127.0.0.1 (loopback)"),
    QT_TRANSLATE_NOOP3("ProxyList", "link-local", "a kind of IP address: 169.254.0.1 (link-local)"),
    QT_TRANSLATE_NOOP3("ProxyList", "site-local", "a kind of IP address"),
    QT_TRANSLATE_NOOP3("ProxyList", "documentation",
                       "a kind of IP address: 192.0.2.1 (documentation), a range reserved for "
                       "examples"),
    QT_TRANSLATE_NOOP3("ProxyList", "multicast", "a kind of IP address: 224.0.0.1 (multicast)"),
    QT_TRANSLATE_NOOP3("ProxyList", "broadcast",
                       "a kind of IP address: 255.255.255.255 (broadcast)"),
    QT_TRANSLATE_NOOP3("ProxyList", "reserved", "a kind of IP address: 240.0.0.1 (reserved)"),
};

QString kindSentence(AddressKind kind, const QString &host) {
    return translated(kKindSentences[int(kind)]).arg(host);
}

QString kindLabel(AddressKind kind) {
    return translated(kKindLabels[int(kind)]);
}

// What kind of address this is; Public when none of the ranges holds it.
AddressKind ipv4Kind(quint32 address) {
    struct Range {
        quint32 network;
        int prefixLength;
        AddressKind kind;
    };
    using K = AddressKind;
    static constexpr Range ranges[] = {
        {ipv4(0, 0, 0, 0), 32, K::Unspecified},
        {ipv4(0, 0, 0, 0), 8, K::Reserved}, // "this network"
        {ipv4(10, 0, 0, 0), 8, K::Private},
        {ipv4(100, 64, 0, 0), 10, K::Cgnat},
        {ipv4(127, 0, 0, 0), 8, K::Loopback},
        {ipv4(169, 254, 0, 0), 16, K::LinkLocal},
        {ipv4(172, 16, 0, 0), 12, K::Private},
        {ipv4(192, 0, 0, 0), 24, K::Reserved}, // IETF protocol assignments
        {ipv4(192, 0, 2, 0), 24, K::Documentation},
        {ipv4(192, 88, 99, 0), 24, K::Reserved}, // deprecated 6to4 relay anycast
        {ipv4(192, 168, 0, 0), 16, K::Private},
        {ipv4(198, 18, 0, 0), 15, K::Reserved}, // benchmarking
        {ipv4(198, 51, 100, 0), 24, K::Documentation},
        {ipv4(203, 0, 113, 0), 24, K::Documentation},
        {ipv4(224, 0, 0, 0), 4, K::Multicast},
        {ipv4(255, 255, 255, 255), 32, K::Broadcast},
        {ipv4(240, 0, 0, 0), 4, K::Reserved},
    };
    for (const Range &range : ranges) {
        if (inIpv4Network(address, range.network, range.prefixLength))
            return range.kind;
    }
    return K::Public;
}

// How an IPv6 address carries an IPv4 one; each names it in a whole sentence of its own.
enum class Carrier { Mapped, Compatible, Nat64, SixToFour, TeredoClient, TeredoServer };

constexpr Text kCarrierSentences[] = {
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is an IPv4-mapped address for %2 (%3)",
                       "%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 "
                       "(loopback, private, ...)"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is an IPv4-compatible address for %2 (%3)",
                       "%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 "
                       "(loopback, private, ...)"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a NAT64 address for %2 (%3)",
                       "%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 "
                       "(loopback, private, ...)"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a 6to4 address for %2 (%3)",
                       "%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 "
                       "(loopback, private, ...)"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a Teredo address for client %2 (%3)",
                       "%1: an IPv6 address, %2: the Teredo client's IPv4 address in it, %3: "
                       "the kind of %2 (loopback, private, ...)"),
    QT_TRANSLATE_NOOP3("ProxyList", "%1 is a Teredo address for server %2 (%3)",
                       "%1: an IPv6 address, %2: the Teredo server's IPv4 address in it, %3: "
                       "the kind of %2 (loopback, private, ...)"),
};

// Why an IPv6 address is not public: its own kind ("fe80::1 is a link-local address"), or the
// kind of the IPv4 address it carries ("2002:7f00:1::1 is a 6to4 address for 127.0.0.1
// (loopback)"). Empty when public.
QString nonPublicIpv6Reason(const QString &host, const std::array<quint8, 16> &b) {
    const auto allZero = [&b](int from, int to) {
        return std::all_of(b.begin() + from, b.begin() + to, [](quint8 x) { return x == 0; });
    };
    const auto ipv4At = [&b](int offset, quint32 xorMask = 0) {
        return (quint32(b[offset]) << 24 | quint32(b[offset + 1]) << 16 |
                quint32(b[offset + 2]) << 8 | quint32(b[offset + 3])) ^
               xorMask;
    };
    const auto plain = [&host](AddressKind kind) { return kindSentence(kind, host); };
    // The embedded IPv4 address decides: empty when it is public.
    const auto carrying = [&host](Carrier carrier, quint32 embedded) -> QString {
        const AddressKind kind = ipv4Kind(embedded);
        if (kind == AddressKind::Public)
            return {};
        return translated(kCarrierSentences[int(carrier)])
            .arg(host, dottedDecimal(embedded), kindLabel(kind));
    };
    using K = AddressKind;

    if (allZero(0, 15) && b[15] == 0)
        return plain(K::Unspecified);
    if (allZero(0, 15) && b[15] == 1)
        return plain(K::Loopback);
    // ::ffff:a.b.c.d: the socket talks IPv4 to a.b.c.d.
    if (allZero(0, 10) && b[10] == 0xff && b[11] == 0xff)
        return carrying(Carrier::Mapped, ipv4At(12));
    // ::a.b.c.d (deprecated): reserved whatever it carries.
    if (allZero(0, 12)) {
        const QString reason = carrying(Carrier::Compatible, ipv4At(12));
        return reason.isEmpty() ? plain(K::DeprecatedCompatible) : reason;
    }
    // NAT64 well-known prefix 64:ff9b::/96: the translator forwards to the embedded address.
    if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && allZero(4, 12))
        return carrying(Carrier::Nat64, ipv4At(12));
    // 6to4 2002::/16: the packets go to the IPv4 address in bits 16-47.
    if (b[0] == 0x20 && b[1] == 0x02)
        return carrying(Carrier::SixToFour, ipv4At(2));
    // Teredo 2001::/32: server IPv4 in bits 32-63, client IPv4 in the last 32 bits, inverted.
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x00 && b[3] == 0x00) {
        const QString client = carrying(Carrier::TeredoClient, ipv4At(12, 0xffffffffU));
        return !client.isEmpty() ? client : carrying(Carrier::TeredoServer, ipv4At(4));
    }
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
        return plain(K::LinkLocal);
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0)
        return plain(K::SiteLocal);
    if ((b[0] & 0xfe) == 0xfc)
        return plain(K::Private); // unique local fc00::/7
    if (b[0] == 0xff)
        return plain(K::Multicast);
    // 2001:db8::/32 and 3fff::/20 (RFC 9637).
    if ((b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) ||
        (b[0] == 0x3f && b[1] == 0xff && (b[2] & 0xf0) == 0x00))
        return plain(K::Documentation);
    // Benchmarking 2001:2::/48, ORCHID 2001:10::/28 and ORCHIDv2 2001:20::/28.
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x00 &&
        ((b[3] == 0x02 && b[4] == 0 && b[5] == 0) || (b[3] & 0xf0) == 0x10 ||
         (b[3] & 0xf0) == 0x20))
        return plain(K::Reserved);
    if ((b[0] & 0xe0) != 0x20)
        return plain(K::Reserved); // outside global unicast 2000::/3
    return {};
}

QString quoted(const QString &text) {
    constexpr qsizetype maxChars = 60;
    if (text.size() <= maxChars)
        return u'"' + text + u'"';
    return u'"' + text.first(maxChars - 1) + QChar(0x2026) + u'"';
}

} // namespace

RuleChecker::RuleChecker(const EligibilityRules &rules)
    : m_rules(rules) {
    for (const QString &scheme : rules.allowedSchemes)
        m_allowedSchemes.insert(scheme.toLower());
    QStringList schemes(m_allowedSchemes.begin(), m_allowedSchemes.end());
    schemes.sort();
    m_allowedSchemesText =
        schemes.isEmpty() ? QCoreApplication::translate("ProxyList", "none",
                                                        "no scheme is allowed: (allowed: none)")
                          : schemes.join(QStringLiteral(", "));

    QList<int> ports(rules.allowedPorts.begin(), rules.allowedPorts.end());
    std::sort(ports.begin(), ports.end());
    QStringList portTexts;
    for (qsizetype i = 0; i < ports.size() && i < 10; ++i)
        portTexts << QString::number(ports[i]);
    if (const int more = int(ports.size()) - 10; more > 0)
        portTexts << QCoreApplication::translate("ProxyList", "%n more", "ports not listed", more);
    m_allowedPortsText = portTexts.join(QStringLiteral(", "));
}

QString RuleChecker::violation(const ProxyEntry &entry) const {
    const QString scheme = entry.scheme.isEmpty() ? QStringLiteral("http") : entry.scheme;
    if (!m_allowedSchemes.contains(scheme))
        return QCoreApplication::translate("ProxyList", "scheme %1 is not allowed (allowed: %2)",
                                           "%1: a URL scheme such as socks5, %2: a list of them")
            .arg(quoted(scheme), m_allowedSchemesText);
    if (entry.port < 1 || entry.port > 65535)
        return QCoreApplication::translate("ProxyList", "port %1 is out of range 1-65535")
            .arg(entry.port);
    if (!m_rules.allowedPorts.isEmpty() && !m_rules.allowedPorts.contains(entry.port))
        return QCoreApplication::translate("ProxyList", "port %1 is not in the allowed ports (%2)",
                                           "%2: a list of port numbers")
            .arg(entry.port)
            .arg(m_allowedPortsText);
    return hostViolation(entry.host);
}

QString RuleChecker::hostViolation(const QString &host) const {
    quint32 ipv4Address = 0;
    std::array<quint8, 16> ipv6Address{};
    QString reason;
    if (parseIpv4(host, ipv4Address)) {
        if (const AddressKind kind = ipv4Kind(ipv4Address); kind != AddressKind::Public)
            reason = kindSentence(kind, host);
    } else if (parseLooseIpv4(host, ipv4Address)) {
        // Always refused: such a form hides the address from every reader but the resolver.
        const QString address = dottedDecimal(ipv4Address);
        return QCoreApplication::translate(
                   "ProxyList", "IPv4 address %1 (= %2) is not accepted in %3 form: write it as %2",
                   "%1: the address as written, %2: the same in dotted decimal, %3: how it departs "
                   "from dotted decimal (hexadecimal, octal, shortened; several joined by /)")
            .arg(quoted(host), address, looseIpv4FormNames(host));
    } else if (host.contains(u':') && parseIpv6(host, ipv6Address)) {
        reason = nonPublicIpv6Reason(host, ipv6Address);
    } else if (isValidDnsName(host)) {
        // Names are not resolved here; only the reserved loopback name is caught (RFC 6761).
        if (m_rules.rejectNonPublicAddresses &&
            (host == u"localhost" || host.endsWith(u".localhost")))
            return QCoreApplication::translate("ProxyList", "%1 is a loopback name",
                                               "%1: a host name such as localhost")
                .arg(host);
        return {};
    } else {
        return QCoreApplication::translate(
                   "ProxyList", "host %1 is not a valid IPv4 address, IPv6 address or DNS name")
            .arg(quoted(host));
    }
    return m_rules.rejectNonPublicAddresses ? reason : QString();
}

QString eligibilityViolation(const ProxyEntry &entry, const EligibilityRules &rules) {
    return RuleChecker(rules).violation(entry);
}

} // namespace poolscope
