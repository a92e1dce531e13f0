#pragma once

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

struct EligibilityReport {
    QList<ProxyEntry> accepted;   // unique by memberId, first occurrence kept, in input order
    QList<RejectedLine> rejected; // every parse problem and every rule rejection, by line number
    int duplicates = 0;           // entries collapsed into an earlier identical memberId
    QString fatalError;           // copied from the parse; accepted is then empty
    bool allAccepted() const { return fatalError.isEmpty() && rejected.isEmpty(); }
};

// The reason why this entry breaks the rules, or an empty string when it is eligible.
QString eligibilityViolation(const ProxyEntry &entry, const EligibilityRules &rules);

EligibilityReport judgeProxyList(const ParsedProxyList &parsed, const EligibilityRules &rules);
// Same, reusing the parsed entries' storage for the accepted list (no second copy of a big list).
EligibilityReport judgeProxyList(ParsedProxyList &&parsed, const EligibilityRules &rules);

// Convenience: parse + judge.
EligibilityReport readProxyList(const QByteArray &data, const EligibilityRules &rules,
                                ProxyListFormat format = ProxyListFormat::Auto);

} // namespace poolscope

Q_DECLARE_TYPEINFO(poolscope::RejectedLine, Q_RELOCATABLE_TYPE);
