#pragma once

#include "endpoint/Endpoint.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>

namespace poolscope::transport {

// The TLS options of poolscope-cli and the dashboard, declared and read in one place:
// --tls-ca FILE, --tls-server-name NAME, --tls-cert FILE, --tls-key FILE, --tls-insecure.
QList<QCommandLineOption> tlsCommandLineOptions();

// Copies the TLS options set on `parser` into endpoint.tls. Returns a usage error, or an empty
// string: an option without a rediss:// URL, --tls-key without --tls-cert, a file that cannot be
// read (named with its option).
QString applyTlsCommandLine(const QCommandLineParser &parser, Endpoint &endpoint);

} // namespace poolscope::transport
