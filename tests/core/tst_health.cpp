// Health checks through proxies: every classification against the loopback harness (one shared
// set of proxies, targets and dead ends), the demo pool never probed, credentials never shown.
#include "LoopbackProxies.h"
#include "TlsCertificates.h"

#include "health/Checkability.h"
#include "health/HealthChecker.h"
#include "pool/PoolKeys.h"
#include "topology/HashSlot.h"

#include <QtTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(poolscope::CheckOutcome)

namespace {

LoopbackServer::Options spec(LoopbackServer::Kind kind, const QString &certificate = {},
                             const QString &key = {}, const QByteArray &user = {},
                             const QByteArray &password = {}, int status = 200) {
    LoopbackServer::Options options;
    options.kind = kind;
    options.tls = !certificate.isEmpty();
    options.certificate = certificate;
    options.privateKey = key;
    options.user = user;
    options.password = password;
    options.status = status;
    return options;
}

// A loopback port whose accept queue is full: further SYNs are dropped, so connecting hangs.
class FullBacklog {
public:
    FullBacklog() {
        m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        ::bind(m_listener, reinterpret_cast<sockaddr *>(&address), sizeof address);
        ::listen(m_listener, 0);
        ::getsockname(m_listener, reinterpret_cast<sockaddr *>(&address), &length);
        m_port = ntohs(address.sin_port);
        for (int i = 0; i < 3; ++i) { // fill the queue (backlog 0 still admits one)
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address);
            m_fillers.push_back(fd);
        }
    }
    ~FullBacklog() {
        for (const int fd : m_fillers)
            ::close(fd);
        ::close(m_listener);
    }
    quint16 port() const { return m_port; }

private:
    int m_listener = -1;
    quint16 m_port = 0;
    std::vector<int> m_fillers;
};

} // namespace

class TestHealth : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void classification_data();
    void classification();
    void demoPoolIsNotCheckable();
    void namesAreJudgedByTheirAddress();
    void environmentProxiesChangeNothing();
    void stopEndsChecksInFlight();
    void credentialsNeverShown();
    void concurrencyAndRateAreBounded();
    void healthKeysShareThePoolSlot_data();
    void healthKeysShareThePoolSlot();
    void targetAndStatusParsing();
    void cleanupTestCase();

private:
    using Kind = LoopbackServer::Kind;
    LoopbackServer &server(const QString &name, LoopbackServer::Options options);
    QString port(const QString &name) const { return QString::number(m_servers.at(name)->port()); }

    TlsCertificates m_certificates;
    std::map<QString, std::unique_ptr<LoopbackServer>> m_servers;
    std::unique_ptr<FullBacklog> m_fullBacklog;
    quint16 m_closedPort = 0;
};

LoopbackServer &TestHealth::server(const QString &name, LoopbackServer::Options options) {
    auto &slot = m_servers[name];
    slot = std::make_unique<LoopbackServer>(std::move(options));
    if (!slot->start())
        qFatal("%s: %s", qPrintable(name), qPrintable(slot->error()));
    return *slot;
}

void TestHealth::initTestCase() {
    QVERIFY2(m_certificates.create(), qPrintable(m_certificates.error()));
    const QString cert = m_certificates.path(QStringLiteral("server.pem"));
    const QString key = m_certificates.path(QStringLiteral("server.key"));
    const QString otherCert = m_certificates.path(QStringLiteral("other.pem"));
    const QString otherKey = m_certificates.path(QStringLiteral("other.key"));
    server("target", spec(Kind::HttpTarget));
    server("target500", spec(Kind::HttpTarget, {}, {}, {}, {}, 500));
    server("tlsTarget", spec(Kind::HttpTarget, cert, key));
    server("wrongNameTarget", spec(Kind::HttpTarget, otherCert, otherKey));
    server("silentTarget", spec(Kind::Silent));
    auto clientCertificate = spec(Kind::HttpTarget, cert, key);
    clientCertificate.requireClientCertificate = true;
    server("clientCertTarget", clientCertificate);
    server("http", spec(Kind::HttpProxy));
    server("httpAuth", spec(Kind::HttpProxy, {}, {}, "alice", "secretpw"));
    server("https", spec(Kind::HttpProxy, cert, key));
    server("httpsWrongName", spec(Kind::HttpProxy, otherCert, otherKey));
    server("socks5", spec(Kind::Socks5, {}, {}, "bob", "s3cret"));
    server("socks5open", spec(Kind::Socks5));
    server("socks4", spec(Kind::Socks4));
    server("silent", spec(Kind::Silent));
    server("garbage", spec(Kind::Garbage));
    server("endlessHeaders", spec(Kind::EndlessHeaders));
    server("hugeHeader", spec(Kind::HugeHeader));
    m_fullBacklog = std::make_unique<FullBacklog>();
    m_closedPort = closedLoopbackPort();
}

