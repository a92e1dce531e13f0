// SSH tunnels (--ssh): pool operations through a tunnel to a TCP, a unix-socket and a TLS Redis;
// ~/.ssh/config aliases, ssh-agent, key files and passphrases, passwords asked last; an unknown
// host key asked about; each failure's one line; kill -9 of sshd, alone and during a load run.
// The CLI through a tunnel is tested in tst_sshcli.cpp. One sshd, one ssh-agent and the
// Redis servers are shared by the test cases (initTestCase); HOME is the fixture's own.
#include "RedisFixture.h"
#include "SshFixture.h"
#include "TlsCertificates.h"

#include "base/RedisError.h"
#include "load/LoadRunner.h"
#include "pool/PoolOperations.h"
#include "transport/ssh/SshDestination.h"
#include "transport/ssh/SshSession.h"
#include "transport/Transport.h"
#include "transport/UserPrompts.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

QByteArray readFile(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A loopback listener that never answers: TCP connects, the SSH banner never comes.
class SilentListener {
public:
    SilentListener() {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof(address);
        ::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof(address));
        ::listen(m_fd, 16);
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length);
        m_port = ntohs(address.sin_port);
    }
    ~SilentListener() { ::close(m_fd); }
    int port() const { return m_port; }

private:
    int m_fd = -1;
    int m_port = 0;
};

// A loopback port with nothing listening on it (bound, then closed).
int closedPort() {
    SilentListener listener;
    return listener.port();
}

// Sets an environment variable (or removes it) for one scope of a test.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char *name, const QByteArray &value)
        : m_name(name)
        , m_had(qEnvironmentVariableIsSet(name))
        , m_old(qgetenv(name)) {
        if (value.isNull())
            qunsetenv(name);
        else
            qputenv(name, value);
    }
    ~ScopedEnvironment() {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }

private:
    const char *m_name;
    bool m_had;
    QByteArray m_old;
};

// Installs prompters for one test and removes them after it.
class ScopedPrompters {
public:
    ScopedPrompters(transport::SecretPrompter secrets, transport::HostKeyPrompter hostKeys = {}) {
        transport::setSecretPrompter(std::move(secrets));
        transport::setHostKeyPrompter(std::move(hostKeys));
    }
    ~ScopedPrompters() {
        transport::setSecretPrompter({});
        transport::setHostKeyPrompter({});
    }
};

} // namespace

class TestSsh : public QObject {
    Q_OBJECT

private:
    TlsCertificates m_certificates;
    SshFixture m_ssh;
    std::unique_ptr<RedisFixture> m_tcp;
    std::unique_ptr<RedisFixture> m_unix;
    std::unique_ptr<RedisFixture> m_tls;

