// The RESP parser (hiredis's reader behind parseRespReplies) and the pure conversions from
// replies to pool members, without a server: good replies, malformed ones, and the limits.
#include "base/RedisError.h"
#include "client/RedisConnection.h"
#include "load/LoadConnection.h"
#include "pool/LuaScript.h"
#include "pool/ReplyConversion.h"
#include "redis/RespParser.h"
#include "redis/ServerIdentity.h"

#include <hiredis/hiredis.h>

#include <QTest>

#include <limits>

using namespace poolscope;

namespace poolscope {
// Readable QCOMPARE failures.
char *toString(const PoolMember &member) {
    return QTest::toString(QStringLiteral("%1=%2")
                               .arg(QString::fromUtf8(member.member.toPercentEncoding()))
                               .arg(member.count, 0, 'g', 17));
}
} // namespace poolscope

using Pairs = QList<std::pair<QByteArray, double>>;
Q_DECLARE_METATYPE(Pairs)

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A literal with its embedded NUL bytes.
template <size_t N> QByteArray bytes(const char (&text)[N]) {
    return QByteArray(text, N - 1);
}

// One reply from RESP bytes; test data is always exactly one well-formed reply.
RedisReply reply(const QByteArray &resp) {
    const QList<RedisReply> replies = parseRespReplies(resp);
    if (replies.size() != 1)
        qFatal("test data must hold exactly one reply");
    return replies.first();
}

// "*N\r\n$..." for a flat array of bulk strings.
QByteArray bulkArray(const QList<QByteArray> &items) {
    QByteArray resp = '*' + QByteArray::number(items.size()) + "\r\n";
    for (const QByteArray &item : items)
        resp += '$' + QByteArray::number(item.size()) + "\r\n" + item + "\r\n";
    return resp;
}

QByteArray nested(int depth) {
    return QByteArray("*1\r\n").repeated(depth) + ":1\r\n";
}

} // namespace

class TestReplyConversion : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parsesReplies_data();
    void parsesReplies();
    void refusesMalformedResp_data();
    void refusesMalformedResp();
    void keepsBinaryStringsIntact();
    void membersFromRangeReply_data();
    void membersFromRangeReply();
    void scanPageFromReply_data();
    void scanPageFromReply();
    void refusesMalformedReplies_data();
    void refusesMalformedReplies();
    void passesErrorRepliesOn();
    void classifiesScriptErrors_data();
    void classifiesScriptErrors();
    void namesTheServerFromInfo_data();
    void namesTheServerFromInfo();
};

void TestReplyConversion::parsesReplies_data() {
    QTest::addColumn<QByteArray>("resp");
    QTest::addColumn<QStringList>("shown"); // toDisplayString() of each reply

    QTest::newRow("nothing") << QByteArray() << QStringList();
    QTest::newRow("status") << QByteArray("+OK\r\n") << QStringList{"OK"};
    QTest::newRow("error") << QByteArray("-NOSCRIPT No matching script\r\n")
                           << QStringList{"NOSCRIPT No matching script"};
    QTest::newRow("integer") << QByteArray(":-42\r\n") << QStringList{"-42"};
    QTest::newRow("nil bulk") << QByteArray("$-1\r\n") << QStringList{"(nil)"};
    QTest::newRow("nil array") << QByteArray("*-1\r\n") << QStringList{"(nil)"};
    QTest::newRow("empty array") << QByteArray("*0\r\n") << QStringList{"[]"};
    QTest::newRow("empty bulk") << QByteArray("$0\r\n\r\n") << QStringList{""};
    QTest::newRow("zrange") << bulkArray({"a", "1", "b", "2.5"}) << QStringList{"[a, 1, b, 2.5]"};
    QTest::newRow("scan page") << QByteArray("*2\r\n$2\r\n17\r\n*2\r\n$1\r\nx\r\n:3\r\n")
                               << QStringList{"[17, [x, 3]]"};
    QTest::newRow("pipeline") << QByteArray("+OK\r\n:1\r\n$1\r\nz\r\n*1\r\n$-1\r\n")
                              << QStringList{"OK", "1", "z", "[(nil)]"};
    QTest::newRow("7 levels deep") << nested(7) << QStringList{"[[[[[[[1]]]]]]]"};
}

