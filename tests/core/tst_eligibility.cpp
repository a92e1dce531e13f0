// Proxy list eligibility rules: member ids, schemes, ports, public-address checks, IPv4/IPv6 forms.

#include "proxylist/Eligibility.h"
#include "proxylist/ProxyListParser.h"

#include "ProxyListChecks.h"

#include <QTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

QStringList reasonsOf(const QList<RejectedLine> &rejected) {
    QStringList reasons;
    for (const RejectedLine &line : rejected)
        reasons << line.reason;
    return reasons;
}

// A list line for the host: IPv6 needs brackets.
QByteArray lineForHost(const QString &host, int port = 8080) {
    const QString hostPart = host.contains(u':') ? u'[' + host + u']' : host;
    return (hostPart + u':' + QString::number(port)).toUtf8();
}

EligibilityRules nonPublicRejectingRules() {
    EligibilityRules rules;
    rules.rejectNonPublicAddresses = true;
    return rules;
}

} // namespace

class TestEligibility : public QObject {
    Q_OBJECT

private slots:
    void memberIdOfHandMadeEntries_data();
    void memberIdOfHandMadeEntries();
    void eligibilityRules_data();
    void eligibilityRules();
    void schemeAllowList();
    void portAllowList_data();
    void portAllowList();
    void nonPublicAddresses_data();
    void nonPublicAddresses();
    void looseIpv4Forms_data();
    void looseIpv4Forms();
    void duplicatesCollapsed();
    void rejectedSortedByLineNumber();
    void fatalErrorAcceptsNothing();
    void allAcceptedOnlyWhenNothingRejected();
};

// --- Eligibility ----------------------------------------------------------------------------

void TestEligibility::memberIdOfHandMadeEntries_data() {
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<QString>("username");
    QTest::addColumn<QString>("password");
    QTest::addColumn<QString>("host");
    QTest::addColumn<QByteArray>("memberId");

    QTest::newRow("no scheme counts as http") << ""
                                              << ""
                                              << ""
                                              << "h.example" << QByteArray("h.example:1");
    QTest::newRow("user only") << "http"
                               << "u"
                               << ""
                               << "h.example" << QByteArray("http://u@h.example:1");
    QTest::newRow("password only") << "http"
                                   << ""
                                   << "p"
                                   << "h.example" << QByteArray("http://:p@h.example:1");
    QTest::newRow("https ipv6") << "https"
                                << ""
                                << ""
                                << "::1" << QByteArray("https://[::1]:1");
    QTest::newRow("utf-8 password") << "socks5"
                                    << "u" << QString::fromUtf8("p\xC3\xA9") << "h.example"
                                    << QByteArray("socks5://u:p\xC3\xA9@h.example:1");
}

void TestEligibility::memberIdOfHandMadeEntries() {
    QFETCH(QString, scheme);
    QFETCH(QString, username);
    QFETCH(QString, password);
    QFETCH(QString, host);
    QFETCH(QByteArray, memberId);

    ProxyEntry entry;
    entry.scheme = scheme;
    entry.username = username;
    entry.password = password;
    entry.host = host;
    entry.port = 1;
    QCOMPARE(entry.memberId(), memberId);
}

