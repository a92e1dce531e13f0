// Proxy list parsing, lines and CSV formats: entry forms, comments, CRLF/BOM, format detection.

#include "proxylist/ProxyListParser.h"

#include "ProxyListChecks.h"

#include <QFile>
#include <QTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {
QByteArray readFile(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
} // namespace

class TestProxyList : public QObject {
    Q_OBJECT

private slots:
    void lineForms_data();
    void lineForms();
    void lineParseProblems_data();
    void lineParseProblems();
    void crlfAndBom();
    void innerBomIsRejectedByBothPaths_data();
    void innerBomIsRejectedByBothPaths();
    void invisibleBytesAreShownApart();
    void commentsAndLineNumbers();
    void commentStyles_data();
    void commentStyles();
    void csvSkipsSemicolonComments();
    void autoDetection_data();
    void autoDetection();
    void csvWithHeader();
    void csvQuotedFields();
    void csvRowProblems_data();
    void csvRowProblems();
    void csvMissingColumnsIsFatal_data();
    void csvMissingColumnsIsFatal();
};

// --- Lines format ---------------------------------------------------------------------------

void TestProxyList::lineForms_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<QString>("username");
    QTest::addColumn<QString>("password");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QByteArray>("memberId");

    QTest::newRow("host:port") << QByteArray("1.2.3.4:8080") << "http"
                               << ""
                               << ""
                               << "1.2.3.4" << 8080 << QByteArray("1.2.3.4:8080");
    QTest::newRow("http scheme collapses") << QByteArray("http://1.2.3.4:80") << "http"
                                           << ""
                                           << ""
                                           << "1.2.3.4" << 80 << QByteArray("1.2.3.4:80");
    QTest::newRow("upper case is lowered")
        << QByteArray("HTTP://Proxy.Example.COM:3128") << "http"
        << ""
        << ""
        << "proxy.example.com" << 3128 << QByteArray("proxy.example.com:3128");
    QTest::newRow("https") << QByteArray("https://1.2.3.4:443") << "https"
                           << ""
                           << ""
                           << "1.2.3.4" << 443 << QByteArray("https://1.2.3.4:443");
    QTest::newRow("socks5 with credentials")
        << QByteArray("socks5://alice:s3cret@proxy.example.com:1080") << "socks5"
        << "alice"
        << "s3cret"
        << "proxy.example.com" << 1080
        << QByteArray("socks5://alice:s3cret@proxy.example.com:1080");
    QTest::newRow("credentials without scheme")
        << QByteArray("bob:pw@5.6.7.8:81") << "http"
        << "bob"
        << "pw"
        << "5.6.7.8" << 81 << QByteArray("http://bob:pw@5.6.7.8:81");
    QTest::newRow("password with @ and :")
        << QByteArray("http://carol:p@ss:w/rd@h.example:8080") << "http"
        << "carol"
        << "p@ss:w/rd"
        << "h.example" << 8080 << QByteArray("http://carol:p@ss:w/rd@h.example:8080");
    QTest::newRow("user without password")
        << QByteArray("socks4://dave@h.example:1080") << "socks4"
        << "dave"
        << ""
        << "h.example" << 1080 << QByteArray("socks4://dave@h.example:1080");
    QTest::newRow("bracketed ipv6") << QByteArray("[2001:DB8::1]:8080") << "http"
                                    << ""
                                    << ""
                                    << "2001:db8::1" << 8080 << QByteArray("[2001:db8::1]:8080");
    QTest::newRow("ipv6 made canonical")
        << QByteArray("socks5://[2001:db8:0:0:0:0:0:1]:1080") << "socks5"
        << ""
        << ""
        << "2001:db8::1" << 1080 << QByteArray("socks5://[2001:db8::1]:1080");
    QTest::newRow("ipv4-mapped ipv6")
        << QByteArray("[::FFFF:1.2.3.4]:80") << "http"
        << ""
        << ""
        << "::ffff:1.2.3.4" << 80 << QByteArray("[::ffff:1.2.3.4]:80");
    QTest::newRow("whitespace and trailing comment")
        << QByteArray(" \t1.2.3.4:8080   # office\t") << "http"
        << ""
        << ""
        << "1.2.3.4" << 8080 << QByteArray("1.2.3.4:8080");
    QTest::newRow("trailing slash") << QByteArray("http://1.2.3.4:8080/") << "http"
                                    << ""
                                    << ""
                                    << "1.2.3.4" << 8080 << QByteArray("1.2.3.4:8080");
    QTest::newRow("leading zeros in port") << QByteArray("1.2.3.4:08080") << "http"
                                           << ""
                                           << ""
                                           << "1.2.3.4" << 8080 << QByteArray("1.2.3.4:8080");
    QTest::newRow("port kept as written when out of range")
        << QByteArray("1.2.3.4:70000") << "http"
        << ""
        << ""
        << "1.2.3.4" << 70000 << QByteArray("1.2.3.4:70000");
}

