// Endpoint URLs read: plain, TLS, unix sockets, Sentinel and Cluster, and the errors for bad ones.
#include "endpoint/Endpoint.h"
#include "transport/TcpDialer.h"

#include "EndpointBuilders.h"

#include <QTest>
#include <QUrl>

using poolscope::Endpoint;
using poolscope::parseEndpoint;
using namespace poolscope::testing;

class TestEndpoint : public QObject {
    Q_OBJECT

private slots:
    // "localhost" needs no resolver (and no /etc/hosts): it is the loopback address itself.
    void localhostIsLoopbackWithoutAResolver_data() {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("lookedUp");
        QTest::newRow("localhost") << "localhost"
                                   << "127.0.0.1";
        QTest::newRow("upper case") << "LocalHost"
                                    << "127.0.0.1";
        QTest::newRow("trailing dot") << "localhost."
                                      << "127.0.0.1";
        QTest::newRow("subdomain") << "redis.localhost"
                                   << "127.0.0.1";
        QTest::newRow("ip") << "127.0.0.2"
                            << "127.0.0.2";
        QTest::newRow("look-alike") << "notlocalhost"
                                    << "notlocalhost";
        QTest::newRow("suffix elsewhere") << "localhost.example"
                                          << "localhost.example";
    }
    void localhostIsLoopbackWithoutAResolver() {
        QFETCH(QString, host);
        QFETCH(QString, lookedUp);
        QCOMPARE(poolscope::transport::resolverHost(host), lookedUp);
    }

    void parsesValidUrl_data();
    void parsesValidUrl();
    void rejectsInvalidUrl_data();
    void rejectsInvalidUrl();
    void errorNeverEchoesPassword_data();
    void errorNeverEchoesPassword();
    // Redis Cluster: redis+cluster://seed1,seed2...
    void parsesClusterUrl_data();
    void parsesClusterUrl();
    void rejectsInvalidClusterUrl_data();
    void rejectsInvalidClusterUrl();
};