void TestHealth::cleanupTestCase() {
    m_servers.clear();
    m_fullBacklog.reset();
}

void TestHealth::classification_data() {
    QTest::addColumn<QString>("member");
    QTest::addColumn<QString>("target");
    QTest::addColumn<CheckOutcome>("expected");
    // Names resolved in classification(): "@name" is the port of that server.
    const QString plain = QStringLiteral("http://127.0.0.1:@target/health");
    const QString tls = QStringLiteral("https://127.0.0.1:@tlsTarget/");
    QTest::newRow("ok: absolute GET") << "127.0.0.1:@http" << plain << CheckOutcome::Ok;
    QTest::newRow("ok: CONNECT + TLS") << "127.0.0.1:@http" << tls << CheckOutcome::Ok;
    QTest::newRow("ok: https proxy") << "https://127.0.0.1:@https" << plain << CheckOutcome::Ok;
    QTest::newRow("ok: TLS in TLS") << "https://127.0.0.1:@https" << tls << CheckOutcome::Ok;
    QTest::newRow("ok: proxy credentials")
        << "http://alice:secretpw@127.0.0.1:@httpAuth" << plain << CheckOutcome::Ok;
    QTest::newRow("ok: SOCKS5 user/password")
        << "socks5://bob:s3cret@127.0.0.1:@socks5" << plain << CheckOutcome::Ok;
    QTest::newRow("ok: SOCKS5 + TLS")
        << "socks5://127.0.0.1:@socks5open" << tls << CheckOutcome::Ok;
    QTest::newRow("ok: SOCKS4") << "socks4://127.0.0.1:@socks4" << plain << CheckOutcome::Ok;
    QTest::newRow("ok: SOCKS4a (name)") << "socks4://127.0.0.1:@socks4"
                                        << "http://localhost:@target/" << CheckOutcome::Ok;
    QTest::newRow("refused") << "127.0.0.1:@closed" << plain << CheckOutcome::Refused;
    QTest::newRow("timeout: connect")
        << "127.0.0.1:@fullBacklog" << plain << CheckOutcome::TimeoutConnect;
    QTest::newRow("timeout: proxy answer")
        << "127.0.0.1:@silent" << plain << CheckOutcome::TimeoutProxy;
    QTest::newRow("timeout: SOCKS5 proxy answer")
        << "socks5://127.0.0.1:@silent" << plain << CheckOutcome::TimeoutProxy;
    QTest::newRow("timeout: target answer")
        << "socks5://127.0.0.1:@socks5open"
        << "http://127.0.0.1:@silentTarget/" << CheckOutcome::TimeoutTarget;
    QTest::newRow("auth: 407 without credentials")
        << "127.0.0.1:@httpAuth" << plain << CheckOutcome::ProxyAuthRequired;
    QTest::newRow("auth: 407 wrong password")
        << "http://alice:wrong@127.0.0.1:@httpAuth" << tls << CheckOutcome::ProxyAuthRequired;
    QTest::newRow("auth: SOCKS5 without credentials")
        << "socks5://127.0.0.1:@socks5" << plain << CheckOutcome::ProxyAuthRequired;
    QTest::newRow("auth: SOCKS5 wrong password")
        << "socks5://bob:wrong@127.0.0.1:@socks5" << plain << CheckOutcome::ProxyAuthRequired;
    QTest::newRow("proxy refused target: CONNECT")
        << "127.0.0.1:@http"
        << "https://127.0.0.1:@closed/" << CheckOutcome::ProxyRefusedTarget;
    QTest::newRow("proxy refused target: SOCKS5")
        << "socks5://127.0.0.1:@socks5open"
        << "http://127.0.0.1:@closed/" << CheckOutcome::ProxyRefusedTarget;
    QTest::newRow("proxy refused target: SOCKS4")
        << "socks4://127.0.0.1:@socks4"
        << "http://127.0.0.1:@closed/" << CheckOutcome::ProxyRefusedTarget;
    QTest::newRow("TLS error: target name")
        << "127.0.0.1:@http"
        << "https://127.0.0.1:@wrongNameTarget/" << CheckOutcome::TlsError;
    // TLS 1.3: the refusal comes as an alert after the client's side of the handshake is done.
    QTest::newRow("TLS error: target wants a client certificate")
        << "127.0.0.1:@http"
        << "https://127.0.0.1:@clientCertTarget/" << CheckOutcome::TlsError;
    QTest::newRow("TLS error: proxy name")
        << "https://127.0.0.1:@httpsWrongName" << plain << CheckOutcome::TlsError;
    QTest::newRow("unexpected status: GET")
        << "127.0.0.1:@http"
        << "http://127.0.0.1:@target500/" << CheckOutcome::UnexpectedStatus;
    QTest::newRow("unexpected status: SOCKS5")
        << "socks5://127.0.0.1:@socks5open"
        << "http://127.0.0.1:@target500/" << CheckOutcome::UnexpectedStatus;
    QTest::newRow("garbage: HTTP") << "127.0.0.1:@garbage" << plain << CheckOutcome::Garbage;
    QTest::newRow("garbage: SOCKS5")
        << "socks5://127.0.0.1:@garbage" << plain << CheckOutcome::Garbage;
    QTest::newRow("garbage: SOCKS4")
        << "socks4://127.0.0.1:@garbage" << plain << CheckOutcome::Garbage;
    // A status line alone is no answer: the head must end, within its size and time limits.
    QTest::newRow("headers forever: proxy")
        << "127.0.0.1:@endlessHeaders" << plain << CheckOutcome::TimeoutProxy;
    QTest::newRow("10 MB header: proxy")
        << "127.0.0.1:@hugeHeader" << plain << CheckOutcome::Garbage;
    QTest::newRow("headers forever: target")
        << "socks5://127.0.0.1:@socks5open"
        << "http://127.0.0.1:@endlessHeaders/" << CheckOutcome::TimeoutTarget;
    QTest::newRow("10 MB header: target")
        << "socks5://127.0.0.1:@socks5open"
        << "http://127.0.0.1:@hugeHeader/" << CheckOutcome::Garbage;
    QTest::newRow("not checkable: documentation range")
        << "192.0.2.10:8080" << plain << CheckOutcome::NotCheckable;
}

