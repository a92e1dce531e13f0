#include "transport/ssh/SshSession.h"

#include "base/RedisError.h"
#include "transport/ssh/SshDestination.h"
#include "transport/UserPrompts.h"

#include <cerrno>
#include <cstring>
#include <mutex>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>

namespace poolscope::transport {

void SshSessionDeleter::operator()(ssh_session_struct *session) const {
    ssh_disconnect(session);
    ssh_free(session);
}

void SshChannelDeleter::operator()(ssh_channel_struct *channel) const {
    ssh_channel_free(channel);
}

QString sshDirectory() {
    return QDir::homePath() + QStringLiteral("/.ssh");
}

QByteArray withHomeExpanded(const QByteArray &config, const QByteArray &home) {
    static const QList<QByteArray> pathKeywords{"identityfile", "certificatefile", "include",
                                                "userknownhostsfile"};
    QList<QByteArray> lines = config.split('\n');
    for (QByteArray &line : lines) {
        qsizetype i = 0;
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        qsizetype end = i;
        while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != '=')
            ++end;
        if (!pathKeywords.contains(line.mid(i, end - i).toLower()))
            continue;
        // The values after the keyword, each perhaps quoted: "~/" at a value's start is $HOME.
        QByteArray rebuilt = line.left(end);
        qsizetype at = end;
        bool inQuotes = false;
        bool valueStart = true;
        for (; at < line.size(); ++at) {
            const char c = line[at];
            if (c == ' ' || c == '\t' || c == '=') {
                if (!inQuotes)
                    valueStart = true;
                rebuilt += c;
                continue;
            }
            if (c == '"') {
                inQuotes = !inQuotes;
                rebuilt += c;
                continue;
            }
            if (valueStart && c == '~' && (at + 1 == line.size() || line[at + 1] == '/'))
                rebuilt += home;
            else
                rebuilt += c;
            valueStart = false;
        }
        line = rebuilt;
    }
    return lines.join('\n');
}

namespace {

constexpr int kSecretAttempts = 3; // as ssh asks for a passphrase or password

struct KeyDeleter {
    void operator()(ssh_key_struct *key) const { ssh_key_free(key); }
};
using KeyPtr = std::unique_ptr<ssh_key_struct, KeyDeleter>;

// Overwrites a secret's bytes before the buffer goes back to the allocator.
void wipe(QByteArray &secret) {
    if (!secret.isEmpty())
        std::memset(secret.data(), 0, static_cast<std::size_t>(secret.size()));
    secret.clear();
}

std::mutex &hostKeyMutex() {
    static std::mutex mutex;
    return mutex;
}

// Host keys the person declined (host and fingerprint), with when the answer came: connections
// already under way then (a load run's, waiting for that answer) are refused without asking
// again; a connection begun after it asks again (the person may have changed their mind).
// Guarded by hostKeyMutex().
QHash<QString, Clock::time_point> &declinedKeys() {
    static QHash<QString, Clock::time_point> keys;
    return keys;
}

// Everything one connect attempt needs to say what went wrong.
class Opener {
public:
    Opener(const Endpoint &endpoint, Clock::time_point &deadline, std::chrono::milliseconds budget)
        : m_endpoint(endpoint)
        , m_deadline(deadline)
        , m_budget(budget) {}

    SshChannelToServer open() {
        static std::once_flag initialized;
        std::call_once(initialized, [] { ssh_init(); });
        configure();
        connect();
        checkHostKey();
        authenticate();
        SshChannelToServer result;
        result.channel = openChannel();
        result.session = std::move(m_session);
        result.proxy = std::move(m_proxy);
        return result;
    }

private:
    ssh_session session() const { return m_session.get(); }
    QString libsshError() const { return QString::fromLocal8Bit(ssh_get_error(session())); }

