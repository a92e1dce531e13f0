// Endpoint URLs written: the full URL, the masked display string, the safe URL, round trips, and
// the default URL from REDIS_URL.
#include "endpoint/Endpoint.h"

#include "EndpointBuilders.h"

#include <QTest>
#include <QUrl>

using poolscope::Endpoint;
using poolscope::parseEndpoint;
using namespace poolscope::testing;

namespace {

const char *const kRedisUrlVariable = "REDIS_URL";

} // namespace

class TestEndpointUrl : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();

    void toUrl_data();
    void toUrl();
    void displayStringMasksPassword_data();
    void displayStringMasksPassword();
    void safeUrlOmitsPassword_data();
    void safeUrlOmitsPassword();
    void roundTripsThroughUrl_data();
    void roundTripsThroughUrl();

    void defaultsMatchDefaultEndpoint();
    void defaultRedisUrl_data();
    void defaultRedisUrl();

private:
    bool m_hadRedisUrl = false;
    QByteArray m_originalRedisUrl;
};

void TestEndpointUrl::initTestCase() {
    m_hadRedisUrl = qEnvironmentVariableIsSet(kRedisUrlVariable);
    m_originalRedisUrl = qgetenv(kRedisUrlVariable);
}

void TestEndpointUrl::cleanup() {
    // Restore the caller's environment after every test, also when a test failed half-way.
    if (m_hadRedisUrl)
        qputenv(kRedisUrlVariable, m_originalRedisUrl);
    else
        qunsetenv(kRedisUrlVariable);
}

void TestEndpointUrl::toUrl_data() {
    QTest::addColumn<Endpoint>("endpoint");
    QTest::addColumn<QString>("expectedUrl");

    QTest::newRow("default") << Endpoint{} << "redis://127.0.0.1:6379/0";
    QTest::newRow("credentials") << tcpEndpoint("host", 6380, 2, "alice", "s3cret")
                                 << "redis://alice:s3cret@host:6380/2";
    QTest::newRow("special characters are encoded")
        << tcpEndpoint("host", 6379, 0, "a@b", "p@ss:w/rd%")
        << "redis://a%40b:p%40ss%3Aw%2Frd%25@host:6379/0";
    QTest::newRow("ipv6 gets brackets") << tcpEndpoint("::1", 6380) << "redis://[::1]:6380/0";
    QTest::newRow("tls") << tlsEndpoint("host", 6380, 1, "u", "p") << "rediss://u:p@host:6380/1";
    QTest::newRow("unix") << unixEndpoint("/tmp/r.sock", 3) << "unix:///tmp/r.sock?db=3";
    QTest::newRow("unix with credentials and space")
        << unixEndpoint("/tmp/a b.sock", 0, "u", "p") << "unix://u:p@/tmp/a%20b.sock?db=0";
    Endpoint sentinels = sentinelEndpoint({"s1:26379", "::1:26380"}, "my master", 2, "u", "p");
    sentinels.sentinelPassword = QStringLiteral("NeverInAUrl");
    QTest::newRow("sentinel") << sentinels
                              << "redis+sentinel://u:p@s1:26379,[::1]:26380/my%20master/2";
}

void TestEndpointUrl::toUrl() {
    QFETCH(Endpoint, endpoint);
    QFETCH(QString, expectedUrl);

    QCOMPARE(endpoint.toUrl(), expectedUrl);
}

