// `poolscope-cli profile add|list|remove`: the dashboard's saved connections managed from scripts,
// and the one rule for writes through a production profile (--yes --confirm-key KEY).
#include "CliApp.h"

#include "profiles/ProfileStore.h"
#include "topology/SentinelCommandLine.h"
#include "transport/TlsCommandLine.h"
#include "transport/ssh/SshCommandLine.h"

#include <QFileInfo>

namespace poolscope::cli {
namespace {

// Saved connections outlive the shell they were added from: files by absolute path.
void makeAbsolute(QString &path) {
    if (!path.isEmpty())
        path = QFileInfo(path).absoluteFilePath();
}

QString orDash(const QString &text) {
    return text.isEmpty() ? QStringLiteral("-") : text;
}

} // namespace

int Cli::profileCommand(const QStringList &args) {
    const QString action = args.value(0);
    if (action == QLatin1String("add"))
        return profileAdd(args.mid(1));
    if (action == QLatin1String("list"))
        return profileList(args.mid(1));
    if (action == QLatin1String("remove"))
        return profileRemove(args.mid(1));
    throw UsageError(
        (action.isEmpty()
             ? QStringLiteral("profile needs add, list or remove")
             : QStringLiteral("profile %1: unknown (expected add, list or remove)").arg(action))
            .toStdString());
}

int Cli::profileAdd(const QStringList &args) {
    if (args.size() != 1)
        throw UsageError("profile add takes one NAME (quote a name with spaces)");
    const QString name = args.first();
    if (!m_parser.isSet(QStringLiteral("url")))
        throw UsageError(
            QStringLiteral("profile add \"%1\" needs --url URL").arg(name).toStdString());
    // Secrets are given at use time, never stored: refuse every way of handing one over here.
    for (const QString &secretOption :
         {QStringLiteral("password-file"), QStringLiteral("password-stdin"),
          QStringLiteral("tls-key-passphrase-file"), QStringLiteral("sentinel-password")})
        if (m_parser.isSet(secretOption))
            throw UsageError(QStringLiteral("profile add \"%1\": --%2 is not stored (saved "
                                            "connections hold no secret): give it when you use "
                                            "the connection")
                                 .arg(name, secretOption)
                                 .toStdString());
    if (m_parser.isSet(QStringLiteral("profile")))
        throw UsageError("profile add takes its settings from the options, not from --profile");
    const EndpointParseResult parsed = parseEndpoint(m_parser.value(QStringLiteral("url")));
    if (!parsed.ok())
        throw UsageError(QStringLiteral("profile add \"%1\": bad --url: %2")
                             .arg(name, parsed.error)
                             .toStdString());
    Endpoint endpoint = *parsed.endpoint;
    if (!endpoint.password.isEmpty())
        throw UsageError(
            QStringLiteral("profile add \"%1\": the --url holds a password, and saved connections "
                           "never store one (nothing was saved). Leave it out of the URL; give "
                           "the password when you use the connection, with --password-file FILE "
                           "or --password-stdin, or keep it in the keychain from the dashboard "
                           "(File > Connections..., Edit, remember secrets); add --needs-password "
                           "so that it is asked for")
                .arg(name)
                .toStdString());
    if (const QString problem = transport::applyTlsCommandLine(m_parser, endpoint);
        !problem.isEmpty())
        throw UsageError(problem.toStdString());
    if (const QString problem = transport::applySshCommandLine(m_parser, endpoint);
        !problem.isEmpty())
        throw UsageError(problem.toStdString());
    for (QString *path : {&endpoint.tls.caFile, &endpoint.tls.certFile, &endpoint.tls.keyFile,
                          &endpoint.ssh.keyFile})
        makeAbsolute(*path);

    std::chrono::milliseconds interval = ConnectionProfile().pollInterval;
    if (m_parser.isSet(QStringLiteral("poll-interval"))) {
        bool ok = false;
        const qint64 ms = m_parser.value(QStringLiteral("poll-interval")).toLongLong(&ok);
        if (!ok)
            throw UsageError(QStringLiteral("--poll-interval %1 is not a number of milliseconds")
                                 .arg(m_parser.value(QStringLiteral("poll-interval")))
                                 .toStdString());
        interval = std::chrono::milliseconds(ms);
    }
    ConnectionProfile profile = profileFromEndpoint(
        name, endpoint, m_parser.value(QStringLiteral("key")).toUtf8(), interval);
    profile.group = m_parser.value(QStringLiteral("group"));
    const QString env = m_parser.value(QStringLiteral("env"));
    const std::optional<Environment> environment = parseEnvironment(env);
    if (!environment)
        throw UsageError(QStringLiteral("--env \"%1\": expected %2")
                             .arg(env, environmentChoices())
                             .toStdString());
    profile.environment = *environment;
    profile.needsPassword = m_parser.isSet(QStringLiteral("needs-password"));

    ProfileStore store;
    const bool exists = store.contains(name);
    if (exists && !m_parser.isSet(QStringLiteral("replace")))
        throw UsageError(QStringLiteral("profile add: a connection named \"%1\" is saved already "
                                        "(add --replace to overwrite it)")
                             .arg(name)
                             .toStdString());
    if (exists) // its keychain entries stay under the same name: keep using them
        if (const ProfileLoadResult old = store.load(name); old.ok()) {
            profile.rememberSecrets = old.profile->rememberSecrets;
            profile.alertRules = old.profile->alertRules; // set in the dashboard: kept
        }
    if (m_parser.isSet(QStringLiteral("rules")))
        profile.alertRules.insert(profile.poolKey, alertRules());
    if (const QString problem = store.save(profile, exists ? name : QString()); !problem.isEmpty())
        throw UsageError(QStringLiteral("profile add: %1").arg(problem).toStdString());
    if (m_json)
        printJson({{QStringLiteral("saved"), name}, {QStringLiteral("replaced"), exists}});
    else
        m_out << (exists ? "replaced" : "saved") << " connection \"" << name << "\" in "
              << store.fileName() << '\n';
    return kExitOk;
}

int Cli::profileList(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("profile list takes no arguments");
    ProfileStore store;
    QJsonArray rows;
    QStringList lines;
    for (const QString &name : store.names()) {
        const ProfileLoadResult loaded = store.load(name);
        if (!loaded.ok()) { // listed, not hidden: the error names the field to fix
            rows.append(QJsonObject{{QStringLiteral("name"), name},
                                    {QStringLiteral("error"), loaded.error}});
            lines << QStringLiteral("%1\tdamaged: %2").arg(name, loaded.error);
            continue;
        }
        const ConnectionProfile &p = *loaded.profile;
        const QString key = QString::fromUtf8(p.poolKey);
        QJsonObject row{{QStringLiteral("name"), p.name},
                        {QStringLiteral("group"), p.group},
                        {QStringLiteral("environment"), environmentName(p.environment)},
                        {QStringLiteral("url"), p.url}, // checked on load: never a password
                        {QStringLiteral("key"), key},
                        {QStringLiteral("poll_interval_ms"), qint64(p.pollInterval.count())},
                        {QStringLiteral("needs_password"), p.needsPassword}};
        if (p.ssh.enabled())
            row.insert(QStringLiteral("ssh"), p.ssh.destination);
        rows.append(row);
        lines << QStringList{p.name, orDash(p.group), environmentName(p.environment), p.url, key}
                     .join(u'\t');
    }
    if (m_json) {
        printJson({{QStringLiteral("profiles"), rows}});
        return kExitOk;
    }
    if (lines.isEmpty()) {
        m_out << "no saved connections (in " << store.fileName() << ")\n";
        return kExitOk;
    }
    m_out << "NAME\tGROUP\tENVIRONMENT\tURL\tKEY\n";
    for (const QString &line : lines)
        m_out << line << '\n';
    return kExitOk;
}

int Cli::profileRemove(const QStringList &args) {
    if (args.size() != 1)
        throw UsageError("profile remove takes one NAME");
    if (const QString problem = ProfileStore().remove(args.first()); !problem.isEmpty())
        throw UsageError(QStringLiteral("profile remove: %1").arg(problem).toStdString());
    if (m_json)
        printJson({{QStringLiteral("removed"), args.first()}});
    else
        m_out << "removed connection \"" << args.first() << "\"\n";
    return kExitOk;
}

void Cli::requireProductionConfirmation(const QString &command) {
    const ConnectionProfile *saved = profile();
    if (!saved || saved->environment != Environment::Production)
        return;
    const QByteArray key = poolKey();
    const bool yes = m_parser.isSet(QStringLiteral("yes"));
    const bool confirmSet = m_parser.isSet(QStringLiteral("confirm-key"));
    const QByteArray confirmed = m_parser.value(QStringLiteral("confirm-key")).toUtf8();
    if (yes && confirmSet && confirmed == key)
        return;
    const QString keyText = QString::fromUtf8(key);
    QString missing;
    if (confirmSet && confirmed != key)
        missing = QStringLiteral("--confirm-key \"%1\" is not the pool key \"%2\"")
                      .arg(QString::fromUtf8(confirmed), keyText);
    else
        missing =
            QStringLiteral("add --yes --confirm-key %1 (the pool key) to confirm").arg(keyText);
    throw ConfirmationRequired(
        QStringLiteral("profile \"%1\" is a %2 connection: %3 writes to it, so it needs --yes "
                       "and --confirm-key equal to the pool key; %4. Nothing was written")
            .arg(saved->name, environmentName(saved->environment), command, missing)
            .toStdString());
}

} // namespace poolscope::cli
