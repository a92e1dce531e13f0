// Proxy list parsing of hostile input: huge lines, invalid UTF-8, NUL bytes, junk, floods.

#include "proxylist/ProxyListParser.h"

#include "ProxyListChecks.h"

#include <QRandomGenerator>
#include <QTest>

using namespace poolscope;
using namespace poolscope::testing;

class TestProxyListHostile : public QObject {
    Q_OBJECT

private slots:
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

// --- Hostile input --------------------------------------------------------------------------

void TestProxyListHostile::hostileLongLine() {
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

void TestProxyListHostile::lineLengthLimitBoundary() {
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

void TestProxyListHostile::hostileInvalidUtf8_data() {
    QTest::addColumn<QByteArray>("line");

    QTest::newRow("truncated sequence at line end") << QByteArray("1.2.3.4:80\xC3");
    QTest::newRow("overlong slash") << QByteArray("\xC0\xAF.example:80");
    QTest::newRow("utf-16 surrogate") << QByteArray("\xED\xA0\x80.example:80");
    QTest::newRow("beyond U+10FFFF") << QByteArray("\xF4\x90\x80\x80.example:80");
    QTest::newRow("0xFF bytes") << QByteArray("\xFF\xFE:80");
    QTest::newRow("latin-1 host") << QByteArray("caf\xE9.example:80");
}

void TestProxyListHostile::hostileInvalidUtf8() {
    QFETCH(QByteArray, line);

    const EligibilityReport report =
        readProxyList("1.1.1.1:80\n" + line + "\n2.2.2.2:80\n", EligibilityRules{});
    QCOMPARE(lineNumbersOf(report.accepted), QList<int>({1, 3}));
    QCOMPARE(report.rejected.size(), 1);
    QCOMPARE(report.rejected[0].lineNumber, 2);
    QCOMPARE(report.rejected[0].reason, QStringLiteral("not valid UTF-8"));
    // The bad byte is shown as an escape (\xe9), not as U+FFFD.
    QVERIFY2(report.rejected[0].text.contains(QStringLiteral("\\x")),
             qPrintable(report.rejected[0].text));
    QVERIFY(!report.rejected[0].text.contains(QChar::ReplacementCharacter));
}

void TestProxyListHostile::latin1CommentIsSkipped() {
    const ParsedProxyList parsed = parseProxyList("# caf\xE9 proxies\n1.1.1.1:80\n");
    QCOMPARE(parsed.problems.size(), 0);
    QCOMPARE(lineNumbersOf(parsed.entries), QList<int>({2}));
}

void TestProxyListHostile::hostileNulBytes_data() {
    QTest::addColumn<QByteArray>("line");

    QTest::newRow("NUL after entry") << QByteArray("1.2.3.4:80\0junk", 15);
    QTest::newRow("NUL inside host") << QByteArray("1.2.3\0.4:80", 11);
    QTest::newRow("only NUL") << QByteArray(1, '\0');
    QTest::newRow("NUL after comment mark") << QByteArray("# x\0", 4);
}

void TestProxyListHostile::hostileNulBytes() {
    QFETCH(QByteArray, line);

    const EligibilityReport report =
        readProxyList("1.1.1.1:80\n" + line + "\n2.2.2.2:80\n", EligibilityRules{});
    QCOMPARE(lineNumbersOf(report.accepted), QList<int>({1, 3}));
    QCOMPARE(report.rejected.size(), 1);
    QCOMPARE(report.rejected[0].lineNumber, 2);
    QCOMPARE(report.rejected[0].reason, QStringLiteral("contains a NUL byte"));
    QVERIFY(!report.rejected[0].text.contains(QChar(0)));
}

void TestProxyListHostile::hostileBinaryJunk() {
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
        QCOMPARE_LE(rejected.text.size(), kMaxDisplayTextChars);
        for (const QChar c : rejected.text)
            QVERIFY2(c.unicode() >= 0x20 || c == u'\t', "control character in display text");
    }
}

void TestProxyListHostile::hundredThousandDuplicateLines() {
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

void TestProxyListHostile::tooManyProblemsIsFatal() {
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

QTEST_GUILESS_MAIN(TestProxyListHostile)
#include "tst_proxylisthostile.moc"