    RedisError failure(const QString &why) const {
        return RedisError(RedisError::Kind::Connection,
                          QStringLiteral("cannot connect to %1 via ssh %2: %3")
                              .arg(m_endpoint.toDisplayString(), m_endpoint.ssh.destination, why));
    }
    [[noreturn]] void fail(const QString &why) const { throw failure(why); }
    // A failure that trying again with the same settings meets again (RedisError).
    [[noreturn]] void refuse(const QString &why) const { throw failure(why).markRetryCannotHelp(); }
    [[noreturn]] void timedOut(const char *during) const {
        throw RedisError(RedisError::Kind::Timeout,
                         QStringLiteral("cannot connect to %1 via ssh %2: timed out after %3 ms "
                                        "while %4")
                             .arg(m_endpoint.toDisplayString(), m_endpoint.ssh.destination)
                             .arg(m_budget.count())
                             .arg(QLatin1String(during)));
    }
    bool pastDeadline() const {
        // libssh's own timeouts end a hair before ours (whole milliseconds).
        return Clock::now() + std::chrono::milliseconds(20) >= m_deadline;
    }
    // libssh's blocking calls wait at most its TIMEOUT option: the time left.
    void limitToDeadline() {
        const auto left = std::max<std::int64_t>(
            std::chrono::duration_cast<std::chrono::microseconds>(m_deadline - Clock::now())
                .count(),
            1000);
        const long seconds = static_cast<long>(left / 1000000);
        const long micros = static_cast<long>(left % 1000000);
        ssh_options_set(session(), SSH_OPTIONS_TIMEOUT, &seconds);
        ssh_options_set(session(), SSH_OPTIONS_TIMEOUT_USEC, &micros);
    }
    // Asking a person takes their time, not the network's: the deadline moves on by as much.
    template <typename Ask> auto askPerson(Ask ask) {
        QElapsedTimer waited;
        waited.start();
        auto answer = ask();
        m_deadline += std::chrono::milliseconds(waited.elapsed());
        return answer;
    }

    void configure() {
        const SshDestinationParseResult parsed = parseSshDestination(m_endpoint.ssh.destination);
        if (!parsed.ok())
            throw RedisError(RedisError::Kind::Connection, parsed.error);
        const SshDestination &destination = parsed.destination;
        m_session.reset(ssh_new());
        if (!m_session)
            fail(QStringLiteral("cannot create an SSH session"));
        const QByteArray directory = QFile::encodeName(sshDirectory());
        const QByteArray knownHosts = directory + "/known_hosts";
        const QByteArray host = destination.host.toUtf8();
        const bool processConfig = false; // libssh takes a bool here, an int for NODELAY
        const int on = 1;
        ssh_options_set(session(), SSH_OPTIONS_SSH_DIR, directory.constData());
        ssh_options_set(session(), SSH_OPTIONS_HOST, host.constData());
        ssh_options_set(session(), SSH_OPTIONS_PROCESS_CONFIG, &processConfig); // read below
        const QByteArray userConfig = directory + "/config";
        if (QFileInfo::exists(QString::fromLocal8Bit(userConfig)))
            parseUserConfig(userConfig);
        if (QFileInfo::exists(QStringLiteral("/etc/ssh/ssh_config")))
            ssh_options_parse_config(session(), "/etc/ssh/ssh_config");
        // What --ssh says explicitly wins over the config files.
        if (!destination.user.isEmpty())
            ssh_options_set(session(), SSH_OPTIONS_USER, destination.user.toUtf8().constData());
        if (destination.port != 0) {
            const unsigned int port = static_cast<unsigned int>(destination.port);
            ssh_options_set(session(), SSH_OPTIONS_PORT, &port);
        }
        ssh_options_set(session(), SSH_OPTIONS_KNOWNHOSTS, knownHosts.constData());
        ssh_options_set(session(), SSH_OPTIONS_NODELAY, &on); // small commands, latency-bound
        m_hostName = optionText(SSH_OPTIONS_HOST);
        unsigned int port = 22;
        ssh_options_get_port(session(), &port);
        m_port = static_cast<int>(port);
        m_hostDisplay =
            m_port == 22 ? m_hostName : QStringLiteral("%1:%2").arg(m_hostName).arg(m_port);
    }
    // libssh expands "~" in the config through the password database, not $HOME (the docs
    // promise $HOME, as for ~/.ssh itself: docs/connections.md): hand it the config with "~/"
    // already expanded, through a memory file, so nothing is written to disk.
    void parseUserConfig(const QByteArray &path) {
        QFile file(QString::fromLocal8Bit(path));
        if (!file.open(QIODevice::ReadOnly))
            fail(QStringLiteral("cannot read %1: %2")
                     .arg(QString::fromLocal8Bit(path), file.errorString()));
        const QByteArray expanded =
            withHomeExpanded(file.readAll(), QFile::encodeName(QDir::homePath()));
        const int memory = ::memfd_create("poolscope-ssh-config", MFD_CLOEXEC);
        if (memory < 0)
            fail(QStringLiteral("cannot read %1: %2")
                     .arg(QString::fromLocal8Bit(path),
                          QString::fromLocal8Bit(std::strerror(errno))));
        qsizetype written = 0;
        while (written < expanded.size()) {
            const ssize_t n =
                ::write(memory, expanded.constData() + written, size_t(expanded.size() - written));
            if (n <= 0)
                break;
            written += n;
        }
        const QByteArray memoryPath = "/proc/self/fd/" + QByteArray::number(memory);
        const int parsed = written == expanded.size()
                               ? ssh_options_parse_config(session(), memoryPath.constData())
                               : SSH_ERROR;
        ::close(memory);
        if (parsed != SSH_OK)
            fail(QStringLiteral("cannot read %1: %2")
                     .arg(QString::fromLocal8Bit(path), libsshError()));
    }
    QString optionText(ssh_options_e option) const {
        char *value = nullptr;
        if (ssh_options_get(session(), option, &value) != SSH_OK || !value)
            return {};
        const QString text = QString::fromUtf8(value);
        ssh_string_free_char(value);
        return text;
    }

