#include "CliCommands.h"

#include <cstdio>

#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("poolscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(POOLSCOPE_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly))
        return poolscope::cli::kExitFailure;
    const int code = poolscope::cli::run(app.arguments().mid(1), out, err, in);
    out.flush();
    err.flush();
    return code;
}
