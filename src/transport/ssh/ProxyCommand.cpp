#include "transport/ssh/ProxyCommand.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <utility>
#include <vector>

#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QList>

extern char **environ;

namespace poolscope::transport {
namespace {

// Single quotes for /bin/sh.
QByteArray shellQuoted(const QByteArray &text) {
    QByteArray quoted = text;
    quoted.replace('\'', "'\\''");
    return '\'' + quoted + '\'';
}

// A file name as the value of an ssh -o option: ssh splits a value at blanks unless it is in
// double quotes (a backslash escapes a quote or a backslash), and expands %-tokens in it.
QByteArray sshOptionPath(const QByteArray &path) {
    QByteArray quoted = path;
    quoted.replace('\\', "\\\\").replace('"', "\\\"").replace('%', "%%");
    return '"' + quoted + '"';
}

} // namespace

QByteArray expandProxyCommand(const QByteArray &command, const QByteArray &host, int port,
                              const QByteArray &user, const QByteArray &config,
                              const QByteArray &knownHosts) {
    QByteArray out;
    for (qsizetype i = 0; i < command.size(); ++i) {
        if (command[i] != '%' || i + 1 == command.size()) {
            out += command[i];
            continue;
        }
        switch (command[++i]) {
        case 'h':
            out += host;
            break;
        case 'p':
            out += QByteArray::number(port);
            break;
        case 'r':
            out += user;
            break;
        case '%':
            out += '%';
            break;
        default:
            out += '%';
            out += command[i];
        }
    }
    const QByteArray trimmed = out.trimmed();
    if (trimmed.startsWith("ssh ")) {
        QByteArray options;
        if (!config.isEmpty())
            options += " -F " + shellQuoted(config);
        if (!knownHosts.isEmpty())
            options += " -o " + shellQuoted("UserKnownHostsFile=" + sshOptionPath(knownHosts));
        out = "ssh" + options + trimmed.mid(3);
    }
    return out;
}

QList<QByteArray> proxyCommandEnvironment() {
    static const QList<QByteArray> kept{
        "PATH", "HOME", "USER",   "LOGNAME",         "SHELL",
        "LANG", "TZ",   "TMPDIR", "XDG_RUNTIME_DIR", "SSH_AUTH_SOCK"};
    QList<QByteArray> environment;
    for (char **entry = environ; entry && *entry; ++entry) {
        const QByteArray variable(*entry);
        const QByteArray name = variable.left(variable.indexOf('='));
        if (kept.contains(name) || name.startsWith("LC_"))
            environment.append(variable);
    }
    return environment;
}

ProxyCommandChild::ProxyCommandChild(ProxyCommandChild &&other) noexcept
    : m_pid(std::exchange(other.m_pid, -1))
    , m_socket(std::exchange(other.m_socket, -1)) {}

ProxyCommandChild &ProxyCommandChild::operator=(ProxyCommandChild &&other) noexcept {
    if (this != &other) {
        ProxyCommandChild gone(std::move(*this));
        m_pid = std::exchange(other.m_pid, -1);
        m_socket = std::exchange(other.m_socket, -1);
    }
    return *this;
}

ProxyCommandChild::~ProxyCommandChild() {
    if (m_socket >= 0)
        ::close(m_socket);
    if (m_pid > 0) {
        ::kill(-m_pid, SIGTERM); // the whole group: a shell may have started more
        // A child that ignores SIGTERM must not hold the caller up: SIGKILL after a second.
        int status = 0;
        for (int waited = 0; waited < 100; ++waited) {
            const pid_t done = ::waitpid(m_pid, &status, WNOHANG);
            if (done == m_pid || (done < 0 && errno != EINTR))
                return;
            ::usleep(10000);
        }
        ::kill(-m_pid, SIGKILL);
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
}

ProxyCommandChild ProxyCommandChild::start(const QByteArray &command, QString *error) {
    ProxyCommandChild child;
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        return child;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDOUT_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                              POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attributes, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attributes, &defaults);

    const QList<QByteArray> environment = proxyCommandEnvironment();
    std::vector<char *> envp;
    for (const QByteArray &variable : environment)
        envp.push_back(const_cast<char *>(variable.constData()));
    envp.push_back(nullptr);
    QByteArray shell("/bin/sh");
    QByteArray dashC("-c");
    QByteArray body = command;
    char *argv[] = {shell.data(), dashC.data(), body.data(), nullptr};
    pid_t pid = -1;
    const int spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(pair[1]);
    if (spawned != 0) {
        ::close(pair[0]);
        *error = QString::fromLocal8Bit(std::strerror(spawned));
        return child;
    }
    child.m_pid = pid;
    child.m_socket = pair[0];
    error->clear();
    return child;
}

int ProxyCommandChild::takeSocket() {
    return std::exchange(m_socket, -1);
}

} // namespace poolscope::transport
