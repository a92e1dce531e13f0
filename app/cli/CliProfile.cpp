// Where the CLI's target comes from: --profile NAME (a connection saved by the dashboard), --url,
// and the secrets: --password-file, --password-stdin, --tls-key-passphrase-file, the keychain.
#include "CliApp.h"

#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "transport/TlsCommandLine.h"
#include "transport/UserPrompts.h"

#include <sys/stat.h>

#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

namespace poolscope::cli {

namespace {

constexpr qint64 kMaxSecretFileBytes = 64 * 1024;

// The first line of a secret file, its line end stripped. Errors name the option and the file,
// never the content. A file that other users may read is refused: the secret would not be one.
QString readSecretFile(const QString &option, const QString &path) {
    const QFileInfo info(path);
    if (!info.exists())
        throw UsageError(QStringLiteral("--%1 %2: no such file").arg(option, path).toStdString());
    if (!info.isFile())
        throw UsageError(
            QStringLiteral("--%1 %2: not a regular file").arg(option, path).toStdString());
    struct stat status {};
    if (::stat(QFile::encodeName(path).constData(), &status) == 0 && (status.st_mode & S_IROTH))
        throw UsageError(QStringLiteral("--%1 %2: other users can read it: make it private first "
                                        "(chmod o-r %2)")
                             .arg(option, path)
                             .toStdString());
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw UsageError(QStringLiteral("--%1 %2: cannot read it (%3)")
                             .arg(option, path, file.errorString())
                             .toStdString());
    QByteArray line = file.readLine(kMaxSecretFileBytes);
    if (line.endsWith('\n'))
        line.chop(1);
    if (line.endsWith('\r'))
        line.chop(1);
    if (line.isEmpty())
        throw UsageError(
            QStringLiteral("--%1 %2: the first line is empty").arg(option, path).toStdString());
    return QString::fromUtf8(line);
}

} // namespace

// The keychain's entry, when there is a keychain; waits (the CLI has no window to keep alive)
// for at most a few seconds.
std::optional<QString> readKeychain(const QString &connection, transport::SecretKind kind) {
    SecretStore store;
    QEventLoop loop;
    bool done = false;
    std::optional<QString> secret;
    QObject::connect(&store, &SecretStore::secretRead, &loop,
                     [&](const QString &, transport::SecretKind, bool found, const QString &text,
                         const QString &) {
                         if (found)
                             secret = text;
                         done = true;
                         loop.quit();
                     });
    QTimer::singleShot(5000, &loop, &QEventLoop::quit);
    store.read(connection, kind);
    if (!done)
        loop.exec();
    return secret;
}

QList<QCommandLineOption> profileCommandLineOptions() {
    return {
        {QStringLiteral("profile"), QStringLiteral("saved connection"), QStringLiteral("NAME")},
        {QStringLiteral("password-file"), QStringLiteral("Redis password file"),
         QStringLiteral("FILE")},
        {QStringLiteral("password-stdin"), QStringLiteral("Redis password on standard input")},
        {QStringLiteral("tls-key-passphrase-file"), QStringLiteral("TLS key passphrase file"),
         QStringLiteral("FILE")},
        {QStringLiteral("confirm-key"), QStringLiteral("pool key, for writes on production"),
         QStringLiteral("KEY")},
        // profile add
        {QStringLiteral("group"), QStringLiteral("saved connection's group"), QStringLiteral("G")},
        {QStringLiteral("env"), QStringLiteral("saved connection's environment"),
         QStringLiteral("ENV")},
        {QStringLiteral("poll-interval"), QStringLiteral("saved connection's poll interval"),
         QStringLiteral("MS")},
        {QStringLiteral("needs-password"), QStringLiteral("the server needs a password")},
    };
}

const ConnectionProfile *Cli::profile() {
    if (!m_parser.isSet(QStringLiteral("profile")))
        return nullptr;
    if (!m_profile) {
        const ProfileLoadResult loaded =
            ProfileStore().load(m_parser.value(QStringLiteral("profile")));
        if (!loaded.ok())
            throw UsageError(QStringLiteral("--profile: %1").arg(loaded.error).toStdString());
        m_profile = *loaded.profile;
    }
    return &*m_profile;
}

Endpoint Cli::baseEndpoint() {
    const ConnectionProfile *saved = profile();
    if (saved && !m_parser.isSet(QStringLiteral("url"))) {
        QString error;
        std::optional<Endpoint> endpoint = profileEndpoint(*saved, &error);
        if (!endpoint)
            throw UsageError(QStringLiteral("--profile: %1").arg(error).toStdString());
        return *endpoint;
    }
    const QString url = m_parser.isSet(QStringLiteral("url"))
                            ? m_parser.value(QStringLiteral("url"))
                            : defaultRedisUrl();
    const EndpointParseResult parsed = parseEndpoint(url);
    if (!parsed.ok())
        throw UsageError(QStringLiteral("bad --url: %1").arg(parsed.error).toStdString());
    Endpoint endpoint = *parsed.endpoint;
    if (saved) { // --url replaces the profile's address; its TLS and SSH settings still apply
        if (endpoint.tls.enabled) {
            endpoint.tls = saved->tls;
            endpoint.tls.enabled = true;
        }
        endpoint.ssh = saved->ssh;
    }
    return endpoint;
}

void Cli::applyTls(Endpoint &endpoint) {
    const bool savedInsecure = endpoint.tls.insecure;
    if (const QString problem = transport::applyTlsCommandLine(m_parser, endpoint);
        !problem.isEmpty())
        throw UsageError(problem.toStdString());
    endpoint.tls.insecure = endpoint.tls.insecure || savedInsecure;
    if (m_parser.isSet(QStringLiteral("tls-key-passphrase-file")) && !m_passphraseRead) {
        if (endpoint.tls.certFile.isEmpty())
            throw UsageError("--tls-key-passphrase-file needs a client key (--tls-cert)");
        m_passphraseRead = true;
        const QString passphrase =
            readSecretFile(QStringLiteral("tls-key-passphrase-file"),
                           m_parser.value(QStringLiteral("tls-key-passphrase-file")));
        // Answered once per key: asked again means it was wrong, and nobody is there to retype.
        auto answered = std::make_shared<std::atomic<bool>>(false);
        transport::setSecretPrompter(
            [passphrase,
             answered](const transport::SecretRequest &request) -> std::optional<QString> {
                if (request.kind != transport::SecretKind::TlsKeyPassphrase ||
                    !request.retryReason.isEmpty() || answered->exchange(true))
                    return std::nullopt;
                return passphrase;
            });
    }
}

void Cli::applyPassword(Endpoint &endpoint) {
    const bool fromFile = m_parser.isSet(QStringLiteral("password-file"));
    const bool fromStdin = m_parser.isSet(QStringLiteral("password-stdin"));
    if (fromFile && fromStdin)
        throw UsageError("--password-file and --password-stdin: give the password one way");
    if ((fromFile || fromStdin) && !endpoint.password.isEmpty())
        throw UsageError(
            QStringLiteral("--%1 and a password in --url: give the password one way")
                .arg(fromFile ? QStringLiteral("password-file") : QStringLiteral("password-stdin"))
                .toStdString());
    if (fromStdin) {
        const QStringList positional = m_parser.positionalArguments();
        if (positional.value(0) == QLatin1String("seed") &&
            positional.contains(QStringLiteral("-")))
            throw UsageError("--password-stdin and `seed -` both read standard input: give the "
                             "password with --password-file FILE");
    }
    if (!m_password) {
        if (fromFile) {
            m_password = readSecretFile(QStringLiteral("password-file"),
                                        m_parser.value(QStringLiteral("password-file")));
        } else if (fromStdin) {
            QByteArray line = m_in.readLine(kMaxSecretFileBytes);
            if (line.endsWith('\n'))
                line.chop(1);
            if (line.endsWith('\r'))
                line.chop(1);
            if (line.isEmpty())
                throw UsageError("--password-stdin: the first line of standard input is empty");
            m_password = QString::fromUtf8(line);
        } else if (const ConnectionProfile *saved = profile();
                   saved && saved->needsPassword && endpoint.password.isEmpty()) {
            if (saved->rememberSecrets)
                m_password = readKeychain(saved->name, transport::SecretKind::RedisPassword);
            if (!m_password)
                throw UsageError(
                    QStringLiteral("connection \"%1\" needs a password: give it with "
                                   "--password-file FILE or --password-stdin%2")
                        .arg(saved->name, saved->rememberSecrets
                                              ? QStringLiteral(" (none in the keychain)")
                                              : QString())
                        .toStdString());
        }
    }
    if (m_password)
        endpoint.password = *m_password;
}

} // namespace poolscope::cli