void TestProxyList::lineForms() {
    QFETCH(QByteArray, line);
    QFETCH(QString, scheme);
    QFETCH(QString, username);
    QFETCH(QString, password);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QByteArray, memberId);

    const ParsedProxyList parsed = parseProxyList(line);
    QCOMPARE(parsed.detectedFormat, ProxyListFormat::Lines);
    QCOMPARE(parsed.fatalError, QString());
    QCOMPARE(parsed.problems.size(), 0);
    QCOMPARE(parsed.entries.size(), 1);
    const ProxyEntry &entry = parsed.entries.first();
    QCOMPARE(entry.scheme, scheme);
    QCOMPARE(entry.username, username);
    QCOMPARE(entry.password, password);
    QCOMPARE(entry.host, host);
    QCOMPARE(entry.port, port);
    QCOMPARE(entry.lineNumber, 1);
    QCOMPARE(entry.sourceText, QString::fromUtf8(line).trimmed());
    QCOMPARE(entry.memberId(), memberId);
}

void TestProxyList::lineParseProblems_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("reason");

    QTest::newRow("no port") << QByteArray("1.2.3.4") << "missing port";
    QTest::newRow("empty port") << QByteArray("1.2.3.4:") << "missing port";
    QTest::newRow("scheme, no port") << QByteArray("socks5://h.example") << "missing port";
    QTest::newRow("port not a number")
        << QByteArray("1.2.3.4:abc") << "port \"abc\" is not a number";
    QTest::newRow("negative port") << QByteArray("1.2.3.4:-1") << "port \"-1\" is not a number";
    QTest::newRow("huge port") << QByteArray("1.2.3.4:99999999999")
                               << "port 99999999999 is out of range 1-65535";
    QTest::newRow("no host") << QByteArray(":8080") << "missing host";
    QTest::newRow("unterminated bracket")
        << QByteArray("[2001:db8::1:8080") << "unterminated [ in IPv6 address";
    QTest::newRow("bracket without port") << QByteArray("[2001:db8::1]") << "missing port";
    QTest::newRow("bad ipv6 in brackets")
        << QByteArray("[zz::q]:80") << "\"zz::q\" is not a valid IPv6 address";
    QTest::newRow("empty brackets")
        << QByteArray("[]:80") << "empty [] where an IPv6 address belongs";
    QTest::newRow("text after bracket")
        << QByteArray("[::1]x:80") << "unexpected text \"x:80\" after \"]\"";
    QTest::newRow("ipv6 without brackets")
        << QByteArray("2001:db8::1:8080")
        << "IPv6 address must be written in brackets, as in [2001:db8::1]:8080";
    QTest::newRow("host:port:user:pass")
        << QByteArray("1.2.3.4:8080:user:pass")
        << "too many \":\" (expected host:port; write credentials as scheme://user:pass@host:port)";
    QTest::newRow("empty scheme") << QByteArray("://1.2.3.4:80") << "missing scheme before \"://\"";
    QTest::newRow("invalid scheme")
        << QByteArray("1http://1.2.3.4:80") << "invalid scheme \"1http\"";
    QTest::newRow("empty credentials")
        << QByteArray("http://@1.2.3.4:80") << "empty credentials before \"@\"";
    QTest::newRow("path after port") << QByteArray("http://1.2.3.4:80/proxy.pac")
                                     << "unexpected path \"/proxy.pac\" after the port";
    QTest::newRow("inner whitespace")
        << QByteArray("1.2.3.4 8080")
        << "unexpected whitespace inside the entry (expected one proxy per line, as host:port)";
    QTest::newRow("control character")
        << QByteArray("1.2.3.4:80\x01") << "contains the control character U+0001";
    QTest::newRow("scheme only") << QByteArray("http://") << "missing host and port";
}

