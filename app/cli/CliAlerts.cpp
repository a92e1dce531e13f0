// poolscope-cli alert-check: the alert rules judged once on a short window of polls, as a
// monitoring plugin (Nagios, Icinga, Sensu) reports it: one status line with performance data,
// exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
#include "CliApp.h"

#include "alerts/AlertEngine.h"
#include "alerts/AlertFactsBuilder.h"
#include "health/HealthStore.h"
#include "monitor/PoolMonitor.h"
#include "text/MemberText.h"
#include "pool/PoolKeys.h"
#include "base/RedisError.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QTimer>

namespace poolscope::cli {

namespace {

enum PluginStatus { kPluginOk = 0, kPluginWarning = 1, kPluginCritical = 2, kPluginUnknown = 3 };

const char *statusWord(int status) {
    static const char *words[] = {"OK", "WARNING", "CRITICAL", "UNKNOWN"};
    return words[std::clamp(status, 0, 3)];
}

qint64 nowMs() {
    return QDateTime::currentMSecsSinceEpoch();
}

// Plugin output is one line, and '|' starts the performance data: a member or a server's words
// holding either would break it.
QString oneLine(QString text) {
    text.replace(u'|', QStringLiteral("\\x7c"));
    text.replace(u'\n', u' ');
    text.replace(u'\r', u' ');
    return text;
}

// A perfdata number: C locale, no exponent, at most `decimals` digits after the point.
QString plain(double value, int decimals = 3) {
    QString text = QString::number(value, 'f', decimals);
    if (text.contains(u'.')) {
        while (text.endsWith(u'0'))
            text.chop(1);
        if (text.endsWith(u'.'))
            text.chop(1);
    }
    return text;
}

// One 'label'=value[UOM];warn;crit;min;max item; empty thresholds are left empty.
struct PerfItem {
    QString label;
    double value = 0;
    QString unit;
    QString warn, crit;
    QString min, max;
    QString text() const {
        QString item = QStringLiteral("'%1'=%2%3;%4;%5;%6;%7")
                           .arg(label, plain(value), unit, warn, crit, min, max);
        while (item.endsWith(u';'))
            item.chop(1);
        return item;
    }
};

// The enabled rule of a kind with the strictest threshold for a severity, as a plugin range:
// "N:" alerts below N, "N" above N.
QString threshold(const AlertRuleSet &rules, AlertKind kind, AlertSeverity severity,
                  const char *parameter, bool below) {
    std::optional<double> strictest;
    for (const AlertRule &rule : rules.rules) {
        if (!rule.enabled || rule.kind != kind || rule.severity != severity)
            continue;
        const double value = kind == AlertKind::PoolEmpty ? 1.0 : rule.parameter(parameter);
        if (!strictest || (below ? value > *strictest : value < *strictest))
            strictest = value;
    }
    if (!strictest)
        return {};
    return below ? plain(*strictest) + u':' : plain(*strictest);
}

QString perfdata(const AlertFacts &facts, const AlertRuleSet &rules) {
    if (!facts.polled)
        return {};
    auto slot = [&rules](AlertSeverity severity, std::initializer_list<AlertKind> kinds,
                         const char *parameter, bool below) {
        QString strictest;
        for (const AlertKind kind : kinds) {
            const QString range = threshold(rules, kind, severity, parameter, below);
            // Of "1:" (pool empty) and "5:" (pool small), the larger floor alerts first.
            if (strictest.isEmpty() ||
                (!range.isEmpty() && range.chopped(1).toDouble() > strictest.chopped(1).toDouble()))
                strictest = range.isEmpty() ? strictest : range;
        }
        return strictest;
    };
    QList<PerfItem> items;
    const std::initializer_list<AlertKind> size{AlertKind::PoolEmpty, AlertKind::PoolSmall};
    items.append({QStringLiteral("members"),
                  double(facts.members),
                  {},
                  slot(AlertSeverity::Warning, size, "minMembers", true),
                  slot(AlertSeverity::Critical, size, "minMembers", true),
                  QStringLiteral("0"),
                  {}});
    items.append(
        {QStringLiteral("evicted"), double(facts.evicted), {}, {}, {}, QStringLiteral("0"), {}});
    const qint64 all = facts.members + facts.evicted;
    items.append(
        {QStringLiteral("evicted_share"),
         all > 0 ? 100.0 * double(facts.evicted) / double(all) : 0.0, QStringLiteral("%"),
         threshold(rules, AlertKind::EvictedShare, AlertSeverity::Warning, "maxPercent", false),
         threshold(rules, AlertKind::EvictedShare, AlertSeverity::Critical, "maxPercent", false),
         QStringLiteral("0"), QStringLiteral("100")});
    items.append(
        {QStringLiteral("spread"),
         facts.spread,
         {},
         threshold(rules, AlertKind::SpreadHigh, AlertSeverity::Warning, "maxSpread", false),
         threshold(rules, AlertKind::SpreadHigh, AlertSeverity::Critical, "maxSpread", false),
         QStringLiteral("0"),
         {}});
    if (facts.jain)
        items.append(
            {QStringLiteral("jain"),
             *facts.jain,
             {},
             threshold(rules, AlertKind::JainLow, AlertSeverity::Warning, "minJain", true),
             threshold(rules, AlertKind::JainLow, AlertSeverity::Critical, "minJain", true),
             QStringLiteral("0"),
             QStringLiteral("1")});
    // Allocations per second: the plugin units have none for a rate, so the label says it.
    if (facts.ratePerSecond)
        items.append({QStringLiteral("rate_per_s"),
                      *facts.ratePerSecond,
                      {},
                      {},
                      {},
                      QStringLiteral("0"),
                      {}});
    if (facts.ratePerSecond && facts.windowAllocations > 0 && facts.busiest)
        items.append({QStringLiteral("busiest_share"),
                      100.0 * facts.busiest->allocations / facts.windowAllocations,
                      QStringLiteral("%"),
                      threshold(rules, AlertKind::MemberFlood, AlertSeverity::Warning,
                                "maxSharePercent", false),
                      threshold(rules, AlertKind::MemberFlood, AlertSeverity::Critical,
                                "maxSharePercent", false),
                      QStringLiteral("0"), QStringLiteral("100")});
    QStringList texts;
    for (const PerfItem &item : std::as_const(items))
        texts << item.text();
    return texts.join(u' ');
}

QJsonObject alertJson(const AlertStatus &status) {
    QJsonObject object{{QStringLiteral("rule"), status.rule.id()},
                       {QStringLiteral("kind"), alertKindName(status.rule.kind)},
                       {QStringLiteral("severity"), severityName(status.rule.severity)},
                       {QStringLiteral("state"), status.check.condition == AlertCondition::Unknown
                                                     ? QStringLiteral("unknown")
                                                     : alertStateName(status.state)},
                       {QStringLiteral("value"), status.check.value
                                                     ? QJsonValue(*status.check.value)
                                                     : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("message"), status.check.message}};
    if (!status.check.member.isEmpty())
        object.insert(QStringLiteral("member"), alertMemberText(status.check.member));
    return object;
}

} // namespace

QString alertCheckHelp() {
    QString help = QStringLiteral(
        "Usage: poolscope-cli [connection options] alert-check [--rules FILE] [--window SECONDS]\n"
        "                     [--interval MS] [--json] [--print-rules]\n\n"
        "Polls the pool for SECONDS (default 5, every MS: default a tenth of the window, 100 to\n"
        "1000 ms), judges the alert rules once on what the polls saw, and answers as a monitoring\n"
        "plugin (Nagios, Icinga, Sensu): one line \"POOLSCOPE OK|WARNING|CRITICAL - ...\" with\n"
        "performance data after '|', the firing and unjudged rules on the lines after it, and\n"
        "exit 0 OK, 1 WARNING (a warning rule fires), 2 CRITICAL (a critical rule fires),\n"
        "3 UNKNOWN (bad options or rules file, the pool never answered). --json prints a JSON\n"
        "report instead, with the same exit code.\n\n"
        "One look cannot wait for a rule's for-duration: a rule fires when its condition holds\n"
        "at the end of the window, and a time inside a condition (a starved member's idle time)\n"
        "is shortened to the window. Let the monitoring system's retries stand for the for\n"
        "(Nagios max_check_attempts x retry_interval, Icinga's soft states, Sensu's occurrences\n"
        "filter). Rules that need minutes of polls (rate-changed) or a failover seen live are\n"
        "only judged by the dashboard.\n\n"
        "Rules (the defaults, without --rules; --profile NAME uses the rules saved with it;\n"
        "--print-rules prints the rules in force as a JSON rules file):\n");
    const QString indent(20, u' ');
    for (const AlertRule &rule : AlertRuleSet::defaults().rules) {
        help += QStringLiteral("  %1%2, for %3, keeps firing %4\n")
                    .arg(alertKindName(rule.kind).leftJustified(18), severityName(rule.severity),
                         formatAlertDuration(rule.forMs), formatAlertDuration(rule.keepFiringMs));
        QString line = indent;
        for (const QString &word : explainAlertRule(rule).split(u' ')) {
            if (line.size() + word.size() > 92) {
                help += line.trimmed().prepend(indent) + u'\n';
                line = indent;
            }
            line += word + u' ';
        }
        help += line.trimmed().prepend(indent) + u'\n';
    }
    return help;
}

int Cli::pluginUnknown(const QString &kind, const QString &problem) {
    if (m_json)
        printJson({{QStringLiteral("status"), QStringLiteral("UNKNOWN")},
                   {QStringLiteral("exit_code"), kPluginUnknown},
                   {QStringLiteral("error"), problem},
                   {QStringLiteral("kind"), kind}});
    else
        m_out << "POOLSCOPE UNKNOWN - " << oneLine(problem) << '\n';
    return kPluginUnknown;
}

AlertRuleSet Cli::alertRules() {
    if (m_parser.isSet(QStringLiteral("rules"))) {
        const QString path = m_parser.value(QStringLiteral("rules"));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            throw UsageError(QStringLiteral("rules file %1: cannot read it (%2)")
                                 .arg(path, file.errorString())
                                 .toStdString());
        const AlertRulesParse parsed = parseAlertRules(file.readAll());
        if (!parsed.ok())
            throw UsageError(
                QStringLiteral("rules file %1: %2").arg(path, parsed.error).toStdString());
        return *parsed.rules;
    }
    if (const ConnectionProfile *saved = profile())
        return saved->alertRulesFor(poolKey());
    return AlertRuleSet::defaults();
}

int Cli::alertCheck(const QStringList &args) {
    try {
        if (!args.isEmpty())
            throw UsageError("alert-check takes no positional arguments");
        const AlertRuleSet rules = alertRules();
        if (m_parser.isSet(QStringLiteral("print-rules"))) {
            m_out << rules.toJson();
            return kPluginOk;
        }
        const double windowSeconds = numberOption(QStringLiteral("window"), 5, 0.2, 600);
        const qint64 windowMs = qint64(std::llround(windowSeconds * 1000));
        const int intervalMs = m_parser.isSet(QStringLiteral("interval"))
                                   ? wholeOption(QStringLiteral("interval"), 1000, 10, 3600 * 1000)
                                   : int(std::clamp<qint64>(windowMs / 10, 100, 1000));
        const qint64 threshold = wholeOption(QStringLiteral("full-snapshot-threshold"), 10000, 1,
                                             std::numeric_limits<int>::max());
        auto [endpoint, options] = target();
        const QByteArray key = poolKey();
        return checkPool(rules, endpoint, options, key, windowMs, intervalMs, threshold);
    } catch (const UsageError &e) {
        return pluginUnknown(QStringLiteral("usage"), QString::fromUtf8(e.what()));
    } catch (const RedisError &e) {
        return pluginUnknown(QStringLiteral("connection"), e.message());
    }
}

int Cli::checkPool(const AlertRuleSet &rules, const Endpoint &endpoint, ConnectionOptions options,
                   const QByteArray &key, qint64 windowMs, int intervalMs,
                   qint64 fullSnapshotThreshold) {
    // The rate window is the whole check, so the rates and shares cover every poll.
    AlertFactsBuilder::Options factOptions;
    factOptions.windowMs = windowMs;
    AlertFactsBuilder builder(key, factOptions);
    options.clientName = QStringLiteral("poolscope-poller");
    PoolMonitor monitor;
    monitor.setPollInterval(std::chrono::milliseconds(intervalMs));
    monitor.setFullSnapshotThreshold(fullSnapshotThreshold);
    QEventLoop loop;
    int polls = 0;
    QString problem;
    bool refused = false;
    QObject::connect(&monitor, &PoolMonitor::observationArrived, &loop,
                     [&](const PoolObservation &observation) {
                         builder.observe(observation);
                         ++polls;
                     });
    QObject::connect(&monitor, &PoolMonitor::stateChanged, &loop,
                     [&](ConnectionState state, const QString &detail) {
                         if (state == ConnectionState::Reconnecting ||
                             state == ConnectionState::Disconnected) {
                             builder.observeUnreachable(nowMs(), detail);
                             if (!detail.isEmpty())
                                 problem = detail;
                         }
                     });
    QObject::connect(&monitor, &PoolMonitor::pollFailed, &loop,
                     [&problem](const Failure &failure) { problem = failure.text; });
    QObject::connect(&monitor, &PoolMonitor::authenticationFailed, &loop,
                     [&](const Failure &failure) {
                         problem = failure.text;
                         refused = true;
                         loop.quit();
                     });
    const InterruptGuard interrupt;
    QTimer interruptCheck;
    QObject::connect(&interruptCheck, &QTimer::timeout, &loop, [&] {
        if (g_interrupted.load())
            loop.quit();
    });
    interruptCheck.start(100);
    QTimer::singleShot(std::chrono::milliseconds(windowMs), &loop, &QEventLoop::quit);
    monitor.connectTo(endpoint, key, options);
    loop.exec();
    QObject::disconnect(&monitor, nullptr, &loop, nullptr); // our own disconnect is no outage
    monitor.disconnectFromServer();
    if (g_interrupted.load())
        return pluginUnknown(QStringLiteral("interrupted"),
                             QStringLiteral("interrupted before the window ended"));
    if (refused)
        return pluginUnknown(QStringLiteral("authentication"), problem);
    if (polls == 0)
        return pluginUnknown(
            QStringLiteral("connection"),
            QStringLiteral("no poll of pool %1 succeeded in %2 s%3")
                .arg(quotedKey(key), plain(double(windowMs) / 1000.0),
                     problem.isEmpty() ? QString() : QStringLiteral(": ") + problem));
    // The guard's lease and cap, read once at the end; a user who may not read them leaves the
    // guard rules unjudged rather than failing the check.
    QString guardProblem;
    try {
        const auto connection = RedisConnection::open(endpoint, options);
        HealthStore store(*connection, PoolKeys(key));
        builder.observeGuard(nowMs(), store.guardStatus());
    } catch (const RedisError &e) {
        guardProblem = e.message();
    }
    return reportCheck(rules, builder.facts(nowMs()), windowMs, polls, guardProblem);
}

int Cli::reportCheck(const AlertRuleSet &rules, const AlertFacts &facts, qint64 windowMs, int polls,
                     const QString &guardProblem) {
    QList<AlertStatus> judged = AlertEngine::judgeOnce(rules, facts);
    // Critical first, then the rules' order.
    std::stable_sort(judged.begin(), judged.end(), [](const AlertStatus &a, const AlertStatus &b) {
        return a.rule.severity == AlertSeverity::Critical &&
               b.rule.severity != AlertSeverity::Critical;
    });
    int status = kPluginOk;
    QStringList firing, details;
    for (const AlertStatus &alert : std::as_const(judged)) {
        if (alert.state == AlertState::Firing) {
            status = std::max<int>(status, alert.rule.severity == AlertSeverity::Critical
                                               ? kPluginCritical
                                               : kPluginWarning);
            firing << alert.check.message;
            details << QStringLiteral("[%1] %2: %3")
                           .arg(severityName(alert.rule.severity).toUpper(), alert.rule.id(),
                                alert.check.message);
        } else if (alert.check.condition == AlertCondition::Unknown) {
            const QString why =
                guardProblem.isEmpty() || (alert.rule.kind != AlertKind::GuardCapped &&
                                           alert.rule.kind != AlertKind::GuardLeaseLost)
                    ? alert.check.message
                    : guardProblem;
            details << QStringLiteral("[not judged] %1: %2").arg(alert.rule.id(), why);
        }
    }
    QString summary;
    if (firing.isEmpty()) {
        summary = QStringLiteral("pool %1: %2 members, %3 evicted")
                      .arg(quotedKey(facts.poolKey))
                      .arg(facts.members)
                      .arg(facts.evicted);
        if (facts.ratePerSecond)
            summary += QStringLiteral(", %1 allocations/s").arg(plain(*facts.ratePerSecond, 1));
        if (facts.jain)
            summary += QStringLiteral(", Jain %1").arg(plain(*facts.jain, 4));
    } else {
        summary = firing.join(QStringLiteral("; "));
    }
    const QString perf = perfdata(facts, rules);
    if (m_json) {
        QJsonArray alerts;
        for (const AlertStatus &alert : std::as_const(judged))
            alerts.append(alertJson(alert));
        printJson({{QStringLiteral("status"), QString::fromLatin1(statusWord(status))},
                   {QStringLiteral("exit_code"), status},
                   {QStringLiteral("pool"), memberText(facts.poolKey)},
                   {QStringLiteral("summary"), summary},
                   {QStringLiteral("window_s"), double(windowMs) / 1000.0},
                   {QStringLiteral("polls"), polls},
                   {QStringLiteral("alerts"), alerts},
                   {QStringLiteral("perfdata"), perf},
                   {QStringLiteral("facts"), facts.toJson()}});
        return status;
    }
    m_out << "POOLSCOPE " << statusWord(status) << " - " << oneLine(summary);
    if (!perf.isEmpty())
        m_out << " | " << perf;
    m_out << '\n';
    for (const QString &line : std::as_const(details))
        m_out << oneLine(line) << '\n';
    return status;
}

} // namespace poolscope::cli
