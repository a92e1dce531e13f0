#include "alerts/AlertEngine.h"

#include <algorithm>

namespace poolscope {

namespace {

AlertTransition transition(AlertTransition::Kind kind, const AlertStatus &status, qint64 timeMs,
                           qint64 sinceMs) {
    return {kind, status.rule, timeMs, sinceMs, status.check};
}

QList<AlertStatus> freshStatuses(const AlertRuleSet &rules) {
    QList<AlertStatus> statuses;
    for (const AlertRule &rule : rules.rules)
        if (rule.enabled)
            statuses.append(AlertStatus{rule, AlertState::Inactive, -1, -1, -1, {}});
    return statuses;
}

} // namespace

QString alertStateName(AlertState state) {
    switch (state) {
    case AlertState::Inactive:
        return QStringLiteral("ok");
    case AlertState::Pending:
        return QStringLiteral("pending");
    case AlertState::Firing:
        return QStringLiteral("firing");
    }
    return {};
}

QString transitionKindName(AlertTransition::Kind kind) {
    switch (kind) {
    case AlertTransition::Kind::Pending:
        return QStringLiteral("pending");
    case AlertTransition::Kind::Fired:
        return QStringLiteral("fired");
    case AlertTransition::Kind::Resolved:
        return QStringLiteral("resolved");
    case AlertTransition::Kind::Cleared:
        return QStringLiteral("cleared");
    }
    return {};
}

AlertEngine::AlertEngine(AlertRuleSet rules)
    : m_rules(std::move(rules))
    , m_statuses(freshStatuses(m_rules)) {}

QList<AlertTransition> AlertEngine::setRules(const AlertRuleSet &rules, qint64 nowMs) {
    QList<AlertStatus> next = freshStatuses(rules);
    QList<AlertStatus> ending;
    for (const AlertStatus &old : std::as_const(m_statuses)) {
        const auto kept = std::find_if(next.begin(), next.end(),
                                       [&old](const AlertStatus &s) { return s.rule == old.rule; });
        if (kept != next.end())
            *kept = old;
        else
            ending.append(old);
    }
    m_rules = rules;
    m_statuses = next;
    return endAll(ending, nowMs);
}

QList<AlertTransition> AlertEngine::reset(qint64 nowMs) {
    const QList<AlertStatus> ending = m_statuses;
    m_statuses = freshStatuses(m_rules);
    return endAll(ending, nowMs);
}

QList<AlertTransition> AlertEngine::endAll(const QList<AlertStatus> &ending, qint64 nowMs) {
    QList<AlertTransition> transitions;
    for (const AlertStatus &status : ending) {
        if (status.state == AlertState::Firing)
            transitions.append(
                transition(AlertTransition::Kind::Resolved, status, nowMs, status.firingSinceMs));
        else if (status.state == AlertState::Pending)
            transitions.append(
                transition(AlertTransition::Kind::Cleared, status, nowMs, status.activeSinceMs));
    }
    return transitions;
}

QList<AlertTransition> AlertEngine::evaluate(const AlertFacts &facts) {
    QList<AlertTransition> transitions;
    const qint64 now = facts.timeMs;
    for (AlertStatus &status : m_statuses) {
        status.check = checkAlertRule(status.rule, facts);
        const AlertCondition condition = status.check.condition;
        auto fire = [&] {
            status.state = AlertState::Firing;
            status.firingSinceMs = now;
            status.clearSinceMs = -1;
            transitions.append(transition(AlertTransition::Kind::Fired, status, now, now));
        };
        switch (status.state) {
        case AlertState::Inactive:
            if (condition != AlertCondition::Met)
                break;
            status.activeSinceMs = now;
            if (status.rule.forMs <= 0) {
                fire();
            } else {
                status.state = AlertState::Pending;
                transitions.append(transition(AlertTransition::Kind::Pending, status, now, now));
            }
            break;
        case AlertState::Pending:
            if (condition == AlertCondition::Met) {
                if (now - status.activeSinceMs >= status.rule.forMs)
                    fire();
            } else {
                transitions.append(
                    transition(AlertTransition::Kind::Cleared, status, now, status.activeSinceMs));
                status.state = AlertState::Inactive;
                status.activeSinceMs = -1;
            }
            break;
        case AlertState::Firing:
            if (condition == AlertCondition::Met) {
                status.clearSinceMs = -1;
            } else if (condition == AlertCondition::Clear) {
                if (status.clearSinceMs < 0)
                    status.clearSinceMs = now;
                if (now - status.clearSinceMs >= status.rule.keepFiringMs) {
                    transitions.append(transition(AlertTransition::Kind::Resolved, status, now,
                                                  status.firingSinceMs));
                    status.state = AlertState::Inactive;
                    status.activeSinceMs = status.firingSinceMs = status.clearSinceMs = -1;
                }
            }
            break;
        }
    }
    return transitions;
}

QList<AlertStatus> AlertEngine::active() const {
    QList<AlertStatus> active;
    for (const AlertStatus &status : m_statuses)
        if (status.state != AlertState::Inactive)
            active.append(status);
    return active;
}

std::optional<AlertSeverity> AlertEngine::worstFiring() const {
    std::optional<AlertSeverity> worst;
    for (const AlertStatus &status : m_statuses)
        if (status.state == AlertState::Firing &&
            (!worst || status.rule.severity == AlertSeverity::Critical))
            worst = status.rule.severity;
    return worst;
}

QList<AlertStatus> AlertEngine::judgeOnce(const AlertRuleSet &rules, const AlertFacts &facts,
                                          const QLocale &locale) {
    QList<AlertStatus> statuses = freshStatuses(rules);
    for (AlertStatus &status : statuses) {
        status.check = checkAlertRule(status.rule, facts, AlertCheckMode::OneShot, locale);
        if (status.check.condition == AlertCondition::Met) {
            status.state = AlertState::Firing;
            status.activeSinceMs = status.firingSinceMs = facts.timeMs;
        }
    }
    return statuses;
}

} // namespace poolscope