void TestHealth::classification() {
    QFETCH(QString, member);
    QFETCH(QString, target);
    QFETCH(CheckOutcome, expected);
    const auto substitute = [this](QString text) {
        text.replace(QStringLiteral("@closed"), QString::number(m_closedPort));
        text.replace(QStringLiteral("@fullBacklog"), QString::number(m_fullBacklog->port()));
        // Longest names first, so "@target500" is not read as "@target" + "500".
        std::vector<QString> names;
        for (const auto &[name, server] : m_servers)
            names.push_back(name);
        std::sort(names.begin(), names.end(),
                  [](const QString &a, const QString &b) { return a.size() > b.size(); });
        for (const QString &name : names)
            text.replace(u'@' + name, port(name));
        return text;
    };
    CheckOptions options;
    QString error;
    options.target = *CheckTarget::parse(substitute(target), &error);
    options.caFile = m_certificates.path(QStringLiteral("ca.pem"));
    options.connectTimeout = 300ms;
    options.proxyTimeout = 400ms;
    options.targetTimeout = 400ms;
    options.checkTimeout = 3s;
    const CheckRound round = runCheckRound({substitute(member).toUtf8()}, options);
    QCOMPARE(round.results.size(), 1);
    const CheckResult &result = round.results.first();
    QVERIFY2(
        result.outcome == expected,
        qPrintable(QStringLiteral("got %1 (%2), expected %3")
                       .arg(outcomeName(result.outcome), result.detail, outcomeName(expected))));
    if (expected == CheckOutcome::Ok) {
        QCOMPARE(result.status, 200);
        QCOMPARE_GE(result.connectMs, 0);
        QCOMPARE_GE(result.totalMs, result.connectMs);
        QVERIFY(result.detail.isEmpty());
    } else {
        QVERIFY(!result.detail.isEmpty());
    }
    QCOMPARE(result.probed, expected != CheckOutcome::NotCheckable);
}