void TestEndpointUrl::displayStringMasksPassword_data() {
    QTest::addColumn<Endpoint>("endpoint");
    QTest::addColumn<QString>("expectedDisplay");

    // Passwords are chosen so that they cannot appear in the display string by coincidence.
    QTest::newRow("user and password")
        << tcpEndpoint("host", 6379, 2, "alice", "TopSecret1") << "redis://alice:****@host:6379/2";
    QTest::newRow("password only")
        << tcpEndpoint("host", 6379, 0, {}, "TopSecret1") << "redis://:****@host:6379/0";
    QTest::newRow("password with delimiters")
        << tcpEndpoint("host", 6379, 0, "bob", "Sec@ret:/x%") << "redis://bob:****@host:6379/0";
    QTest::newRow("no password") << tcpEndpoint("host", 6380, 1, "alice")
                                 << "redis://alice@host:6380/1";
    QTest::newRow("tls") << tlsEndpoint("host", 6380, 0, "alice", "TopSecret1")
                         << "rediss://alice:****@host:6380/0";
    QTest::newRow("no credentials") << tcpEndpoint("::1") << "redis://[::1]:6379/0";
    QTest::newRow("unix") << unixEndpoint("/tmp/r.sock", 4, "carol", "TopSecret1")
                          << "unix://carol:****@/tmp/r.sock?db=4";
    Endpoint sentinels = sentinelEndpoint({"s1:26379", "s2:26379"}, "m", 0, "alice", "TopSecret1");
    sentinels.sentinelPassword = QStringLiteral("TopSecret2");
    QTest::newRow("sentinel") << sentinels << "redis+sentinel://alice:****@s1:26379,s2:26379/m/0";
}

void TestEndpointUrl::displayStringMasksPassword() {
    QFETCH(Endpoint, endpoint);
    QFETCH(QString, expectedDisplay);

    const QString display = endpoint.toDisplayString();
    QCOMPARE(display, expectedDisplay);
    QVERIFY(endpoint.sentinelPassword.isEmpty() || !display.contains(endpoint.sentinelPassword));
    if (!endpoint.password.isEmpty()) {
        QVERIFY(!display.contains(endpoint.password));
        const QString encodedPassword =
            QString::fromLatin1(QUrl::toPercentEncoding(endpoint.password));
        QVERIFY(!display.contains(encodedPassword));
    }
}

void TestEndpointUrl::safeUrlOmitsPassword_data() {
    QTest::addColumn<Endpoint>("endpoint");
    QTest::addColumn<QString>("expectedSafeUrl");

    QTest::newRow("user and password")
        << tcpEndpoint("host", 6379, 2, "alice", "TopSecret1") << "redis://alice@host:6379/2";
    QTest::newRow("password only")
        << tcpEndpoint("host", 6380, 0, {}, "TopSecret1") << "redis://host:6380/0";
    QTest::newRow("tls") << tlsEndpoint("host", 6380, 0, {}, "TopSecret1")
                         << "rediss://host:6380/0";
    QTest::newRow("encoded username")
        << tcpEndpoint("host", 6379, 0, "a:b", "TopSecret1") << "redis://a%3Ab@host:6379/0";
    QTest::newRow("no credentials") << tcpEndpoint("::1", 7000, 9) << "redis://[::1]:7000/9";
    QTest::newRow("unix") << unixEndpoint("/tmp/r.sock", 1, "carol", "TopSecret1")
                          << "unix://carol@/tmp/r.sock?db=1";
    QTest::newRow("sentinel") << sentinelEndpoint({"s1:26379"}, "m", 1, "alice", "TopSecret1")
                              << "redis+sentinel://alice@s1:26379/m/1";
}

void TestEndpointUrl::safeUrlOmitsPassword() {
    QFETCH(Endpoint, endpoint);
    QFETCH(QString, expectedSafeUrl);

    const QString safeUrl = endpoint.toSafeUrl();
    QCOMPARE(safeUrl, expectedSafeUrl);
    if (!endpoint.password.isEmpty())
        QVERIFY(!safeUrl.contains(endpoint.password));

    // Parsing it back yields the same endpoint, minus the password.
    const poolscope::EndpointParseResult reparsed = parseEndpoint(safeUrl);
    QVERIFY2(reparsed.ok(), qPrintable(reparsed.error));
    QVERIFY(reparsed.endpoint->password.isEmpty());
    Endpoint withoutPassword = endpoint;
    withoutPassword.password.clear();
    QCOMPARE(*reparsed.endpoint, withoutPassword);
}

