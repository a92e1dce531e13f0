// Saved connections and secrets: the profile store's round trip and its errors, no secret in the
// settings file, the SecretStore without a keychain, the CLI's --profile, --password-file,
// --password-stdin and --tls-key-passphrase-file, the TLS key passphrase asked through
// askSecret, and no secret in any file under a temporary HOME afterwards.
// One temporary HOME (XDG dirs too, no D-Bus: no keychain), one password-protected TCP server and
// one TLS server that requires a client certificate, shared by the test cases.

#include "RedisFixture.h"
#include "TlsCertificates.h"

#include "base/RedisError.h"
#include "profiles/ConnectionProfile.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "transport/UserPrompts.h"

#include <QDirIterator>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

const QString kRedisPassword = QStringLiteral("redis-Secret-4711");
const QString kPassphrase = QStringLiteral("test-only"); // of client-encrypted.key
const QString kWrongPassphrase = QStringLiteral("not-the-Passphrase-0815");

QString readAll(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

bool writeFile(const QString &path, const QByteArray &content,
               QFile::Permissions permissions = QFile::ReadOwner | QFile::WriteOwner) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) < 0)
        return false;
    file.close();
    return QFile::setPermissions(path, permissions);
}

} // namespace

class TestProfiles : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_home;    // HOME and the XDG dirs: the dashboard's settings file is in here
    QTemporaryDir m_secrets; // the password and passphrase files (not under HOME)
    TlsCertificates m_certificates;
    std::unique_ptr<RedisFixture> m_tcp; // requirepass
    std::unique_ptr<RedisFixture> m_tls; // requirepass, TLS, client certificate required

    QString cert(const char *file) const { return m_certificates.path(QLatin1String(file)); }
    QString secretFile(const QString &name, const QByteArray &content) {
        const QString path = m_secrets.filePath(name);
        return writeFile(path, content) ? path : QString();
    }
    // A copy of the encrypted key under its own name: the TLS code keeps one decrypted context
    // per key file, so each case that must be asked for the passphrase gets a fresh file.
    QString freshEncryptedKey(const QString &name) {
        const QString path = m_secrets.filePath(name + QStringLiteral(".key"));
        QFile::remove(path);
        return QFile::copy(cert("client-encrypted.key"), path) ? path : QString();
    }
    ConnectionProfile tcpProfile(const QString &name) const {
        ConnectionProfile profile;
        profile.name = name;
        profile.url = QStringLiteral("redis://127.0.0.1:%1/0").arg(m_tcp->endpoint().port);
        profile.poolKey = "saved-pool";
        profile.pollInterval = std::chrono::milliseconds(250);
        profile.needsPassword = true;
        return profile;
    }
    ConnectionProfile tlsProfile(const QString &name, const QString &keyFile) const {
        ConnectionProfile profile;
        profile.name = name;
        profile.url = QStringLiteral("rediss://localhost:%1/0").arg(m_tls->endpoint().port);
        profile.tls.enabled = true;
        profile.tls.caFile = cert("ca.pem");
        profile.tls.certFile = cert("client.pem");
        profile.tls.keyFile = keyFile;
        profile.poolKey = "tls-pool";
        profile.needsPassword = true;
        return profile;
    }

    // The fixture's admin connection has no password: these servers want one.
    static void makePool(RedisFixture &redis, const QByteArray &key,
                         const QList<QByteArray> &members) {
        Endpoint endpoint = redis.endpoint();
        endpoint.password = kRedisPassword;
        auto connection = RedisConnection::open(endpoint);
        connection->commandOrThrow({"DEL", key});
        for (const QByteArray &member : members)
            connection->commandOrThrow({"ZADD", key, "0", member});
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        QVERIFY(m_secrets.isValid());
        // Before any QSettings: the dashboard's settings file, and the CLI's, go under this HOME.
        for (const auto &[name, dir] :
             {std::pair{"HOME", QString()}, std::pair{"XDG_CONFIG_HOME", QStringLiteral(".config")},
              std::pair{"XDG_DATA_HOME", QStringLiteral(".local/share")},
              std::pair{"XDG_CACHE_HOME", QStringLiteral(".cache")},
              std::pair{"XDG_STATE_HOME", QStringLiteral(".local/state")}}) {
            const QString path = dir.isEmpty() ? m_home.path() : m_home.filePath(dir);
            QVERIFY(QDir().mkpath(path));
            qputenv(name, QFile::encodeName(path));
        }
        qunsetenv("DBUS_SESSION_BUS_ADDRESS"); // no Secret Service: the CI case
        qunsetenv("REDIS_URL");
        QVERIFY2(m_certificates.create(), qPrintable(m_certificates.error()));

        RedisServerOptions tcp;
        tcp.useTcp = true;
        tcp.extraArguments = {QStringLiteral("--requirepass"), kRedisPassword};
        m_tcp = std::make_unique<RedisFixture>(tcp);
        QVERIFY2(m_tcp->start(), qPrintable(m_tcp->error()));

        m_tls = std::make_unique<RedisFixture>(m_certificates.clientAuthServer(kRedisPassword));
        QVERIFY2(m_tls->start(), qPrintable(m_tls->error()));
    }

    void cleanup() { transport::setSecretPrompter({}); }

    // Everything a profile holds comes back as saved; rename, delete and a taken name.
    void storeRoundTrip() {
        ProfileStore store(m_home.filePath(QStringLiteral("roundtrip.ini")));
        ConnectionProfile profile =
            tlsProfile(QStringLiteral("prod/eu: \"main\""), cert("client.key"));
        profile.tls.serverName = QStringLiteral("redis.internal");
        profile.tls.insecure = true;
        profile.ssh.destination = QStringLiteral("ops@bastion:2222");
        profile.ssh.keyFile = QStringLiteral("/home/ops/.ssh/id_ed25519");
        profile.ssh.acceptNewHostKey = true;
        profile.pollInterval = std::chrono::milliseconds(5000);
        profile.rememberSecrets = true;
        QCOMPARE(store.save(profile), QString());
        QCOMPARE(store.names(), QStringList{profile.name});
        const ProfileLoadResult loaded = store.load(profile.name);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(*loaded.profile, profile);

        const QString taken =
            QStringLiteral("a connection named \"%1\" is saved already: choose another name")
                .arg(profile.name);
        QCOMPARE(store.save(profile), taken);
        ConnectionProfile second = tcpProfile(QStringLiteral("staging"));
        QCOMPARE(store.save(second), QString());
        QCOMPARE(store.names(), (QStringList{profile.name, QStringLiteral("staging")}));
        QCOMPARE(store.rename(QStringLiteral("staging"), profile.name), taken);
        QCOMPARE(store.rename(QStringLiteral("staging"), QStringLiteral("Staging 2")), QString());
        QCOMPARE(store.names(), (QStringList{profile.name, QStringLiteral("Staging 2")}));
        second.name = QStringLiteral("Staging 2");
        QCOMPARE(*store.load(second.name).profile, second);
        QCOMPARE(store.remove(profile.name), QString());
        QCOMPARE(store.names(), QStringList{QStringLiteral("Staging 2")});
        QCOMPARE(store.remove(QStringLiteral("gone")),
                 QStringLiteral("no saved connection named \"gone\" (saved: Staging 2)"));
        // A second store on the same file (another process) sees the same.
        QCOMPARE(ProfileStore(store.fileName()).names(), QStringList{QStringLiteral("Staging 2")});
    }

    // Profiles that cannot be saved: the error names the connection and the field.
    void refusedProfiles_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no name") << "name"
                                 << "  "
                                 << "a saved connection needs a name";
        QTest::newRow("bad URL") << "url"
                                 << "http://x"
                                 << "connection \"p\": URL: unsupported scheme";
        QTest::newRow("password in URL")
            << "url"
            << "redis://:hunter2-Secret@127.0.0.1:1/0"
            << "connection \"p\": URL: holds a password, and saved connections never store one";
        QTest::newRow("TLS without rediss")
            << "tls-ca"
            << "/tmp/ca.pem"
            << "connection \"p\": TLS settings need a rediss:// URL";
        QTest::newRow("key without cert")
            << "tls-key"
            << "/tmp/k.pem"
            << "connection \"p\": TLS client key: needs the client certificate too";
        QTest::newRow("empty pool key") << "key"
                                        << ""
                                        << "connection \"p\": pool key: is empty";
        QTest::newRow("interval") << "interval"
                                  << "5"
                                  << "connection \"p\": poll interval: 5 ms is not from 10 ms to "
                                     "3600000 ms";
    }
    void refusedProfiles() {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        ConnectionProfile profile;
        profile.name = QStringLiteral("p");
        profile.url = QStringLiteral("redis://127.0.0.1:6379/0");
        if (field == QLatin1String("name"))
            profile.name = value;
        else if (field == QLatin1String("url"))
            profile.url = value;
        else if (field == QLatin1String("tls-ca"))
            profile.tls.caFile = value;
        else if (field == QLatin1String("tls-key")) {
            profile.url = QStringLiteral("rediss://localhost:6379/0");
            profile.tls.keyFile = value;
        } else if (field == QLatin1String("key"))
            profile.poolKey = value.toUtf8();
        else if (field == QLatin1String("interval"))
            profile.pollInterval = std::chrono::milliseconds(value.toInt());
        const QString file = m_home.filePath(QStringLiteral("refused.ini"));
        ProfileStore store(file);
        const QString error = store.save(profile);
        QVERIFY2(error.startsWith(expected), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1String("hunter2")), qPrintable(error));
        QVERIFY(store.names().isEmpty());
        QVERIFY(!readAll(file).contains(QLatin1String("hunter2")));
    }

    // A settings file edited by hand: each damage named with the connection and the field.
    void damagedProfiles_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("URL missing") << "url"
                                     << ""
                                     << "connection \"hand\": URL: missing in the settings file";
        QTest::newRow("interval") << "pollIntervalMs"
                                  << "soon"
                                  << "connection \"hand\": poll interval: \"soon\" is not a number "
                                     "of milliseconds in the settings file";
        QTest::newRow("flag")
            << "tls/insecure"
            << "maybe"
            << "connection \"hand\": TLS insecure: \"maybe\" is not true or false "
               "in the settings file";
        QTest::newRow("password") << "url"
                                  << "redis://:pw@127.0.0.1:1/0"
                                  << "connection \"hand\": URL: holds a password";
    }
    void damagedProfiles() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        const QString file = m_home.filePath(QStringLiteral("damaged.ini"));
        QFile::remove(file);
        {
            QSettings settings(file, QSettings::IniFormat);
            settings.beginGroup(QStringLiteral("connections/saved/hand"));
            settings.setValue(QStringLiteral("url"), QStringLiteral("redis://127.0.0.1:1/0"));
            settings.setValue(QStringLiteral("poolKey"), QStringLiteral("k"));
            if (value.isEmpty())
                settings.remove(key);
            else
                settings.setValue(key, value);
        }
        const ProfileLoadResult loaded = ProfileStore(file).load(QStringLiteral("hand"));
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error.startsWith(expected), qPrintable(loaded.error));
        QCOMPARE(ProfileStore(file).load(QStringLiteral("other")).error,
                 QStringLiteral("no saved connection named \"other\" (saved: hand)"));
    }

    // Saving what the user is connected to (with a password) keeps the password out of the file.
    void noSecretInSettingsFile() {
        Endpoint endpoint = m_tcp->endpoint();
        endpoint.username = QStringLiteral("alice");
        endpoint.password = kRedisPassword;
        const ConnectionProfile profile = profileFromEndpoint(
            QStringLiteral("from session"), endpoint, "k", std::chrono::milliseconds(1000));
        QVERIFY(profile.needsPassword);
        QVERIFY(!profile.url.contains(kRedisPassword));
        QVERIFY(profile.url.contains(QLatin1String("alice@")));
        const QString file = m_home.filePath(QStringLiteral("session.ini"));
        QCOMPARE(ProfileStore(file).save(profile), QString());
        const QString text = readAll(file);
        QVERIFY(text.contains(QLatin1String("alice@")));
        QVERIFY(!text.contains(kRedisPassword));
    }

    // No Secret Service (as in CI): the store says so, and keeps secrets in memory only.
    void secretStoreWithoutKeychain() {
        SecretStore store;
        QSignalSpy known(&store, &SecretStore::availabilityKnown);
        store.probe();
        QTRY_COMPARE_WITH_TIMEOUT(known.size(), 1, 10000);
        QCOMPARE(known.first().first().toBool(), false);
        QCOMPARE(store.availability(), SecretStore::Availability::Unavailable);
        QVERIFY(!store.unavailableReason().isEmpty());

        QSignalSpy written(&store, &SecretStore::secretWritten);
        store.write(QStringLiteral("mem"), transport::SecretKind::RedisPassword, kRedisPassword);
        QCOMPARE(written.size(), 1);
        QVERIFY(written.first().at(2).toString().contains(QLatin1String("memory only")));
        QVERIFY(!written.first().at(2).toString().contains(kRedisPassword));
        QCOMPARE(store.inMemory(QStringLiteral("mem"), transport::SecretKind::RedisPassword),
                 std::optional<QString>(kRedisPassword));
        QSignalSpy read(&store, &SecretStore::secretRead);
        store.read(QStringLiteral("mem"), transport::SecretKind::RedisPassword);
        QCOMPARE(read.size(), 1);
        QCOMPARE(read.first().at(2).toBool(), true);
        QCOMPARE(read.first().at(3).toString(), kRedisPassword);
        store.move(QStringLiteral("mem"), QStringLiteral("mem2"));
        QVERIFY(!store.inMemory(QStringLiteral("mem"), transport::SecretKind::RedisPassword));
        QVERIFY(store.inMemory(QStringLiteral("mem2"), transport::SecretKind::RedisPassword));
        store.forget(QStringLiteral("mem2"));
        QVERIFY(!store.inMemory(QStringLiteral("mem2"), transport::SecretKind::RedisPassword));
        QCOMPARE(
            SecretStore::entryName(QStringLiteral("prod"), transport::SecretKind::TlsKeyPassphrase),
            QStringLiteral("prod/tls-key-passphrase"));
    }

    // The CLI reads a connection the dashboard saved: URL, pool key; explicit options win.
    void cliProfile() {
        QCOMPARE(ProfileStore().save(tcpProfile(QStringLiteral("tcp"))), QString());
        makePool(*m_tcp, "saved-pool", {"a:1", "b:2", "c:3"});
        makePool(*m_tcp, "other-pool", {"x:1"});
        const QString passwordFile =
            secretFile(QStringLiteral("pw"), kRedisPassword.toUtf8() + '\n');
        CliRun run = runCli({QStringLiteral("--profile"), QStringLiteral("tcp"),
                             QStringLiteral("--password-file"), passwordFile,
                             QStringLiteral("--json"), QStringLiteral("stats")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("\"size\":3"), run.out.constData());
        run = runCli({QStringLiteral("--profile"), QStringLiteral("tcp"),
                      QStringLiteral("--password-file"), passwordFile, QStringLiteral("--key"),
                      QStringLiteral("other-pool"), QStringLiteral("--json"),
                      QStringLiteral("stats")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("\"size\":1"), run.out.constData());
        // --url replaces the profile's address: a server that is not there.
        run = runCli({QStringLiteral("--profile"), QStringLiteral("tcp"),
                      QStringLiteral("--password-file"), passwordFile, QStringLiteral("--url"),
                      QStringLiteral("redis://127.0.0.1:1/0"), QStringLiteral("stats")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("127.0.0.1:1"), run.err.constData());
        // watch takes the profile's poll interval (250 ms): 4 polls or so in a second.
        run = runCli({QStringLiteral("--profile"), QStringLiteral("tcp"),
                      QStringLiteral("--password-file"), passwordFile, QStringLiteral("watch"),
                      QStringLiteral("--duration"), QStringLiteral("1.1")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.count('\n') >= 3, run.out.constData());
    }

    void cliProfileErrors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown profile")
            << QStringList{QStringLiteral("--profile"), QStringLiteral("nope")}
            << "poolscope-cli: --profile: no saved connection named \"nope\" (saved: ";
        QTest::newRow("password needed")
            << QStringList{QStringLiteral("--profile"), QStringLiteral("tcp")}
            << "poolscope-cli: connection \"tcp\" needs a password: give it with --password-file "
               "FILE or --password-stdin";
        QTest::newRow("two password sources")
            << QStringList{QStringLiteral("--password-stdin"), QStringLiteral("--password-file"),
                           QStringLiteral("/nonexistent")}
            << "poolscope-cli: --password-file and --password-stdin: give the password one way";
    }
    void cliProfileErrors() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const CliRun run = runCli(arguments << QStringLiteral("stats"));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(expected.toUtf8()), run.err.constData());
        QCOMPARE(run.err.count('\n'), 1);
    }

    // --password-file: the first line, its line end stripped; each problem names the file.
    void passwordFile_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("permissions");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected"); // FILE: the file's path
        const int owner = int(QFile::ReadOwner | QFile::WriteOwner);
        QTest::newRow("first line") << kRedisPassword.toUtf8() + "\nsecond line\n"
                                    << owner << 0 << "";
        QTest::newRow("CRLF") << kRedisPassword.toUtf8() + "\r\n" << owner << 0 << "";
        QTest::newRow("no newline") << kRedisPassword.toUtf8() << owner << 0 << "";
        QTest::newRow("group may read")
            << kRedisPassword.toUtf8() << int(owner | QFile::ReadGroup) << 0 << "";
        QTest::newRow("wrong password")
            << QByteArray("wrong-Secret-1234\n") << owner << 1 << "WRONGPASS";
        QTest::newRow("empty") << QByteArray("\n") << owner << 2
                               << "poolscope-cli: --password-file FILE: the first line is empty";
        QTest::newRow("others may read")
            << kRedisPassword.toUtf8() << int(owner | QFile::ReadOther) << 2
            << "poolscope-cli: --password-file FILE: other users can read it: make it private "
               "first (chmod o-r FILE)";
        QTest::newRow("unreadable") << kRedisPassword.toUtf8() << 0 << 2
                                    << "poolscope-cli: --password-file FILE: cannot read it";
        QTest::newRow("missing") << QByteArray() << -1 << 2
                                 << "poolscope-cli: --password-file FILE: no such file";
    }
    void passwordFile() {
        QFETCH(QByteArray, content);
        QFETCH(int, permissions);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        // Root reads any file: as root (CI), the unreadable case runs the CLI without the
        // capabilities that let root ignore a file's permissions (still root, so it can enter
        // every folder, a chroot's private root folder included).
        const bool asRoot = permissions == 0 && ::geteuid() == 0;
        const QString path = m_secrets.path() + QStringLiteral("/password-file");
        QFile::remove(path);
        if (permissions >= 0)
            QVERIFY(writeFile(path, content, QFile::Permissions(permissions)));
        const QStringList arguments{QStringLiteral("--url"), m_tcp->endpoint().toSafeUrl(),
                                    QStringLiteral("--password-file"), path,
                                    QStringLiteral("stats")};
        const CliRun run =
            asRoot ? runProgram(QStringLiteral("setpriv"),
                                QStringList{QStringLiteral("--bounding-set=-dac_override,"
                                                           "-dac_read_search"),
                                            QStringLiteral(POOLSCOPE_CLI_PATH)} +
                                    arguments)
                   : runCli(arguments);
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        expected.replace(QStringLiteral("FILE"), path);
        QVERIFY2(run.err.startsWith(expected.toUtf8()) || run.err.contains(expected.toUtf8()),
                 run.err.constData());
        QVERIFY(!run.err.contains(kRedisPassword.toUtf8()));
        QVERIFY(!run.err.contains("wrong-Secret"));
    }

    void passwordStdin_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected");
        const QStringList stats{QStringLiteral("stats")};
        QTest::newRow("first line") << kRedisPassword.toUtf8() + "\n" << stats << 0 << "";
        QTest::newRow("empty") << QByteArray() << stats << 2
                               << "poolscope-cli: --password-stdin: the first line of standard "
                                  "input is empty";
        QTest::newRow("seed from stdin too")
            << kRedisPassword.toUtf8() + "\n"
            << QStringList{QStringLiteral("seed"), QStringLiteral("-")} << 2
            << "poolscope-cli: --password-stdin and `seed -` both read standard input: give the "
               "password with --password-file FILE";
    }
    void passwordStdin() {
        QFETCH(QByteArray, input);
        QFETCH(QStringList, command);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        const CliRun run =
            runCli(QStringList{QStringLiteral("--url"), m_tcp->endpoint().toSafeUrl(),
                               QStringLiteral("--password-stdin")}
                       << command,
                   input);
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        QVERIFY2(run.err.startsWith(expected.toUtf8()), run.err.constData());
        QVERIFY(!run.err.contains(kRedisPassword.toUtf8()));
    }

    // A real TLS server (client certificate with an encrypted key, a password) through a profile.
    void cliTlsProfile_data() {
        QTest::addColumn<QString>("passphrase"); // empty: no --tls-key-passphrase-file
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("passphrase file") << kPassphrase << 0 << "";
        QTest::newRow("wrong passphrase") << kWrongPassphrase << 1
                                          << "cannot connect to rediss://:****@localhost:PORT/0: "
                                             "wrong passphrase for the encrypted "
                                             "client key KEY";
        QTest::newRow("no passphrase")
            << "" << 1
            << "cannot connect to rediss://:****@localhost:PORT/0: the client key KEY is encrypted "
               "and "
               "no passphrase was given (poolscope-cli: --tls-key-passphrase-file FILE; the "
               "dashboard asks for it)";
    }
    void cliTlsProfile() {
        QFETCH(QString, passphrase);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        const QString key = freshEncryptedKey(QStringLiteral("cli-") + QTest::currentDataTag());
        QCOMPARE(ProfileStore().save(tlsProfile(QStringLiteral("tls"), key),
                                     ProfileStore().contains(QStringLiteral("tls"))
                                         ? QStringLiteral("tls")
                                         : QString()),
                 QString());
        makePool(*m_tls, "tls-pool", {"t:1", "t:2"});
        QStringList arguments{QStringLiteral("--profile"), QStringLiteral("tls"),
                              QStringLiteral("--password-stdin")};
        if (!passphrase.isEmpty())
            arguments << QStringLiteral("--tls-key-passphrase-file")
                      << secretFile(QStringLiteral("passphrase"), passphrase.toUtf8() + '\n');
        const CliRun run = runCli(arguments << QStringLiteral("--json") << QStringLiteral("stats"),
                                  kRedisPassword.toUtf8() + '\n');
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        if (exitCode == 0)
            QVERIFY2(run.out.contains("\"size\":2"), run.out.constData());
        expected.replace(QStringLiteral("PORT"), QString::number(m_tls->endpoint().port))
            .replace(QStringLiteral("KEY"), key);
        QVERIFY2(run.err.contains(expected.toUtf8()), run.err.constData());
        QVERIFY(!run.err.contains(kWrongPassphrase.toUtf8()));
        QVERIFY(!run.err.contains(kRedisPassword.toUtf8()));
    }

    // In-process: the passphrase asked through askSecret, again after a wrong one (with the
    // reason), at most three times; declining ends it.
    void passphraseAsked_data() {
        QTest::addColumn<QStringList>("answers"); // "-": decline
        QTest::addColumn<int>("asked");
        QTest::addColumn<QString>("expected"); // "": connects
        QTest::newRow("right at once") << QStringList{kPassphrase} << 1 << "";
        QTest::newRow("wrong, then right") << QStringList{kWrongPassphrase, kPassphrase} << 2 << "";
        QTest::newRow("wrong three times")
            << QStringList{kWrongPassphrase, kWrongPassphrase, kWrongPassphrase, kPassphrase} << 3
            << "wrong passphrase for the encrypted client key";
        QTest::newRow("declined") << QStringList{QStringLiteral("-")} << 1
                                  << "is encrypted and no passphrase was given";
        QTest::newRow("wrong, then declined")
            << QStringList{kWrongPassphrase, QStringLiteral("-")} << 2
            << "wrong passphrase for the encrypted client key";
    }
    void passphraseAsked() {
        QFETCH(QStringList, answers);
        QFETCH(int, asked);
        QFETCH(QString, expected);
        const QString key = freshEncryptedKey(QStringLiteral("asked-") + QTest::currentDataTag());
        QList<transport::SecretRequest> requests;
        transport::setSecretPrompter([&](const transport::SecretRequest &request) {
            requests << request;
            const QString answer = answers.value(requests.size() - 1, QStringLiteral("-"));
            return answer == QLatin1String("-") ? std::nullopt : std::optional<QString>(answer);
        });
        Endpoint endpoint = *profileEndpoint(tlsProfile(QStringLiteral("x"), key), nullptr);
        endpoint.password = kRedisPassword;
        QString message;
        try {
            auto connection = RedisConnection::open(endpoint);
            connection->commandOrThrow({"PING"});
        } catch (const RedisError &error) {
            message = error.message();
        }
        QCOMPARE(requests.size(), asked);
        QCOMPARE(requests.first().kind, transport::SecretKind::TlsKeyPassphrase);
        QCOMPARE(requests.first().subject, key);
        QVERIFY(requests.first().retryReason.isEmpty());
        if (asked > 1)
            QCOMPARE(requests.at(1).retryReason,
                     QStringLiteral("wrong passphrase (attempt 2 of 3)"));
        if (expected.isEmpty())
            QVERIFY2(message.isEmpty(), qPrintable(message));
        else
            QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY(!message.contains(kWrongPassphrase));
        QVERIFY(!message.contains(kPassphrase));
    }

    // Last: after every CLI run above, no secret in any file under HOME (settings, caches, ...).
    void noSecretUnderHome() {
        QDirIterator files(m_home.path(), QDir::Files | QDir::Hidden | QDir::System,
                           QDirIterator::Subdirectories);
        int checked = 0;
        while (files.hasNext()) {
            const QString path = files.next();
            QFile file(path);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
            const QByteArray content = file.readAll();
            ++checked;
            for (const QString &secret : {kRedisPassword, kPassphrase, kWrongPassphrase})
                QVERIFY2(!content.contains(secret.toUtf8()),
                         qPrintable(QStringLiteral("%1 holds a secret").arg(path)));
        }
        QCOMPARE_GT(checked, 0);
        // The dashboard's own settings file is among them, with the saved connections.
        const QString settings = ProfileStore().fileName();
        QVERIFY2(settings.startsWith(m_home.path()), qPrintable(settings));
        QVERIFY(readAll(settings).contains(QLatin1String("connections")));
    }

    void cleanupTestCase() {
        m_tls.reset();
        m_tcp.reset();
    }
};

QTEST_GUILESS_MAIN(TestProfiles)
#include "tst_profiles.moc"