    // libssh would run the ProxyCommand (or the "ssh -W" of a ProxyJump) with our whole
    // environment, REDIS_URL and its password included: run it ourselves with a clean one.
    void startProxyCommand() {
        const QByteArray command = optionText(SSH_OPTIONS_PROXYCOMMAND).toUtf8().trimmed();
        if (command.isEmpty() || command == "none")
            return;
        const QByteArray directory = QFile::encodeName(sshDirectory());
        const QByteArray config = directory + "/config";
        const QByteArray expanded = expandProxyCommand(
            command, m_hostName.toUtf8(), m_port, optionText(SSH_OPTIONS_USER).toUtf8(),
            QFileInfo::exists(QFile::decodeName(config)) ? config : QByteArray(),
            directory + "/known_hosts");
        QString error;
        m_proxy = ProxyCommandChild::start(expanded, &error);
        if (!m_proxy.running())
            fail(QStringLiteral("cannot start the ProxyCommand for %1: %2")
                     .arg(m_hostDisplay, error));
        socket_t socket = m_proxy.takeSocket();
        ssh_options_set(session(), SSH_OPTIONS_PROXYCOMMAND, "none");
        ssh_options_set(session(), SSH_OPTIONS_FD, &socket); // libssh closes it with the session
    }

    void connect() {
        startProxyCommand();
        limitToDeadline();
        if (ssh_connect(session()) == SSH_OK)
            return;
        if (pastDeadline())
            timedOut("connecting to the SSH host");
        fail(QStringLiteral("SSH host %1 unreachable: %2").arg(m_hostDisplay, libsshError()));
    }

