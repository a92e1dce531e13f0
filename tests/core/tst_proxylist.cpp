#include "proxylist/Eligibility.h"
#include "proxylist/ParserDetail.h"
#include "proxylist/ProxyListParser.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>

using namespace poolscope;

namespace {

QList<int> lineNumbersOf(const QList<ProxyEntry> &entries) {
    QList<int> numbers;
    for (const ProxyEntry &entry : entries)
        numbers << entry.lineNumber;
    return numbers;
}

QList<int> lineNumbersOf(const QList<RejectedLine> &rejected) {
    QList<int> numbers;
    for (const RejectedLine &line : rejected)
        numbers << line.lineNumber;
    return numbers;
}

QList<int> lineNumbersOf(const AcceptedProxies &accepted) {
    QList<int> numbers;
    for (const AcceptedProxy &proxy : accepted)
        numbers << proxy.lineNumber;
    return numbers;
}

QList<QByteArray> memberIdsOf(const AcceptedProxies &accepted) {
    return accepted.memberIds();
}

QList<QByteArray> memberIdsOf(const QList<ProxyEntry> &entries) {
    QList<QByteArray> ids;
    for (const ProxyEntry &entry : entries)
        ids << entry.memberId();
    return ids;
}

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

// Everything a JSON front-end hands on, for comparing two readings of one input.
struct JsonReadingResult final : proxylist_detail::ProxyListSink {
    void formatDetected(ProxyListFormat) override {}
    void entryParsed(ProxyEntry &&entry) override { entries.append(std::move(entry)); }
    void problemFound(ParseProblem &&problem) override { problems.append(std::move(problem)); }
    QList<ProxyEntry> entries;
    QList<ParseProblem> problems;
    QString fatalError;
};

void readJson(const QByteArray &json, proxylist_detail::JsonReading reading,
              JsonReadingResult &result) {
    proxylist_detail::ListParser parser(ProxyListFormat::Json, result);
    proxylist_detail::parseJson(json, parser, reading);
    result.fatalError = parser.fatalError();
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

    void jsonStrings();
    void jsonObjects();
    void jsonElementProblems_data();
    void jsonElementProblems();
    void malformedJsonIsFatal_data();
    void malformedJsonIsFatal();
    void jsonRuleRejectionNamesTheElement();
    void jsonPlainStringsMatchFullReader_data();
    void jsonPlainStringsMatchFullReader();

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

    void hostileLongLine();
    void lineLengthLimitBoundary();
    void hostileInvalidUtf8_data();
    void hostileInvalidUtf8();
    void latin1CommentIsSkipped();
    void hostileNulBytes_data();
    void hostileNulBytes();
    void hostileBinaryJunk();
    void hundredThousandDuplicateLines();
    void tooManyProblemsIsFatal();
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
    QCOMPARE(parsed.problems[0].text, QString::fromUtf8(line).replace(QChar(1), QChar(0xfffd)));
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

// --- JSON -----------------------------------------------------------------------------------

void TestProxyList::jsonStrings() {
    const QByteArray data = "[\n"
                            "  \"1.2.3.4:80\",\n"
                            "  \"socks5://u:p@[2001:db8::1]:1080\",\n"
                            "  \"# a comment\",\n"
                            "  \"\",\n"
                            "  \"bad\"\n"
                            "]\n";
    const ParsedProxyList parsed = parseProxyList(data);
    QCOMPARE(parsed.detectedFormat, ProxyListFormat::Json);
    QCOMPARE(parsed.fatalError, QString());
    QCOMPARE(memberIdsOf(parsed.entries),
             QList<QByteArray>({"1.2.3.4:80", "socks5://u:p@[2001:db8::1]:1080"}));
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({1, 2})); // element indexes, not lines
    QCOMPARE(parsed.problems.size(), 1);
    QCOMPARE(parsed.problems[0].lineNumber, 5);
    QCOMPARE(parsed.problems[0].text, QStringLiteral("bad"));
    QCOMPARE(parsed.problems[0].reason, QStringLiteral("array element 5: missing port"));
}

void TestProxyList::jsonObjects() {
    const QByteArray data =
        R"([
             {"host": "1.2.3.4", "port": 8080},
             {"ip": "5.6.7.8", "port": "3128", "protocol": "SOCKS5",
              "username": "u", "password": "p"},
             {"Host": "[2001:db8::1]", "Port": 80, "type": "https"},
             {"host": "2001:DB8::2", "port": 81, "comment": "ignored"}
           ])";
    const ParsedProxyList parsed = parseProxyList(data);
    QCOMPARE(parsed.detectedFormat, ProxyListFormat::Json);
    QCOMPARE(parsed.fatalError, QString());
    QCOMPARE(parsed.problems.size(), 0);
    QCOMPARE(memberIdsOf(parsed.entries),
             QList<QByteArray>({"1.2.3.4:8080", "socks5://u:p@5.6.7.8:3128",
                                "https://[2001:db8::1]:80", "[2001:db8::2]:81"}));
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({1, 2, 3, 4}));
    QCOMPARE(parsed.entries[0].sourceText, QStringLiteral(R"({"host":"1.2.3.4","port":8080})"));
}

