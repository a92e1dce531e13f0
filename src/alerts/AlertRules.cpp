#include "alerts/AlertRules.h"

#include <cmath>

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace poolscope {

namespace {

constexpr qint64 kSecond = 1000;
constexpr qint64 kMinute = 60 * kSecond;
constexpr qint64 kMaxForMs = 7 * 24 * 60 * kMinute;
constexpr qint64 kMaxKeepFiringMs = 24 * 60 * kMinute;
constexpr double kHuge = 1e15;

// The kinds in the order the help, the default files and the dialog list them. Defaults match
// the shipped Prometheus rules (resources/prometheus) where both have the rule.
const QList<AlertKindInfo> &kindTable() {
    static const QList<AlertKindInfo> table{
        {AlertKind::PoolEmpty,
         "pool-empty",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "Pool empty"),
         AlertSeverity::Critical,
         0,
         kMinute,
         {}},
        {AlertKind::PoolSmall,
         "pool-small",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "Few members"),
         AlertSeverity::Warning,
         5 * kMinute,
         kMinute,
         {{"minMembers", 5, 2, kHuge, true,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Fewest members")}}},
        {AlertKind::EvictedShare,
         "evicted-share",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "Many evicted"),
         AlertSeverity::Warning,
         5 * kMinute,
         kMinute,
         {{"maxPercent", 30, 0.1, 100, false,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Evicted share (%)")}}},
        {AlertKind::MemberFlood,
         "member-flood",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "One member floods"),
         AlertSeverity::Warning,
         kMinute,
         kMinute,
         {{"maxSharePercent", 50, 1, 100, false,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Share of the allocations (%)")},
          {"minAllocations", 20, 1, kHuge, true,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Allocations in the window, at least")},
          {"minMembers", 3, 2, kHuge, true,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Members in the pool, at least")}}},
        {AlertKind::MemberStarved,
         "member-starved",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "A member starves"),
         AlertSeverity::Warning,
         5 * kMinute,
         kMinute,
         {{"idleSeconds", 900, 1, kMaxForMs / kSecond, false,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Without allocation for (s)")},
          {"minRounds", 2, 0.1, 1e6, false,
           QT_TRANSLATE_NOOP("poolscope::AlertRules",
                             "While the pool allocated, per member, at least")}}},
        {AlertKind::SpreadHigh,
         "spread-high",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "Counts spread apart"),
         AlertSeverity::Warning,
         15 * kMinute,
         kMinute,
         {{"maxSpread", 1000, 0, kHuge, false,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Highest minus lowest count, at most")}}},
        {AlertKind::JainLow,
         "jain-low",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "Unfair pool"),
         AlertSeverity::Warning,
         15 * kMinute,
         kMinute,
         {{"minJain", 0.9, 0, 1, false,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Jain's fairness index, at least")}}},
        {AlertKind::WorkersStopped,
         "workers-stopped",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "Workers stopped"),
         AlertSeverity::Warning,
         10 * kMinute,
         kMinute,
         {}},
        {AlertKind::RateChanged,
         "rate-changed",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "Allocation rate changed"),
         AlertSeverity::Warning,
         5 * kMinute,
         kMinute,
         {{"factor", 4, 1.1, 1e6, false,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Factor from the baseline")},
          {"minBaselineRate", 1, 0, kHuge, false,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Baseline allocations/s, at least")}}},
        {AlertKind::GuardCapped,
         "guard-capped",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "Guard at its cap"),
         AlertSeverity::Warning,
         kMinute,
         kMinute,
         {}},
        {AlertKind::GuardLeaseLost,
         "guard-lease-lost",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "No guard on duty"),
         AlertSeverity::Warning,
         2 * kMinute,
         kMinute,
         {}},
        {AlertKind::Unreachable,
         "unreachable",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "Server unreachable"),
         AlertSeverity::Critical,
         2 * kMinute,
         kMinute,
         {}},
        {AlertKind::Failover,
         "failover",
         QT_TRANSLATE_NOOP("poolscope::AlertRules", "Failover"),
         AlertSeverity::Warning,
         0,
         0,
         {{"recentSeconds", 300, 1, kMaxForMs / kSecond, false,
           QT_TRANSLATE_NOOP("poolscope::AlertRules", "Reported for (s)")}}},
    };
    return table;
}

// The context lupdate gives the texts of this file (and the QT_TRANSLATE_NOOP ones above).
struct RuleText {
    Q_DECLARE_TR_FUNCTIONS(poolscope::AlertRules)
};

// "line L, column C" of a byte offset, both from 1.
QString position(const QByteArray &text, int offset) {
    int line = 1, column = 1;
    for (int i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return QStringLiteral("line %1, column %2").arg(line).arg(column);
}

QString jsonText(const QJsonValue &value) {
    if (value.isString())
        return QLatin1Char('"') + value.toString() + QLatin1Char('"');
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 17);
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isNull())
        return QStringLiteral("null");
    return value.isArray() ? QStringLiteral("an array") : QStringLiteral("an object");
}

QString numberText(double value) {
    return QString::number(value, 'g', 15);
}

// A number of seconds in [0, maxMs / 1000], as whole milliseconds; nullopt with *error.
std::optional<qint64> secondsField(const QJsonValue &value, qint64 maxMs, QString *error) {
    const double seconds = value.toDouble(-1);
    if (!value.isDouble() || !std::isfinite(seconds) || seconds < 0 ||
        seconds * 1000 > double(maxMs)) {
        *error = QStringLiteral("%1 is not a number of seconds from 0 to %2")
                     .arg(jsonText(value))
                     .arg(maxMs / kSecond);
        return std::nullopt;
    }
    return qint64(std::llround(seconds * 1000));
}

AlertRulesParse failure(const QString &error) {
    return {std::nullopt, error};
}

} // namespace

QString alertKindName(AlertKind kind) {
    return QString::fromLatin1(alertKindInfo(kind).name);
}

std::optional<AlertKind> parseAlertKind(const QString &name) {
    for (const AlertKindInfo &info : kindTable())
        if (name == QLatin1String(info.name))
            return info.kind;
    return std::nullopt;
}

QList<AlertKind> allAlertKinds() {
    QList<AlertKind> kinds;
    for (const AlertKindInfo &info : kindTable())
        kinds.append(info.kind);
    return kinds;
}

QString severityName(AlertSeverity severity) {
    return severity == AlertSeverity::Critical ? QStringLiteral("critical")
                                               : QStringLiteral("warning");
}

std::optional<AlertSeverity> parseSeverity(const QString &name) {
    if (name == QLatin1String("warning"))
        return AlertSeverity::Warning;
    if (name == QLatin1String("critical"))
        return AlertSeverity::Critical;
    return std::nullopt;
}

const AlertKindInfo &alertKindInfo(AlertKind kind) {
    for (const AlertKindInfo &info : kindTable())
        if (info.kind == kind)
            return info;
    Q_UNREACHABLE();
}

QString AlertRule::id() const {
    return name.isEmpty() ? alertKindName(kind) : name;
}

double AlertRule::parameter(const char *key) const {
    const auto found = parameters.constFind(QLatin1String(key));
    if (found != parameters.cend())
        return *found;
    for (const AlertParameter &p : alertKindInfo(kind).parameters)
        if (qstrcmp(p.key, key) == 0)
            return p.defaultValue;
    return 0;
}

AlertRule AlertRule::defaults(AlertKind kind) {
    const AlertKindInfo &info = alertKindInfo(kind);
    AlertRule rule;
    rule.kind = kind;
    rule.severity = info.severity;
    rule.forMs = info.forMs;
    rule.keepFiringMs = info.keepFiringMs;
    for (const AlertParameter &p : info.parameters)
        rule.parameters.insert(QLatin1String(p.key), p.defaultValue);
    return rule;
}

AlertRuleSet AlertRuleSet::defaults() {
    AlertRuleSet set;
    for (const AlertKindInfo &info : kindTable())
        set.rules.append(AlertRule::defaults(info.kind));
    return set;
}

QJsonObject AlertRuleSet::toJsonObject() const {
    QJsonArray array;
    for (const AlertRule &rule : rules) {
        QJsonObject object{
            {QStringLiteral("kind"), alertKindName(rule.kind)},
            {QStringLiteral("enabled"), rule.enabled},
            {QStringLiteral("severity"), severityName(rule.severity)},
            {QStringLiteral("forSeconds"), double(rule.forMs) / 1000.0},
            {QStringLiteral("keepFiringSeconds"), double(rule.keepFiringMs) / 1000.0}};
        if (!rule.name.isEmpty())
            object.insert(QStringLiteral("name"), rule.name);
        for (auto it = rule.parameters.cbegin(); it != rule.parameters.cend(); ++it)
            object.insert(it.key(), it.value());
        array.append(object);
    }
    return {{QStringLiteral("version"), 1}, {QStringLiteral("rules"), array}};
}

QByteArray AlertRuleSet::toJson() const {
    return QJsonDocument(toJsonObject()).toJson(QJsonDocument::Indented);
}

AlertRulesParse parseAlertRules(const QByteArray &json) {
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return failure(QStringLiteral("%1: %2 (not JSON)")
                           .arg(position(json, parseError.offset), parseError.errorString()));
    if (!document.isObject())
        return failure(QStringLiteral("the top level is not an object ({\"rules\": [...]})"));
    return alertRulesFromJson(document.object());
}

AlertRulesParse alertRulesFromJson(const QJsonObject &object) {
    for (auto it = object.constBegin(); it != object.constEnd(); ++it)
        if (it.key() != QLatin1String("version") && it.key() != QLatin1String("rules"))
            return failure(
                QStringLiteral("unknown field \"%1\" (expected version and rules)").arg(it.key()));
    if (object.contains(QStringLiteral("version")) &&
        object.value(QStringLiteral("version")) != QJsonValue(1))
        return failure(QStringLiteral("version: %1 is not 1 (the only version there is)")
                           .arg(jsonText(object.value(QStringLiteral("version")))));
    const QJsonValue rulesValue = object.value(QStringLiteral("rules"));
    if (!rulesValue.isArray())
        return failure(rulesValue.isUndefined()
                           ? QStringLiteral("rules: missing (a list of rules)")
                           : QStringLiteral("rules: %1 is not a list").arg(jsonText(rulesValue)));
    AlertRuleSet set;
    QSet<QString> ids;
    const QJsonArray array = rulesValue.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = QStringLiteral("rules[%1]").arg(i);
        if (!array[i].isObject())
            return failure(QStringLiteral("%1: %2 is not an object").arg(path, jsonText(array[i])));
        const QJsonObject entry = array[i].toObject();
        const QJsonValue kindValue = entry.value(QStringLiteral("kind"));
        if (kindValue.isUndefined())
            return failure(QStringLiteral("%1.kind: missing").arg(path));
        const std::optional<AlertKind> kind = parseAlertKind(kindValue.toString());
        if (!kind) {
            QStringList names;
            for (const AlertKindInfo &info : kindTable())
                names << QString::fromLatin1(info.name);
            return failure(QStringLiteral("%1.kind: %2 is not one of %3")
                               .arg(path, jsonText(kindValue), names.join(QStringLiteral(", "))));
        }
        AlertRule rule = AlertRule::defaults(*kind);
        const AlertKindInfo &info = alertKindInfo(*kind);
        for (auto it = entry.constBegin(); it != entry.constEnd(); ++it) {
            const QString field = path + QLatin1Char('.') + it.key();
            const QJsonValue value = it.value();
            QString problem;
            if (it.key() == QLatin1String("kind")) {
                continue;
            } else if (it.key() == QLatin1String("name")) {
                rule.name = value.toString();
                if (!value.isString() || rule.name.trimmed().isEmpty() ||
                    rule.name != rule.name.trimmed())
                    return failure(QStringLiteral("%1: %2 is not a name (text without outer "
                                                  "spaces)")
                                       .arg(field, jsonText(value)));
            } else if (it.key() == QLatin1String("enabled")) {
                if (!value.isBool())
                    return failure(
                        QStringLiteral("%1: %2 is not true or false").arg(field, jsonText(value)));
                rule.enabled = value.toBool();
            } else if (it.key() == QLatin1String("severity")) {
                const std::optional<AlertSeverity> severity = parseSeverity(value.toString());
                if (!value.isString() || !severity)
                    return failure(QStringLiteral("%1: %2 is not warning or critical")
                                       .arg(field, jsonText(value)));
                rule.severity = *severity;
            } else if (it.key() == QLatin1String("forSeconds")) {
                const std::optional<qint64> ms = secondsField(value, kMaxForMs, &problem);
                if (!ms)
                    return failure(field + QStringLiteral(": ") + problem);
                rule.forMs = *ms;
            } else if (it.key() == QLatin1String("keepFiringSeconds")) {
                const std::optional<qint64> ms = secondsField(value, kMaxKeepFiringMs, &problem);
                if (!ms)
                    return failure(field + QStringLiteral(": ") + problem);
                rule.keepFiringMs = *ms;
            } else {
                const AlertParameter *parameter = nullptr;
                QStringList known{QStringLiteral("name"), QStringLiteral("enabled"),
                                  QStringLiteral("severity"), QStringLiteral("forSeconds"),
                                  QStringLiteral("keepFiringSeconds")};
                for (const AlertParameter &p : info.parameters) {
                    known << QString::fromLatin1(p.key);
                    if (it.key() == QLatin1String(p.key))
                        parameter = &p;
                }
                if (!parameter)
                    return failure(QStringLiteral("%1: unknown field for a %2 rule (it has %3)")
                                       .arg(field, QString::fromLatin1(info.name),
                                            known.join(QStringLiteral(", "))));
                const double number = value.toDouble(std::nan(""));
                if (!value.isDouble() || !std::isfinite(number) || number < parameter->minimum ||
                    number > parameter->maximum ||
                    (parameter->whole && number != std::floor(number)))
                    return failure(QStringLiteral("%1: %2 is not a%3 number %4")
                                       .arg(field, jsonText(value),
                                            parameter->whole ? QStringLiteral(" whole") : QString(),
                                            parameter->maximum >= kHuge
                                                ? QStringLiteral("of at least %1")
                                                      .arg(numberText(parameter->minimum))
                                                : QStringLiteral("from %1 to %2")
                                                      .arg(numberText(parameter->minimum),
                                                           numberText(parameter->maximum))));
                rule.parameters.insert(it.key(), number);
            }
        }
        if (ids.contains(rule.id()))
            return failure(QStringLiteral("%1: a second rule called \"%2\" (give each rule of one "
                                          "kind its own \"name\")")
                               .arg(path, rule.id()));
        ids.insert(rule.id());
        set.rules.append(rule);
    }
    return {set, {}};
}

QString alertRuleTitle(AlertKind kind) {
    return RuleText::tr(alertKindInfo(kind).title);
}

QString formatAlertDuration(qint64 ms, const QLocale &locale) {
    if (ms < 2 * kMinute && ms % kSecond == 0)
        return RuleText::tr("%1 s").arg(locale.toString(ms / kSecond));
    if (ms < 2 * kMinute)
        return RuleText::tr("%1 s").arg(locale.toString(double(ms) / kSecond, 'g', 3));
    if (ms < 2 * 60 * kMinute)
        return RuleText::tr("%1 min").arg(locale.toString(double(ms) / kMinute, 'g', 3));
    return RuleText::tr("%1 h").arg(locale.toString(double(ms) / (60 * kMinute), 'g', 3));
}

QString explainAlertRule(const AlertRule &rule, const QLocale &locale) {
    auto number = [&](const char *key) { return locale.toString(rule.parameter(key), 'g', 6); };
    auto seconds = [&](const char *key) {
        return formatAlertDuration(qint64(rule.parameter(key) * 1000), locale);
    };
    switch (rule.kind) {
    case AlertKind::PoolEmpty:
        return RuleText::tr("The pool has no member: every allocation returns nil.");
    case AlertKind::PoolSmall:
        return RuleText::tr(
                   "Fewer than %1 members in the pool (but not none): each one left takes a large "
                   "share of the load.")
            .arg(number("minMembers"));
    case AlertKind::EvictedShare:
        return RuleText::tr(
                   "At least %1% of the pool's members are evicted (a guard at its default cap "
                   "evicts no more).")
            .arg(number("maxPercent"));
    case AlertKind::MemberFlood:
        return RuleText::tr(
                   "One member takes more than %1% of the last window's allocations (at least %2 "
                   "of them, %3 members or more): the flood after a restore at count 0.")
            .arg(number("maxSharePercent"), number("minAllocations"), number("minMembers"));
    case AlertKind::MemberStarved:
        return RuleText::tr(
                   "A member has had no allocation for %1 while the pool made at least %2 per "
                   "member: its count is far above the others'.")
            .arg(seconds("idleSeconds"), number("minRounds"));
    case AlertKind::SpreadHigh:
        return RuleText::tr("The highest and the lowest count are more than %1 apart.")
            .arg(number("maxSpread"));
    case AlertKind::JainLow:
        return RuleText::tr("Jain's fairness index of the counts is below %1.")
            .arg(number("minJain"));
    case AlertKind::WorkersStopped:
        return RuleText::tr(
            "No allocation at all while the pool has members: the workers have stopped or "
            "cannot reach Redis.");
    case AlertKind::RateChanged:
        return RuleText::tr(
                   "The allocation rate is %1 times above or below its baseline (the minutes "
                   "before; at least %2 allocations/s).")
            .arg(number("factor"), number("minBaselineRate"));
    case AlertKind::GuardCapped:
        return RuleText::tr(
            "The guard holds back evictions at its cap: the target or the network looks "
            "down.");
    case AlertKind::GuardLeaseLost:
        return RuleText::tr(
            "A guard watched this pool in the last day, but none holds its lease now: dead "
            "members are neither evicted nor restored.");
    case AlertKind::Unreachable:
        return RuleText::tr("The Redis server cannot be reached.");
    case AlertKind::Failover:
        return RuleText::tr(
                   "The pool moved to another server: the Sentinel primary changed or the cluster "
                   "slot moved (reported for %1).")
            .arg(seconds("recentSeconds"));
    }
    return {};
}

} // namespace poolscope