void TestEndpointUrl::roundTripsThroughUrl_data() {
    QTest::addColumn<Endpoint>("original");

    QTest::newRow("default") << Endpoint{};
    QTest::newRow("plain credentials") << tcpEndpoint("host", 6380, 3, "alice", "s3cret");
    QTest::newRow("password with @") << tcpEndpoint("host", 6379, 0, "u", "p@ss");
    QTest::newRow("password with :") << tcpEndpoint("host", 6379, 0, "u", "a:b:c");
    QTest::newRow("password with /") << tcpEndpoint("host", 6379, 0, "u", "x/y/z");
    QTest::newRow("password with %") << tcpEndpoint("host", 6379, 0, "u", "100%25%");
    QTest::newRow("password with everything")
        << tcpEndpoint("host", 6379, 1, "u", "p@:/%?#&= +[]\"'\\");
    QTest::newRow("unicode password")
        << tcpEndpoint("host", 6379, 0, "ü", QString::fromUtf8("пароль€"));
    QTest::newRow("username with specials") << tcpEndpoint("host", 6379, 0, "a@b:c/d%", {});
    QTest::newRow("password only") << tcpEndpoint("host", 6379, 0, {}, "@@@");
    QTest::newRow("ipv6") << tcpEndpoint("2001:db8::1", 7000, 12, "u", "p@ss");
    QTest::newRow("max db and port") << tcpEndpoint("h", 65535, 2147483647);
    QTest::newRow("tls") << tlsEndpoint("host", 6380, 3, "alice", "s3:cret");
    QTest::newRow("unix") << unixEndpoint("/tmp/redis.sock");
    QTest::newRow("unix with credentials") << unixEndpoint("/tmp/r.sock", 5, "u:x", "p@ss/:%");
    QTest::newRow("unix awkward path") << unixEndpoint("/tmp/a b/c?d#e%f@/g.sock", 2);
    QTest::newRow("sentinels") << sentinelEndpoint({"a:1", "::1:2", "c:26379"}, "m/x@y", 4, "u",
                                                   "p@ss/:%");
}

void TestEndpointUrl::roundTripsThroughUrl() {
    QFETCH(Endpoint, original);

    const poolscope::EndpointParseResult result = parseEndpoint(original.toUrl());
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(*result.endpoint, original);
}

void TestEndpointUrl::defaultsMatchDefaultEndpoint() {
    qunsetenv(kRedisUrlVariable);
    const poolscope::EndpointParseResult result = parseEndpoint(poolscope::defaultRedisUrl());
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(*result.endpoint, Endpoint{});
    QCOMPARE(result.endpoint->host, QStringLiteral("127.0.0.1"));
    QCOMPARE(result.endpoint->port, 6379);
    QCOMPARE(result.endpoint->database, 0);
}

void TestEndpointUrl::defaultRedisUrl_data() {
    QTest::addColumn<bool>("isSet");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("expected");

    const QString fallback = QStringLiteral("redis://127.0.0.1:6379/0");
    QTest::newRow("unset") << false << QByteArray() << fallback;
    QTest::newRow("empty") << true << QByteArray("") << fallback;
    QTest::newRow("blank") << true << QByteArray("  \t ") << fallback;
    QTest::newRow("set") << true << QByteArray("redis://10.1.2.3:7000/4")
                         << "redis://10.1.2.3:7000/4";
    QTest::newRow("set with whitespace")
        << true << QByteArray(" unix:///tmp/r.sock?db=2\n") << "unix:///tmp/r.sock?db=2";
}

void TestEndpointUrl::defaultRedisUrl() {
    QFETCH(bool, isSet);
    QFETCH(QByteArray, value);
    QFETCH(QString, expected);

    if (isSet)
        QVERIFY(qputenv(kRedisUrlVariable, value));
    else
        QVERIFY(qunsetenv(kRedisUrlVariable));
    QCOMPARE(poolscope::defaultRedisUrl(), expected);
}

QTEST_GUILESS_MAIN(TestEndpointUrl)
#include "tst_endpointurl.moc"