void TestProxyList::jsonElementProblems_data() {
    QTest::addColumn<QByteArray>("element");
    QTest::addColumn<QString>("reason");

    QTest::newRow("no host") << QByteArray(R"({"port": 80})")
                             << "missing host (expected a \"host\" or \"ip\" member)";
    QTest::newRow("no port") << QByteArray(R"({"host": "a.example"})") << "missing port";
    QTest::newRow("fractional port") << QByteArray(R"({"host": "a.example", "port": 80.5})")
                                     << "port 80.5 is not a whole number";
    QTest::newRow("boolean port") << QByteArray(R"({"host": "a.example", "port": true})")
                                  << "port must be a number or a numeric string, not a boolean";
    QTest::newRow("port string not a number")
        << QByteArray(R"({"host": "a.example", "port": "8o"})") << "port \"8o\" is not a number";
    QTest::newRow("huge port") << QByteArray(R"({"host": "a.example", "port": 1e12})")
                               << "port 1000000000000 is out of range 1-65535";
    QTest::newRow("host not a string")
        << QByteArray(R"({"host": 5, "port": 80})") << "host must be a string, not a number";
    QTest::newRow("host with NUL")
        << QByteArray(R"({"host": "a\u0000b", "port": 80})") << "host contains a NUL byte";
    QTest::newRow("number element")
        << QByteArray("42") << "expected a string or an object, not a number";
    QTest::newRow("null element") << QByteArray("null")
                                  << "expected a string or an object, not null";
    QTest::newRow("array element")
        << QByteArray("[\"1.2.3.4:80\"]") << "expected a string or an object, not an array";
    QTest::newRow("bad string") << QByteArray("\"1.2.3.4\"") << "missing port";
    QTest::newRow("string with NUL")
        << QByteArray(R"("1.2.3.4:80\u0000")") << "contains a NUL byte";
    // Found while writing the fuzz target: toUtf8() turned lone surrogates into '?', silently
    // changing the member (and merging different passwords into one).
    QTest::newRow("string with lone surrogate")
        << QByteArray(R"("u:\ud800@1.2.3.4:80")")
        << "contains an unpaired surrogate (a \\uD800-\\uDFFF escape without its pair), which "
           "is not valid Unicode";
    QTest::newRow("password with lone surrogate")
        << QByteArray(R"({"host": "1.2.3.4", "port": 80, "password": "p\udfff"})")
        << "password contains an unpaired surrogate (a \\uD800-\\uDFFF escape without its "
           "pair), which is not valid Unicode";
}