void TestEligibility::eligibilityRules_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("reason"); // empty: accepted

    const QString badHost =
        QStringLiteral("host \"%1\" is not a valid IPv4 address, IPv6 address or DNS name");
    const QString label63(63, u'a');

    QTest::newRow("ftp") << QByteArray("ftp://1.2.3.4:21")
                         << "scheme \"ftp\" is not allowed (allowed: http, https, socks4, socks5)";
    QTest::newRow("socks5h") << QByteArray("socks5h://1.2.3.4:1080")
                             << "scheme \"socks5h\" is not allowed (allowed: http, https, socks4, "
                                "socks5)";
    QTest::newRow("socks4 upper case") << QByteArray("SOCKS4://h.example:1080") << "";
    QTest::newRow("port 0") << QByteArray("1.2.3.4:0") << "port 0 is out of range 1-65535";
    QTest::newRow("port 65536") << QByteArray("1.2.3.4:65536")
                                << "port 65536 is out of range 1-65535";
    QTest::newRow("port 1") << QByteArray("1.2.3.4:1") << "";
    QTest::newRow("port 65535") << QByteArray("1.2.3.4:65535") << "";
    QTest::newRow("999.1.1.1") << QByteArray("999.1.1.1:80") << badHost.arg("999.1.1.1");
    QTest::newRow("three octets")
        << QByteArray("1.2.3:80")
        << "IPv4 address \"1.2.3\" (= 1.2.0.3) is not accepted in shortened form: write it as "
           "1.2.0.3";
    QTest::newRow("leading zero octet")
        << QByteArray("01.2.3.4:80")
        << "IPv4 address \"01.2.3.4\" (= 1.2.3.4) is not accepted in octal form: write it as "
           "1.2.3.4";
    QTest::newRow("five parts") << QByteArray("1.2.3.4.5:80") << badHost.arg("1.2.3.4.5");
    QTest::newRow("hex-looking name") << QByteArray("0x7f.example:80") << "";
    QTest::newRow("numeric last label")
        << QByteArray("example.123:80") << badHost.arg("example.123");
    QTest::newRow("label starts with dash")
        << QByteArray("-bad.example:80") << badHost.arg("-bad.example");
    QTest::newRow("label ends with dash")
        << QByteArray("bad-.example:80") << badHost.arg("bad-.example");
    QTest::newRow("empty label") << QByteArray("a..example:80") << badHost.arg("a..example");
    QTest::newRow("trailing dot") << QByteArray("a.example.:80") << badHost.arg("a.example.");
    QTest::newRow("underscore") << QByteArray("exa_mple.com:80") << badHost.arg("exa_mple.com");
    QTest::newRow("non-ascii") << QByteArray("caf\xC3\xA9.example:80")
                               << badHost.arg(QString::fromUtf8("caf\xC3\xA9.example"));
    QTest::newRow("63-char label") << (label63 + ".example:80").toUtf8() << "";
    QTest::newRow("64-char label") << ('b' + label63 + ".example:80").toUtf8()
                                   << QStringLiteral("host \"b%1\u2026\" is not a valid IPv4 "
                                                     "address, IPv6 address or DNS name")
                                          .arg(label63.left(58));
    const QString threeLabels = QStringList(3, label63).join(u'.');
    QTest::newRow("name of 253 chars")
        << (threeLabels + u'.' + QString(61, u'c') + ":80").toUtf8() << "";
    QTest::newRow("name of 254 chars") << (threeLabels + u'.' + QString(62, u'c') + ":80").toUtf8()
                                       << badHost.arg(label63.left(59) + QChar(0x2026));
    QTest::newRow("punycode") << QByteArray("xn--bcher-kva.example:80") << "";
    QTest::newRow("digits then letter") << QByteArray("1.2.3.4a:80") << "";
    QTest::newRow("single label") << QByteArray("proxy:3128") << "";
    QTest::newRow("loopback allowed by default") << QByteArray("127.0.0.1:80") << "";
    QTest::newRow("ipv6 loopback allowed by default") << QByteArray("[::1]:80") << "";
}

void TestEligibility::eligibilityRules() {
    QFETCH(QByteArray, line);
    QFETCH(QString, reason);

    const EligibilityReport report = readProxyList(line, EligibilityRules{});
    QCOMPARE(report.fatalError, QString());
    if (reason.isEmpty()) {
        QCOMPARE(report.rejected.size(), 0);
        QCOMPARE(report.accepted.size(), 1);
        QVERIFY(report.allAccepted());
    } else {
        QCOMPARE(report.accepted.size(), 0);
        QCOMPARE(report.rejected.size(), 1);
        QCOMPARE(report.rejected[0].reason, reason);
        QCOMPARE(report.rejected[0].lineNumber, 1);
        const QString written = QString::fromUtf8(line);
        QCOMPARE(report.rejected[0].text, written.size() <= kMaxDisplayTextChars
                                              ? written
                                              : written.left(199) + QChar(0x2026));
        QVERIFY(!report.allAccepted());
    }
}

void TestEligibility::schemeAllowList() {
    EligibilityRules rules;
    rules.allowedSchemes = {"SOCKS5", "socks4"}; // configured in upper case still matches
    const EligibilityReport report =
        readProxyList("socks5://1.2.3.4:1080\nhttp://1.2.3.4:80\nsocks4://1.2.3.4:1081\n", rules);
    QCOMPARE(lineNumbersOf(report.accepted), QList<int>({1, 3}));
    QCOMPARE(reasonsOf(report.rejected),
             QStringList({"scheme \"http\" is not allowed (allowed: socks4, socks5)"}));

    rules.allowedSchemes.clear();
    QCOMPARE(
        eligibilityViolation(parseProxyList(report.accepted[0].memberId).entries.value(0), rules),
        QStringLiteral("scheme \"socks5\" is not allowed (allowed: none)"));
}

