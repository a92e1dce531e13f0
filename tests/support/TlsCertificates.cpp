#include "TlsCertificates.h"

#include <QDir>
#include <QFile>
#include <QProcess>

namespace poolscope::testing {

namespace {
const QStringList kNewKey{QStringLiteral("-newkey"), QStringLiteral("ec"),
                          QStringLiteral("-pkeyopt"),
                          QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};

// A minimal `openssl ca` set-up: it is the one command that can backdate a certificate.
constexpr auto kCaConfig = R"([ca]
default_ca = test
[test]
dir = .
database = index.txt
serial = serial
new_certs_dir = issued
default_md = sha256
policy = anything
copy_extensions = copy
unique_subject = no
[anything]
commonName = supplied
)";
} // namespace

bool TlsCertificates::openssl(const QStringList &arguments) {
    QProcess process;
    process.setWorkingDirectory(m_directory->path());
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral("openssl"), arguments);
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit ||
        process.exitCode() != 0) {
        m_error = QStringLiteral("openssl %1 failed: %2 %3")
                      .arg(arguments.join(u' '), process.errorString(),
                           QString::fromLocal8Bit(process.readAll()));
        return false;
    }
    return true;
}

bool TlsCertificates::makeLeaf(const QString &name, const QString &subject, const QString &altNames,
                               const QStringList &validity) {
    QStringList request{QStringLiteral("req")};
    request << kNewKey << QStringLiteral("-keyout") << name + QStringLiteral(".key")
            << QStringLiteral("-out") << name + QStringLiteral(".csr") << QStringLiteral("-subj")
            << subject;
    if (!altNames.isEmpty())
        request << QStringLiteral("-addext") << QStringLiteral("subjectAltName=") + altNames;
    return openssl(request) &&
           openssl(QStringList{QStringLiteral("ca"), QStringLiteral("-batch"),
                               QStringLiteral("-config"), QStringLiteral("ca.cnf"),
                               QStringLiteral("-cert"), QStringLiteral("ca.pem"),
                               QStringLiteral("-keyfile"), QStringLiteral("ca.key"),
                               QStringLiteral("-notext"), QStringLiteral("-in"),
                               name + QStringLiteral(".csr"), QStringLiteral("-out"),
                               name + QStringLiteral(".pem")}
                   << validity);
}

bool TlsCertificates::create() {
    m_directory = std::make_unique<QTemporaryDir>();
    if (!m_directory->isValid()) {
        m_error = m_directory->errorString();
        return false;
    }
    QFile config(path(QStringLiteral("ca.cnf")));
    QFile index(path(QStringLiteral("index.txt")));
    QFile serial(path(QStringLiteral("serial")));
    if (!config.open(QIODevice::WriteOnly) || config.write(kCaConfig) < 0 ||
        !index.open(QIODevice::WriteOnly) || !serial.open(QIODevice::WriteOnly) ||
        serial.write("1000\n") < 0 || !QDir(m_directory->path()).mkdir(QStringLiteral("issued"))) {
        m_error = QStringLiteral("cannot write the CA's files in %1").arg(m_directory->path());
        return false;
    }
    config.close();
    index.close();
    serial.close();
    const QStringList now{QStringLiteral("-days"), QStringLiteral("30")};
    const QString localhost = QStringLiteral("DNS:localhost,IP:127.0.0.1");
    return openssl(QStringList{QStringLiteral("req"), QStringLiteral("-x509")}
                   << kNewKey << QStringLiteral("-keyout") << QStringLiteral("ca.key")
                   << QStringLiteral("-out") << QStringLiteral("ca.pem") << QStringLiteral("-days")
                   << QStringLiteral("30") << QStringLiteral("-subj")
                   << QStringLiteral("/CN=poolscope test CA")) &&
           makeLeaf(QStringLiteral("server"), QStringLiteral("/CN=localhost"), localhost, now) &&
           makeLeaf(QStringLiteral("other"), QStringLiteral("/CN=other.test"),
                    QStringLiteral("DNS:other.test"), now) &&
           makeLeaf(QStringLiteral("expired"), QStringLiteral("/CN=localhost"), localhost,
                    {QStringLiteral("-startdate"), QStringLiteral("20200101000000Z"),
                     QStringLiteral("-enddate"), QStringLiteral("20200102000000Z")}) &&
           makeLeaf(QStringLiteral("notyet"), QStringLiteral("/CN=localhost"), localhost,
                    {QStringLiteral("-startdate"), QStringLiteral("20990101000000Z"),
                     QStringLiteral("-enddate"), QStringLiteral("20991231000000Z")}) &&
           makeLeaf(QStringLiteral("client"), QStringLiteral("/CN=poolscope test client"), {},
                    now) &&
           openssl({QStringLiteral("pkey"), QStringLiteral("-in"), QStringLiteral("client.key"),
                    QStringLiteral("-aes256"), QStringLiteral("-passout"),
                    QStringLiteral("pass:test-only"), QStringLiteral("-out"),
                    QStringLiteral("client-encrypted.key")});
}

RedisServerOptions TlsCertificates::clientAuthServer(const QString &password) const {
    RedisServerOptions options;
    options.tlsCertFile = path(QStringLiteral("server.pem"));
    options.tlsKeyFile = path(QStringLiteral("server.key"));
    options.tlsCaFile = path(QStringLiteral("ca.pem"));
    options.tlsAuthClients = true;
    options.tlsClientCertFile = path(QStringLiteral("client.pem"));
    options.tlsClientKeyFile = path(QStringLiteral("client.key"));
    options.extraArguments = {QStringLiteral("--requirepass"), password};
    return options;
}

} // namespace poolscope::testing
