#include "CliCommands.h"

#include "endpoint/ArgumentScrubber.h"
#include "health/HealthChecker.h"

#include <csignal>
#include <cstdio>

#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

int main(int argc, char *argv[]) {
    // A server that goes away under a write (a unix socket at once, TCP on the second write)
    // must end in an error we report, not in a silent death by SIGPIPE: write() then fails with
    // EPIPE everywhere in the process, on every thread.
    std::signal(SIGPIPE, SIG_IGN);
    poolscope::initialiseNetworkLibraries();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("poolscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(POOLSCOPE_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly))
        return poolscope::cli::kExitFailure;
    const QStringList arguments = app.arguments().mid(1);
    // Copied: the password no longer needs to stand in the process list for everyone to read.
    poolscope::scrubPasswordsFromArguments(argc, argv);
    const int code = poolscope::cli::run(arguments, out, err, in);
    out.flush();
    err.flush();
    return code;
}