void TestHealth::demoPoolIsNotCheckable() {
    // The demo's members and every other non-routable kind: nothing is sent, each says why.
    const QList<QByteArray> members{"192.0.2.10:8080",    "198.51.100.7:3128",
                                    "203.0.113.99:1080",  "socks5://u:pw@192.0.2.1:1080",
                                    "10.1.2.3:8080",      "192.168.1.1:3128",
                                    "172.16.0.1:80",      "169.254.1.1:80",
                                    "[2001:db8::1]:8080", "100.64.0.1:80",
                                    "0.0.0.0:80",         "224.0.0.1:80",
                                    "not a proxy at all"};
    CheckOptions options;
    QString error;
    options.target = *CheckTarget::parse(
        QStringLiteral("http://127.0.0.1:%1/").arg(port(QStringLiteral("target"))), &error);
    const int acceptedBefore = m_servers["target"]->accepted();
    const CheckRound round = runCheckRound(members, options);
    QCOMPARE(round.connectionsOpened, 0);
    QCOMPARE(round.results.size(), members.size());
    for (const CheckResult &result : round.results) {
        QCOMPARE(result.outcome, CheckOutcome::NotCheckable);
        QVERIFY(!result.probed);
        QVERIFY2(!result.detail.isEmpty(), result.member.constData());
        QVERIFY2(!result.detail.contains(u"pw@"), qPrintable(result.detail));
    }
    QVERIFY(round.results[0].detail.contains(u"documentation"));
    QCOMPARE(m_servers["target"]->accepted(), acceptedBefore);
}

void TestHealth::namesAreJudgedByTheirAddress() {
    // Names are judged again by the address DNS gives them, before any socket. The test runs
    // itself again in network and mount namespaces of its own: only loopback, and an /etc/hosts
    // that maps a name to 0.0.0.0 (a reserved range, and this very host) and one to 127.0.0.2
    // (loopback, so probed: nothing listens there). Nothing can leave the machine there, not even
    // a DNS query.
    if (qEnvironmentVariableIsEmpty("POOLSCOPE_TEST_HOSTS")) {
        if (QProcess::execute(QStringLiteral("unshare"), {"--mount", "--net", "true"}) != 0)
            QSKIP("no namespaces of our own here (unshare needs root)");
        QTemporaryFile hosts;
        QVERIFY(hosts.open());
        hosts.write("127.0.0.1 localhost\n0.0.0.0 nowhere.test\n127.0.0.2 loopback.test\n");
        hosts.flush();
        QProcess child;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("POOLSCOPE_TEST_HOSTS"), hosts.fileName());
        child.setProcessEnvironment(environment);
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(QStringLiteral("unshare"),
                    {"--mount", "--net", "sh", "-c",
                     "mount --bind \"$POOLSCOPE_TEST_HOSTS\" /etc/hosts && ip link set lo up && "
                     "exec \"$0\" namesAreJudgedByTheirAddress",
                     QCoreApplication::applicationFilePath()});
        QVERIFY(child.waitForFinished(60000));
        const QByteArray output = child.readAll();
        QVERIFY2(child.exitCode() == 0, output.constData());
        QVERIFY2(output.contains("PASS   : TestHealth::namesAreJudgedByTheirAddress()"),
                 output.constData());
        return;
    }
    CheckOptions options;
    QString error;
    options.target = *CheckTarget::parse(
        QStringLiteral("http://127.0.0.1:%1/").arg(port(QStringLiteral("target"))), &error);
    const QList<QByteArray> members{
        "http://nowhere.test:" + port(QStringLiteral("http")).toUtf8(),
        "socks5://nowhere.test:" + port(QStringLiteral("socks5open")).toUtf8(),
        "http://loopback.test:" + port(QStringLiteral("http")).toUtf8()};
    const int acceptedBefore = m_servers["http"]->accepted();
    const CheckRound round = runCheckRound(members, options);
    for (const CheckResult &result : round.results.first(2)) {
        QVERIFY2(result.outcome == CheckOutcome::NotCheckable,
                 qPrintable(outcomeName(result.outcome) + u' ' + result.detail));
        QVERIFY(!result.probed);
        QVERIFY2(result.detail.contains(u"nowhere.test resolves to"), qPrintable(result.detail));
    }
    QCOMPARE(round.results[2].outcome, CheckOutcome::Refused);
    QVERIFY(round.results[2].probed);
    QCOMPARE(round.connectionsOpened, 1);
    QCOMPARE(m_servers["http"]->accepted(), acceptedBefore);
}

