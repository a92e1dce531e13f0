#pragma once

#include "endpoint/SshOptions.h"
#include "endpoint/TlsOptions.h"

#include <optional>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace poolscope {

// poolscope [--url URL] [--key KEY] [--demo] [--read-only] [--screenshot FILE --after SECONDS]
//           [--full-snapshot-threshold N] [--pin MEMBER]...
//           [--tls-ca FILE] [--tls-server-name NAME] [--tls-cert FILE --tls-key FILE]
//           [--tls-insecure] [--ssh [user@]host[:port] [--ssh-key FILE] [--ssh-accept-new]]
//           [--recording FILE] [--profile NAME] [--lang CODE]
struct AppOptions {
    QString url;                // empty: REDIS_URL, else the embedded redis-server
    QByteArray key = "proxies"; // the pool's sorted set
    bool demo = false;          // seed an empty pool and run a gentle background load
    bool demoRequested = false; // --demo given: the demo even when a last connection exists
    QString profileName;        // --profile: a saved connection
    bool readOnly = false;      // no writes at all: every write control disabled
    QString screenshotPath;     // with --after: grab the window to this PNG and exit 0
    double screenshotAfterSeconds = 0;
    std::optional<qint64> fullSnapshotThreshold; // unset: the monitor's default (10,000)
    QList<QByteArray> pinned;                    // pinned to the chart at start
    TlsOptions tls;        // for a rediss:// URL (enabled then), from the --tls-* options
    SshOptions ssh;        // --ssh, --ssh-key, --ssh-accept-new: the URL's address seen from there
    QString recordingPath; // --recording: open this recording read-only, no server at all
    QString sentinelPassword; // redis+sentinel:// URLs: --sentinel-password or the environment
    QString language;         // --lang: a shipped language's code; empty: the saved or system one

    bool wantsScreenshot() const { return !screenshotPath.isEmpty(); }
};

struct AppOptionsResult {
    std::optional<AppOptions> options;
    QString error;          // usage problem, for stderr
    bool exitEarly = false; // --help / --version were answered
    QString earlyOutput;
};

// arguments: the full argument list, program name first. environmentUrl: REDIS_URL (may be
// empty). Without --url and without REDIS_URL the dashboard runs its own redis-server and the
// demo is on by default; --read-only then turns the demo off (the demo writes).
AppOptionsResult parseAppOptions(const QStringList &arguments, const QString &environmentUrl,
                                 const QString &version);

// True when no server was named: the dashboard starts an embedded redis-server.
bool usesEmbeddedServer(const AppOptions &options);

} // namespace poolscope
