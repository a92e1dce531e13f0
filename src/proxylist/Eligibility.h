#pragma once

#include "proxylist/AcceptedProxies.h"
#include "proxylist/ProxyListParser.h"

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>

namespace poolscope {

struct EligibilityRules {
    QSet<QString> allowedSchemes{"http", "https", "socks4", "socks5"}; // lower case
    QSet<int> allowedPorts;                                            // empty = any port 1-65535
    // Rejects IP literals that are private, loopback, link-local, CGNAT, multicast, broadcast,
    // unspecified, reserved or documentation (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24,
    // 2001:db8::/32, 3fff::/20), IPv6 addresses that carry such an IPv4 address (IPv4-mapped,
    // IPv4-compatible, NAT64, 6to4, Teredo), plus the name "localhost". DNS names are not
    // resolved. IPv4 in hexadecimal, octal or shortened form (0x7f000001, 0177.0.0.1, 127.1) is
    // refused whatever this says.
    bool rejectNonPublicAddresses = false;
};

struct RejectedLine {
    int lineNumber = 0; // for JSON input the 1-based array element index
    QString text;
    QString reason;
};

// Past these many, rejected lines and collapsed members are counted but not listed, so that a
// list of millions of lines cannot turn into millions of stored reasons.
inline constexpr qsizetype kMaxListedRejections = 10000;
inline constexpr qsizetype kMaxListedDuplicates = 10000;
// Lines listed per collapsed member.
inline constexpr qsizetype kMaxListedDuplicateLines = 5;

// A member that occurred more than once in the list.
struct CollapsedDuplicate {
    QByteArray memberId;
    int firstLine = 0;         // the occurrence kept (as in EligibilityReport::accepted)
    qsizetype occurrences = 0; // in the whole list, the kept one included: at least 2
    QList<int> duplicateLines; // the first kMaxListedDuplicateLines lines collapsed into it
};

struct EligibilityReport {
    AcceptedProxies accepted; // unique by memberId, first occurrence kept, in input order
    // Parse problems and rule rejections in line order: the first kMaxListedRejections of them.
    QList<RejectedLine> rejected;
    qsizetype rejectedCount = 0; // all rejected lines, listed or not
    qsizetype duplicates = 0;    // entries collapsed into an earlier identical memberId
    // Members seen more than once, in the order of their first repetition: the first
    // kMaxListedDuplicates of them (duplicates counts every collapsed entry).
    QList<CollapsedDuplicate> collapsed;
    QString fatalError; // from the parse; accepted is then empty
    bool allAccepted() const { return fatalError.isEmpty() && rejectedCount == 0; }
};

// The reason why this entry breaks the rules, or an empty string when it is eligible.
QString eligibilityViolation(const ProxyEntry &entry, const EligibilityRules &rules);

// Judges entries already parsed (parseProxyList keeps every one of them in memory).
EligibilityReport judgeProxyList(const ParsedProxyList &parsed, const EligibilityRules &rules);

// Parses and judges in one pass: each entry is judged as it is read and only what the report
// holds is kept (accepted members compactly, duplicates as counts), so the cost in memory stays
// a small multiple of the unique members' size, not of the whole list's.
EligibilityReport readProxyList(const QByteArray &data, const EligibilityRules &rules,
                                ProxyListFormat format = ProxyListFormat::Auto);

} // namespace poolscope

Q_DECLARE_TYPEINFO(poolscope::RejectedLine, Q_RELOCATABLE_TYPE);
Q_DECLARE_TYPEINFO(poolscope::CollapsedDuplicate, Q_RELOCATABLE_TYPE);
