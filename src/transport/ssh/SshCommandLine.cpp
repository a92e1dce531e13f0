#include "transport/ssh/SshCommandLine.h"

#include "transport/ssh/SshDestination.h"

#include <QFileInfo>

namespace poolscope::transport {

namespace {
const QString kSsh = QStringLiteral("ssh");
const QString kSshKey = QStringLiteral("ssh-key");
const QString kAcceptNew = QStringLiteral("ssh-accept-new");
} // namespace

QList<QCommandLineOption> sshCommandLineOptions() {
    return {
        {kSsh,
         QStringLiteral("SSH: reach the Redis address from this host ([user@]host[:port] or a "
                        "~/.ssh/config Host), through a tunnel."),
         QStringLiteral("DESTINATION")},
        {kSshKey,
         QStringLiteral("SSH: private key file to log in with (after ssh-agent; default: the "
                        "config's IdentityFile, ~/.ssh/id_*)."),
         QStringLiteral("FILE")},
        {kAcceptNew,
         QStringLiteral("SSH: trust an SSH host key not yet in ~/.ssh/known_hosts, and record "
                        "it (a changed key is always refused).")},
    };
}

QString applySshCommandLine(const QCommandLineParser &parser, Endpoint &endpoint) {
    // A saved connection (--profile) may already name the SSH host; the options refine it.
    if (!parser.isSet(kSsh) && !endpoint.ssh.enabled()) {
        for (const QString &option : {kSshKey, kAcceptNew})
            if (parser.isSet(option))
                return QStringLiteral("--%1 needs --ssh").arg(option);
        return {};
    }
    SshOptions &ssh = endpoint.ssh;
    if (parser.isSet(kSsh))
        ssh.destination = parser.value(kSsh).trimmed();
    if (const SshDestinationParseResult parsed = parseSshDestination(ssh.destination); !parsed.ok())
        return parsed.error;
    if (parser.isSet(kSshKey)) {
        ssh.keyFile = parser.value(kSshKey);
        const QFileInfo file(ssh.keyFile);
        if (!file.exists())
            return QStringLiteral("--ssh-key %1: no such file").arg(ssh.keyFile);
        if (!file.isFile() || !file.isReadable())
            return QStringLiteral("--ssh-key %1: not a readable file").arg(ssh.keyFile);
    }
    if (parser.isSet(kAcceptNew))
        ssh.acceptNewHostKey = true;
    return {};
}

} // namespace poolscope::transport