void TestReplyConversion::parsesReplies() {
    QFETCH(QByteArray, resp);
    QFETCH(QStringList, shown);
    QStringList actual;
    for (const RedisReply &parsed : parseRespReplies(resp))
        actual << parsed.toDisplayString();
    QCOMPARE(actual, shown);
}

void TestReplyConversion::refusesMalformedResp_data() {
    QTest::addColumn<QByteArray>("resp");
    QTest::addColumn<qsizetype>("maxReplies");
    QTest::addColumn<QString>("message");

    const qsizetype defaultLimit = RespLimits().maxReplies;
    QTest::newRow("not RESP")
        << QByteArray("hello\r\n") << defaultLimit
        << R"(malformed Redis reply: Protocol error, got "h" as reply type byte (after 0 complete replies))";
    QTest::newRow("bad integer")
        << QByteArray(":1\r\n:12x\r\n") << defaultLimit
        << "malformed Redis reply: Bad integer value (after 1 complete replies)";
    QTest::newRow("negative array length")
        << QByteArray("*-5\r\n") << defaultLimit
        << "malformed Redis reply: Multi-bulk length out of range (after 0 complete replies)";
    QTest::newRow("negative bulk length")
        << QByteArray("$-7\r\n") << defaultLimit
        << "malformed Redis reply: Bulk string length out of range (after 0 complete replies)";
    // hiredis would allocate 16 GB of element slots for this header alone.
    QTest::newRow("huge array") << QByteArray("*2000000000\r\n") << defaultLimit
                                << "malformed Redis reply: refused more than 1000000 reply "
                                   "elements (after 0 complete replies)";
    QTest::newRow("8 levels deep") << nested(8) << defaultLimit
                                   << "malformed Redis reply: refused arrays nested deeper than 7 "
                                      "levels (after 0 complete replies)";
    QTest::newRow("too many replies") << QByteArray("*2\r\n:1\r\n:2\r\n:3\r\n") << qsizetype(3)
                                      << "malformed Redis reply: refused more than 3 reply "
                                         "elements (after 1 complete replies)";
    QTest::newRow("truncated array")
        << QByteArray("*2\r\n:1\r\n") << defaultLimit
        << "malformed Redis reply: the input ends inside a reply (after 0 complete replies)";
    QTest::newRow("truncated bulk")
        << QByteArray("+OK\r\n$5\r\nab") << defaultLimit
        << "malformed Redis reply: the input ends inside a reply (after 1 complete replies)";
    QTest::newRow("missing CRLF")
        << QByteArray(":1") << defaultLimit
        << "malformed Redis reply: the input ends inside a reply (after 0 complete replies)";
}

void TestReplyConversion::refusesMalformedResp() {
    QFETCH(QByteArray, resp);
    QFETCH(qsizetype, maxReplies);
    QFETCH(QString, message);
    RespLimits limits;
    limits.maxReplies = maxReplies;
    try {
        parseRespReplies(resp, limits);
        QFAIL("no error thrown");
    } catch (const RedisError &error) {
        QCOMPARE(error.kind(), RedisError::Kind::Connection);
        QCOMPARE(error.message(), message);
    }
}

void TestReplyConversion::keepsBinaryStringsIntact() {
    const QByteArray member = bytes("sp ace \"q\" \xe2\x9c\x93 nul\0end");
    const QList<PoolMember> members =
        poolscope::membersFromRangeReply(reply(bulkArray({member, "7"})));
    QCOMPARE(members, (QList<PoolMember>{{member, 7}}));
}

