#include "profiles/ProfileStore.h"

#include "text/MemberText.h"

#include <algorithm>

#include <QJsonDocument>
#include <QUrl>

namespace poolscope {

namespace {

const QString kGroup = QStringLiteral("connections/saved");

namespace field {
const QString name = QStringLiteral("name");
const QString url = QStringLiteral("url");
const QString group = QStringLiteral("group");
const QString environment = QStringLiteral("environment");
const QString tlsCa = QStringLiteral("tls/caFile");
const QString tlsServerName = QStringLiteral("tls/serverName");
const QString tlsCert = QStringLiteral("tls/certFile");
const QString tlsKey = QStringLiteral("tls/keyFile");
const QString tlsInsecure = QStringLiteral("tls/insecure");
const QString sshDestination = QStringLiteral("ssh/destination");
const QString sshKey = QStringLiteral("ssh/keyFile");
const QString sshAcceptNew = QStringLiteral("ssh/acceptNewHostKey");
const QString poolKey = QStringLiteral("poolKey");
const QString interval = QStringLiteral("pollIntervalMs");
const QString needsPassword = QStringLiteral("needsPassword");
const QString remember = QStringLiteral("rememberSecrets");
const QString alerts = QStringLiteral("alerts"); // a subgroup: percent-encoded pool key -> JSON
} // namespace field

QString notSaved(const QString &name, const QStringList &saved) {
    return QStringLiteral("no saved connection named \"%1\" (%2)")
        .arg(name, saved.isEmpty() ? QStringLiteral("none saved yet")
                                   : QStringLiteral("saved: ") + saved.join(QStringLiteral(", ")));
}

// A stored flag: true/false as QSettings writes them; anything else is a damaged file.
std::optional<bool> readFlag(const QSettings &settings, const QString &key) {
    const QVariant value = settings.value(key, false);
    const QString text = value.toString().trimmed().toLower();
    if (text == QLatin1String("true") || text == QLatin1String("1"))
        return true;
    if (text == QLatin1String("false") || text == QLatin1String("0") || text.isEmpty())
        return false;
    return std::nullopt;
}

} // namespace

ProfileStore::ProfileStore()
    : m_settings(
          std::make_unique<QSettings>(QStringLiteral("poolscope"), QStringLiteral("poolscope"))) {}

ProfileStore::ProfileStore(const QString &iniFile)
    : m_settings(std::make_unique<QSettings>(iniFile, QSettings::IniFormat)) {}

QString ProfileStore::groupOf(const QString &name) const {
    // Percent-encoded: a name may hold '/', which QSettings reads as a subgroup.
    return kGroup + u'/' + QString::fromLatin1(QUrl::toPercentEncoding(name));
}

QStringList ProfileStore::names() const {
    m_settings->sync();
    m_settings->beginGroup(kGroup);
    QStringList names;
    for (const QString &group : m_settings->childGroups())
        names << QUrl::fromPercentEncoding(group.toLatin1());
    m_settings->endGroup();
    std::sort(names.begin(), names.end(), [](const QString &a, const QString &b) {
        return QString::compare(a, b, Qt::CaseInsensitive) < 0;
    });
    return names;
}

bool ProfileStore::contains(const QString &name) const {
    return names().contains(name);
}

ProfileLoadResult ProfileStore::load(const QString &name) const {
    if (!contains(name))
        return {std::nullopt, notSaved(name, names())};
    QSettings &s = *m_settings;
    s.beginGroup(groupOf(name));
    ConnectionProfile profile;
    profile.name = name;
    auto damaged = [&name](const QString &what) {
        return ProfileLoadResult{
            std::nullopt,
            QStringLiteral("connection \"%1\": %2 in the settings file").arg(name, what)};
    };
    struct Ended {
        QSettings &s;
        ~Ended() { s.endGroup(); }
    } ended{s};
    if (!s.contains(field::url))
        return damaged(QStringLiteral("URL: missing"));
    profile.url = s.value(field::url).toString();
    // Both absent in files from before groups and environments: no group, no environment.
    profile.group = s.value(field::group).toString();
    const QString environment = s.value(field::environment).toString();
    const std::optional<Environment> parsedEnvironment = parseEnvironment(environment);
    if (!parsedEnvironment)
        return damaged(
            QStringLiteral("environment: \"%1\" is not %2").arg(environment, environmentChoices()));
    profile.environment = *parsedEnvironment;
    profile.tls.caFile = s.value(field::tlsCa).toString();
    profile.tls.serverName = s.value(field::tlsServerName).toString();
    profile.tls.certFile = s.value(field::tlsCert).toString();
    profile.tls.keyFile = s.value(field::tlsKey).toString();
    profile.ssh.destination = s.value(field::sshDestination).toString();
    profile.ssh.keyFile = s.value(field::sshKey).toString();
    profile.poolKey = s.value(field::poolKey, QStringLiteral("proxies")).toString().toUtf8();
    const QString interval = s.value(field::interval, 1000).toString();
    bool ok = false;
    const qint64 ms = interval.toLongLong(&ok);
    if (!ok)
        return damaged(
            QStringLiteral("poll interval: \"%1\" is not a number of milliseconds").arg(interval));
    profile.pollInterval = std::chrono::milliseconds(ms);
    for (const auto &[key, target, label] :
         {std::tuple{field::tlsInsecure, &profile.tls.insecure, QStringLiteral("TLS insecure")},
          std::tuple{field::sshAcceptNew, &profile.ssh.acceptNewHostKey,
                     QStringLiteral("SSH accept new host keys")},
          std::tuple{field::needsPassword, &profile.needsPassword,
                     QStringLiteral("needs a password")},
          std::tuple{field::remember, &profile.rememberSecrets,
                     QStringLiteral("remember secrets")}}) {
        const std::optional<bool> flag = readFlag(s, key);
        if (!flag)
            return damaged(QStringLiteral("%1: \"%2\" is not true or false")
                               .arg(label, s.value(key).toString()));
        *target = *flag;
    }
    s.beginGroup(field::alerts);
    const QStringList pools = s.childKeys();
    for (const QString &encoded : pools) {
        const QByteArray poolKey = QByteArray::fromPercentEncoding(encoded.toLatin1());
        const AlertRulesParse rules = parseAlertRules(s.value(encoded).toString().toUtf8());
        if (!rules.ok()) {
            s.endGroup();
            return damaged(
                QStringLiteral("alert rules of pool %1: %2").arg(quotedKey(poolKey), rules.error));
        }
        profile.alertRules.insert(poolKey, *rules.rules);
    }
    s.endGroup();
    const EndpointParseResult parsed = parseEndpoint(profile.url);
    profile.tls.enabled = parsed.ok() && parsed.endpoint->tls.enabled;
    if (const QString problem = checkProfile(profile); !problem.isEmpty())
        return {std::nullopt, problem};
    return {profile, {}};
}

void ProfileStore::write(const ConnectionProfile &profile) {
    QSettings &s = *m_settings;
    s.beginGroup(groupOf(profile.name));
    s.remove(QString()); // nothing left over from an earlier version of this connection
    s.setValue(field::name, profile.name);
    s.setValue(field::url, profile.url.trimmed());
    s.setValue(field::group, profile.group);
    s.setValue(field::environment, environmentName(profile.environment));
    s.setValue(field::tlsCa, profile.tls.caFile);
    s.setValue(field::tlsServerName, profile.tls.serverName);
    s.setValue(field::tlsCert, profile.tls.certFile);
    s.setValue(field::tlsKey, profile.tls.keyFile);
    s.setValue(field::tlsInsecure, profile.tls.insecure);
    s.setValue(field::sshDestination, profile.ssh.destination);
    s.setValue(field::sshKey, profile.ssh.keyFile);
    s.setValue(field::sshAcceptNew, profile.ssh.acceptNewHostKey);
    s.setValue(field::poolKey, QString::fromUtf8(profile.poolKey));
    s.setValue(field::interval, qint64(profile.pollInterval.count()));
    s.setValue(field::needsPassword, profile.needsPassword);
    s.setValue(field::remember, profile.rememberSecrets);
    for (auto it = profile.alertRules.cbegin(); it != profile.alertRules.cend(); ++it)
        s.setValue(field::alerts + u'/' + QString::fromLatin1(it.key().toPercentEncoding()),
                   QString::fromUtf8(
                       QJsonDocument(it.value().toJsonObject()).toJson(QJsonDocument::Compact)));
    s.endGroup();
}

QString ProfileStore::commit() {
    m_settings->sync();
    if (m_settings->status() != QSettings::NoError)
        return QStringLiteral("cannot write the settings file %1").arg(m_settings->fileName());
    return {};
}

QString ProfileStore::save(const ConnectionProfile &profile, const QString &previousName) {
    if (const QString problem = checkProfile(profile); !problem.isEmpty())
        return problem;
    const QStringList saved = names();
    if (!previousName.isEmpty() && !saved.contains(previousName))
        return notSaved(previousName, saved);
    if (profile.name != previousName && saved.contains(profile.name))
        return QStringLiteral("a connection named \"%1\" is saved already: choose another name")
            .arg(profile.name);
    // The new entry first: a failed write never loses the old one.
    write(profile);
    if (const QString problem = commit(); !problem.isEmpty())
        return problem;
    if (!previousName.isEmpty() && previousName != profile.name) {
        m_settings->remove(groupOf(previousName));
        return commit();
    }
    return {};
}

QString ProfileStore::rename(const QString &from, const QString &to) {
    ProfileLoadResult loaded = load(from);
    if (!loaded.ok())
        return loaded.error;
    loaded.profile->name = to;
    return save(*loaded.profile, from);
}

QString ProfileStore::remove(const QString &name) {
    if (!contains(name))
        return notSaved(name, names());
    m_settings->remove(groupOf(name));
    return commit();
}

} // namespace poolscope
