#include "transport/TlsCommandLine.h"

#include <QFile>
#include <QFileInfo>

namespace poolscope::transport {

namespace {
const QString kCa = QStringLiteral("tls-ca");
const QString kServerName = QStringLiteral("tls-server-name");
const QString kCert = QStringLiteral("tls-cert");
const QString kKey = QStringLiteral("tls-key");
const QString kInsecure = QStringLiteral("tls-insecure");

QString unreadable(const QString &option, const QString &path) {
    const QFileInfo file(path);
    if (!file.exists())
        return QStringLiteral("--%1 %2: no such file").arg(option, path);
    if (!file.isFile() || !file.isReadable())
        return QStringLiteral("--%1 %2: not a readable file").arg(option, path);
    return {};
}
// A PEM file with a private key in it ("-----BEGIN PRIVATE KEY-----", "... RSA PRIVATE KEY",
// "... ENCRYPTED PRIVATE KEY", ...). Read up to 1 MiB: certificate files are small.
bool holdsPrivateKey(const QString &path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return true; // unreadable files were reported already
    const QByteArray text = file.read(1 << 20);
    return text.contains("PRIVATE KEY-----");
}

} // namespace

QList<QCommandLineOption> tlsCommandLineOptions() {
    return {
        {kCa, QStringLiteral("TLS: trust only the CAs in FILE (PEM) instead of the system's."),
         QStringLiteral("FILE")},
        {kServerName,
         QStringLiteral("TLS: the name the server's certificate must carry, also sent as SNI "
                        "(default: the URL's host)."),
         QStringLiteral("NAME")},
        {kCert, QStringLiteral("TLS: client certificate (PEM) for servers that require one."),
         QStringLiteral("FILE")},
        {kKey,
         QStringLiteral("TLS: the client certificate's key (PEM); an encrypted one's "
                        "passphrase is asked for."),
         QStringLiteral("FILE")},
        {kInsecure, QStringLiteral("TLS: do not verify the server at all (chain and name).")},
    };
}

QString applyTlsCommandLine(const QCommandLineParser &parser, Endpoint &endpoint) {
    for (const QString &option : {kCa, kServerName, kCert, kKey, kInsecure}) {
        if (parser.isSet(option) && !endpoint.tls.enabled)
            return QStringLiteral("--%1 needs a rediss:// URL (TLS)").arg(option);
    }
    TlsOptions &tls = endpoint.tls;
    for (const auto &[option, field] :
         {std::pair{kCa, &tls.caFile}, std::pair{kCert, &tls.certFile},
          std::pair{kKey, &tls.keyFile}}) {
        if (!parser.isSet(option))
            continue;
        *field = parser.value(option);
        if (const QString problem = unreadable(option, *field); !problem.isEmpty())
            return problem;
    }
    if (parser.isSet(kServerName)) {
        tls.serverName = parser.value(kServerName).trimmed();
        if (tls.serverName.isEmpty())
            return QStringLiteral("--tls-server-name is empty");
    }
    if (!tls.keyFile.isEmpty() && tls.certFile.isEmpty())
        return QStringLiteral("--tls-key needs --tls-cert");
    // Without --tls-key the key is read from the certificate's file (one PEM holding both):
    // say so now when that file has none, rather than "cannot read the client key" later.
    if (!tls.certFile.isEmpty() && tls.keyFile.isEmpty() && !holdsPrivateKey(tls.certFile))
        return QStringLiteral("--tls-cert %1 holds no private key: give the key with --tls-key "
                              "FILE")
            .arg(tls.certFile);
    tls.insecure = parser.isSet(kInsecure);
    return {};
}

} // namespace poolscope::transport