void TestEligibility::portAllowList_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("reason");

    QTest::newRow("allowed 80") << QByteArray("1.2.3.4:80") << "";
    QTest::newRow("allowed 3128") << QByteArray("socks5://1.2.3.4:3128") << "";
    QTest::newRow("not allowed 8081")
        << QByteArray("1.2.3.4:8081") << "port 8081 is not in the allowed ports (80, 3128, 8080)";
    QTest::newRow("range comes first")
        << QByteArray("1.2.3.4:0") << "port 0 is out of range 1-65535";
}

void TestEligibility::portAllowList() {
    QFETCH(QByteArray, line);
    QFETCH(QString, reason);

    EligibilityRules rules;
    rules.allowedPorts = {8080, 80, 3128};
    const ParsedProxyList parsed = parseProxyList(line);
    QCOMPARE(parsed.entries.size(), 1);
    QCOMPARE(eligibilityViolation(parsed.entries[0], rules), reason);

    // Without an allow-list every valid port passes.
    const QString anyPortReason = eligibilityViolation(parsed.entries[0], EligibilityRules{});
    QCOMPARE(anyPortReason, reason.startsWith(u"port 0") ? reason : QString());
}

void TestEligibility::nonPublicAddresses_data() {
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("reason"); // with rejectNonPublicAddresses; empty: allowed

    QTest::newRow("10/8") << "10.0.0.1"
                          << "10.0.0.1 is a private address";
    QTest::newRow("172.16/12") << "172.31.255.254"
                               << "172.31.255.254 is a private address";
    QTest::newRow("just above 172.16/12") << "172.32.0.1"
                                          << "";
    QTest::newRow("192.168/16") << "192.168.1.1"
                                << "192.168.1.1 is a private address";
    QTest::newRow("loopback") << "127.0.0.1"
                              << "127.0.0.1 is a loopback address";
    QTest::newRow("link-local") << "169.254.10.20"
                                << "169.254.10.20 is a link-local address";
    QTest::newRow("CGNAT") << "100.64.0.1"
                           << "100.64.0.1 is a CGNAT address";
    QTest::newRow("above CGNAT") << "100.128.0.1"
                                 << "";
    QTest::newRow("multicast") << "224.0.0.251"
                               << "224.0.0.251 is a multicast address";
    QTest::newRow("class E") << "240.0.0.1"
                             << "240.0.0.1 is a reserved address";
    QTest::newRow("broadcast") << "255.255.255.255"
                               << "255.255.255.255 is a broadcast address";
    QTest::newRow("unspecified") << "0.0.0.0"
                                 << "0.0.0.0 is an unspecified address";
    QTest::newRow("this network") << "0.1.2.3"
                                  << "0.1.2.3 is a reserved address";
    QTest::newRow("benchmarking") << "198.18.0.1"
                                  << "198.18.0.1 is a reserved address";
    QTest::newRow("IETF assignments") << "192.0.0.8"
                                      << "192.0.0.8 is a reserved address";
    QTest::newRow("public") << "8.8.8.8"
                            << "";
    QTest::newRow("doc TEST-NET-1") << "192.0.2.1"
                                    << "192.0.2.1 is a documentation address";
    QTest::newRow("doc TEST-NET-2") << "198.51.100.7"
                                    << "198.51.100.7 is a documentation address";
    QTest::newRow("doc TEST-NET-3") << "203.0.113.9"
                                    << "203.0.113.9 is a documentation address";
    QTest::newRow("just above TEST-NET-3") << "203.0.114.1"
                                           << "";
    QTest::newRow("benchmarking top") << "198.19.255.255"
                                      << "198.19.255.255 is a reserved address";
    QTest::newRow("6to4 relay anycast") << "192.88.99.1"
                                        << "192.88.99.1 is a reserved address";
    QTest::newRow("multicast top") << "239.255.255.250"
                                   << "239.255.255.250 is a multicast address";
    QTest::newRow("v6 unspecified") << "::"
                                    << ":: is an unspecified address";
    QTest::newRow("v6 loopback") << "::1"
                                 << "::1 is a loopback address";
    QTest::newRow("v6 link-local") << "fe80::1"
                                   << "fe80::1 is a link-local address";
    QTest::newRow("v6 site-local") << "fec0::1"
                                   << "fec0::1 is a site-local address";
    QTest::newRow("v6 unique local") << "fd12:3456::1"
                                     << "fd12:3456::1 is a private address";
    QTest::newRow("v6 multicast") << "ff02::1"
                                  << "ff02::1 is a multicast address";
    QTest::newRow("v6 mapped private")
        << "::ffff:10.0.0.1"
        << "::ffff:10.0.0.1 is an IPv4-mapped address for 10.0.0.1 (private)";
    QTest::newRow("v6 mapped loopback")
        << "::ffff:127.0.0.1"
        << "::ffff:127.0.0.1 is an IPv4-mapped address for 127.0.0.1 (loopback)";
    QTest::newRow("v6 mapped documentation")
        << "::ffff:192.0.2.1"
        << "::ffff:192.0.2.1 is an IPv4-mapped address for 192.0.2.1 (documentation)";
    QTest::newRow("v6 compatible loopback")
        << "::127.0.0.1"
        << "::127.0.0.1 is an IPv4-compatible address for 127.0.0.1 (loopback)";
    QTest::newRow("v6 compatible public")
        << "::8.8.8.8"
        << "::8.8.8.8 is a reserved (deprecated IPv4-compatible) address";
    QTest::newRow("6to4 loopback") << "2002:7f00:1::1"
                                   << "2002:7f00:1::1 is a 6to4 address for 127.0.0.1 (loopback)";
    QTest::newRow("6to4 private") << "2002:c0a8:101::1"
                                  << "2002:c0a8:101::1 is a 6to4 address for 192.168.1.1 (private)";
    QTest::newRow("6to4 public") << "2002:808:808::1"
                                 << "";
    // Teredo: server 65.54.227.120 (public); the client is the last 32 bits inverted.
    QTest::newRow("Teredo client loopback") << "2001:0:4136:e378:8000:63bf:80ff:fffe"
                                            << "2001:0:4136:e378:8000:63bf:80ff:fffe is a Teredo "
                                               "address for client 127.0.0.1 (loopback)";
    QTest::newRow("Teredo client private")
        << "2001:0:4136:e378:8000:63bf:f5ff:fffe"
        << "2001:0:4136:e378:8000:63bf:f5ff:fffe is a Teredo address for client 10.0.0.1 (private)";
    QTest::newRow("Teredo server private")
        << "2001:0:a00:1:8000:63bf:f7f7:f7f7"
        << "2001:0:a00:1:8000:63bf:f7f7:f7f7 is a Teredo address for server 10.0.0.1 (private)";
    QTest::newRow("Teredo public") << "2001:0:4136:e378:8000:63bf:f7f7:f7f7"
                                   << "";
    QTest::newRow("NAT64 loopback")
        << "64:ff9b::7f00:1"
        << "64:ff9b::7f00:1 is a NAT64 address for 127.0.0.1 (loopback)";
    QTest::newRow("NAT64 CGNAT") << "64:ff9b::6440:1"
                                 << "64:ff9b::6440:1 is a NAT64 address for 100.64.0.1 (CGNAT)";
    QTest::newRow("NAT64 public") << "64:ff9b::808:808"
                                  << "";
    QTest::newRow("v6 unique local fc00") << "fc00::1"
                                          << "fc00::1 is a private address";
    QTest::newRow("v6 link-local top") << "febf::1"
                                       << "febf::1 is a link-local address";
    QTest::newRow("v6 benchmarking") << "2001:2::1"
                                     << "2001:2::1 is a reserved address";
    QTest::newRow("v6 mapped public") << "::ffff:8.8.8.8"
                                      << "";
    QTest::newRow("v6 outside 2000::/3") << "4000::1"
                                         << "4000::1 is a reserved address";
    QTest::newRow("v6 public") << "2a00:1450::1"
                               << "";
    QTest::newRow("v6 documentation") << "2001:db8::1"
                                      << "2001:db8::1 is a documentation address";
    QTest::newRow("v6 documentation top")
        << "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"
        << "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff is a documentation address";
    QTest::newRow("v6 just above documentation") << "2001:db9::1"
                                                 << "";
    QTest::newRow("v6 documentation 3fff::/20") << "3fff:fff::1"
                                                << "3fff:fff::1 is a documentation address";
    QTest::newRow("v6 just above 3fff::/20") << "3fff:1000::1"
                                             << "";
    QTest::newRow("localhost name") << "localhost"
                                    << "localhost is a loopback name";
    QTest::newRow("sub.localhost name") << "a.localhost"
                                        << "a.localhost is a loopback name";
    QTest::newRow("ordinary name") << "proxy.example.com"
                                   << "";
}