void TestHealth::environmentProxiesChangeNothing() {
    // Proxy variables in the environment neither reroute a check (through "decoy") nor let it
    // skip its member's proxy (no_proxy=*): every check goes through the member's proxy.
    server("decoy", spec(Kind::HttpProxy));
    const QByteArray decoy = "http://127.0.0.1:" + port(QStringLiteral("decoy")).toUtf8();
    const QList<QByteArray> names{"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY",
                                  "all_proxy",  "ALL_PROXY",  "no_proxy",    "NO_PROXY"};
    for (const QByteArray &name : names)
        qputenv(name.constData(), name.toLower() == "no_proxy" ? QByteArray("*") : decoy);
    const auto restore = qScopeGuard([&names] {
        for (const QByteArray &name : names)
            qunsetenv(name.constData());
    });
    for (const QString &target : {QStringLiteral("http://127.0.0.1:%1/").arg(port("target")),
                                  QStringLiteral("https://127.0.0.1:%1/").arg(port("tlsTarget"))}) {
        CheckOptions options;
        QString error;
        options.target = *CheckTarget::parse(target, &error);
        options.caFile = m_certificates.path(QStringLiteral("ca.pem"));
        const int viaProxy = m_servers["http"]->accepted();
        const CheckRound round =
            runCheckRound({"127.0.0.1:" + port("http").toUtf8(),
                           "socks5://127.0.0.1:" + port("socks5open").toUtf8()},
                          options);
        for (const CheckResult &result : round.results)
            QVERIFY2(result.outcome == CheckOutcome::Ok, qPrintable(result.detail));
        QCOMPARE(m_servers["http"]->accepted(), viaProxy + 1);
    }
    QCOMPARE(m_servers["decoy"]->accepted(), 0);
}

void TestHealth::stopEndsChecksInFlight() {
    // Four checks wait on a silent proxy with a 20 s limit, four more wait for a free slot: a stop
    // ends the round at once, each check reported as interrupted, none as a failure.
    CheckOptions options;
    QString error;
    options.target = *CheckTarget::parse(
        QStringLiteral("http://127.0.0.1:%1/").arg(port(QStringLiteral("target"))), &error);
    options.proxyTimeout = 20s;
    options.checkTimeout = 20s;
    options.concurrency = 4;
    QList<QByteArray> members;
    for (int i = 0; i < 8; ++i)
        members << "http://user" + QByteArray::number(i) + "@127.0.0.1:" + port("silent").toUtf8();
    const int acceptedBefore = m_servers["silent"]->accepted();
    std::atomic<bool> stop{false};
    CheckRound round;
    std::thread checker([&] { round = runCheckRound(members, options, &stop); });
    auto join = qScopeGuard([&] {
        stop.store(true);
        checker.join();
    });
    QTRY_COMPARE_WITH_TIMEOUT(m_servers["silent"]->accepted(), acceptedBefore + 4, 10000);
    QElapsedTimer stopping;
    stopping.start();
    join.dismiss();
    stop.store(true);
    checker.join();
    QCOMPARE_LT(stopping.elapsed(), 10000); // half the checks' limit: only a wait for it misses
    QCOMPARE(round.results.size(), members.size());
    for (qsizetype i = 0; i < members.size(); ++i) {
        const CheckResult &result = round.results[i];
        QCOMPARE(result.outcome, CheckOutcome::NotCheckable);
        QVERIFY2(result.detail.contains(u"interrupted"), qPrintable(result.detail));
        QCOMPARE(result.probed, i < 4);
    }
}

void TestHealth::credentialsNeverShown() {
    CheckOptions options;
    QString error;
    options.target = *CheckTarget::parse(
        QStringLiteral("http://127.0.0.1:%1/").arg(port(QStringLiteral("target"))), &error);
    options.proxyTimeout = 400ms;
    const QList<QByteArray> members{
        "http://alice:wrongpassword@127.0.0.1:" + port("httpAuth").toUtf8(),
        "socks5://bob:wrongpassword@127.0.0.1:" + port("socks5").toUtf8(),
        "socks5://bob:wrongpassword@127.0.0.1:" + port("garbage").toUtf8(),
        "http://alice:wrongpassword@127.0.0.1:" + QByteArray::number(m_closedPort)};
    const CheckRound round = runCheckRound(members, options);
    for (const CheckResult &result : round.results) {
        QVERIFY(isFailure(result.outcome));
        QVERIFY2(!result.detail.contains(u"wrongpassword"), qPrintable(result.detail));
    }
}