void TestEndpoint::parsesValidUrl_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<Endpoint>("expected");

    QTest::newRow("full tcp") << "redis://127.0.0.1:6379/0" << tcpEndpoint("127.0.0.1");
    QTest::newRow("host only, defaults") << "redis://localhost" << tcpEndpoint("localhost");
    QTest::newRow("trailing slash") << "redis://localhost/" << tcpEndpoint("localhost");
    QTest::newRow("port and db") << "redis://redis.example.com:6380/3"
                                 << tcpEndpoint("redis.example.com", 6380, 3);
    QTest::newRow("db without port") << "redis://cache/7" << tcpEndpoint("cache", 6379, 7);
    QTest::newRow("user and password")
        << "redis://alice:s3cret@host:6379/2" << tcpEndpoint("host", 6379, 2, "alice", "s3cret");
    QTest::newRow("password only")
        << "redis://:onlypass@host" << tcpEndpoint("host", 6379, 0, {}, "onlypass");
    QTest::newRow("username only")
        << "redis://alice@host:7000" << tcpEndpoint("host", 7000, 0, "alice");
    QTest::newRow("empty password")
        << "redis://alice:@host" << tcpEndpoint("host", 6379, 0, "alice");
    QTest::newRow("percent-encoded password") << "redis://user:p%40ss%3Aw%2Frd@host/1"
                                              << tcpEndpoint("host", 6379, 1, "user", "p@ss:w/rd");
    QTest::newRow("percent-encoded percent")
        << "redis://user:100%25@host" << tcpEndpoint("host", 6379, 0, "user", "100%");
    QTest::newRow("percent-encoded username")
        << "redis://us%20er%40corp:pw@host" << tcpEndpoint("host", 6379, 0, "us er@corp", "pw");
    QTest::newRow("utf-8 password") << "redis://u:%E2%82%AC%C3%A4@host"
                                    << tcpEndpoint("host", 6379, 0, "u", QString::fromUtf8("€ä"));
    QTest::newRow("unencoded @ in password")
        << "redis://:p@ss@host:6379/0" << tcpEndpoint("host", 6379, 0, {}, "p@ss");
    QTest::newRow("unencoded : in password")
        << "redis://u:pa:ss@host" << tcpEndpoint("host", 6379, 0, "u", "pa:ss");
    QTest::newRow("ipv6 with port") << "redis://[::1]:6380/0" << tcpEndpoint("::1", 6380);
    QTest::newRow("ipv6 default port") << "redis://[::1]" << tcpEndpoint("::1");
    QTest::newRow("ipv6 full") << "redis://u:p@[2001:db8::7]:7000/15"
                               << tcpEndpoint("2001:db8::7", 7000, 15, "u", "p");
    QTest::newRow("surrounding whitespace") << "  redis://host:1/1 \t\n"
                                            << tcpEndpoint("host", 1, 1);
    QTest::newRow("highest port") << "redis://host:65535/0" << tcpEndpoint("host", 65535);
    QTest::newRow("upper-case scheme keeps host case")
        << "REDIS://Host.Example:6379/4" << tcpEndpoint("Host.Example", 6379, 4);
    QTest::newRow("largest db") << "redis://host/2147483647"
                                << tcpEndpoint("host", 6379, 2147483647);
    QTest::newRow("db as query") << "redis://host:6000?db=5" << tcpEndpoint("host", 6000, 5);
    QTest::newRow("compose service name")
        << "redis://my_redis-1.internal:6379/0" << tcpEndpoint("my_redis-1.internal");

    QTest::newRow("tls") << "rediss://host:6380/0" << tlsEndpoint("host", 6380);
    QTest::newRow("tls with credentials, upper case")
        << "REDISS://alice:pw@localhost/2" << tlsEndpoint("localhost", 6379, 2, "alice", "pw");
    QTest::newRow("tls ipv6") << "rediss://[::1]:7000" << tlsEndpoint("::1", 7000);
    QTest::newRow("valkey alias") << "valkey://u:pw@host:6380/2"
                                  << tcpEndpoint("host", 6380, 2, "u", "pw");
    QTest::newRow("valkeys alias, upper case")
        << "VALKEYS://host:6380/0" << tlsEndpoint("host", 6380);

    QTest::newRow("unix socket") << "unix:///tmp/redis.sock" << unixEndpoint("/tmp/redis.sock");
    QTest::newRow("unix socket with db")
        << "unix:///var/run/redis/redis.sock?db=3" << unixEndpoint("/var/run/redis/redis.sock", 3);
    QTest::newRow("unix socket with credentials")
        << "unix://alice:pw%40x@/tmp/r.sock?db=1"
        << unixEndpoint("/tmp/r.sock", 1, "alice", "pw@x");
    QTest::newRow("unix socket password only")
        << "unix://:secret@/tmp/r.sock" << unixEndpoint("/tmp/r.sock", 0, {}, "secret");
    QTest::newRow("unix socket encoded path")
        << "unix:///tmp/with%20space.sock" << unixEndpoint("/tmp/with space.sock");
    QTest::newRow("unix socket path with @")
        << "unix:///run/user@1000/redis.sock" << unixEndpoint("/run/user@1000/redis.sock");

    QTest::newRow("sentinels") << "redis+sentinel://s1:26379,s2:26380/mymaster"
                               << sentinelEndpoint({"s1:26379", "s2:26380"}, "mymaster");
    QTest::newRow("sentinel default port, db, credentials")
        << "REDIS+SENTINEL://alice:p%40w@s1,[::1]:5000/pool-primary/3"
        << sentinelEndpoint({"s1:26379", "::1:5000"}, "pool-primary", 3, "alice", "p@w");
    QTest::newRow("sentinel trailing slash")
        << "redis+sentinel://127.0.0.1/m/" << sentinelEndpoint({"127.0.0.1:26379"}, "m");
    Endpoint tlsSentinels = sentinelEndpoint({"s1:26379"}, "m", 1);
    tlsSentinels.tls.enabled = true;
    QTest::newRow("sentinel over tls") << "rediss+sentinel://s1/m/1" << tlsSentinels;
}

