#pragma once

// What the SSH tunnel tests share: certificates, one sshd and ssh-agent, a TCP, a unix-socket and a
// TLS Redis started once per test file, HOME pointed at the fixture's own, and small helpers.
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

namespace poolscope::testing {

using namespace std::chrono_literals;

inline QByteArray readFile(const QString &path) {
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
inline int closedPort() {
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

class SshCase {
protected:
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
    // The servers and files every test case of the file shares; from initTestCase.
    void startCase() {
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
};

} // namespace poolscope::testing
