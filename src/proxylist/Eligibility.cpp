#include "proxylist/Eligibility.h"

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

bool parseIpv4(const QString &host, quint32 &addressHostOrder) {
    std::array<char, INET_ADDRSTRLEN> ascii;
    in_addr address{};
    if (!toAsciiBuffer(host, ascii) || inet_pton(AF_INET, ascii.data(), &address) != 1)
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

// What kind of non-public address this is ("private", "loopback", ...), empty when public.
// The documentation ranges 192.0.2.0/24, 198.51.100.0/24 and 203.0.113.0/24 deliberately count
// as public: demo and test lists are built from them and must pass.
QString nonPublicIpv4Kind(quint32 address) {
    struct Range {
        quint32 network;
        int prefixLength;
        const char *kind;
    };
    static constexpr Range ranges[] = {
        {ipv4(0, 0, 0, 0), 32, "unspecified"},
        {ipv4(0, 0, 0, 0), 8, "reserved"}, // "this network"
        {ipv4(10, 0, 0, 0), 8, "private"},
        {ipv4(100, 64, 0, 0), 10, "CGNAT"},
        {ipv4(127, 0, 0, 0), 8, "loopback"},
        {ipv4(169, 254, 0, 0), 16, "link-local"},
        {ipv4(172, 16, 0, 0), 12, "private"},
        {ipv4(192, 0, 0, 0), 24, "reserved"}, // IETF protocol assignments
        {ipv4(192, 168, 0, 0), 16, "private"},
        {ipv4(198, 18, 0, 0), 15, "reserved"}, // benchmarking
        {ipv4(224, 0, 0, 0), 4, "multicast"},
        {ipv4(255, 255, 255, 255), 32, "broadcast"},
        {ipv4(240, 0, 0, 0), 4, "reserved"},
    };
    for (const Range &range : ranges) {
        if (inIpv4Network(address, range.network, range.prefixLength))
            return QLatin1String(range.kind);
    }
    return {};
}

// Same for IPv6; 2001:db8::/32 (documentation) deliberately counts as public.
QString nonPublicIpv6Kind(const std::array<quint8, 16> &b) {
    const bool firstTenZero =
        std::all_of(b.begin(), b.begin() + 10, [](quint8 x) { return x == 0; });
    const bool firstFifteenZero =
        std::all_of(b.begin(), b.begin() + 15, [](quint8 x) { return x == 0; });
    if (firstFifteenZero && b[15] == 0)
        return QStringLiteral("unspecified");
    if (firstFifteenZero && b[15] == 1)
        return QStringLiteral("loopback");
    const auto embeddedIpv4 = [&b] {
        return quint32(b[12]) << 24 | quint32(b[13]) << 16 | quint32(b[14]) << 8 | quint32(b[15]);
    };
    // IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96) addresses reach the embedded IPv4.
    const bool isMapped = firstTenZero && b[10] == 0xff && b[11] == 0xff;
    const bool isNat64 =
        b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b &&
        std::all_of(b.begin() + 4, b.begin() + 12, [](quint8 x) { return x == 0; });
    if (isMapped || isNat64)
        return nonPublicIpv4Kind(embeddedIpv4());
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
        return QStringLiteral("link-local");
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0)
        return QStringLiteral("site-local");
    if ((b[0] & 0xfe) == 0xfc)
        return QStringLiteral("private"); // unique local fc00::/7
    if (b[0] == 0xff)
        return QStringLiteral("multicast");
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8)
        return {}; // documentation
    if ((b[0] & 0xe0) != 0x20)
        return QStringLiteral("reserved"); // outside global unicast 2000::/3
    return {};
}

QString describedAs(const QString &host, const QString &kind) {
    const bool startsWithVowel = QStringLiteral("aeiou").contains(kind.front());
    return QStringLiteral("%1 is %2 %3 address").arg(host, startsWithVowel ? "an" : "a", kind);
}

QString quoted(const QString &text) {
    constexpr qsizetype maxChars = 60;
    if (text.size() <= maxChars)
        return u'"' + text + u'"';
    return u'"' + text.first(maxChars - 1) + QChar(0x2026) + u'"';
}

// The rules with their reason texts prepared once, not once per entry.
class RuleChecker {
public:
    explicit RuleChecker(const EligibilityRules &rules)
        : m_rules(rules) {
        for (const QString &scheme : rules.allowedSchemes)
            m_allowedSchemes.insert(scheme.toLower());
        QStringList schemes(m_allowedSchemes.begin(), m_allowedSchemes.end());
        schemes.sort();
        m_allowedSchemesText =
            schemes.isEmpty() ? QStringLiteral("none") : schemes.join(QStringLiteral(", "));

        QList<int> ports(rules.allowedPorts.begin(), rules.allowedPorts.end());
        std::sort(ports.begin(), ports.end());
        QStringList portTexts;
        for (qsizetype i = 0; i < ports.size() && i < 10; ++i)
            portTexts << QString::number(ports[i]);
        if (ports.size() > 10)
            portTexts << QStringLiteral("%1 more").arg(ports.size() - 10);
        m_allowedPortsText = portTexts.join(QStringLiteral(", "));
    }