void TestProxyList::lineParseProblems() {
    QFETCH(QByteArray, line);
    QFETCH(QString, reason);

    // A valid line before and after checks that one bad line costs only itself.
    const ParsedProxyList parsed =
        parseProxyList("9.9.9.9:1\n" + line + "\n8.8.8.8:2\n", ProxyListFormat::Lines);
    QCOMPARE(parsed.fatalError, QString());
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({1, 3}));
    QCOMPARE(parsed.problems.size(), 1);
    QCOMPARE(parsed.problems[0].lineNumber, 2);
    QCOMPARE(parsed.problems[0].reason, reason);
    QCOMPARE(parsed.problems[0].text,
             QString::fromUtf8(line).replace(QChar(1), QStringLiteral("\\x01")));
}

void TestProxyList::crlfAndBom() {
    const QByteArray data =
        "\xEF\xBB\xBF"
        "1.1.1.1:80\r\n2.2.2.2:81\r\n\r\n3.3.3.3:82\r4.4.4.4:83\r\n\r\n5.5.5.5:84";
    const ParsedProxyList parsed = parseProxyList(data);
    QCOMPARE(parsed.detectedFormat, ProxyListFormat::Lines);
    QCOMPARE(parsed.problems.size(), 0);
    QCOMPARE(
        memberIdsOf(parsed.entries),
        QList<QByteArray>({"1.1.1.1:80", "2.2.2.2:81", "3.3.3.3:82", "4.4.4.4:83", "5.5.5.5:84"}));
    // CRLF is one line end, a lone CR is one too.
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({1, 2, 4, 5, 7}));
    QCOMPARE(parsed.entries[0].sourceText, QStringLiteral("1.1.1.1:80")); // BOM gone
    QCOMPARE(parsed.entries[1].sourceText, QStringLiteral("2.2.2.2:81")); // CR gone
}

// Only the file's first BOM is stripped. One starting a later line (or inside one) is invisible
// and would make a good-looking host fail for no visible reason, or ride along in a user name:
// both paths reject it with a reason that names it, and show where it was.
void TestProxyList::innerBomIsRejectedByBothPaths_data() {
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<ProxyListFormat>("format");
    QTest::addColumn<QList<int>>("rejectedLines");
    QTest::newRow("lines") << QByteArray(
                                  "1.1.1.1:80\n\xEF\xBB\xBF"
                                  "203.0.113.58:80\n\xEF\xBB\xBFu:p@2.2.2.2:81\n3.3.3.3:8\xEF"
                                  "\xBB\xBF"
                                  "0\n")
                           << ProxyListFormat::Lines << QList<int>{2, 3, 4};
    QTest::newRow("csv") << QByteArray("\xEF\xBB\xBFhost,port\n1.1.1.1,80\n\xEF\xBB\xBF"
                                       "2.2.2.2,81\n")
                         << ProxyListFormat::Csv << QList<int>{3};
    QTest::newRow("fuzz seed") << readFile(QStringLiteral(
                                      POOLSCOPE_SOURCE_DIR
                                      "/tests/fuzz/corpus/fuzz_proxylist/bom-line-start-lines.txt"))
                               << ProxyListFormat::Auto << QList<int>{2, 3};
}

void TestProxyList::innerBomIsRejectedByBothPaths() {
    QFETCH(QByteArray, data);
    QFETCH(ProxyListFormat, format);
    QFETCH(QList<int>, rejectedLines);
    QVERIFY(!data.isEmpty());
    const ParsedProxyList parsed = parseProxyList(data, format);
    const EligibilityReport twoSteps = judgeProxyList(parsed, EligibilityRules{});
    const EligibilityReport streamed = readProxyList(data, EligibilityRules{}, format);
    for (const EligibilityReport *report : {&twoSteps, &streamed}) {
        QCOMPARE(lineNumbersOf(report->rejected), rejectedLines);
        for (const RejectedLine &line : report->rejected) {
            QVERIFY2(line.reason.contains(QStringLiteral("U+FEFF")), qPrintable(line.reason));
            QVERIFY2(line.text.contains(QStringLiteral("\\ufeff")), qPrintable(line.text));
        }
        for (const AcceptedProxy &accepted : report->accepted)
            QVERIFY(!accepted.sourceText.contains(QChar(0xFEFF)));
    }
    QCOMPARE(streamed.accepted.memberIds(), twoSteps.accepted.memberIds());
    QCOMPARE(streamed.rejectedCount, twoSteps.rejectedCount);
}

