#pragma once

#include "endpoint/Endpoint.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>

namespace poolscope::transport {

// The SSH options of poolscope-cli and the dashboard, declared and read in one place:
// --ssh [user@]host[:port], --ssh-key FILE, --ssh-accept-new.
QList<QCommandLineOption> sshCommandLineOptions();

// Copies the SSH options set on `parser` into endpoint.ssh. Returns a usage error, or an empty
// string: a bad destination, --ssh-key / --ssh-accept-new without --ssh, a key file that cannot
// be read (named with its option).
QString applySshCommandLine(const QCommandLineParser &parser, Endpoint &endpoint);

} // namespace poolscope::transport