void TestEndpoint::parsesValidUrl() {
    QFETCH(QString, url);
    QFETCH(Endpoint, expected);

    const poolscope::EndpointParseResult result = parseEndpoint(url);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QVERIFY(result.error.isEmpty());
    const Endpoint &actual = *result.endpoint;
    // Field by field first, for precise failure messages; then the whole struct.
    QCOMPARE(actual.transport, expected.transport);
    QCOMPARE(actual.host, expected.host);
    QCOMPARE(actual.port, expected.port);
    QCOMPARE(actual.socketPath, expected.socketPath);
    QCOMPARE(actual.database, expected.database);
    QCOMPARE(actual.username, expected.username);
    QCOMPARE(actual.password, expected.password);
    QCOMPARE(actual.tls.enabled, expected.tls.enabled);
    QCOMPARE(actual, expected);
}

void TestEndpoint::rejectsInvalidUrl_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("expectedErrorPart");

    QTest::newRow("empty") << ""
                           << "empty";
    QTest::newRow("blank") << "   \t"
                           << "empty";
    QTest::newRow("no scheme") << "localhost:6379"
                               << "missing scheme";
    QTest::newRow("unknown scheme")
        << "http://host"
        << "unsupported scheme \"http\" (expected "
           "redis://, rediss://, redis+sentinel://, redis+cluster://, unix://, or valkey:// and "
           "valkeys:// for redis:// and rediss://)";
    QTest::newRow("tls without host") << "rediss:///0"
                                      << "missing host";
    QTest::newRow("port not a number") << "redis://host:abc/0"
                                       << "port \"abc\" is not a number";
    QTest::newRow("port with trailing junk") << "redis://host:6379x"
                                             << "port \"6379x\"";
    QTest::newRow("port too large") << "redis://host:70000"
                                    << "port 70000 is out of range 1-65535";
    QTest::newRow("port zero") << "redis://host:0/1"
                               << "port 0 is out of range 1-65535";
    QTest::newRow("port negative") << "redis://host:-5"
                                   << "port -5 is out of range";
    QTest::newRow("port overflowing") << "redis://host:99999999999999999999"
                                      << "port 99999999999999999999 is out of range";
    QTest::newRow("port empty") << "redis://host:/0"
                                << "port is empty";
    QTest::newRow("db not a number") << "redis://host/x"
                                     << "database \"x\" is not a number";
    QTest::newRow("db negative") << "redis://host/-1"
                                 << "database -1 is negative";
    QTest::newRow("db too large") << "redis://host/2147483648"
                                  << "database 2147483648 is out of range";
    QTest::newRow("garbage after db") << "redis://host/0/extra"
                                      << "\"/extra\"";
    QTest::newRow("db in path and query") << "redis://host/1?db=2"
                                          << "database is given twice";
    QTest::newRow("db query repeated") << "redis://host?db=1&db=2"
                                       << "database is given twice";
    QTest::newRow("unknown query parameter") << "redis://host?timeout=5"
                                             << "\"timeout\"";
    QTest::newRow("missing host") << "redis://:6379/0"
                                  << "missing host";
    QTest::newRow("nothing after scheme") << "redis://"
                                          << "missing host";
    QTest::newRow("missing host with credentials") << "redis://user:pw@/0"
                                                   << "missing host";
    QTest::newRow("invalid host characters") << "redis://ho st:6379"
                                             << "\"ho st\"";
    QTest::newRow("unbracketed ipv6") << "redis://::1:6379"
                                      << "brackets";
    QTest::newRow("unterminated bracket") << "redis://[::1:6379"
                                          << "unterminated \"[\"";
    QTest::newRow("junk after ipv6") << "redis://[::1]x"
                                     << "\"x\"";
    QTest::newRow("bracketed non-ipv6") << "redis://[localhost]"
                                        << "\"localhost\"";
    QTest::newRow("unix empty path") << "unix://"
                                     << "socket path is empty";
    QTest::newRow("unix only query") << "unix://?db=2"
                                     << "socket path is empty";
    QTest::newRow("unix root path") << "unix:///"
                                    << "socket path is empty";
    QTest::newRow("unix with host") << "unix://localhost/tmp/r.sock"
                                    << "\"localhost\"";
    QTest::newRow("unix bad db") << "unix:///tmp/r.sock?db=x"
                                 << "database \"x\" is not a number";
    QTest::newRow("sentinel without master name") << "redis+sentinel://s1:26379"
                                                  << "missing master name";
    QTest::newRow("sentinel empty master name") << "redis+sentinel://s1:26379//0"
                                                << "missing master name";
    QTest::newRow("sentinel empty seed") << "redis+sentinel://s1,,s3/m"
                                         << "sentinel 2: missing host";
    QTest::newRow("sentinel bad port") << "redis+sentinel://s1,s2:x/m"
                                       << "sentinel 2: port \"x\" is not a number";
    QTest::newRow("sentinel bad db") << "redis+sentinel://s1/m/x"
                                     << "database \"x\" is not a number";
    QTest::newRow("sentinel junk after db") << "redis+sentinel://s1/m/0/x"
                                            << "\"/x\" after database 0";
    QTest::newRow("sentinel query") << "redis+sentinel://s1/m?db=1"
                                    << "takes no query";
}

