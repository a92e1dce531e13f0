// Proxy list parsing, JSON format: strings, objects, problems, and the plain-string fast path.

#include "proxylist/ParserDetail.h"
#include "proxylist/ProxyListParser.h"

#include "ProxyListChecks.h"

#include <QTest>

#include <algorithm>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

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

class TestProxyListJson : public QObject {
    Q_OBJECT

private slots:
    void jsonStrings();
    void jsonObjects();
    void jsonElementProblems_data();
    void jsonElementProblems();
    void malformedJsonIsFatal_data();
    void malformedJsonIsFatal();
    void jsonRuleRejectionNamesTheElement();
    void jsonPlainStringsMatchFullReader_data();
    void jsonPlainStringsMatchFullReader();
};

// --- JSON -----------------------------------------------------------------------------------

void TestProxyListJson::jsonStrings() {
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

void TestProxyListJson::jsonObjects() {
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

void TestProxyListJson::jsonElementProblems_data() {
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

void TestProxyListJson::jsonElementProblems() {
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

void TestProxyListJson::malformedJsonIsFatal_data() {
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

void TestProxyListJson::malformedJsonIsFatal() {
    QFETCH(QByteArray, data);
    QFETCH(QString, fatalPrefix);

    const EligibilityReport report = readProxyList(data, EligibilityRules{});
    QVERIFY2(report.fatalError.startsWith(fatalPrefix), qPrintable(report.fatalError));
    QVERIFY(report.fatalError.size() > fatalPrefix.size() || !fatalPrefix.endsWith(u' '));
    QCOMPARE(report.accepted.size(), 0);
    QVERIFY(!report.allAccepted());
}

void TestProxyListJson::jsonRuleRejectionNamesTheElement() {
    const EligibilityReport report =
        readProxyList(R"(["1.2.3.4:80", {"host": "1.2.3.4", "port": 0}])", EligibilityRules{});
    QCOMPARE(memberIdsOf(report.accepted), QList<QByteArray>({"1.2.3.4:80"}));
    QCOMPARE(report.rejected.size(), 1);
    QCOMPARE(report.rejected[0].lineNumber, 2);
    QCOMPARE(report.rejected[0].reason,
             QStringLiteral("array element 2: port 0 is out of range 1-65535"));
}

void TestProxyListJson::jsonPlainStringsMatchFullReader_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("plain"); // read straight from the bytes, not by QJsonDocument

    // Found by fuzz_proxylist: a byte-order mark inside a string (QJsonDocument reads it apart).
    QTest::newRow("BOM inside a string") << QByteArray("[\"\xef\xbb\xbf"
                                                       "1.2.3.4:8080\", \"5.6.7.8:80\"]")
                                         << false;
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
void TestProxyListJson::jsonPlainStringsMatchFullReader() {
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

QTEST_GUILESS_MAIN(TestProxyListJson)
#include "tst_proxylistjson.moc"
