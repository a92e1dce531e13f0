#include "profiles/ConnectionProfile.h"

#include <algorithm>
#include <utility>

namespace poolscope {

namespace {

QString inProfile(const ConnectionProfile &profile, const QString &problem) {
    return QStringLiteral("connection \"%1\": %2").arg(profile.name, problem);
}

constexpr std::pair<Environment, const char *> kEnvironments[] = {
    {Environment::None, "none"},
    {Environment::Production, "production"},
    {Environment::Staging, "staging"},
    {Environment::Development, "development"},
};

} // namespace

QString environmentName(Environment environment) {
    for (const auto &[value, name] : kEnvironments)
        if (value == environment)
            return QString::fromLatin1(name);
    return QStringLiteral("none");
}

std::optional<Environment> parseEnvironment(const QString &text) {
    const QString word = text.trimmed().toLower();
    if (word.isEmpty())
        return Environment::None;
    for (const auto &[value, name] : kEnvironments)
        if (word == QLatin1String(name))
            return value;
    return std::nullopt;
}

QString environmentChoices() {
    return QStringLiteral("production, staging, development or none");
}

QString checkProfile(const ConnectionProfile &profile) {
    if (profile.name.trimmed().isEmpty())
        return QStringLiteral("a saved connection needs a name");
    if (profile.name != profile.name.trimmed())
        return inProfile(profile, QStringLiteral("the name starts or ends with a space"));
    if (profile.group != profile.group.trimmed())
        return inProfile(profile, QStringLiteral("group: starts or ends with a space"));
    if (std::any_of(profile.group.cbegin(), profile.group.cend(),
                    [](QChar c) { return c.category() == QChar::Other_Control; }))
        return inProfile(profile, QStringLiteral("group: holds a control character"));
    const EndpointParseResult parsed = parseEndpoint(profile.url);
    if (!parsed.ok())
        return inProfile(profile, QStringLiteral("URL: %1").arg(parsed.error));
    // The URL is never repeated: it holds the password.
    if (!parsed.endpoint->password.isEmpty())
        return inProfile(profile, QStringLiteral("URL: holds a password, and saved connections "
                                                 "never store one (leave it out: it is asked "
                                                 "for, or kept in the keychain)"));
    const TlsOptions &tls = profile.tls;
    const bool tlsSettings = !tls.caFile.isEmpty() || !tls.serverName.isEmpty() ||
                             !tls.certFile.isEmpty() || !tls.keyFile.isEmpty() || tls.insecure;
    if (tlsSettings && !parsed.endpoint->tls.enabled)
        return inProfile(profile, QStringLiteral("TLS settings need a rediss:// URL"));
    if (!tls.keyFile.isEmpty() && tls.certFile.isEmpty())
        return inProfile(profile,
                         QStringLiteral("TLS client key: needs the client certificate too"));
    if (profile.ssh.keyFile.size() > 0 && !profile.ssh.enabled())
        return inProfile(profile, QStringLiteral("SSH key file: needs an SSH destination"));
    if (profile.poolKey.isEmpty())
        return inProfile(profile, QStringLiteral("pool key: is empty"));
    if (profile.pollInterval < kMinPollInterval || profile.pollInterval > kMaxPollInterval)
        return inProfile(profile, QStringLiteral("poll interval: %1 ms is not from %2 ms to %3 ms")
                                      .arg(profile.pollInterval.count())
                                      .arg(kMinPollInterval.count())
                                      .arg(kMaxPollInterval.count()));
    return {};
}

std::optional<Endpoint> profileEndpoint(const ConnectionProfile &profile, QString *error) {
    if (const QString problem = checkProfile(profile); !problem.isEmpty()) {
        if (error)
            *error = problem;
        return std::nullopt;
    }
    Endpoint endpoint = *parseEndpoint(profile.url).endpoint;
    const bool tlsOn = endpoint.tls.enabled;
    endpoint.tls = profile.tls;
    endpoint.tls.enabled = tlsOn;
    endpoint.ssh = profile.ssh;
    return endpoint;
}

ConnectionProfile profileFromEndpoint(const QString &name, const Endpoint &endpoint,
                                      const QByteArray &poolKey,
                                      std::chrono::milliseconds pollInterval) {
    ConnectionProfile profile;
    profile.name = name;
    profile.url = endpoint.toSafeUrl();
    profile.tls = endpoint.tls;
    profile.ssh = endpoint.ssh;
    profile.poolKey = poolKey;
    profile.pollInterval = pollInterval;
    profile.needsPassword = !endpoint.password.isEmpty();
    return profile;
}

} // namespace poolscope
