#pragma once

// What the TLS tests share: one set of certificates and the servers that use them (plain TCP, a
// good name, another name, expired, not yet valid, client certificates required), started once
// per test file, and small helpers.
#include "RedisFixture.h"
#include "TlsCertificates.h"

#include "base/RedisError.h"
#include "load/LoadRunner.h"
#include "pool/PoolOperations.h"
#include "transport/Transport.h"

#include <QSignalSpy>
#include <QScopeGuard>
#include <QtTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace poolscope::testing {

using namespace std::chrono_literals;

inline qint64 evalshaCalls(RedisConnection &connection) {
    const QByteArray info = connection.command({"INFO", "commandstats"}).text;
    const qsizetype at = info.indexOf("cmdstat_evalsha:calls=");
    if (at < 0)
        return 0;
    const qsizetype start = at + qsizetype(sizeof("cmdstat_evalsha:calls=") - 1);
    return info.mid(start, info.indexOf(',', start) - start).toLongLong();
}

// A loopback listener that never answers: TCP connects (the kernel's accept queue), TLS waits.
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

class TlsCase {
protected:
    TlsCertificates m_certificates;
    std::unique_ptr<RedisFixture> m_tcp;        // plain TCP
    std::unique_ptr<RedisFixture> m_tls;        // server.pem: localhost, 127.0.0.1
    std::unique_ptr<RedisFixture> m_otherName;  // other.pem: other.test only
    std::unique_ptr<RedisFixture> m_expired;    // expired.pem
    std::unique_ptr<RedisFixture> m_notYet;     // notyet.pem
    std::unique_ptr<RedisFixture> m_clientAuth; // requires a client certificate

    QString cert(const char *file) const { return m_certificates.path(QLatin1String(file)); }

    RedisServerOptions tlsOptions(const char *name) const {
        RedisServerOptions options;
        options.tlsCertFile = cert(name) + QStringLiteral(".pem");
        options.tlsKeyFile = cert(name) + QStringLiteral(".key");
        options.tlsCaFile = cert("ca.pem");
        return options;
    }
    bool start(std::unique_ptr<RedisFixture> &fixture, const RedisServerOptions &options) {
        fixture = std::make_unique<RedisFixture>(options);
        if (fixture->start())
            return true;
        qWarning("%s", qPrintable(fixture->error()));
        return false;
    }
    RedisFixture &fixtureFor(const QString &transport) {
        return transport == QLatin1String("tls") ? *m_tls : *m_tcp;
    }
    // The message of the RedisError that connecting to `endpoint` throws, or "" when it connects.
    static QString connectFailure(const Endpoint &endpoint, std::chrono::milliseconds timeout,
                                  RedisError::Kind *kind = nullptr) {
        ConnectionOptions options;
        options.connectTimeout = timeout;
        try {
            auto connection = RedisConnection::open(endpoint, options);
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
        RedisServerOptions plain;
        plain.useTcp = true;
        QVERIFY(start(m_tcp, plain));
        QVERIFY(start(m_tls, tlsOptions("server")));
        QVERIFY(start(m_otherName, tlsOptions("other")));
        QVERIFY(start(m_expired, tlsOptions("expired")));
        QVERIFY(start(m_notYet, tlsOptions("notyet")));
        RedisServerOptions clientAuth = tlsOptions("server");
        clientAuth.tlsAuthClients = true;
        clientAuth.tlsClientCertFile = cert("client.pem");
        clientAuth.tlsClientKeyFile = cert("client.key");
        QVERIFY(start(m_clientAuth, clientAuth));
    }
};

} // namespace poolscope::testing