void TestEligibility::nonPublicAddresses() {
    QFETCH(QString, host);
    QFETCH(QString, reason);

    const QByteArray line = lineForHost(host);
    const EligibilityReport rejecting = readProxyList(line, nonPublicRejectingRules());
    QCOMPARE(reasonsOf(rejecting.rejected), reason.isEmpty() ? QStringList() : QStringList{reason});
    QCOMPARE(rejecting.accepted.size(), reason.isEmpty() ? 1 : 0);

    // Off (the default): every one of them is accepted.
    const EligibilityReport permissive = readProxyList(line, EligibilityRules{});
    QCOMPARE(reasonsOf(permissive.rejected), QStringList());
    QCOMPARE(memberIdsOf(permissive.accepted), QList<QByteArray>({line}));
}

void TestEligibility::looseIpv4Forms_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("reason"); // with and without rejectNonPublicAddresses

    const QString reason =
        QStringLiteral("IPv4 address \"%2\" (= %3) is not accepted in %1 form: write it as %3");
    QTest::newRow("hex number") << QByteArray("0x7f000001:80")
                                << reason.arg("hexadecimal/shortened", "0x7f000001", "127.0.0.1");
    QTest::newRow("hex parts") << QByteArray("0x7f.0.0.0x1:80")
                               << reason.arg("hexadecimal", "0x7f.0.0.0x1", "127.0.0.1");
    QTest::newRow("octal and hex parts")
        << QByteArray("0177.0.0.0x1:8080")
        << reason.arg("hexadecimal/octal", "0177.0.0.0x1", "127.0.0.1");
    QTest::newRow("hex 10/8") << QByteArray("0xa000001:3128")
                              << reason.arg("hexadecimal/shortened", "0xa000001", "10.0.0.1");
    QTest::newRow("hex 192.168/16")
        << QByteArray("0xc0a80001:80")
        << reason.arg("hexadecimal/shortened", "0xc0a80001", "192.168.0.1");
    QTest::newRow("upper-case hex")
        << QByteArray("0X7F.1:80") << reason.arg("hexadecimal/shortened", "0x7f.1", "127.0.0.1");
    QTest::newRow("decimal number")
        << QByteArray("2130706433:80") << reason.arg("shortened", "2130706433", "127.0.0.1");
    QTest::newRow("two parts") << QByteArray("127.1:80")
                               << reason.arg("shortened", "127.1", "127.0.0.1");
    QTest::newRow("three parts") << QByteArray("127.0.1:80")
                                 << reason.arg("shortened", "127.0.1", "127.0.0.1");
    QTest::newRow("two parts 10/8")
        << QByteArray("10.1:80") << reason.arg("shortened", "10.1", "10.0.0.1");
    QTest::newRow("octal loopback")
        << QByteArray("0177.0.0.1:80") << reason.arg("octal", "0177.0.0.1", "127.0.0.1");
    // Reads as 10.0.0.1, reaches 8.0.0.1.
    QTest::newRow("octal 010") << QByteArray("010.0.0.1:80")
                               << reason.arg("octal", "010.0.0.1", "8.0.0.1");
    QTest::newRow("zero") << QByteArray("0:80") << reason.arg("shortened", "0", "0.0.0.0");
    // Refused for its form even where the address is public.
    QTest::newRow("hex public") << QByteArray("0x08080808:80")
                                << reason.arg("hexadecimal/shortened", "0x08080808", "8.8.8.8");
    QTest::newRow("with scheme and credentials")
        << QByteArray("socks5://u:p@0x7f000001:1080")
        << reason.arg("hexadecimal/shortened", "0x7f000001", "127.0.0.1");
}