void TestReplyConversion::membersFromRangeReply_data() {
    QTest::addColumn<QByteArray>("resp");
    QTest::addColumn<QList<PoolMember>>("members");

    QTest::newRow("empty pool") << QByteArray("*0\r\n") << QList<PoolMember>();
    QTest::newRow("reply order kept") << bulkArray({"b", "1", "a", "2", "c", "2"})
                                      << QList<PoolMember>{{"b", 1}, {"a", 2}, {"c", 2}};
    QTest::newRow("fractions and exponents")
        << bulkArray({"a", "0.5", "b", "1e3"}) << QList<PoolMember>{{"a", 0.5}, {"b", 1000}};
    QTest::newRow("2^53") << bulkArray({"a", "9007199254740992"})
                          << QList<PoolMember>{{"a", 9007199254740992.0}};
    // A sorted set may hold infinite scores; Redis sends them as "inf" and "-inf".
    QTest::newRow("infinite counts") << bulkArray({"low", "-inf", "high", "inf"})
                                     << QList<PoolMember>{{"low", -kInf}, {"high", kInf}};
    QTest::newRow("integer counts (scripts)")
        << QByteArray("*2\r\n$1\r\na\r\n:12\r\n") << QList<PoolMember>{{"a", 12}};
}

void TestReplyConversion::membersFromRangeReply() {
    QFETCH(QByteArray, resp);
    QFETCH(QList<PoolMember>, members);
    QCOMPARE(poolscope::membersFromRangeReply(reply(resp)), members);
}

void TestReplyConversion::scanPageFromReply_data() {
    QTest::addColumn<QByteArray>("resp");
    QTest::addColumn<QByteArray>("cursor");
    QTest::addColumn<Pairs>("pairs");

    QTest::newRow("last empty page")
        << QByteArray("*2\r\n$1\r\n0\r\n*0\r\n") << QByteArray("0") << Pairs();
    QTest::newRow("zscan page")
        << QByteArray("*2\r\n$3\r\n384\r\n*4\r\n$2\r\nm1\r\n$1\r\n3\r\n$2\r\nm2\r\n$3\r\n1.5\r\n")
        << QByteArray("384") << Pairs{{"m1", 3}, {"m2", 1.5}};
    QTest::newRow("hscan page, big cursor")
        << QByteArray("*2\r\n$20\r\n18446744073709551615\r\n*2\r\n$1\r\ne\r\n$2\r\n42\r\n")
        << QByteArray("18446744073709551615") << Pairs{{"e", 42}};
}

void TestReplyConversion::scanPageFromReply() {
    QFETCH(QByteArray, resp);
    QFETCH(QByteArray, cursor);
    QFETCH(Pairs, pairs);
    QByteArray next = "unchanged";
    QCOMPARE(poolscope::scanPageFromReply(reply(resp), &next), pairs);
    QCOMPARE(next, cursor);
}

