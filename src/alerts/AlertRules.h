#pragma once

#include <optional>

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QLocale>
#include <QMap>
#include <QString>

namespace poolscope {

// What an alert rule watches. The stable names ("pool-empty", ...) are those of the JSON rules
// files, the CLI and the settings file.
enum class AlertKind {
    PoolEmpty,      // no member at all: every allocation returns nil
    PoolSmall,      // fewer than minMembers (and not empty)
    EvictedShare,   // evicted / (in pool + evicted) at least maxPercent
    MemberFlood,    // one member takes more than maxSharePercent of the window's allocations
    MemberStarved,  // a member without allocation for idleSeconds while the pool allocates
    SpreadHigh,     // max - min count above maxSpread
    JainLow,        // Jain's fairness index below minJain
    WorkersStopped, // no allocation over the window while the pool has members
    RateChanged,    // the rate off by a factor from its baseline
    GuardCapped,    // the guard holds back evictions at its cap
    GuardLeaseLost, // a guard watched the pool, but none holds its lease
    Unreachable,    // the server cannot be reached
    Failover,       // the Sentinel primary changed, or the cluster slot moved
};

enum class AlertSeverity { Warning, Critical };

QString alertKindName(AlertKind kind);
std::optional<AlertKind> parseAlertKind(const QString &name);
QList<AlertKind> allAlertKinds();
QString severityName(AlertSeverity severity); // "warning", "critical"
std::optional<AlertSeverity> parseSeverity(const QString &name);

// One tunable figure of a kind of rule, for the JSON files and the future rules dialog.
struct AlertParameter {
    const char *key; // JSON field, e.g. "minMembers"
    double defaultValue;
    double minimum;
    double maximum;
    bool whole;        // a count: fractions are refused
    const char *label; // for people; QT_TRANSLATE_NOOP in context "poolscope::AlertRules"
};

// What every rule of a kind starts from.
struct AlertKindInfo {
    AlertKind kind;
    const char *name;  // "pool-empty"
    const char *title; // "Pool empty" (QT_TRANSLATE_NOOP, context "poolscope::AlertRules")
    AlertSeverity severity;
    qint64 forMs;        // how long the condition must hold before the alert fires
    qint64 keepFiringMs; // how long it must be gone before the alert resolves
    QList<AlertParameter> parameters;
};
const AlertKindInfo &alertKindInfo(AlertKind kind);

// One rule: a kind, when it fires (for), when it resolves (keep firing), how bad it is, and the
// kind's parameters (every one present, defaults filled in).
struct AlertRule {
    AlertKind kind = AlertKind::PoolEmpty;
    QString name; // empty: the kind's name; two rules of one kind need names to tell them apart
    bool enabled = true;
    AlertSeverity severity = AlertSeverity::Warning;
    qint64 forMs = 0;
    qint64 keepFiringMs = 0;
    QMap<QString, double> parameters;

    // The rule's identity within a set: its name, else its kind's name.
    QString id() const;
    // A parameter of the kind (its default when missing).
    double parameter(const char *key) const;
    static AlertRule defaults(AlertKind kind);
    bool operator==(const AlertRule &) const = default;
};

// The rules of one pool. Stored as JSON:
//   {"version": 1, "rules": [{"kind": "pool-small", "severity": "warning", "forSeconds": 300,
//     "keepFiringSeconds": 60, "minMembers": 5}, ...]}
// A rule names its kind; every other field may be left out and takes the kind's default. The
// file is the whole set: a kind it does not list is not evaluated.
struct AlertRuleSet {
    QList<AlertRule> rules;

    // One rule of every kind, with the defaults (alertKindInfo).
    static AlertRuleSet defaults();
    QJsonObject toJsonObject() const;
    QByteArray toJson() const; // indented, for files
    bool operator==(const AlertRuleSet &) const = default;
};

struct AlertRulesParse {
    std::optional<AlertRuleSet> rules;
    // Where and what: "line 3, column 17: missing comma" for a text that is no JSON,
    // "rules[2].severity: \"urgent\" is not warning or critical" for a field.
    QString error;
    bool ok() const { return rules.has_value(); }
};
AlertRulesParse parseAlertRules(const QByteArray &json);
AlertRulesParse alertRulesFromJson(const QJsonObject &object);

// One line for people: what the rule fires on, with its figures ("Fewer than 5 members in the
// pool (but not none): each remaining member takes a large share of the load."), in the
// translation installed (QCoreApplication::translate) and with numbers in locale.
QString explainAlertRule(const AlertRule &rule, const QLocale &locale = QLocale::c());
QString alertRuleTitle(AlertKind kind);
// "0 s", "90 s", "5 min", "1.5 h": durations as rules show them.
QString formatAlertDuration(qint64 ms, const QLocale &locale = QLocale::c());

} // namespace poolscope