// An invalid byte and a control character are both invisible, and both became U+FFFD: shown
// as escapes they can be told apart (and from a U+FFFD written in the file).
void TestProxyList::invisibleBytesAreShownApart() {
    const QByteArray data = "1.1.1.1:80\n2.2.2.2:8\xff"
                            "0\n3.3.3.3:8\x01"
                            "0\n4.4.4.4:8\xef\xbf\xbd"
                            "0\n";
    const EligibilityReport report = readProxyList(data, EligibilityRules{});
    QCOMPARE(lineNumbersOf(report.rejected), QList<int>({2, 3, 4}));
    QCOMPARE(report.rejected[0].text, QStringLiteral("2.2.2.2:8\\xff0"));
    QCOMPARE(report.rejected[1].text, QStringLiteral("3.3.3.3:8\\x010"));
    QCOMPARE(report.rejected[2].text, QString::fromUtf8("4.4.4.4:8\xef\xbf\xbd"
                                                        "0"));
}

void TestProxyList::commentsAndLineNumbers() {
    const QByteArray data = "# proxies for the demo\n"
                            "\n"
                            "1.1.1.1:80\n"
                            "   # indented comment\n"
                            "  2.2.2.2:81   # office\n"
                            "3.3.3.3:82#not-a-comment\n"
                            "\t\n"
                            "socks5://u:p#w@4.4.4.4:83\n";
    const ParsedProxyList parsed = parseProxyList(data);
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({3, 5, 8}));
    QCOMPARE(parsed.entries[1].sourceText, QStringLiteral("2.2.2.2:81   # office"));
    QCOMPARE(parsed.entries[1].memberId(), QByteArray("2.2.2.2:81"));
    QCOMPARE(parsed.entries[2].password, QStringLiteral("p#w")); // '#' without a space before it
    QCOMPARE(parsed.problems.size(), 1);
    QCOMPARE(parsed.problems[0].lineNumber, 6);
    QCOMPARE(parsed.problems[0].reason,
             QStringLiteral("port \"82#not-a-comment\" is not a number"));
}

void TestProxyList::commentStyles_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QByteArray>("memberId"); // empty: no entry
    QTest::addColumn<QString>("reason");      // empty: no problem

    QTest::newRow("; comment") << QByteArray("; proxies bought in May") << QByteArray() << "";
    QTest::newRow(";comment") << QByteArray(";no space") << QByteArray() << "";
    QTest::newRow("indented ;") << QByteArray("  \t; indented") << QByteArray() << "";
    QTest::newRow("# comment") << QByteArray("# as before") << QByteArray() << "";
    QTest::newRow("trailing ;") << QByteArray("1.2.3.4:80 ; office") << QByteArray("1.2.3.4:80")
                                << "";
    QTest::newRow("; in a password") << QByteArray("socks5://u:p;w@1.2.3.4:1080")
                                     << QByteArray("socks5://u:p;w@1.2.3.4:1080") << "";
    QTest::newRow("// comment") << QByteArray("// not ours") << QByteArray()
                                << "unknown comment style \"//\" (comment lines start with # or ;)";
    QTest::newRow("-- comment") << QByteArray("-- not ours") << QByteArray()
                                << "unknown comment style \"--\" (comment lines start with # or ;)";
    QTest::newRow("/* comment */")
        << QByteArray("/* not ours */") << QByteArray()
        << "unknown comment style \"/*\" (comment lines start with # or ;)";
}

void TestProxyList::commentStyles() {
    QFETCH(QByteArray, line);
    QFETCH(QByteArray, memberId);
    QFETCH(QString, reason);

    const ParsedProxyList parsed = parseProxyList("9.9.9.9:1\n" + line + "\n8.8.8.8:2\n");
    QList<QByteArray> expectedIds{"9.9.9.9:1"};
    if (!memberId.isEmpty())
        expectedIds << memberId;
    expectedIds << "8.8.8.8:2";
    QCOMPARE(memberIdsOf(parsed.entries), expectedIds);
    QCOMPARE(parsed.problems.size(), reason.isEmpty() ? 0 : 1);
    if (!reason.isEmpty()) {
        QCOMPARE(parsed.problems[0].lineNumber, 2);
        QCOMPARE(parsed.problems[0].reason, reason);
    }
}