void TestReplyConversion::refusesMalformedReplies_data() {
    QTest::addColumn<QByteArray>("resp");
    QTest::addColumn<bool>("isScan");
    QTest::addColumn<QString>("message");

    QTest::newRow("odd element count")
        << bulkArray({"a", "1", "b"}) << false
        << "unexpected reply to ZRANGE WITHSCORES: 3 elements, expected name/count pairs";
    QTest::newRow("non-numeric count")
        << bulkArray({"a", "1", "b", "lots"}) << false
        << R"(member "b" has a count Redis sent as "lots", not a number)";
    QTest::newRow("NaN count") << bulkArray({"a", "nan"}) << false
                               << R"(member "a" has a count Redis sent as "nan", not a number)";
    QTest::newRow("count with trailing junk")
        << bulkArray({"a", "5abc"}) << false
        << R"(member "a" has a count Redis sent as "5abc", not a number)";
    QTest::newRow("nil count") << QByteArray("*2\r\n$1\r\na\r\n$-1\r\n") << false
                               << R"(member "a" has a count Redis sent as nil, not a number)";
    QTest::newRow("array count")
        << QByteArray("*2\r\n$1\r\na\r\n*0\r\n") << false
        << R"(member "a" has a count Redis sent as an array, not a number)";
    QTest::newRow("member not a string")
        << QByteArray("*2\r\n:1\r\n$1\r\n1\r\n") << false
        << "unexpected reply to ZRANGE WITHSCORES: element 1 should be a member name (a string), "
           "got an integer";
    QTest::newRow("status instead of array")
        << QByteArray("+OK\r\n") << false
        << "unexpected reply to ZRANGE WITHSCORES: expected an array, got a status";
    QTest::newRow("nil instead of array")
        << QByteArray("*-1\r\n") << false
        << "unexpected reply to ZRANGE WITHSCORES: expected an array, got nil";
    QTest::newRow("scan: integer instead of array")
        << QByteArray(":0\r\n") << true
        << "unexpected reply to a scan (ZSCAN/HSCAN): expected an array, got an integer";
    QTest::newRow("scan: three elements")
        << QByteArray("*3\r\n$1\r\n0\r\n*0\r\n*0\r\n") << true
        << "unexpected reply to a scan (ZSCAN/HSCAN): 3 elements, expected [cursor, page]";
    QTest::newRow("scan: cursor not a number")
        << QByteArray("*2\r\n$2\r\n-1\r\n*0\r\n") << true
        << R"(unexpected reply to a scan (ZSCAN/HSCAN): the cursor should be a number as a string, got "-1")";
    QTest::newRow("scan: cursor as integer")
        << QByteArray("*2\r\n:0\r\n*0\r\n") << true
        << "unexpected reply to a scan (ZSCAN/HSCAN): the cursor should be a number as a string, "
           "got an integer";
    QTest::newRow("scan: page not an array")
        << QByteArray("*2\r\n$1\r\n0\r\n$1\r\nx\r\n") << true
        << "unexpected reply to a scan (ZSCAN/HSCAN): the page should be an array, got a string";
    QTest::newRow("scan: odd page")
        << QByteArray("*2\r\n$1\r\n0\r\n*1\r\n$1\r\nx\r\n") << true
        << "unexpected reply to a scan (ZSCAN/HSCAN): 1 elements, expected name/count pairs";
    QTest::newRow("scan: NaN saved count")
        << bytes("*2\r\n$1\r\n0\r\n*2\r\n$3\r\ne\0v\r\n$3\r\nnan\r\n") << true
        << R"(member "e\x00v" has a count Redis sent as "nan", not a number)";
}

void TestReplyConversion::refusesMalformedReplies() {
    QFETCH(QByteArray, resp);
    QFETCH(bool, isScan);
    QFETCH(QString, message);
    const RedisReply parsed = reply(resp);
    QByteArray cursor = "unchanged";
    try {
        if (isScan)
            poolscope::scanPageFromReply(parsed, &cursor);
        else
            poolscope::membersFromRangeReply(parsed);
        QFAIL("no error thrown");
    } catch (const RedisError &error) {
        QCOMPARE(error.kind(), RedisError::Kind::Server);
        QCOMPARE(error.message(), message);
    }
    QCOMPARE(cursor, QByteArray("unchanged")); // a bad page must not move the scan on
}

void TestReplyConversion::passesErrorRepliesOn() {
    const RedisReply error = reply("-WRONGTYPE Operation against a key holding the wrong kind of "
                                   "value\r\n");
    try {
        poolscope::membersFromRangeReply(error);
        QFAIL("no error thrown");
    } catch (const RedisError &thrown) {
        QCOMPARE(thrown.kind(), RedisError::Kind::Server);
        QCOMPARE(thrown.serverCode(), QByteArray("WRONGTYPE"));
        QVERIFY2(thrown.message().startsWith(u"ZRANGE WITHSCORES failed: WRONGTYPE"),
                 qPrintable(thrown.message()));
    }
}