void TestProxyList::jsonElementProblems() {
    QFETCH(QByteArray, element);
    QFETCH(QString, reason);

    const ParsedProxyList parsed = parseProxyList("[\"9.9.9.9:1\", " + element + "]");
    QCOMPARE(parsed.detectedFormat, ProxyListFormat::Json);
    QCOMPARE(parsed.fatalError, QString());
    QCOMPARE(memberIdsOf(parsed.entries), QList<QByteArray>({"9.9.9.9:1"}));
    QCOMPARE(parsed.problems.size(), 1);
    QCOMPARE(parsed.problems[0].lineNumber, 2);
    QCOMPARE(parsed.problems[0].reason, "array element 2: " + reason);
    QVERIFY(!parsed.problems[0].text.isEmpty());
}

void TestProxyList::malformedJsonIsFatal_data() {
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("fatalPrefix");

    QTest::newRow("brace after comma")
        << QByteArray("[\n  \"a.example:1\",\n  }") << "malformed JSON at line 3, column 4: ";
    QTest::newRow("missing comma")
        << QByteArray("[\"a:1\" \"b:2\"]") << "malformed JSON at line 1, column 9: ";
    QTest::newRow("double comma") << QByteArray("[1,\n2,,3]")
                                  << "malformed JSON at line 2, column 4: ";
    QTest::newRow("CRLF and bom") << QByteArray("\xEF\xBB\xBF[\r\n\"a:1\",\r\n\"b:2\"\r\nx]")
                                  << "malformed JSON at line 4, column 2: ";
    QTest::newRow("object at top level")
        << QByteArray(R"({"host": "a.example", "port": 1})")
        << "JSON input must be an array of proxies (strings or objects), not an object";
}

void TestProxyList::malformedJsonIsFatal() {
    QFETCH(QByteArray, data);
    QFETCH(QString, fatalPrefix);

    const EligibilityReport report = readProxyList(data, EligibilityRules{});
    QVERIFY2(report.fatalError.startsWith(fatalPrefix), qPrintable(report.fatalError));
    QVERIFY(report.fatalError.size() > fatalPrefix.size() || !fatalPrefix.endsWith(u' '));
    QCOMPARE(report.accepted.size(), 0);
    QVERIFY(!report.allAccepted());
}

void TestProxyList::jsonRuleRejectionNamesTheElement() {
    const EligibilityReport report =
        readProxyList(R"(["1.2.3.4:80", {"host": "1.2.3.4", "port": 0}])", EligibilityRules{});
    QCOMPARE(memberIdsOf(report.accepted), QList<QByteArray>({"1.2.3.4:80"}));
    QCOMPARE(report.rejected.size(), 1);
    QCOMPARE(report.rejected[0].lineNumber, 2);
    QCOMPARE(report.rejected[0].reason,
             QStringLiteral("array element 2: port 0 is out of range 1-65535"));
}

// --- Eligibility ----------------------------------------------------------------------------