    void checkHostKey() {
        ssh_key raw = nullptr;
        if (ssh_get_server_publickey(session(), &raw) != SSH_OK)
            fail(QStringLiteral("SSH host %1 sent no host key: %2")
                     .arg(m_hostDisplay, libsshError()));
        const KeyPtr key(raw);
        HostKeyQuestion question;
        question.host = m_hostDisplay;
        question.keyType = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key.get())));
        question.fingerprint = fingerprint(key.get());
        const QString presented = question.keyType + QLatin1Char(' ') + question.fingerprint;
        switch (ssh_session_is_known_server(session())) {
        case SSH_KNOWN_HOSTS_OK:
            return;
        case SSH_KNOWN_HOSTS_CHANGED:
        case SSH_KNOWN_HOSTS_OTHER:
            refuse(
                QStringLiteral("the host key of %1 has CHANGED: it now presents %2, which is not "
                               "the key ~/.ssh/known_hosts holds for it. Refusing to connect "
                               "(someone may be intercepting the connection); if the change "
                               "is expected, remove the old key with ssh-keygen -R \"%3\"")
                    .arg(m_hostDisplay, presented, knownHostsName()));
        case SSH_KNOWN_HOSTS_UNKNOWN:
        case SSH_KNOWN_HOSTS_NOT_FOUND: {
            // One question (and one known_hosts write) at a time in the process: a load run opens
            // many connections at once, and the person should see one dialog, not fifty. Waiting
            // here is waiting for the person too.
            const auto lock = askPerson([] { return std::unique_lock(hostKeyMutex()); });
            if (ssh_session_is_known_server(session()) == SSH_KNOWN_HOSTS_OK)
                return; // trusted and recorded for another connection meanwhile
            const QString asked = question.host + QLatin1Char(' ') + question.fingerprint;
            bool trusted = m_endpoint.ssh.acceptNewHostKey;
            const auto declined = declinedKeys().constFind(asked);
            const bool answeredSinceWeBegan =
                declined != declinedKeys().cend() && declined.value() >= m_begun;
            if (!trusted && !answeredSinceWeBegan) {
                trusted = askPerson([&question] { return askTrustHostKey(question); });
                if (!trusted)
                    declinedKeys().insert(asked, Clock::now());
            }
            if (!trusted)
                throw failure(QStringLiteral("the host key of %1 is unknown (%2, not in "
                                             "~/.ssh/known_hosts)")
                                  .arg(m_hostDisplay, presented))
                    .markRetryCannotHelp()
                    .withRemedy(RedisError::Remedy::TrustSshHostKey);
            QDir().mkpath(sshDirectory());
            QFile::setPermissions(sshDirectory(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                      QFileDevice::ExeOwner);
            if (ssh_session_update_known_hosts(session()) != SSH_OK)
                fail(QStringLiteral("cannot record the host key of %1 in ~/.ssh/known_hosts: %2")
                         .arg(m_hostDisplay, libsshError()));
            return;
        }
        case SSH_KNOWN_HOSTS_ERROR:
            break;
        }
        fail(QStringLiteral("cannot check the host key of %1 against ~/.ssh/known_hosts: %2")
                 .arg(m_hostDisplay, libsshError()));
    }
    QString knownHostsName() const {
        return m_port == 22 ? m_hostName : QStringLiteral("[%1]:%2").arg(m_hostName).arg(m_port);
    }
    static QString fingerprint(ssh_key key) {
        unsigned char *hash = nullptr;
        size_t length = 0;
        if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &length) != SSH_OK)
            return QStringLiteral("(no fingerprint)");
        char *text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, length);
        ssh_clean_pubkey_hash(&hash);
        const QString result = QString::fromLatin1(text ? text : "(no fingerprint)");
        ssh_string_free_char(text);
        return result;
    }

    // The answer of one authentication call: true when authenticated; throws when the
    // connection itself failed.
    bool accepted(int answer, const char *during) const {
        if (answer == SSH_AUTH_SUCCESS)
            return true;
        if (answer == SSH_AUTH_ERROR) {
            if (pastDeadline())
                timedOut(during);
            fail(QStringLiteral("SSH authentication on %1 broke off: %2")
                     .arg(m_hostDisplay, libsshError()));
        }
        return false; // DENIED or PARTIAL (another method is still needed)
    }

    void authenticate() {
        m_user = optionText(SSH_OPTIONS_USER); // the local user unless set: known after connect
        limitToDeadline();
        if (accepted(ssh_userauth_none(session(), nullptr), "authenticating"))
            return;
        const int methods = ssh_userauth_list(session(), nullptr);
        QStringList tried;
        if (methods & SSH_AUTH_METHOD_PUBLICKEY) {
            if (!m_endpoint.ssh.keyFile.isEmpty()) {
                if (!qEnvironmentVariableIsEmpty("SSH_AUTH_SOCK")) {
                    tried << QStringLiteral("ssh-agent");
                    limitToDeadline();
                    if (accepted(ssh_userauth_agent(session(), nullptr), "authenticating"))
                        return;
                }
                tried << QStringLiteral("key %1").arg(m_endpoint.ssh.keyFile);
                if (authenticateWithKeyFile(m_endpoint.ssh.keyFile))
                    return;
            } else {
                // libssh's "auto": the agent first, then each identity file (the config's
                // IdentityFile lines, else ~/.ssh/id_*), asking for passphrases through the
                // callback below.
                if (!qEnvironmentVariableIsEmpty("SSH_AUTH_SOCK"))
                    tried << QStringLiteral("ssh-agent");
                // Named as found: the first is the config's IdentityFile, if it has one.
                const QString first = optionText(SSH_OPTIONS_IDENTITY);
                tried << (first.isEmpty() || first.contains(u'%')
                              ? QStringLiteral("identity files of %1 (config, id_*)")
                                    .arg(sshDirectory())
                              : QStringLiteral("identity files (%1, then %2/id_*)")
                                    .arg(first, sshDirectory()));
                // The callbacks outlive this Opener (the session keeps a pointer to them), so
                // they are static and find the Opener through a thread-local pointer.
                static ssh_callbacks_struct callbacks = [] {
                    ssh_callbacks_struct made{};
                    ssh_callbacks_init(&made);
                    made.auth_function = &Opener::passphraseCallback;
                    return made;
                }();
                ssh_set_callbacks(session(), &callbacks);
                t_asking = this;
                limitToDeadline();
                const int answer = ssh_userauth_publickey_auto(session(), nullptr, nullptr);
                t_asking = nullptr;
                if (accepted(answer, "authenticating"))
                    return;
            }
        }
        if (ssh_userauth_list(session(), nullptr) & SSH_AUTH_METHOD_PASSWORD) {
            if (authenticateWithPassword(tried))
                return;
        }
        QStringList offered;
        const int now = ssh_userauth_list(session(), nullptr);
        if (now & SSH_AUTH_METHOD_PUBLICKEY)
            offered << QStringLiteral("publickey");
        if (now & SSH_AUTH_METHOD_PASSWORD)
            offered << QStringLiteral("password");
        if (now & SSH_AUTH_METHOD_INTERACTIVE)
            offered << QStringLiteral("keyboard-interactive");
        if (now & SSH_AUTH_METHOD_GSSAPI_MIC)
            offered << QStringLiteral("gssapi-with-mic");
        refuse(QStringLiteral("SSH authentication as %1@%2 failed; tried: %3; the server accepts: "
                              "%4")
                   .arg(m_user, m_hostDisplay,
                        tried.isEmpty() ? QStringLiteral("nothing it accepts")
                                        : tried.join(QStringLiteral(", ")),
                        offered.isEmpty() ? QStringLiteral("(none listed)")
                                          : offered.join(QStringLiteral(", "))));
    }

    // libssh asks for the passphrase of an identity file it tries.
    static int passphraseCallback(const char *, char *buffer, size_t length, int, int, void *) {
        Opener *self = t_asking;
        if (!self)
            return -1;
        char *identity = nullptr;
        ssh_userauth_publickey_auto_get_current_identity(self->session(), &identity);
        SecretRequest request;
        request.kind = SecretKind::SshKeyPassphrase;
        request.subject = QString::fromLocal8Bit(identity ? identity : "an SSH identity file");
        ssh_string_free_char(identity);
        const std::optional<QString> answer =
            self->askPerson([&request] { return askSecret(request); });
        self->limitToDeadline();
        if (!answer)
            return -1;
        QByteArray secret = answer->toUtf8();
        const bool fits = static_cast<size_t>(secret.size()) < length;
        if (fits)
            std::memcpy(buffer, secret.constData(), static_cast<size_t>(secret.size()) + 1);
        wipe(secret);
        return fits ? 0 : -1;
    }

    bool authenticateWithKeyFile(const QString &path) {
        const QFileInfo file(path);
        if (!file.isFile() || !file.isReadable())
            fail(QStringLiteral("--ssh-key %1: %2")
                     .arg(path, file.exists() ? QStringLiteral("not a readable file")
                                              : QStringLiteral("no such file")));
        const QByteArray name = QFile::encodeName(path);
        ssh_key raw = nullptr;
        // Without a passphrase first: most keys in use have none, or live in an agent.
        if (ssh_pki_import_privkey_file(name.constData(), nullptr, nullptr, nullptr, &raw) !=
            SSH_OK) {
            SecretRequest request{SecretKind::SshKeyPassphrase, path, {}};
            for (int attempt = 0; attempt < kSecretAttempts && !raw; ++attempt) {
                const std::optional<QString> answer =
                    askPerson([&request] { return askSecret(request); });
                if (!answer)
                    fail(QStringLiteral("the key %1 is protected by a passphrase (or is not a "
                                        "private key) and no passphrase was given; add it to "
                                        "ssh-agent, or use the dashboard, which asks")
                             .arg(path));
                QByteArray secret = answer->toUtf8();
                if (ssh_pki_import_privkey_file(name.constData(), secret.constData(), nullptr,
                                                nullptr, &raw) != SSH_OK)
                    raw = nullptr;
                wipe(secret);
                request.retryReason = QStringLiteral("wrong passphrase");
            }
            if (!raw)
                fail(QStringLiteral("cannot read the key %1: wrong passphrase %2 times, or not a "
                                    "private key")
                         .arg(path)
                         .arg(kSecretAttempts));
        }
        const KeyPtr key(raw);
        limitToDeadline();
        return accepted(ssh_userauth_publickey(session(), nullptr, key.get()), "authenticating");
    }

    bool authenticateWithPassword(QStringList &tried) {
        SecretRequest request{
            SecretKind::SshPassword, QStringLiteral("%1@%2").arg(m_user, m_hostDisplay), {}};
        for (int attempt = 0; attempt < kSecretAttempts; ++attempt) {
            const std::optional<QString> answer =
                askPerson([&request] { return askSecret(request); });
            if (!answer) {
                tried << (attempt == 0 ? QStringLiteral("password (not asked: nobody to ask, or "
                                                        "declined)")
                                       : QStringLiteral("password (%1 wrong)").arg(attempt));
                return false;
            }
            QByteArray secret = answer->toUtf8();
            limitToDeadline();
            const int answerCode = ssh_userauth_password(session(), nullptr, secret.constData());
            wipe(secret);
            if (accepted(answerCode, "authenticating"))
                return true;
            request.retryReason = QStringLiteral("wrong password");
        }
        tried << QStringLiteral("password (%1 wrong)").arg(kSecretAttempts);
        return false;
    }

    SshChannelPtr openChannel() {
        SshChannelPtr channel(ssh_channel_new(session()));
        if (!channel)
            fail(QStringLiteral("cannot create an SSH channel: %1").arg(libsshError()));
        const bool unixSocket = m_endpoint.transport == Endpoint::Transport::UnixSocket;
        const QByteArray target = (unixSocket ? m_endpoint.socketPath : m_endpoint.host).toUtf8();
        const QString targetDisplay =
            unixSocket ? QStringLiteral("unix socket %1").arg(m_endpoint.socketPath)
                       : QStringLiteral("%1:%2").arg(m_endpoint.host).arg(m_endpoint.port);
        // Non-blocking from here on: libssh's blocking channel open waits without any limit,
        // and the relay drives the session without blocking anyway.
        ssh_set_blocking(session(), 0);
        for (;;) {
            const int answer =
                unixSocket ? ssh_channel_open_forward_unix(channel.get(), target.constData(),
                                                           "127.0.0.1", 0)
                           : ssh_channel_open_forward(channel.get(), target.constData(),
                                                      m_endpoint.port, "127.0.0.1", 0);
            if (answer == SSH_OK)
                return channel;
            if (answer != SSH_AGAIN)
                fail(QStringLiteral("the SSH host %1 refused to forward to %2: %3")
                         .arg(m_hostDisplay, targetDisplay, libsshError()));
            short events = POLLIN;
            if (ssh_get_poll_flags(session()) & SSH_WRITE_PENDING)
                events |= POLLOUT;
            pollfd ready{ssh_get_fd(session()), events, 0};
            const int waited = ::poll(&ready, 1, millisecondsUntil(m_deadline));
            if (waited == 0)
                timedOut("opening the channel to the Redis server");
        }
    }

    const Endpoint &m_endpoint;
    const Clock::time_point m_begun = Clock::now();
    Clock::time_point &m_deadline;
    const std::chrono::milliseconds m_budget;
    ProxyCommandChild m_proxy; // before m_session: ended after it
    SshSessionPtr m_session;
    static thread_local Opener *t_asking; // the Opener whose publickey_auto runs on this thread
    QString m_hostName, m_hostDisplay, m_user;
    int m_port = 22;
};

thread_local Opener *Opener::t_asking = nullptr;

} // namespace

SshChannelToServer openSshChannel(const Endpoint &endpoint, Clock::time_point &deadline,
                                  std::chrono::milliseconds budget) {
    return Opener(endpoint, deadline, budget).open();
}

} // namespace poolscope::transport
