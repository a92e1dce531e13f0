#include "startup/AppOptions.h"

#include "endpoint/Endpoint.h"
#include "i18n/Languages.h"
#include "topology/SentinelCommandLine.h"
#include "transport/ssh/SshCommandLine.h"
#include "transport/TlsCommandLine.h"

#include <cmath>

#include <QCommandLineParser>

namespace poolscope {

AppOptionsResult parseAppOptions(const QStringList &arguments, const QString &environmentUrl,
                                 const QString &version) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("poolscope: live dashboard for Redis least-used proxy pools.\n"
                       "Without --url and REDIS_URL it starts a private redis-server with a demo "
                       "pool."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    const QCommandLineOption url(QStringLiteral("url"),
                                 QStringLiteral("Redis server, e.g. redis://host:6379/0 or "
                                                "unix:///path/redis.sock (default: REDIS_URL, else "
                                                "an embedded redis-server)."),
                                 QStringLiteral("URL"));
    const QCommandLineOption key(QStringLiteral("key"),
                                 QStringLiteral("The pool's sorted-set key (default: proxies)."),
                                 QStringLiteral("KEY"), QStringLiteral("proxies"));
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QStringLiteral("Seed an empty pool from the demo list and run "
                                                 "a gentle background load (default with the "
                                                 "embedded server)."));
    const QCommandLineOption readOnly(QStringLiteral("read-only"),
                                      QStringLiteral("Watch only: every write control disabled."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save a PNG of the main window to FILE "
                                                       "after --after seconds, then exit 0."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption after(QStringLiteral("after"),
                                   QStringLiteral("Seconds to wait before --screenshot "
                                                  "(default 5)."),
                                   QStringLiteral("SECONDS"));
    const QCommandLineOption threshold(
        QStringLiteral("full-snapshot-threshold"),
        QStringLiteral("Pools with more members than N are read as a summary (quantiles, "
                       "top/bottom, pinned members, rows on screen) instead of whole "
                       "(default 10000)."),
        QStringLiteral("N"));
    const QCommandLineOption pin(QStringLiteral("pin"),
                                 QStringLiteral("Pin MEMBER to the chart (repeatable)."),
                                 QStringLiteral("MEMBER"));
    const QCommandLineOption recording(
        QStringLiteral("recording"),
        QStringLiteral("Open the recording FILE read-only, without any Redis connection (no "
                       "--url, --key, --demo)."),
        QStringLiteral("FILE"));
    const QCommandLineOption profile(
        QStringLiteral("profile"),
        QStringLiteral("Connect to the saved connection NAME (File > Connections...): its URL, "
                       "TLS and SSH settings, pool key and poll interval; secrets from the "
                       "keychain or asked (no --url, --demo)."),
        QStringLiteral("NAME"));
    const QCommandLineOption language(
        QStringLiteral("lang"),
        QStringLiteral("The dashboard's language: %1 (default: the one chosen in View > "
                       "Language, else the system's: LANGUAGE, LC_ALL, LC_MESSAGES, LANG).")
            .arg(i18n::shippedLanguageCodes().join(QStringLiteral(", "))),
        QStringLiteral("CODE"));
    parser.addOptions({url, key, demo, readOnly, screenshot, after, threshold, pin, recording,
                       profile, language});
    parser.addOptions(transport::tlsCommandLineOptions()); // TLS: the same as poolscope-cli
    parser.addOptions(transport::sshCommandLineOptions()); // SSH tunnels, likewise
    parser.addOptions(topology::sentinelCommandLineOptions());

    AppOptionsResult result;
    if (!parser.parse(arguments)) {
        result.error = parser.errorText();
        return result;
    }
    if (parser.isSet(help)) {
        result.exitEarly = true;
        result.earlyOutput = parser.helpText();
        return result;
    }
    if (parser.isSet(versionOption)) {
        result.exitEarly = true;
        result.earlyOutput = QStringLiteral("poolscope %1\n").arg(version);
        return result;
    }
    if (!parser.positionalArguments().isEmpty()) {
        result.error = QStringLiteral("unexpected argument \"%1\"")
                           .arg(parser.positionalArguments().constFirst());
        return result;
    }

    AppOptions options;
    if (parser.isSet(language)) {
        const std::optional<i18n::Language> chosen = i18n::matchLanguage(parser.value(language));
        if (!chosen) {
            result.error = QStringLiteral("--lang \"%1\" is not a language poolscope has: %2")
                               .arg(parser.value(language),
                                    i18n::shippedLanguageCodes().join(QStringLiteral(", ")));
            return result;
        }
        options.language = chosen->code;
    }
    if (parser.isSet(recording)) {
        options.recordingPath = parser.value(recording);
        if (options.recordingPath.isEmpty()) {
            result.error = QStringLiteral("--recording needs a file name");
            return result;
        }
        for (const QCommandLineOption &live : {url, key, demo})
            if (parser.isSet(live)) {
                result.error = QStringLiteral("--recording opens a file without any server: "
                                              "--%1 does not go with it")
                                   .arg(live.names().constFirst());
                return result;
            }
    }
    if (parser.isSet(profile)) {
        options.profileName = parser.value(profile).trimmed();
        if (options.profileName.isEmpty()) {
            result.error = QStringLiteral("--profile needs the name of a saved connection");
            return result;
        }
        for (const QCommandLineOption &other : {url, demo, recording})
            if (parser.isSet(other)) {
                result.error = QStringLiteral("--profile names the server already: --%1 does "
                                              "not go with it")
                                   .arg(other.names().constFirst());
                return result;
            }
    }
    options.url = parser.isSet(url) || !options.profileName.isEmpty() ? parser.value(url).trimmed()
                                                                      : environmentUrl.trimmed();
    if (parser.isSet(url) && options.url.isEmpty()) {
        result.error = QStringLiteral("--url is empty: name a server such as redis://host:6379/0");
        return result;
    }
    // TLS options belong to a rediss:// URL; a bad URL itself is reported where it is used.
    Endpoint target;
    if (const EndpointParseResult parsed = parseEndpoint(options.url); parsed.ok())
        target = *parsed.endpoint;
    if (const QString problem = transport::applyTlsCommandLine(parser, target);
        !problem.isEmpty()) {
        result.error = problem;
        return result;
    }
    options.tls = target.tls;
    if (const QString problem = transport::applySshCommandLine(parser, target);
        !problem.isEmpty()) {
        result.error = problem;
        return result;
    }
    if (const QString problem = topology::applySentinelCommandLine(parser, target);
        !problem.isEmpty()) {
        result.error = problem;
        return result;
    }
    if (target.ssh.enabled() && options.url.isEmpty()) {
        result.error = QStringLiteral("--ssh needs a server (--url or REDIS_URL): the Redis "
                                      "address to reach from the SSH host");
        return result;
    }
    options.ssh = target.ssh;
    options.sentinelPassword = target.sentinelPassword;
    options.key = parser.value(key).toUtf8();
    if (options.key.isEmpty()) {
        result.error = QStringLiteral("--key is empty: name the pool's sorted set");
        return result;
    }
    options.readOnly = parser.isSet(readOnly);
    options.demoRequested = parser.isSet(demo);
    options.demo =
        parser.isSet(demo) || (options.url.isEmpty() && !options.readOnly &&
                               options.recordingPath.isEmpty() && options.profileName.isEmpty());
    if (options.demo && options.readOnly) {
        result.error = QStringLiteral("--demo writes to the pool and cannot run with --read-only");
        return result;
    }
    if (parser.isSet(threshold)) {
        bool ok = false;
        const qint64 members = parser.value(threshold).toLongLong(&ok);
        if (!ok || members < 1) {
            result.error = QStringLiteral("--full-snapshot-threshold \"%1\" is not a number of "
                                          "members of at least 1")
                               .arg(parser.value(threshold));
            return result;
        }
        options.fullSnapshotThreshold = members;
    }
    for (const QString &member : parser.values(pin))
        if (!member.isEmpty())
            options.pinned.append(member.toUtf8());
    if (parser.isSet(after) && !parser.isSet(screenshot)) {
        result.error = QStringLiteral("--after needs --screenshot FILE");
        return result;
    }
    if (parser.isSet(screenshot)) {
        options.screenshotPath = parser.value(screenshot);
        if (options.screenshotPath.isEmpty()) {
            result.error = QStringLiteral("--screenshot needs a file name");
            return result;
        }
        options.screenshotAfterSeconds = 5;
        if (parser.isSet(after)) {
            bool ok = false;
            const double seconds = parser.value(after).toDouble(&ok);
            if (!ok || !std::isfinite(seconds) || seconds < 0 || seconds > 86400) {
                result.error = QStringLiteral("--after \"%1\" is not a number of seconds "
                                              "between 0 and 86400")
                                   .arg(parser.value(after));
                return result;
            }
            options.screenshotAfterSeconds = seconds;
        }
    }
    result.options = options;
    return result;
}

bool usesEmbeddedServer(const AppOptions &options) {
    if (!options.recordingPath.isEmpty() || !options.profileName.isEmpty())
        return false;
    return options.url.isEmpty();
}

} // namespace poolscope
