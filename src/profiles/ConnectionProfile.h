#pragma once

#include "alerts/AlertRules.h"
#include "endpoint/Endpoint.h"

#include <chrono>
#include <optional>

#include <QByteArray>
#include <QMap>
#include <QString>

namespace poolscope {

// What a saved connection points at. Production makes the CLI ask for confirmation of every
// write (--yes --confirm-key KEY); the others only label it.
enum class Environment { None, Production, Staging, Development };

// "none", "production", "staging", "development": the words of the settings file and the CLI.
QString environmentName(Environment environment);
// One of those words (any case; an empty text is none), or nullopt.
std::optional<Environment> parseEnvironment(const QString &text);
// "production, staging, development or none", for error messages.
QString environmentChoices();

// A saved connection: everything needed to reach and watch a pool, except secrets. The URL never
// holds a password (saveProfile refuses one); the Redis password, TLS key passphrase, SSH key
// passphrase and SSH password come from the keychain (SecretStore), a prompt, or, in the CLI,
// --password-file / --password-stdin / --tls-key-passphrase-file.
struct ConnectionProfile {
    QString name;
    QString group; // a folder for the Connections dialog; empty: none
    Environment environment = Environment::None;
    QString url;    // redis://, rediss:// or unix://, without a password
    TlsOptions tls; // tls.enabled follows the URL's scheme
    SshOptions ssh;
    QByteArray poolKey = "proxies";
    std::chrono::milliseconds pollInterval{1000};
    // Ask for the Redis password before connecting (otherwise only when the server refuses us).
    bool needsPassword = false;
    // Keep the secrets of this connection in the OS keychain (when there is one).
    bool rememberSecrets = false;
    // Alert rules of the pools watched through this connection, by pool key; a pool without an
    // entry gets AlertRuleSet::defaults(). Thresholds and durations only: no secret in them.
    QMap<QByteArray, AlertRuleSet> alertRules;
    AlertRuleSet alertRulesFor(const QByteArray &poolKey) const {
        return alertRules.value(poolKey, AlertRuleSet::defaults());
    }

    bool operator==(const ConnectionProfile &) const = default;
};

// 10 ms .. 1 hour, as the dashboard's interval choices and `watch --interval` allow.
constexpr std::chrono::milliseconds kMinPollInterval{10};
constexpr std::chrono::milliseconds kMaxPollInterval{3600 * 1000};

// Checks a profile: a name, a group without control characters or outer spaces, a URL that parses
// and holds no password, TLS options only with rediss://, a key file only with a certificate, a
// pool key, an interval in range. Returns one line naming the profile and the field, or an empty
// string.
QString checkProfile(const ConnectionProfile &profile);

// The endpoint the profile names (no password: the caller adds the secret it got). nullopt with
// *error (naming the profile and the field) when the profile does not check.
std::optional<Endpoint> profileEndpoint(const ConnectionProfile &profile, QString *error);

// The profile for an endpoint the user is connected to: the URL without its password, the TLS and
// SSH settings, needsPassword when the endpoint has one.
ConnectionProfile profileFromEndpoint(const QString &name, const Endpoint &endpoint,
                                      const QByteArray &poolKey,
                                      std::chrono::milliseconds pollInterval);

} // namespace poolscope