void TestProxyList::memberIdOfHandMadeEntries_data() {
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

void TestProxyList::memberIdOfHandMadeEntries() {
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

void TestProxyList::eligibilityRules_data() {
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
        << "shortened IPv4 form \"1.2.3\" (= 1.2.0.3) is not accepted: write it as 1.2.0.3";
    QTest::newRow("leading zero octet")
        << QByteArray("01.2.3.4:80")
        << "octal IPv4 form \"01.2.3.4\" (= 1.2.3.4) is not accepted: write it as 1.2.3.4";
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

void TestProxyList::eligibilityRules() {
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

void TestProxyList::schemeAllowList() {
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

void TestProxyList::portAllowList_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("reason");

    QTest::newRow("allowed 80") << QByteArray("1.2.3.4:80") << "";
    QTest::newRow("allowed 3128") << QByteArray("socks5://1.2.3.4:3128") << "";
    QTest::newRow("not allowed 8081")
        << QByteArray("1.2.3.4:8081") << "port 8081 is not in the allowed ports (80, 3128, 8080)";
    QTest::newRow("range comes first")
        << QByteArray("1.2.3.4:0") << "port 0 is out of range 1-65535";
}

void TestProxyList::portAllowList() {
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

void TestProxyList::nonPublicAddresses_data() {
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
        << "::ffff:10.0.0.1 is an IPv4-mapped address for 10.0.0.1, a private address";
    QTest::newRow("v6 mapped loopback")
        << "::ffff:127.0.0.1"
        << "::ffff:127.0.0.1 is an IPv4-mapped address for 127.0.0.1, a loopback address";
    QTest::newRow("v6 mapped documentation")
        << "::ffff:192.0.2.1"
        << "::ffff:192.0.2.1 is an IPv4-mapped address for 192.0.2.1, a documentation address";
    QTest::newRow("v6 compatible loopback")
        << "::127.0.0.1"
        << "::127.0.0.1 is an IPv4-compatible address for 127.0.0.1, a loopback address";
    QTest::newRow("v6 compatible public")
        << "::8.8.8.8"
        << "::8.8.8.8 is a reserved (deprecated IPv4-compatible) address";
    QTest::newRow("6to4 loopback")
        << "2002:7f00:1::1"
        << "2002:7f00:1::1 is a 6to4 address for 127.0.0.1, a loopback address";
    QTest::newRow("6to4 private")
        << "2002:c0a8:101::1"
        << "2002:c0a8:101::1 is a 6to4 address for 192.168.1.1, a private address";
    QTest::newRow("6to4 public") << "2002:808:808::1"
                                 << "";
    // Teredo: server 65.54.227.120 (public); the client is the last 32 bits inverted.
    QTest::newRow("Teredo client loopback")
        << "2001:0:4136:e378:8000:63bf:80ff:fffe"
        << "2001:0:4136:e378:8000:63bf:80ff:fffe is a Teredo address for client 127.0.0.1, a "
           "loopback address";
    QTest::newRow("Teredo client private")
        << "2001:0:4136:e378:8000:63bf:f5ff:fffe"
        << "2001:0:4136:e378:8000:63bf:f5ff:fffe is a Teredo address for client 10.0.0.1, a "
           "private address";
    QTest::newRow("Teredo server private")
        << "2001:0:a00:1:8000:63bf:f7f7:f7f7"
        << "2001:0:a00:1:8000:63bf:f7f7:f7f7 is a Teredo address for server 10.0.0.1, a private "
           "address";
    QTest::newRow("Teredo public") << "2001:0:4136:e378:8000:63bf:f7f7:f7f7"
                                   << "";
    QTest::newRow("NAT64 loopback")
        << "64:ff9b::7f00:1"
        << "64:ff9b::7f00:1 is a NAT64 address for 127.0.0.1, a loopback address";
    QTest::newRow("NAT64 CGNAT") << "64:ff9b::6440:1"
                                 << "64:ff9b::6440:1 is a NAT64 address for 100.64.0.1, a CGNAT "
                                    "address";
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

void TestProxyList::nonPublicAddresses() {
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

void TestProxyList::looseIpv4Forms_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("reason"); // with and without rejectNonPublicAddresses

    const QString reason =
        QStringLiteral("%1 IPv4 form \"%2\" (= %3) is not accepted: write it as %3");
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

void TestProxyList::looseIpv4Forms() {
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

void TestProxyList::duplicatesCollapsed() {
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

void TestProxyList::rejectedSortedByLineNumber() {
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

void TestProxyList::fatalErrorAcceptsNothing() {
    ParsedProxyList parsed = parseProxyList("1.2.3.4:80\nbad\n");
    QCOMPARE(parsed.entries.size(), 1);
    parsed.fatalError = QStringLiteral("unusable");
    const EligibilityReport report = judgeProxyList(parsed, EligibilityRules{});
    QCOMPARE(report.fatalError, QStringLiteral("unusable"));
    QCOMPARE(report.accepted.size(), 0);
    QCOMPARE(lineNumbersOf(report.rejected), QList<int>({2})); // problems still listed
    QVERIFY(!report.allAccepted());
}

void TestProxyList::allAcceptedOnlyWhenNothingRejected() {
    const EligibilityReport clean = readProxyList("1.2.3.4:80\n1.2.3.4:80\n", EligibilityRules{});
    QVERIFY(clean.allAccepted());
    QCOMPARE(clean.duplicates, 1); // duplicates are not rejections

    const EligibilityReport dirty = readProxyList("1.2.3.4:80\n1.2.3.4\n", EligibilityRules{});
    QVERIFY(!dirty.allAccepted());
    QCOMPARE(dirty.accepted.size(), 1);
}

// --- Hostile input --------------------------------------------------------------------------

void TestProxyList::hostileLongLine() {
    const qsizetype megabyte = 1024 * 1024;
    const QByteArray data = "1.1.1.1:80\n" + QByteArray(megabyte, 'a') + "\n2.2.2.2:80\n";
    const EligibilityReport report = readProxyList(data, EligibilityRules{});
    QCOMPARE(lineNumbersOf(report.accepted), QList<int>({1, 3}));
    QCOMPARE(report.rejected.size(), 1);
    QCOMPARE(report.rejected[0].lineNumber, 2);
    QCOMPARE(report.rejected[0].reason,
             QStringLiteral("line is 1048576 bytes long (the limit is 4096)"));
    QCOMPARE(report.rejected[0].text.size(), kMaxDisplayTextChars);
    QCOMPARE(report.rejected[0].text, QString(199, u'a') + QChar(0x2026));
}

void TestProxyList::lineLengthLimitBoundary() {
    // 4096 bytes is still parsed (the over-long host is then rejected by the rules), 4097 is not.
    const QByteArray atLimit = QByteArray(4096 - 3, 'h') + ":80";
    const QByteArray overLimit = QByteArray(4097 - 3, 'h') + ":80";
    const ParsedProxyList parsed = parseProxyList(atLimit + '\n' + overLimit);
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({1}));
    QCOMPARE(parsed.entries[0].sourceText.size(), kMaxDisplayTextChars);
    QCOMPARE(parsed.problems.size(), 1);
    QCOMPARE(parsed.problems[0].reason,
             QStringLiteral("line is 4097 bytes long (the limit is 4096)"));

    const EligibilityReport report = judgeProxyList(parsed, EligibilityRules{});
    QCOMPARE(lineNumbersOf(report.rejected), QList<int>({1, 2}));
    QVERIFY2(report.rejected[0].reason.endsWith(
                 u"is not a valid IPv4 address, IPv6 address or DNS name"),
             qPrintable(report.rejected[0].reason));
}

void TestProxyList::hostileInvalidUtf8_data() {
    QTest::addColumn<QByteArray>("line");

    QTest::newRow("truncated sequence at line end") << QByteArray("1.2.3.4:80\xC3");
    QTest::newRow("overlong slash") << QByteArray("\xC0\xAF.example:80");
    QTest::newRow("utf-16 surrogate") << QByteArray("\xED\xA0\x80.example:80");
    QTest::newRow("beyond U+10FFFF") << QByteArray("\xF4\x90\x80\x80.example:80");
    QTest::newRow("0xFF bytes") << QByteArray("\xFF\xFE:80");
    QTest::newRow("latin-1 host") << QByteArray("caf\xE9.example:80");
}

void TestProxyList::hostileInvalidUtf8() {
    QFETCH(QByteArray, line);

    const EligibilityReport report =
        readProxyList("1.1.1.1:80\n" + line + "\n2.2.2.2:80\n", EligibilityRules{});
    QCOMPARE(lineNumbersOf(report.accepted), QList<int>({1, 3}));
    QCOMPARE(report.rejected.size(), 1);
    QCOMPARE(report.rejected[0].lineNumber, 2);
    QCOMPARE(report.rejected[0].reason, QStringLiteral("not valid UTF-8"));
    QVERIFY(report.rejected[0].text.contains(QChar::ReplacementCharacter));
}

void TestProxyList::latin1CommentIsSkipped() {
    const ParsedProxyList parsed = parseProxyList("# caf\xE9 proxies\n1.1.1.1:80\n");
    QCOMPARE(parsed.problems.size(), 0);
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({2}));
}

void TestProxyList::hostileNulBytes_data() {
    QTest::addColumn<QByteArray>("line");

    QTest::newRow("NUL after entry") << QByteArray("1.2.3.4:80\0junk", 15);
    QTest::newRow("NUL inside host") << QByteArray("1.2.3\0.4:80", 11);
    QTest::newRow("only NUL") << QByteArray(1, '\0');
    QTest::newRow("NUL after comment mark") << QByteArray("# x\0", 4);
}

void TestProxyList::hostileNulBytes() {
    QFETCH(QByteArray, line);

    const EligibilityReport report =
        readProxyList("1.1.1.1:80\n" + line + "\n2.2.2.2:80\n", EligibilityRules{});
    QCOMPARE(lineNumbersOf(report.accepted), QList<int>({1, 3}));
    QCOMPARE(report.rejected.size(), 1);
    QCOMPARE(report.rejected[0].lineNumber, 2);
    QCOMPARE(report.rejected[0].reason, QStringLiteral("contains a NUL byte"));
    QVERIFY(!report.rejected[0].text.contains(QChar(0)));
}

void TestProxyList::hostileBinaryJunk() {
    // 50 lines of seeded random bytes (no line breaks inside, not blank, not a comment) between
    // two valid lines: each junk line must end up rejected, nothing else disturbed.
    QRandomGenerator random(20240601);
    QByteArray data = "1.1.1.1:80\n";
    const int junkLines = 50;
    for (int i = 0; i < junkLines; ++i) {
        QByteArray junk(1 + random.bounded(300), Qt::Uninitialized);
        for (char &byte : junk) {
            do {
                byte = static_cast<char>(random.bounded(256));
            } while (byte == '\n' || byte == '\r');
        }
        junk[0] = static_cast<char>('A' + random.bounded(26)); // neither blank nor a comment
        data += junk + '\n';
    }
    data += "2.2.2.2:80\n";

    const EligibilityReport report = readProxyList(data, EligibilityRules{});
    QCOMPARE(report.fatalError, QString());
    QCOMPARE(lineNumbersOf(report.accepted), QList<int>({1, junkLines + 2}));
    QCOMPARE(report.rejected.size(), junkLines);
    for (int i = 0; i < junkLines; ++i) {
        const RejectedLine &rejected = report.rejected[i];
        QCOMPARE(rejected.lineNumber, i + 2);
        QVERIFY(!rejected.reason.isEmpty());
        QVERIFY(!rejected.text.isEmpty());
        QVERIFY(rejected.text.size() <= kMaxDisplayTextChars);
        for (const QChar c : rejected.text)
            QVERIFY2(c.unicode() >= 0x20 || c == u'\t', "control character in display text");
    }
}

void TestProxyList::hundredThousandDuplicateLines() {
    const int copies = 100000;
    QByteArray data;
    data.reserve(copies * 24);
    for (int i = 0; i < copies; ++i)
        data += (i % 2 == 0) ? "1.2.3.4:8080\r\n" : "http://1.2.3.4:8080\r\n";
    data += "5.6.7.8:3128\r\n";

    const ParsedProxyList parsed = parseProxyList(data);
    QCOMPARE(parsed.entries.size(), copies + 1);
    const EligibilityReport report = judgeProxyList(parsed, EligibilityRules{});
    QCOMPARE(report.fatalError, QString());
    QCOMPARE(report.rejected.size(), 0);
    QCOMPARE(report.duplicates, copies - 1);
    QCOMPARE(memberIdsOf(report.accepted), QList<QByteArray>({"1.2.3.4:8080", "5.6.7.8:3128"}));
    QCOMPARE(lineNumbersOf(report.accepted), QList<int>({1, copies + 1}));
}

void TestProxyList::tooManyProblemsIsFatal() {
    QByteArray justBelow;
    for (qsizetype i = 0; i < kMaxParseProblems; ++i)
        justBelow += "junk\n";
    const ParsedProxyList tolerated = parseProxyList(justBelow + "1.2.3.4:80\n");
    QCOMPARE(tolerated.fatalError, QString());
    QCOMPARE(tolerated.problems.size(), kMaxParseProblems);
    QCOMPARE(tolerated.entries.size(), 1);

    const ParsedProxyList overwhelmed = parseProxyList(justBelow + "junk\n1.2.3.4:80\n");
    QCOMPARE(overwhelmed.fatalError,
             QStringLiteral("gave up at line 10001: more than 10000 entries could not be parsed, "
                            "so this does not look like a proxy list"));
    QCOMPARE(overwhelmed.problems.size(), kMaxParseProblems);
    QCOMPARE(overwhelmed.entries.size(), 0); // parsing stopped there
    const EligibilityReport report = judgeProxyList(overwhelmed, EligibilityRules{});
    QCOMPARE(report.accepted.size(), 0);
    QVERIFY(!report.allAccepted());
}

void TestProxyList::jsonPlainStringsMatchFullReader_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("plain"); // read straight from the bytes, not by QJsonDocument

    QTest::newRow("entries and problems")
        << QByteArray(R"(["1.2.3.4:80", "bad", "# c", "; c", "", "10.0.0.1:80", )"
                      R"(" 5.6.7.8:81 # office ", "1.2.3.4:80", "http://1.2.3.4:80", "a:b:c", )"
                      R"("socks5://u:p@h.example:1080", "[2001:db8::1]:8080", "h:0"])")
        << true;
    QTest::newRow("empty array") << QByteArray("[]") << true;
    QTest::newRow("empty array, spaced") << QByteArray(" \r\n[ \t]\n") << true;
    QTest::newRow("whitespace everywhere")
        << QByteArray("\n[\n\t\"1.2.3.4:80\" ,\r\n \"socks5://u:p@h.example:1\"\n]\r\n ") << true;
    QTest::newRow("multi-byte UTF-8")
        << QByteArray("[\"caf\xC3\xA9.example:1\", \"\xF0\x9F\x98\x80:2\", \"\xE2\x80\xAE:3\", "
                      "\"\xEF\xBF\xBE:4\", \"\xF4\x8F\xBF\xBF:5\", \"\x7F:6\"]")
        << true;
    QTest::newRow("too long") << "[\"" + QByteArray(5000, 'a') + ":80\", \"1.2.3.4:80\"]" << true;
    QByteArray junk = "[";
    for (qsizetype i = 0; i <= kMaxParseProblems; ++i)
        junk += "\"junk\",";
    QTest::newRow("too many problems") << junk + "\"1.2.3.4:80\"]" << true;

    QTest::newRow("escapes")
        << QByteArray(R"(["1.2.3.4:80", "\u0035.6.7.8:81", "a\/b:1", "u\"q:1", "x\\y:2", )"
                      R"("caf\u00e9:3", "t\tab:4", "\ud83d\ude00:5"])")
        << false;
    QTest::newRow("escaped lone surrogate")
        << QByteArray(R"(["u:\ud800@h:1", "1.2.3.4:80"])") << false;
    QTest::newRow("objects")
        << QByteArray(R"(["1.2.3.4:80", {"host": "5.6.7.8", "port": 81}, {"ip": "x"}])") << false;
    QTest::newRow("other values")
        << QByteArray(R"(["1.2.3.4:80", 80, null, true, ["5.6.7.8:81"], "9.9.9.9:9"])") << false;
    QTest::newRow("raw control character") << QByteArray("[\"1.2.3.4:80\t\"]") << false;
    QTest::newRow("raw NUL") << QByteArray("[\"1.2.3.4\0:80\"]", 15) << false;
    QTest::newRow("invalid UTF-8, Latin-1")
        << QByteArray("[\"1.2.3.4:80\", \"caf\xE9:1\"]") << false;
    QTest::newRow("invalid UTF-8, encoded surrogate")
        << QByteArray("[\"\xED\xA0\x80:1\"]") << false;
    QTest::newRow("invalid UTF-8, overlong") << QByteArray("[\"\xC0\xAF:1\"]") << false;
    QTest::newRow("invalid UTF-8, beyond U+10FFFF")
        << QByteArray("[\"\xF4\x90\x80\x80:1\"]") << false;
    QTest::newRow("invalid UTF-8, cut short") << QByteArray("[\"a:1\xE2\x82\"]") << false;
    QTest::newRow("trailing garbage") << QByteArray(R"(["1.2.3.4:80"] x)") << false;
    QTest::newRow("trailing NUL") << QByteArray("[\"1.2.3.4:80\"]\0", 15) << false;
    QTest::newRow("second array") << QByteArray(R"(["1.2.3.4:80"][])") << false;
    QTest::newRow("trailing comma") << QByteArray(R"(["1.2.3.4:80",])") << false;
    QTest::newRow("missing comma") << QByteArray(R"(["1.2.3.4:80" "5.6.7.8:81"])") << false;
    QTest::newRow("unterminated string") << QByteArray(R"(["1.2.3.4:80", "5.6)") << false;
    QTest::newRow("unterminated array") << QByteArray(R"(["1.2.3.4:80")") << false;
    QTest::newRow("object at the top") << QByteArray(R"({"host": "1.2.3.4", "port": 80})") << false;
    QTest::newRow("string at the top") << QByteArray(R"("1.2.3.4:80")") << false;
    QTest::newRow("vertical tab is no JSON space") << QByteArray("[\v\"1.2.3.4:80\"]") << false;
    QTest::newRow("empty input") << QByteArray() << false;
}

// The fast path must give exactly what QJsonDocument gives for every input it takes, and leave
// every other input to it.
void TestProxyList::jsonPlainStringsMatchFullReader() {
    QFETCH(QByteArray, json);
    QFETCH(bool, plain);

    QCOMPARE(proxylist_detail::isPlainJsonStringArray(json), plain);
    JsonReadingResult fast, full;
    readJson(json, proxylist_detail::JsonReading::PlainStringsFromBytes, fast);
    readJson(json, proxylist_detail::JsonReading::FullReaderOnly, full);

    QCOMPARE(fast.fatalError, full.fatalError);
    QCOMPARE(fast.entries.size(), full.entries.size());
    for (qsizetype i = 0; i < fast.entries.size(); ++i) {
        const ProxyEntry &a = fast.entries[i];
        const ProxyEntry &b = full.entries[i];
        QCOMPARE(a.lineNumber, b.lineNumber);
        QCOMPARE(a.sourceText, b.sourceText);
        QCOMPARE(a.memberId(), b.memberId());
        QCOMPARE(a.scheme, b.scheme);
        QCOMPARE(a.username, b.username);
        QCOMPARE(a.password, b.password);
        QCOMPARE(a.host, b.host);
        QCOMPARE(a.port, b.port);
    }
    QCOMPARE(fast.problems.size(), full.problems.size());
    for (qsizetype i = 0; i < fast.problems.size(); ++i) {
        QCOMPARE(fast.problems[i].lineNumber, full.problems[i].lineNumber);
        QCOMPARE(fast.problems[i].text, full.problems[i].text);
        QCOMPARE(fast.problems[i].reason, full.problems[i].reason);
    }
}

QTEST_GUILESS_MAIN(TestProxyList)
#include "tst_proxylist.moc"