    RedisFixture &fixtureFor(const QString &kind) {
        if (kind == QLatin1String("unix"))
            return *m_unix;
        return kind == QLatin1String("tls") ? *m_tls : *m_tcp;
    }
    Endpoint viaSsh(Endpoint endpoint, const QString &destination = {}) const {
        endpoint.ssh.destination = destination.isEmpty() ? m_ssh.destination() : destination;
        return endpoint;
    }
    static ConnectionOptions quick(std::chrono::milliseconds connectTimeout = 5000ms) {
        ConnectionOptions options;
        options.connectTimeout = connectTimeout;
        options.clientName = QStringLiteral("tst-ssh");
        return options;
    }
    // The message of the RedisError that connecting to `endpoint` throws, or "" when it works.
    static QString connectFailure(const Endpoint &endpoint,
                                  std::chrono::milliseconds timeout = 5000ms,
                                  RedisError::Kind *kind = nullptr) {
        try {
            auto connection = RedisConnection::open(endpoint, quick(timeout));
            connection->commandOrThrow({"PING"});
            return {};
        } catch (const RedisError &error) {
            if (kind)
                *kind = error.kind();
            return error.message();
        }
    }
private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_certificates.create(), qPrintable(m_certificates.error()));
        QVERIFY2(m_ssh.start(), qPrintable(m_ssh.error()));
        RedisServerOptions tcp;
        tcp.useTcp = true;
        m_tcp = std::make_unique<RedisFixture>(tcp);
        QVERIFY2(m_tcp->start(), qPrintable(m_tcp->error()));
        m_unix = std::make_unique<RedisFixture>();
        QVERIFY2(m_unix->start(), qPrintable(m_unix->error()));
        RedisServerOptions tls;
        tls.tlsCertFile = m_certificates.path(QStringLiteral("server.pem"));
        tls.tlsKeyFile = m_certificates.path(QStringLiteral("server.key"));
        tls.tlsCaFile = m_certificates.path(QStringLiteral("ca.pem"));
        m_tls = std::make_unique<RedisFixture>(tls);
        QVERIFY2(m_tls->start(), qPrintable(m_tls->error()));
        // This process's ~/.ssh is the fixture's (known_hosts with the host key, the config's
        // "bastion"), and its agent holds id_agent.
        qputenv("HOME", m_ssh.home().toLocal8Bit());
        qputenv("SSH_AUTH_SOCK", m_ssh.agentSocket().toLocal8Bit());
    }

    void destinationParsing_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("error"); // a part of the error, or empty
        QTest::newRow("alias") << "bastion"
                               << ""
                               << "bastion" << 0 << "";
        QTest::newRow("user host port") << "ops@jump.example:2222"
                                        << "ops"
                                        << "jump.example" << 2222 << "";
        QTest::newRow("ipv6 port") << "[::1]:22"
                                   << ""
                                   << "::1" << 22 << "";
        QTest::newRow("bare ipv6") << "ops@::1"
                                   << "ops"
                                   << "::1" << 0 << "";
        QTest::newRow("empty") << "  "
                               << ""
                               << "" << 0 << "empty";
        QTest::newRow("empty user") << "@host"
                                    << ""
                                    << "" << 0 << "empty user";
        QTest::newRow("bad port") << "host:99999"
                                  << ""
                                  << "" << 0 << "port \"99999\"";
        QTest::newRow("empty port") << "host:"
                                    << ""
                                    << "" << 0 << "empty port";
        QTest::newRow("url") << "ssh://host"
                             << ""
                             << "" << 0 << "not of the form";
        QTest::newRow("open bracket") << "[::1:22"
                                      << ""
                                      << "" << 0 << "'[' without ']'";
    }
    void destinationParsing() {
        QFETCH(QString, text);
        QFETCH(QString, user);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, error);
        const transport::SshDestinationParseResult parsed = transport::parseSshDestination(text);
        if (!error.isEmpty()) {
            QVERIFY2(parsed.error.contains(error), qPrintable(parsed.error));
            return;
        }
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QCOMPARE(parsed.destination.user, user);
        QCOMPARE(parsed.destination.host, host);
        QCOMPARE(parsed.destination.port, port);
    }

    void transportIsNamed() {
        QCOMPARE(transport::describeTransport(viaSsh(m_tcp->endpoint(), QStringLiteral("bastion"))),
                 QStringLiteral("via ssh bastion"));
        QCOMPARE(transport::describeTransport(viaSsh(m_tls->endpoint(), QStringLiteral("bastion"))),
                 QStringLiteral("via ssh bastion, TLS, verified"));
        QCOMPARE(
            transport::describeTransport(viaSsh(m_unix->endpoint(), QStringLiteral("bastion"))),
            QStringLiteral("unix socket via ssh bastion"));
    }

    void poolOperationsThroughTunnel_data() {
        QTest::addColumn<QString>("kind");
        QTest::newRow("tcp") << "tcp";
        QTest::newRow("unix socket") << "unix";
        QTest::newRow("tls") << "tls";
    }
    void poolOperationsThroughTunnel() {
        QFETCH(QString, kind);
        RedisFixture &redis = fixtureFor(kind);
        const QByteArray key = "tunnel-" + kind.toUtf8();
        auto connection = RedisConnection::open(viaSsh(redis.endpoint()), quick());
        // Through sshd: the server sees the connection come from sshd, not from this process.
        const QByteArray clients = connection->commandOrThrow({"CLIENT", "LIST"}).text;
        QVERIFY(clients.contains("name=tst-ssh"));
        PoolOperations pool(*connection, key);
        QCOMPARE(pool.seed(documentationMembers(4), SeedOptions{}).added.size(), 4);
        QSet<QByteArray> chosen;
        for (int i = 0; i < 8; ++i) {
            const std::optional<QByteArray> member = pool.allocate();
            QVERIFY(member.has_value());
            chosen.insert(*member);
        }
        QCOMPARE(chosen.size(), 4); // least-used: each member twice
        QCOMPARE(sumOfScores(redis, key), 8.0);
        // A reply bigger than one SSH packet and than the relay's buffers comes through whole.
        const QByteArray big(300 * 1024, 'x');
        connection->commandOrThrow({"SET", key + "-big", big});
        QCOMPARE(connection->commandOrThrow({"GET", key + "-big"}).text, big);
    }

    // TLS through the tunnel verifies the Redis server's name, not the local end's: a server name
    // the certificate does not carry fails as it does without a tunnel.
    void tlsThroughTunnelVerifiesTheServersName() {
        Endpoint endpoint = viaSsh(m_tls->endpoint());
        endpoint.tls.serverName = QStringLiteral("other.test");
        const QString failure = connectFailure(endpoint);
        QVERIFY2(failure.contains(QStringLiteral("other.test")), qPrintable(failure));
        QVERIFY(!failure.contains(u'\n'));
    }

    // Many connections meet the same unknown host key at once (a load run): one question. When
    // it is declined, the connections that waited for it are refused without another question.
    void unknownHostKeyAskedOnceForManyConnections_data() {
        QTest::addColumn<bool>("trust");
        QTest::newRow("trusted") << true;
        QTest::newRow("declined") << false;
    }
    void unknownHostKeyAskedOnceForManyConnections() {
        QFETCH(bool, trust);
        const QString home = m_ssh.makeHome(QStringLiteral("home-many-") +
                                            QLatin1String(trust ? "trusted" : "declined"));
        const ScopedEnvironment otherHome("HOME", home.toLocal8Bit());
        std::atomic<int> questions{0};
        std::mutex mutex;
        std::condition_variable allBegun;
        int begun = 0;
        // The person answers after every connection has begun (a person takes seconds).
        const ScopedPrompters prompters({}, [&](const transport::HostKeyQuestion &) {
            ++questions;
            std::unique_lock lock(mutex);
            allBegun.wait_for(lock, 10s, [&begun] { return begun == 8; });
            return trust;
        });
        const Endpoint endpoint = viaSsh(m_tcp->endpoint());
        std::vector<QString> failures(8);
        std::vector<std::thread> connecting;
        for (QString &failure : failures)
            connecting.emplace_back([&] {
                {
                    const std::lock_guard lock(mutex);
                    ++begun;
                }
                allBegun.notify_all();
                failure = connectFailure(endpoint);
            });
        for (std::thread &thread : connecting)
            thread.join();
        QCOMPARE(questions.load(), 1);
        for (const QString &failure : failures) {
            if (trust)
                QCOMPARE(failure, QString());
            else
                QVERIFY2(failure.contains(QStringLiteral("is unknown")), qPrintable(failure));
        }
        const QByteArray recorded = readFile(home + QStringLiteral("/.ssh/known_hosts"));
        QCOMPARE(recorded.count('\n'), trust ? 1 : 0);
    }

    // A TLS client through the tunnel to a plain server: "plain text", found out by a probe that
    // takes a tunnel of its own (the server is never dialled from here).
    void tlsClientThroughTunnelToPlainServer() {
        Endpoint endpoint = viaSsh(m_tcp->endpoint());
        endpoint.tls.enabled = true;
        const QString failure = connectFailure(endpoint, 2000ms);
        QVERIFY2(failure.contains(QStringLiteral("answered in plain text")), qPrintable(failure));
    }

    void configHostAliasWithoutAgent() {
        const ScopedEnvironment noAgent("SSH_AUTH_SOCK", QByteArray());
        // "bastion": HostName, Port, User and IdentityFile (id_plain) from ~/.ssh/config.
        const Endpoint endpoint = viaSsh(m_tcp->endpoint(), QStringLiteral("bastion"));
        QCOMPARE(connectFailure(endpoint), QString());
    }

    void homeIsExpandedInTheConfig_data() {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QByteArray>("expanded");
        QTest::newRow("identity file") << QByteArray("Host a\n  IdentityFile ~/k\n")
                                       << QByteArray("Host a\n  IdentityFile /h/k\n");
        QTest::newRow("equals, quoted, case")
            << QByteArray("identityfile=\"~/my key\"\nCertificateFile ~/c ~/d")
            << QByteArray("identityfile=\"/h/my key\"\nCertificateFile /h/c /h/d");
        QTest::newRow("include") << QByteArray("Include ~/.ssh/extra")
                                 << QByteArray("Include /h/.ssh/extra");
        QTest::newRow("other keywords and other tildes kept")
            << QByteArray("HostName ~/x\nIdentityFile a~/b\nIdentityFile ~user/k")
            << QByteArray("HostName ~/x\nIdentityFile a~/b\nIdentityFile ~user/k");
    }
    void homeIsExpandedInTheConfig() {
        QFETCH(QByteArray, config);
        QFETCH(QByteArray, expanded);
        QCOMPARE(transport::withHomeExpanded(config, "/h"), expanded);
    }

    // IdentityFile ~/... in ~/.ssh/config is read from $HOME (not the password database's
    // home), and a key that is not there is named in the failure.
    void identityFileUnderHome() {
        const ScopedEnvironment noAgent("SSH_AUTH_SOCK", QByteArray());
        const QString home = m_ssh.makeHome(QStringLiteral("home-tilde"), m_ssh.knownHostsLine());
        QVERIFY(QFile::copy(m_ssh.path(QStringLiteral("keys/id_plain")), home + "/id_tilde"));
        QVERIFY(QFile::setPermissions(home + "/id_tilde", QFile::ReadOwner | QFile::WriteOwner));
        QFile config(home + "/.ssh/config");
        QVERIFY(config.open(QIODevice::WriteOnly));
        const QByteArray host = "  HostName 127.0.0.1\n  Port " + QByteArray::number(m_ssh.port()) +
                                "\n  User " + m_ssh.user().toUtf8() + "\n";
        config.write("Host tilde\n" + host + "  IdentityFile ~/id_tilde\n" + "Host missing\n" +
                     host + "  IdentityFile ~/id_missing\n");
        config.close();
        const ScopedEnvironment otherHome("HOME", home.toLocal8Bit());
        QCOMPARE(connectFailure(viaSsh(m_tcp->endpoint(), QStringLiteral("tilde"))), QString());
        const QString failure =
            connectFailure(viaSsh(m_tcp->endpoint(), QStringLiteral("missing")));
        QVERIFY2(failure.contains(home + QStringLiteral("/id_missing")), qPrintable(failure));
    }

    // A ProxyCommand runs with a clean environment: REDIS_URL (with its password) and the rest
    // of ours never reach it; HOME does.
    void proxyCommandGetsACleanEnvironment() {
        const ScopedEnvironment noAgent("SSH_AUTH_SOCK", QByteArray());
        const ScopedEnvironment secret("REDIS_URL", "redis://:hunter2@127.0.0.1:1/0");
        const QString home = m_ssh.makeHome(QStringLiteral("home-proxy"), m_ssh.knownHostsLine());
        const QString seen = home + QStringLiteral("/proxy-env");
        QFile config(home + "/.ssh/config");
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("Host proxied\n  HostName 127.0.0.1\n  Port " +
                     QByteArray::number(m_ssh.port()) + "\n  User " + m_ssh.user().toUtf8() +
                     "\n  IdentityFile " + m_ssh.path(QStringLiteral("keys/id_plain")).toUtf8() +
                     "\n  ProxyCommand /bin/bash -c 'env > " + seen.toUtf8() +
                     "; exec 3<>/dev/tcp/%h/%p; cat <&3 & exec cat >&3'\n");
        config.close();
        const ScopedEnvironment otherHome("HOME", home.toLocal8Bit());
        QCOMPARE(connectFailure(viaSsh(m_tcp->endpoint(), QStringLiteral("proxied"))), QString());
        QFile environment(seen);
        QVERIFY2(environment.open(QIODevice::ReadOnly), "the ProxyCommand did not run");
        const QByteArray variables = environment.readAll();
        QVERIFY2(!variables.contains("hunter2"), variables.constData());
        QVERIFY2(!variables.contains("REDIS_URL"), variables.constData());
        QVERIFY2(variables.contains("HOME=" + home.toLocal8Bit() + '\n'), variables.constData());
    }

    void keyFileWithoutAgent() {
        const ScopedEnvironment noAgent("SSH_AUTH_SOCK", QByteArray());
        Endpoint endpoint = viaSsh(m_tcp->endpoint());
        endpoint.ssh.keyFile = m_ssh.path(QStringLiteral("keys/id_plain"));
        QCOMPARE(connectFailure(endpoint), QString());
    }

    void passphraseAskedForKeyFile() {
        const ScopedEnvironment noAgent("SSH_AUTH_SOCK", QByteArray());
        QList<transport::SecretRequest> asked;
        const ScopedPrompters prompters([&asked](const transport::SecretRequest &request) {
            asked << request;
            return std::optional<QString>(asked.size() == 1 ? QStringLiteral("wrong")
                                                            : QStringLiteral("correct horse"));
        });
        Endpoint endpoint = viaSsh(m_tcp->endpoint());
        endpoint.ssh.keyFile = m_ssh.path(QStringLiteral("keys/id_secret"));
        QCOMPARE(connectFailure(endpoint), QString());
        QCOMPARE(asked.size(), 2);
        QCOMPARE(asked[0].kind, transport::SecretKind::SshKeyPassphrase);
        QCOMPARE(asked[0].subject, endpoint.ssh.keyFile);
        QVERIFY(asked[0].retryReason.isEmpty());
        QCOMPARE(asked[1].retryReason, QStringLiteral("wrong passphrase"));
    }

    void passphraseNobodyCanGive() {
        const ScopedEnvironment noAgent("SSH_AUTH_SOCK", QByteArray());
        Endpoint endpoint = viaSsh(m_tcp->endpoint());
        endpoint.ssh.keyFile = m_ssh.path(QStringLiteral("keys/id_secret"));
        const QString failure = connectFailure(endpoint);
        QVERIFY2(failure.contains(QStringLiteral("protected by a passphrase")),
                 qPrintable(failure));
    }

    // A key the server does not know, no agent, nobody to ask for a password: refused, naming
    // what was tried and what the server accepts.
    void wrongKeyRefused() {
        const ScopedEnvironment noAgent("SSH_AUTH_SOCK", QByteArray());
        Endpoint endpoint = viaSsh(m_tcp->endpoint());
        endpoint.ssh.keyFile = m_ssh.path(QStringLiteral("keys/id_stranger"));
        RedisError::Kind kind{};
        const QString failure = connectFailure(endpoint, 5000ms, &kind);
        QCOMPARE(kind, RedisError::Kind::Connection);
        QVERIFY2(failure.contains(QStringLiteral("SSH authentication as %1@127.0.0.1:%2 failed")
                                      .arg(m_ssh.user())
                                      .arg(m_ssh.port())),
                 qPrintable(failure));
        QVERIFY2(failure.contains(QStringLiteral("tried: key ") + endpoint.ssh.keyFile),
                 qPrintable(failure));
        QVERIFY2(failure.contains(QStringLiteral("the server accepts: publickey, password")),
                 qPrintable(failure));
        QVERIFY(!failure.contains(u'\n'));
    }

    // After the agent and the key, a password is asked for (three tries), then refused.
    void passwordAskedLast() {
        QList<transport::SecretRequest> asked;
        const ScopedPrompters prompters([&asked](const transport::SecretRequest &request) {
            asked << request;
            return std::optional<QString>(QStringLiteral("not the password"));
        });
        Endpoint endpoint = viaSsh(m_tcp->endpoint());
        endpoint.ssh.keyFile = m_ssh.path(QStringLiteral("keys/id_stranger"));
        // The agent's key would be accepted: take a user for whom no key is authorized.
        endpoint.ssh.destination = QStringLiteral("no-such-user@127.0.0.1:%1").arg(m_ssh.port());
        const QString failure = connectFailure(endpoint);
        QVERIFY2(failure.contains(QStringLiteral("tried: ssh-agent, key %1, password (3 wrong)")
                                      .arg(endpoint.ssh.keyFile)),
                 qPrintable(failure));
        QCOMPARE(asked.size(), 3);
        for (const transport::SecretRequest &request : asked) {
            QCOMPARE(request.kind, transport::SecretKind::SshPassword);
            QCOMPARE(request.subject,
                     QStringLiteral("no-such-user@127.0.0.1:%1").arg(m_ssh.port()));
        }
        QCOMPARE(asked[1].retryReason, QStringLiteral("wrong password"));
    }

    // In the dashboard an unknown host key is a question: declined, refused; trusted, recorded.
    void unknownHostKeyIsAsked() {
        const QString home = m_ssh.makeHome(QStringLiteral("home-asked"));
        const ScopedEnvironment otherHome("HOME", home.toLocal8Bit());
        QList<transport::HostKeyQuestion> questions;
        bool trust = false;
        const ScopedPrompters prompters({}, [&](const transport::HostKeyQuestion &question) {
            questions << question;
            return trust;
        });
        const Endpoint endpoint = viaSsh(m_tcp->endpoint());
        const QString refused = connectFailure(endpoint);
        QVERIFY2(refused.contains(QStringLiteral("is unknown")), qPrintable(refused));
        QCOMPARE(questions.size(), 1);
        QCOMPARE(questions[0].host, QStringLiteral("127.0.0.1:%1").arg(m_ssh.port()));
        QCOMPARE(questions[0].keyType, QStringLiteral("ssh-ed25519"));
        QCOMPARE(questions[0].fingerprint, m_ssh.hostKeyFingerprint());
        QVERIFY(!QFile::exists(home + QStringLiteral("/.ssh/known_hosts")));

        trust = true;
        QCOMPARE(connectFailure(endpoint), QString());
        QCOMPARE(questions.size(), 2);
        const QByteArray recorded = readFile(home + QStringLiteral("/.ssh/known_hosts"));
        QVERIFY2(recorded.contains(QStringLiteral("[127.0.0.1]:%1").arg(m_ssh.port()).toUtf8()),
                 recorded.constData());
        QCOMPARE(connectFailure(endpoint), QString()); // known now: not asked again
        QCOMPARE(questions.size(), 2);
    }

    void failures_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("kind");
        QTest::newRow("ssh host unreachable") << "unreachable"
                                              << "unreachable" << int(RedisError::Kind::Connection);
        QTest::newRow("ssh host silent")
            << "silent"
            << "timed out after 700 ms" << int(RedisError::Kind::Timeout);
        QTest::newRow("forward refused")
            << "refused"
            << "refused to forward to 127.0.0.1:" << int(RedisError::Kind::Connection);
        QTest::newRow("no such socket")
            << "nosocket"
            << "refused to forward to unix socket" << int(RedisError::Kind::Connection);
    }
    void failures() {
        QFETCH(QString, what);
        QFETCH(QString, message);
        QFETCH(int, kind);
        SilentListener silent;
        Endpoint endpoint = viaSsh(m_tcp->endpoint());
        if (what == QLatin1String("unreachable"))
            endpoint.ssh.destination = QStringLiteral("127.0.0.1:%1").arg(closedPort());
        else if (what == QLatin1String("silent"))
            endpoint.ssh.destination = QStringLiteral("127.0.0.1:%1").arg(silent.port());
        else if (what == QLatin1String("refused"))
            endpoint.port = closedPort();
        else
            endpoint = viaSsh(m_unix->endpoint()), endpoint.socketPath += QStringLiteral(".none");
        RedisError::Kind thrown{};
        QElapsedTimer elapsed;
        elapsed.start();
        const QString failure = connectFailure(endpoint, 700ms, &thrown);
        QVERIFY2(failure.contains(message), qPrintable(failure));
        QVERIFY2(failure.contains(QStringLiteral("via ssh ")), qPrintable(failure));
        QVERIFY(!failure.contains(u'\n'));
        QCOMPARE(int(thrown), kind);
        // Ten times the 700 ms budget: only a connect that ignores its budget fails this.
        QCOMPARE_LT(elapsed.elapsed(), 7000);
    }

    // kill -9 of sshd: the next command fails at once with the text of a TCP drop ("the server
    // closed the connection"), not after the command timeout.
    void sshdKilledClosesTheConnection() {
        ConnectionOptions options = quick();
        options.commandTimeout = 20000ms;
        auto connection = RedisConnection::open(viaSsh(m_tcp->endpoint()), options);
        connection->commandOrThrow({"PING"});
        QVERIFY2(m_ssh.restartSshd(), qPrintable(m_ssh.error()));
        QElapsedTimer elapsed;
        elapsed.start();
        try {
            connection->commandOrThrow({"PING"});
            QFAIL("a tunnel whose sshd was killed answered");
        } catch (const RedisError &error) {
            QCOMPARE(error.kind(), RedisError::Kind::Connection);
            QVERIFY2(error.message().contains(QStringLiteral("the server closed the connection")),
                     qPrintable(error.message()));
        }
        // "At once" against a 20 s command timeout: a failure that waited for it cannot pass.
        QCOMPARE_LT(elapsed.elapsed(), 10000);
        QCOMPARE(connectFailure(viaSsh(m_tcp->endpoint())), QString()); // a new tunnel works
    }

    // kill -9 of sshd (and of its session processes) during a load run, restart on the same
    // port: the runner reports the losses and unknowns as over TCP and goes on after the restart.
    void sshdKilledDuringLoad() {
        m_tcp->makePool("killed", documentationMembers(20));
        LoadSpec spec;
        spec.endpoint = viaSsh(m_tcp->endpoint());
        spec.poolKey = "killed";
        spec.workers = 4;
        spec.pipeline = 8;
        spec.total = 20000;
        spec.connection.commandTimeout = 500ms;
        spec.connection.connectTimeout = 1000ms;
        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QVERIFY(runner.start(spec));
        QTRY_VERIFY_WITH_TIMEOUT(
            !progressed.isEmpty() && progressed.last().at(0).toLongLong() > 2000, 20000);
        QVERIFY2(m_ssh.restartSshd(), qPrintable(m_ssh.error()));
        // The run may end while sshd restarts (the restart waits with the event loop running).
        QVERIFY(!finished.isEmpty() || finished.wait(60000));
        const LoadReport report = finished.last().at(0).value<LoadReport>();
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE_GE(report.connectionLosses, 1);
        QCOMPARE_GE(report.reconnects, 1);
        QCOMPARE(report.attempts(), 20000);
        QCOMPARE(report.errors(), 0);
        const double rise = sumOfScores(*m_tcp, "killed");
        QVERIFY2(rise >= double(report.allocated) &&
                     rise <= double(report.allocated + report.unknown),
                 qPrintable(QStringLiteral("scores rose by %1; allocated %2, unknown %3")
                                .arg(rise)
                                .arg(report.allocated)
                                .arg(report.unknown)));
    }
};

QTEST_GUILESS_MAIN(TestSsh)
#include "tst_ssh.moc"
