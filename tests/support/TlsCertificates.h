#pragma once

#include "server/RedisServerProcess.h"

#include <memory>

#include <QString>
#include <QTemporaryDir>

namespace poolscope::testing {

// Certificates a test makes for itself with the `openssl` command in a temporary directory:
//   ca.pem                        a CA ("poolscope test CA") that signs all the others
//   server.pem / server.key       for localhost and 127.0.0.1, valid now
//   other.pem / other.key         for other.test only (name mismatch)
//   expired.pem / expired.key     localhost, valid 2020-01-01 to 2020-01-02 (openssl ca
//                                 -startdate/-enddate: req -x509 cannot backdate)
//   notyet.pem / notyet.key       localhost, valid from 2099-01-01
//   client.pem / client.key       a client certificate ("poolscope test client")
//   client-encrypted.key          the same key under a passphrase
// Elliptic-curve keys, so that making them all takes well under a second.
class TlsCertificates {
public:
    // QVERIFY-friendly: false with the reason in error().
    bool create();
    const QString &error() const { return m_error; }
    QString path(const QString &file) const { return m_directory->path() + u'/' + file; }
    // A TLS redis-server with server.pem, trusting ca.pem, that requires the client certificate
    // client.pem and the password.
    RedisServerOptions clientAuthServer(const QString &password) const;

private:
    bool openssl(const QStringList &arguments);
    bool makeLeaf(const QString &name, const QString &subject, const QString &altNames,
                  const QStringList &validity);

    std::unique_ptr<QTemporaryDir> m_directory;
    QString m_error;
};

} // namespace poolscope::testing