// Servers beside Redis 7.0 word their errors differently; what they mean is decided by the code
// (NOSCRIPT), and a server without Lua is told apart from one whose cache is merely empty.
void TestReplyConversion::classifiesScriptErrors_data() {
    QTest::addColumn<QByteArray>("error");
    QTest::addColumn<bool>("noScript");
    QTest::addColumn<bool>("lacksScripting");
    QTest::newRow("redis NOSCRIPT")
        << QByteArray("NOSCRIPT No matching script. Please use EVAL.") << true << false;
    QTest::newRow("valkey NOSCRIPT") << QByteArray("NOSCRIPT No matching script.") << true << false;
    QTest::newRow("bare NOSCRIPT") << QByteArray("NOSCRIPT") << true << false;
    QTest::newRow("another code") << QByteArray("NOSCRIPTS not ours") << false << false;
    QTest::newRow("unknown EVALSHA")
        << QByteArray("ERR unknown command 'EVALSHA', with args beginning with: 'abc' '1' ")
        << false << true;
    QTest::newRow("unknown EVAL") << QByteArray("ERR unknown command 'EVAL', with args beginning "
                                                "with: ")
                                  << false << true;
    QTest::newRow("unknown script") << QByteArray("ERR unknown command 'script'") << false << true;
    QTest::newRow("lua disabled") << QByteArray("ERR Lua scripting disabled") << false << true;
    QTest::newRow("another unknown command")
        << QByteArray("ERR unknown command 'EVALX'") << false << false;
    QTest::newRow("script error") << QByteArray("ERR user_script:1: Script attempted to access "
                                                "nonexistent global variable 'x'")
                                  << false << false;
    QTest::newRow("wrongtype") << QByteArray("WRONGTYPE Operation against a key") << false << false;
}

void TestReplyConversion::classifiesScriptErrors() {
    QFETCH(QByteArray, error);
    QFETCH(bool, noScript);
    QFETCH(bool, lacksScripting);
    RedisReply reply;
    reply.type = RedisReply::Type::Error;
    reply.text = error;
    QCOMPARE(LuaScript::isNoScript(reply), noScript);
    QCOMPARE(LuaScript::lacksScripting(reply), lacksScripting);
    // The load runner reads hiredis replies itself: the same rule.
    redisReply raw{};
    raw.type = REDIS_REPLY_ERROR;
    raw.str = error.data();
    raw.len = size_t(error.size());
    QCOMPARE(loadrunner_detail::isNoScript(raw), noScript);
    if (lacksScripting) {
        const RedisError e = LuaScript::noScriptingError(reply, QStringLiteral("allocating"));
        QCOMPARE(e.kind(), RedisError::Kind::Unsupported);
        QVERIFY2(e.message().contains(QStringLiteral("Lua")), qPrintable(e.message()));
    }
}

void TestReplyConversion::namesTheServerFromInfo_data() {
    QTest::addColumn<QByteArray>("info");
    QTest::addColumn<QString>("shown");
    QTest::newRow("redis") << QByteArray("# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone"
                                         "\r\n")
                           << "Redis 7.0.15";
    QTest::newRow("valkey") << QByteArray(
                                   "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\n"
                                   "valkey_version:8.0.1\r\n")
                            << "Valkey 8.0.1";
    QTest::newRow("valkey version only")
        << QByteArray("redis_version:7.2.4\r\nvalkey_version:9.1.0\r\n") << "Valkey 9.1.0";
    QTest::newRow("nothing") << QByteArray("# Server\r\n") << "";
}

void TestReplyConversion::namesTheServerFromInfo() {
    QFETCH(QByteArray, info);
    QFETCH(QString, shown);
    QCOMPARE(serverVersionFromInfo(info), shown);
}

QTEST_GUILESS_MAIN(TestReplyConversion)
#include "tst_replyconversion.moc"
