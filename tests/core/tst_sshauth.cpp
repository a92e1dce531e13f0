// SSH tunnels (--ssh), how they authenticate: ~/.ssh/config aliases and HOME in it, ssh-agent,
// key files and passphrases, a wrong key, passwords asked last, an unknown host key asked about, a
// ProxyCommand's environment. One sshd, one ssh-agent and the Redis servers are shared by the
// test cases (initTestCase); HOME is the fixture's own.
#include "SshCase.h"

#include "RedisFixture.h"
#include "SshFixture.h"
#include "TlsCertificates.h"

#include "base/RedisError.h"
#include "load/LoadRunner.h"
#include "pool/PoolOperations.h"
#include "transport/ssh/ProxyCommand.h"
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

class TestSshAuth : public QObject, public SshCase {
    Q_OBJECT

private Q_SLOTS:

    void initTestCase() { startCase(); }

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

    // %h %p %r %% expanded; an ssh gets our config and known_hosts, quoted for the shell and,
    // the -o value, for ssh's own parser (blanks, quotes, backslashes and %-tokens kept).
    void proxyCommandExpansion_data() {
        QTest::addColumn<QByteArray>("command");
        QTest::addColumn<QByteArray>("knownHosts");
        QTest::addColumn<QByteArray>("expanded");
        QTest::newRow("not ssh") << QByteArray("nc %h %p # %r 100%%") << QByteArray("/h/k")
                                 << QByteArray("nc example 2222 # me 100%");
        QTest::newRow("ssh") << QByteArray("ssh -W %h:%p jump") << QByteArray("/h/k")
                             << QByteArray("ssh -F '/h/c' -o 'UserKnownHostsFile=\"/h/k\"' -W "
                                           "example:2222 jump");
        QTest::newRow("blank, quotes, backslash, percent")
            << QByteArray("ssh -W %h:%p jump") << QByteArray("/my h\\o\"m'e%d/k")
            << QByteArray("ssh -F '/h/c' -o 'UserKnownHostsFile=\"/my h\\\\o\\\"m'\\''e%%d/k\"' "
                          "-W example:2222 jump");
    }
    void proxyCommandExpansion() {
        QFETCH(QByteArray, command);
        QFETCH(QByteArray, knownHosts);
        QFETCH(QByteArray, expanded);
        QCOMPARE(transport::expandProxyCommand(command, "example", 2222, "me", "/h/c", knownHosts),
                 expanded);
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

    // An ssh that the tunnel starts for ProxyJump (libssh 0.10 runs "ssh -W") or for a
    // ProxyCommand reads our ~/.ssh/config and known_hosts, not those of the password
    // database's home, and gets a clean environment. The "jump" alias, its key and its host
    // key are only in the test's HOME: without -F and UserKnownHostsFile the jump fails. An
    // "ssh" first on PATH notes what it was given, then runs the real one.
    void sshProxyReadsOurConfig_data() {
        QTest::addColumn<QByteArray>("proxy");
        QTest::addColumn<QString>("homeName");
        QTest::newRow("ProxyJump") << QByteArray("ProxyJump jump") << "home-jump";
        QTest::newRow("ProxyCommand ssh -W")
            << QByteArray("ProxyCommand ssh -W %h:%p jump") << "home-proxy-ssh";
        // ssh splits an option's value at blanks unless it is quoted.
        QTest::newRow("ProxyJump, HOME with a space") << QByteArray("ProxyJump jump") << "my home";
    }
    void sshProxyReadsOurConfig() {
        QFETCH(QByteArray, proxy);
        QFETCH(QString, homeName);
        const ScopedEnvironment noAgent("SSH_AUTH_SOCK", QByteArray());
        const ScopedEnvironment secret("REDIS_URL", "redis://:hunter2@127.0.0.1:1/0");
        const QString home = m_ssh.makeHome(homeName, m_ssh.knownHostsLine());
        QVERIFY(QDir().mkpath(home + QStringLiteral("/bin")));
        const QString seen = home + QStringLiteral("/proxy-seen");
        const QString wrapper = home + QStringLiteral("/bin/ssh");
        QFile script(wrapper);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\n{ printf 'argument %s\\n' \"$@\"; env; } > '" + seen.toUtf8() +
                     "'\nexec /usr/bin/ssh \"$@\"\n");
        script.close();
        QVERIFY(QFile::setPermissions(wrapper, QFile::ReadOwner | QFile::ExeOwner));
        const QByteArray host = "  HostName 127.0.0.1\n  Port " + QByteArray::number(m_ssh.port()) +
                                "\n  User " + m_ssh.user().toUtf8() + "\n  IdentityFile " +
                                m_ssh.path(QStringLiteral("keys/id_plain")).toUtf8() + "\n";
        QFile config(home + QStringLiteral("/.ssh/config"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("Host proxied\n" + host + "  " + proxy + "\nHost jump\n" + host +
                     "  BatchMode yes\n  StrictHostKeyChecking yes\n");
        config.close();
        const ScopedEnvironment otherHome("HOME", home.toLocal8Bit());
        const ScopedEnvironment path("PATH", QFile::encodeName(home) + "/bin:" + qgetenv("PATH"));
        QCOMPARE(connectFailure(viaSsh(m_tcp->endpoint(), QStringLiteral("proxied")), 20000ms),
                 QString());
        const QByteArray noted = readFile(seen);
        QVERIFY2(!noted.isEmpty(), "the proxy's ssh did not run");
        QVERIFY2(noted.contains("argument -F\nargument " + home.toLocal8Bit() + "/.ssh/config\n"),
                 noted.constData());
        const QByteArray knownHosts = home.toLocal8Bit() + "/.ssh/known_hosts";
        QVERIFY2(noted.contains("argument UserKnownHostsFile=" + knownHosts + '\n') ||
                     noted.contains("argument UserKnownHostsFile=\"" + knownHosts + "\"\n"),
                 noted.constData());
        QVERIFY2(noted.contains("\nHOME=" + home.toLocal8Bit() + '\n'), noted.constData());
        QVERIFY2(!noted.contains("hunter2"), noted.constData());
        QVERIFY2(!noted.contains("REDIS_URL"), noted.constData());
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
};

QTEST_GUILESS_MAIN(TestSshAuth)
#include "tst_sshauth.moc"