void TestEligibility::looseIpv4Forms() {
    QFETCH(QByteArray, line);
    QFETCH(QString, reason);

    // Only strings are parsed here: nothing connects anywhere.
    for (const EligibilityRules &rules : {EligibilityRules{}, nonPublicRejectingRules()}) {
        const EligibilityReport report = readProxyList(line, rules);
        QCOMPARE(reasonsOf(report.rejected), QStringList{reason});
        QCOMPARE(report.accepted.size(), 0);
    }
    // The same host from a JSON object's "host" member.
    const qsizetype at = line.lastIndexOf('@');
    const QByteArray hostAndPort = line.mid(at + 1).split('/').last();
    const QByteArray host = hostAndPort.left(hostAndPort.lastIndexOf(':'));
    const EligibilityReport json =
        readProxyList(R"([{"host": ")" + host + R"(", "port": 80}])", EligibilityRules{});
    QCOMPARE(reasonsOf(json.rejected), QStringList{"array element 1: " + reason});
}

void TestEligibility::duplicatesCollapsed() {
    const QByteArray data = "http://a.example:1\n"       // 1 accepted
                            "a.example:1\n"              // 2 duplicate of 1
                            "HTTP://A.EXAMPLE:1\n"       // 3 duplicate of 1
                            "socks5://a.example:1\n"     // 4 accepted: other scheme
                            "socks5://u:p@a.example:1\n" // 5 accepted: credentials
                            "socks5://a.example:1\n"     // 6 duplicate of 4
                            "[2001:db8::1]:80\n"         // 7 accepted
                            "[2001:DB8:0::1]:80\n"       // 8 duplicate of 7
                            "ftp://a.example:1\n"        // 9 rejected
                            "ftp://a.example:1\n";       // 10 rejected again, not a duplicate
    const EligibilityReport report = readProxyList(data, EligibilityRules{});
    QCOMPARE(lineNumbersOf(report.accepted), QList<int>({1, 4, 5, 7}));
    QCOMPARE(memberIdsOf(report.accepted),
             QList<QByteArray>({"a.example:1", "socks5://a.example:1", "socks5://u:p@a.example:1",
                                "[2001:db8::1]:80"}));
    QCOMPARE(report.accepted[0].sourceText, QStringLiteral("http://a.example:1")); // first kept
    QCOMPARE(report.duplicates, 4);
    QCOMPARE(lineNumbersOf(report.rejected), QList<int>({9, 10}));
    QVERIFY(!report.allAccepted());
}