void TestHealth::concurrencyAndRateAreBounded() {
    // 40 checks against a silent proxy at concurrency 8: at most 8 connections at once, so the
    // round takes at least 5 proxy timeouts; a rate cap of 100/s spreads 40 starts over >= 0.35 s.
    CheckOptions options;
    QString error;
    options.target = *CheckTarget::parse(
        QStringLiteral("http://127.0.0.1:%1/").arg(port(QStringLiteral("target"))), &error);
    options.proxyTimeout = 100ms;
    options.concurrency = 8;
    QList<QByteArray> silent;
    for (int i = 0; i < 40; ++i)
        silent << "http://user" + QByteArray::number(i) + "@127.0.0.1:" + port("silent").toUtf8();
    CheckRound round = runCheckRound(silent, options);
    QVERIFY2(round.elapsedMs >= 5 * 100, qPrintable(QString::number(round.elapsedMs)));
    for (const CheckResult &result : round.results)
        QCOMPARE(result.outcome, CheckOutcome::TimeoutProxy);

    options.concurrency = 50;
    options.ratePerSecond = 100;
    QList<QByteArray> healthy;
    for (int i = 0; i < 40; ++i)
        healthy << "http://user" + QByteArray::number(i) + "@127.0.0.1:" + port("http").toUtf8();
    round = runCheckRound(healthy, options);
    QVERIFY2(round.elapsedMs >= 250, qPrintable(QString::number(round.elapsedMs)));
    for (const CheckResult &result : round.results)
        QCOMPARE(result.outcome, CheckOutcome::Ok);
}

void TestHealth::healthKeysShareThePoolSlot_data() {
    QTest::addColumn<QByteArray>("pool");
    QTest::newRow("plain") << QByteArray("proxies");
    QTest::newRow("tagged") << QByteArray("{eu}:proxies");
    QTest::newRow("braces, no tag") << QByteArray("a}b");
    QTest::newRow("empty braces") << QByteArray("x{}y");
}

void TestHealth::healthKeysShareThePoolSlot() {
    QFETCH(QByteArray, pool);
    const PoolKeys keys(pool);
    const int slot = topology::hashSlot(pool);
    QCOMPARE(topology::hashSlot(keys.health()), slot);
    QCOMPARE(topology::hashSlot(keys.guardEvents()), slot);
    QCOMPARE(topology::hashSlot(keys.guardLease()), slot);
    QCOMPARE(topology::hashSlot(keys.audit()), slot);
    const QSet<QByteArray> names{
        pool, keys.evicted(), keys.health(), keys.guardEvents(), keys.guardLease(), keys.audit()};
    QCOMPARE(names.size(), 6);
}

void TestHealth::targetAndStatusParsing() {
    QString error;
    auto target = CheckTarget::parse(QStringLiteral("https://[::1]:8443/a?b=c"), &error);
    QVERIFY(target);
    QVERIFY(target->https);
    QCOMPARE(target->authority(), QByteArray("[::1]:8443"));
    QCOMPARE(target->path, QByteArray("/a?b=c"));
    target = CheckTarget::parse(QStringLiteral("http://localhost"), &error);
    QVERIFY(target);
    QCOMPARE(target->port, 80);
    QCOMPARE(target->path, QByteArray("/"));
    QVERIFY(!CheckTarget::parse(QStringLiteral("ftp://x/"), &error));
    QVERIFY(error.contains(u"ftp://x/"));
    QVERIFY(!CheckTarget::parse(QStringLiteral("http://u:p@x/"), &error));
    auto ranges = StatusRanges::parse(QStringLiteral("200-299, 301"), &error);
    QVERIFY(ranges);
    QVERIFY(ranges->contains(204) && ranges->contains(301) && !ranges->contains(302));
    QCOMPARE(ranges->text(), QStringLiteral("200-299,301"));
    QVERIFY(!StatusRanges::parse(QStringLiteral("299-200"), &error));
    QVERIFY(error.contains(u"299-200"));
    QVERIFY(!StatusRanges::parse(QStringLiteral("abc"), &error));
    QCOMPARE(StatusRanges().text(), QStringLiteral("200-399"));
}

QTEST_GUILESS_MAIN(TestHealth)
#include "tst_health.moc"