void TestProxyList::csvSkipsSemicolonComments() {
    const ParsedProxyList parsed =
        parseProxyList("; exported list\nhost,port\n1.2.3.4,80\n;5.6.7.8,81\n9.9.9.9,82\n");
    QCOMPARE(parsed.detectedFormat, ProxyListFormat::Csv);
    QCOMPARE(parsed.problems.size(), 0);
    QCOMPARE(memberIdsOf(parsed.entries), QList<QByteArray>({"1.2.3.4:80", "9.9.9.9:82"}));
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({3, 5}));
}

void TestProxyList::autoDetection_data() {
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<ProxyListFormat>("format");

    QTest::newRow("json strings") << QByteArray("[\"1.2.3.4:80\"]") << ProxyListFormat::Json;
    QTest::newRow("json after whitespace")
        << QByteArray("  \n [ {\"host\": \"a.example\", \"port\": 1} ]") << ProxyListFormat::Json;
    QTest::newRow("empty json array") << QByteArray("[]") << ProxyListFormat::Json;
    QTest::newRow("json object") << QByteArray("{\"host\": 1}") << ProxyListFormat::Json;
    QTest::newRow("json with bom")
        << QByteArray("\xEF\xBB\xBF[\"1.2.3.4:80\"]") << ProxyListFormat::Json;
    QTest::newRow("bracketed ipv6 line is not json")
        << QByteArray("[::1]:8080\n1.2.3.4:80\n") << ProxyListFormat::Lines;
    QTest::newRow("bracketed full ipv6 line is not json")
        << QByteArray("[2001:db8:0:1::2]:3128") << ProxyListFormat::Lines;
    QTest::newRow("csv") << QByteArray("host,port\n1.2.3.4,80\n") << ProxyListFormat::Csv;
    QTest::newRow("csv after comments, odd case and spacing")
        << QByteArray("# export\n\nProtocol , IP , Port\n") << ProxyListFormat::Csv;
    QTest::newRow("csv with ip address column")
        << QByteArray("\"IP Address\",\"Port\"\n") << ProxyListFormat::Csv;
    QTest::newRow("csv with bom") << QByteArray("\xEF\xBB\xBFip,port\n") << ProxyListFormat::Csv;
    QTest::newRow("comma without header")
        << QByteArray("1.2.3.4:80,5.6.7.8:80\n") << ProxyListFormat::Lines;
    QTest::newRow("header without port column")
        << QByteArray("ip,user\n") << ProxyListFormat::Lines;
    QTest::newRow("plain lines") << QByteArray("1.2.3.4:80\n") << ProxyListFormat::Lines;
    QTest::newRow("empty") << QByteArray() << ProxyListFormat::Lines;
}

void TestProxyList::autoDetection() {
    QFETCH(QByteArray, data);
    QFETCH(ProxyListFormat, format);
    QCOMPARE(parseProxyList(data).detectedFormat, format);
}

// --- CSV ------------------------------------------------------------------------------------

void TestProxyList::csvWithHeader() {
    const QByteArray data = "Protocol,IP,Port,Username,Password\r\n"
                            "socks5,1.2.3.4,1080,alice,secret\r\n"
                            ",5.6.7.8,3128,,\r\n"
                            "\r\n"
                            "HTTP,2001:DB8::1,8080,,\r\n"
                            "https,proxy.example.com,443\r\n";
    const ParsedProxyList parsed = parseProxyList(data);
    QCOMPARE(parsed.detectedFormat, ProxyListFormat::Csv);
    QCOMPARE(parsed.fatalError, QString());
    QCOMPARE(parsed.problems.size(), 0);
    QCOMPARE(memberIdsOf(parsed.entries),
             QList<QByteArray>({"socks5://alice:secret@1.2.3.4:1080", "5.6.7.8:3128",
                                "[2001:db8::1]:8080", "https://proxy.example.com:443"}));
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({2, 3, 5, 6}));
    QCOMPARE(parsed.entries[0].sourceText, QStringLiteral("socks5,1.2.3.4,1080,alice,secret"));
    QCOMPARE(parsed.entries[0].username, QStringLiteral("alice"));
    QCOMPARE(parsed.entries[0].password, QStringLiteral("secret"));
}