    QString violation(const ProxyEntry &entry) const {
        const QString scheme = entry.scheme.isEmpty() ? QStringLiteral("http") : entry.scheme;
        if (!m_allowedSchemes.contains(scheme))
            return QStringLiteral("scheme %1 is not allowed (allowed: %2)")
                .arg(quoted(scheme), m_allowedSchemesText);
        if (entry.port < 1 || entry.port > 65535)
            return QStringLiteral("port %1 is out of range 1-65535").arg(entry.port);
        if (!m_rules.allowedPorts.isEmpty() && !m_rules.allowedPorts.contains(entry.port))
            return QStringLiteral("port %1 is not in the allowed ports (%2)")
                .arg(entry.port)
                .arg(m_allowedPortsText);
        return hostViolation(entry.host);
    }

private:
    QString hostViolation(const QString &host) const {
        quint32 ipv4Address = 0;
        std::array<quint8, 16> ipv6Address{};
        QString kind;
        if (parseIpv4(host, ipv4Address)) {
            kind = nonPublicIpv4Kind(ipv4Address);
        } else if (host.contains(u':') && parseIpv6(host, ipv6Address)) {
            kind = nonPublicIpv6Kind(ipv6Address);
        } else if (isValidDnsName(host)) {
            // Names are not resolved here; only the reserved loopback name is caught (RFC 6761).
            if (m_rules.rejectNonPublicAddresses &&
                (host == u"localhost" || host.endsWith(u".localhost")))
                return QStringLiteral("%1 is a loopback name").arg(host);
            return {};
        } else {
            return QStringLiteral("host %1 is not a valid IPv4 address, IPv6 address or DNS name")
                .arg(quoted(host));
        }
        if (m_rules.rejectNonPublicAddresses && !kind.isEmpty())
            return describedAs(host, kind);
        return {};
    }

    const EligibilityRules &m_rules;
    QSet<QString> m_allowedSchemes;
    QString m_allowedSchemesText;
    QString m_allowedPortsText;
};

} // namespace

QString eligibilityViolation(const ProxyEntry &entry, const EligibilityRules &rules) {
    return RuleChecker(rules).violation(entry);
}

EligibilityReport judgeProxyList(const ParsedProxyList &parsed, const EligibilityRules &rules) {
    // The copy is shallow (implicitly shared) and only detaches if something is dropped.
    return judgeProxyList(ParsedProxyList(parsed), rules);
}

EligibilityReport judgeProxyList(ParsedProxyList &&parsed, const EligibilityRules &rules) {
    EligibilityReport report;
    report.fatalError = std::move(parsed.fatalError);
    report.rejected.reserve(parsed.problems.size());
    for (ParseProblem &problem : parsed.problems)
        report.rejected.append(
            {problem.lineNumber, std::move(problem.text), std::move(problem.reason)});

    // An unusable input is rejected as a whole: nothing from it may be imported.
    if (report.fatalError.isEmpty()) {
        const bool isJson = parsed.detectedFormat == ProxyListFormat::Json;
        const RuleChecker checker(rules);
        QList<ProxyEntry> &entries = parsed.entries;
        // Accepted entries are compacted to the front of the list in place, so a big list is not
        // held twice. Member ids are remembered by hash only (with the accepted entry to compare
        // against), which costs far less than a set of the ids themselves.
        QHash<size_t, qsizetype> acceptedIndexByIdHash;
        acceptedIndexByIdHash.reserve(entries.size());
        QSet<QByteArray> idsWithCollidingHash; // practically always empty
        qsizetype acceptedCount = 0;
        for (qsizetype i = 0; i < entries.size(); ++i) {
            const ProxyEntry &entry = std::as_const(entries)[i];
            const QByteArray memberId = entry.memberId();
            const size_t idHash = qHash(memberId, QHashSeed::globalSeed());
            const auto known = acceptedIndexByIdHash.constFind(idHash);
            const bool hashCollides = known != acceptedIndexByIdHash.cend() &&
                                      std::as_const(entries)[known.value()].memberId() != memberId;
            // Equal member ids get equal verdicts, so only first occurrences need checking.
            if (known != acceptedIndexByIdHash.cend() &&
                (!hashCollides || idsWithCollidingHash.contains(memberId))) {
                ++report.duplicates;
                continue;
            }
            const QString violation = checker.violation(entry);
            if (!violation.isEmpty()) {
                // JSON "line numbers" are array element indexes; the reason says so.
                report.rejected.append({entry.lineNumber, entry.sourceText,
                                        isJson ? QStringLiteral("array element %1: %2")
                                                     .arg(entry.lineNumber)
                                                     .arg(violation)
                                               : violation});
                continue;
            }
            if (hashCollides)
                idsWithCollidingHash.insert(memberId);
            else
                acceptedIndexByIdHash.insert(idHash, acceptedCount);
            if (acceptedCount != i) // writing detaches a shared list; skip when nothing moved
                entries[acceptedCount] = std::move(entries[i]);
            ++acceptedCount;
        }
        if (acceptedCount != entries.size())
            entries.resize(acceptedCount);
        report.accepted = std::move(entries);
    }

    std::stable_sort(
        report.rejected.begin(), report.rejected.end(),
        [](const RejectedLine &a, const RejectedLine &b) { return a.lineNumber < b.lineNumber; });
    return report;
}

EligibilityReport readProxyList(const QByteArray &data, const EligibilityRules &rules,
                                ProxyListFormat format) {
    return judgeProxyList(parseProxyList(data, format), rules);
}

} // namespace poolscope