void TestEndpoint::rejectsInvalidUrl() {
    QFETCH(QString, url);
    QFETCH(QString, expectedErrorPart);

    const poolscope::EndpointParseResult result = parseEndpoint(url);
    QVERIFY2(!result.ok(), qPrintable(result.endpoint ? result.endpoint->toUrl() : QString()));
    QVERIFY2(result.error.contains(expectedErrorPart),
             qPrintable(QStringLiteral("error \"%1\" does not contain \"%2\"")
                            .arg(result.error, expectedErrorPart)));
}

void TestEndpoint::errorNeverEchoesPassword_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("password");

    QTest::newRow("bad port") << "redis://u:Hunter2Secret@host:abc"
                              << "Hunter2Secret";
    QTest::newRow("bad db") << "redis://u:Hunter2Secret@host/x"
                            << "Hunter2Secret";
    QTest::newRow("unknown scheme") << "http://u:Hunter2Secret@host"
                                    << "Hunter2Secret";
    QTest::newRow("missing host") << "redis://u:Hunter2Secret@"
                                  << "Hunter2Secret";
    QTest::newRow("unix without path") << "unix://u:Hunter2Secret@"
                                       << "Hunter2Secret";
    QTest::newRow("unix without path, query") << "unix://u:Hunter2Secret@?db=1"
                                              << "Hunter2Secret";
    QTest::newRow("sentinel without name") << "redis+sentinel://u:Hunter2Secret@s1"
                                           << "Hunter2Secret";
    QTest::newRow("sentinel bad seed") << "redis+sentinel://u:Hunter2Secret@s1:0/m"
                                       << "Hunter2Secret";
}

void TestEndpoint::errorNeverEchoesPassword() {
    QFETCH(QString, url);
    QFETCH(QString, password);

    const poolscope::EndpointParseResult result = parseEndpoint(url);
    QVERIFY(!result.ok());
    QVERIFY(!result.error.isEmpty());
    QVERIFY2(!result.error.contains(password), qPrintable(result.error));
}