void TestProxyList::csvQuotedFields() {
    const QByteArray data = "\"host\",\"port\",\"user\",\"pass\"\n"
                            "\"1.2.3.4\",\"8080\",\"bob\",\"pa,ss\"\n"
                            "\"5.6.7.8\", 81 ,\"eve\",\"say \"\"hi\"\"\"\n"
                            "\"[2001:db8::2]\",82,,\n";
    const ParsedProxyList parsed = parseProxyList(data, ProxyListFormat::Csv);
    QCOMPARE(parsed.fatalError, QString());
    QCOMPARE(parsed.problems.size(), 0);
    QCOMPARE(parsed.entries.size(), 3);
    QCOMPARE(parsed.entries[0].password, QStringLiteral("pa,ss"));
    QCOMPARE(parsed.entries[0].memberId(), QByteArray("http://bob:pa,ss@1.2.3.4:8080"));
    QCOMPARE(parsed.entries[1].password, QStringLiteral("say \"hi\""));
    QCOMPARE(parsed.entries[1].port, 81);
    QCOMPARE(parsed.entries[2].memberId(), QByteArray("[2001:db8::2]:82"));
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({2, 3, 4}));
}

void TestProxyList::csvRowProblems_data() {
    QTest::addColumn<QByteArray>("row");
    QTest::addColumn<QString>("reason");

    QTest::newRow("empty port") << QByteArray("1.2.3.4,") << "missing port";
    QTest::newRow("short row") << QByteArray("1.2.3.4") << "missing port";
    QTest::newRow("empty host") << QByteArray(",80") << "missing host";
    QTest::newRow("port not a number")
        << QByteArray("1.2.3.4,abc") << "port \"abc\" is not a number";
    QTest::newRow("unterminated quote")
        << QByteArray("\"1.2.3.4,80") << "unterminated quoted field 1";
    QTest::newRow("text after quote")
        << QByteArray("\"1.2.3.4\"x,80") << "unexpected text after the closing quote of field 1";
    QTest::newRow("host:port in host column")
        << QByteArray("1.2.3.4:80,80")
        << "host \"1.2.3.4:80\" contains \":\" but is not a valid IPv6 address";
    QTest::newRow("unterminated bracket")
        << QByteArray("[::1,80") << "unterminated [ in IPv6 address";
    QTest::newRow("invalid scheme") << QByteArray("1.2.3.4,80,s5!") << "invalid scheme \"s5!\"";
}

void TestProxyList::csvRowProblems() {
    QFETCH(QByteArray, row);
    QFETCH(QString, reason);

    const ParsedProxyList parsed =
        parseProxyList("host,port,type\n" + row + "\n9.9.9.9,1,socks5\n", ProxyListFormat::Csv);
    QCOMPARE(parsed.fatalError, QString());
    QCOMPARE(parsed.problems.size(), 1);
    QCOMPARE(parsed.problems[0].lineNumber, 2);
    QCOMPARE(parsed.problems[0].reason, reason);
    QCOMPARE(parsed.problems[0].text, QString::fromUtf8(row));
    QCOMPARE(memberIdsOf(parsed.entries), QList<QByteArray>({"socks5://9.9.9.9:1"}));
    QCOMPARE(parsed.entries[0].lineNumber, 3);
}

void TestProxyList::csvMissingColumnsIsFatal_data() {
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("fatalError");

    QTest::newRow("no port column")
        << QByteArray("ip,user\n1.2.3.4,bob\n")
        << "CSV header on line 1 (\"ip,user\") lacks a port column (port)";
    QTest::newRow("no host column")
        << QByteArray("port,user\n80,bob\n")
        << "CSV header on line 1 (\"port,user\") lacks a host column (host, ip, address or "
           "proxy_host)";
    QTest::newRow("neither")
        << QByteArray("# comment\nname,comment\n")
        << "CSV header on line 2 (\"name,comment\") lacks a host column (host, ip, address or "
           "proxy_host) and a port column (port)";
    QTest::newRow("empty input") << QByteArray("\n\n")
                                 << "CSV input has no header row naming the host and port columns";
}

void TestProxyList::csvMissingColumnsIsFatal() {
    QFETCH(QByteArray, data);
    QFETCH(QString, fatalError);

    const ParsedProxyList parsed = parseProxyList(data, ProxyListFormat::Csv);
    QCOMPARE(parsed.detectedFormat, ProxyListFormat::Csv);
    QCOMPARE(parsed.fatalError, fatalError);
    QCOMPARE(parsed.entries.size(), 0);

    const EligibilityReport report = judgeProxyList(parsed, EligibilityRules{});
    QCOMPARE(report.fatalError, fatalError);
    QVERIFY(!report.allAccepted());
}

QTEST_GUILESS_MAIN(TestProxyList)
#include "tst_proxylist.moc"