void TestEligibility::rejectedSortedByLineNumber() {
    const QByteArray data = "ftp://a.example:1\n" // 1 rule
                            "bad\n"               // 2 parse problem
                            "1.2.3.4:0\n"         // 3 rule
                            "x:y\n"               // 4 parse problem
                            "ok.example:80\n"     // 5 accepted
                            "[::1\n"              // 6 parse problem
                            "999.1.1.1:80\n";     // 7 rule
    const EligibilityReport report = readProxyList(data, EligibilityRules{});
    QCOMPARE(lineNumbersOf(report.rejected), QList<int>({1, 2, 3, 4, 6, 7}));
    QCOMPARE(reasonsOf(report.rejected),
             QStringList({"scheme \"ftp\" is not allowed (allowed: http, https, socks4, socks5)",
                          "missing port", "port 0 is out of range 1-65535",
                          "port \"y\" is not a number", "unterminated [ in IPv6 address",
                          "host \"999.1.1.1\" is not a valid IPv4 address, IPv6 address or DNS "
                          "name"}));
    QCOMPARE(report.rejected[1].text, QStringLiteral("bad"));
    QCOMPARE(lineNumbersOf(report.accepted), QList<int>({5}));
}

void TestEligibility::fatalErrorAcceptsNothing() {
    ParsedProxyList parsed = parseProxyList("1.2.3.4:80\nbad\n");
    QCOMPARE(parsed.entries.size(), 1);
    parsed.fatalError = QStringLiteral("unusable");
    const EligibilityReport report = judgeProxyList(parsed, EligibilityRules{});
    QCOMPARE(report.fatalError, QStringLiteral("unusable"));
    QCOMPARE(report.accepted.size(), 0);
    QCOMPARE(lineNumbersOf(report.rejected), QList<int>({2})); // problems still listed
    QVERIFY(!report.allAccepted());
}

void TestEligibility::allAcceptedOnlyWhenNothingRejected() {
    const EligibilityReport clean = readProxyList("1.2.3.4:80\n1.2.3.4:80\n", EligibilityRules{});
    QVERIFY(clean.allAccepted());
    QCOMPARE(clean.duplicates, 1); // duplicates are not rejections

    const EligibilityReport dirty = readProxyList("1.2.3.4:80\n1.2.3.4\n", EligibilityRules{});
    QVERIFY(!dirty.allAccepted());
    QCOMPARE(dirty.accepted.size(), 1);
}

QTEST_GUILESS_MAIN(TestEligibility)
#include "tst_eligibility.moc"