void TestEndpoint::parsesClusterUrl_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QStringList>("seeds"); // "host:port"
    QTest::addColumn<QString>("username");
    QTest::addColumn<QString>("password");
    QTest::addColumn<bool>("tls");
    QTest::addColumn<QString>("safeUrl");

    QTest::newRow("one seed") << "redis+cluster://127.0.0.1:7000" << QStringList{"127.0.0.1:7000"}
                              << ""
                              << "" << false << "redis+cluster://127.0.0.1:7000";
    QTest::newRow("three seeds, default port")
        << "redis+cluster://a:7000,b,[::1]:7002" << QStringList{"a:7000", "b:6379", "::1:7002"}
        << ""
        << "" << false << "redis+cluster://a:7000,b:6379,[::1]:7002";
    QTest::newRow("credentials") << "REDIS+CLUSTER://alice:s%3Acret@h1:1,h2:2"
                                 << QStringList{"h1:1", "h2:2"} << "alice"
                                 << "s:cret" << false << "redis+cluster://alice@h1:1,h2:2";
    QTest::newRow("database 0 accepted") << "redis+cluster://h:1/0" << QStringList{"h:1"} << ""
                                         << "" << false << "redis+cluster://h:1";
    QTest::newRow("?db=0 accepted")
        << "redis+cluster://h:1,g:2?db=0" << QStringList{"h:1", "g:2"} << ""
        << "" << false << "redis+cluster://h:1,g:2";
    QTest::newRow("tls") << "rediss+cluster://h:1" << QStringList{"h:1"} << ""
                         << "" << true << "rediss+cluster://h:1";
}

void TestEndpoint::parsesClusterUrl() {
    QFETCH(QString, url);
    QFETCH(QStringList, seeds);
    QFETCH(QString, username);
    QFETCH(QString, password);
    QFETCH(bool, tls);
    QFETCH(QString, safeUrl);

    const auto result = parseEndpoint(url);
    QVERIFY2(result.ok(), qPrintable(result.error));
    const Endpoint &endpoint = *result.endpoint;
    QCOMPARE(endpoint.topology, Endpoint::Topology::Cluster);
    QStringList actualSeeds;
    for (const poolscope::NodeAddress &seed : endpoint.seeds)
        actualSeeds.append(seed.host + u':' + QString::number(seed.port));
    QCOMPARE(actualSeeds, seeds);
    // host/port hold the node in use: the first seed to begin with.
    QCOMPARE(endpoint.host, endpoint.seeds.first().host);
    QCOMPARE(endpoint.port, endpoint.seeds.first().port);
    QCOMPARE(endpoint.database, 0);
    QCOMPARE(endpoint.username, username);
    QCOMPARE(endpoint.password, password);
    QCOMPARE(endpoint.tls.enabled, tls);
    QCOMPARE(endpoint.toSafeUrl(), safeUrl);
    QVERIFY(!endpoint.toDisplayString().contains(u"cret"));
    if (!password.isEmpty())
        QVERIFY(endpoint.toDisplayString().contains(u":****@"));
    // The full URL (for child processes) parses back to the same endpoint.
    const auto again = parseEndpoint(endpoint.toUrl());
    QVERIFY2(again.ok(), qPrintable(again.error));
    QCOMPARE(*again.endpoint, endpoint);
}

void TestEndpoint::rejectsInvalidClusterUrl_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("expectedError");

    QTest::newRow("database in path")
        << "redis+cluster://h:1,g:2/3"
        << "database 3 is not possible in Redis Cluster, which has database 0 only: remove it "
           "from the URL";
    QTest::newRow("database in query") << "redis+cluster://h:1?db=2"
                                       << "database 2 is not possible in Redis Cluster";
    QTest::newRow("bad second seed") << "redis+cluster://h:1,g:x"
                                     << "cluster node 2: port \"x\" is not a number";
    QTest::newRow("empty seed") << "redis+cluster://h:1,,g:2"
                                << "cluster node 2: missing host";
    QTest::newRow("no seeds") << "redis+cluster://"
                              << "cluster node 1: missing host";
    QTest::newRow("bad first seed") << "redis+cluster://:secret@h:99999"
                                    << "cluster node 1: port 99999 is out of range 1-65535";
}

void TestEndpoint::rejectsInvalidClusterUrl() {
    QFETCH(QString, url);
    QFETCH(QString, expectedError);
    const auto result = parseEndpoint(url);
    QVERIFY(!result.ok());
    QVERIFY2(result.error.contains(expectedError), qPrintable(result.error));
    QVERIFY(!result.error.contains(u"secret"));
}

QTEST_GUILESS_MAIN(TestEndpoint)
#include "tst_endpoint.moc"