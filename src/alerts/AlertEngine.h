#pragma once

#include "alerts/AlertFacts.h"
#include "alerts/AlertRules.h"

#include <optional>

#include <QList>
#include <QLocale>
#include <QString>

namespace poolscope {

// Whether a rule's condition holds on the facts. Unknown: the facts cannot tell (no poll yet, the
// server unreachable, no rate or baseline yet, no guard read).
enum class AlertCondition { Unknown, Clear, Met };

// Continuous: the dashboard's session, fed poll after poll. OneShot: one look at the facts of a
// short window (`alert-check`): the rule's own time thresholds (a starved member's idle time) are
// shortened to the time the polls span, so "no allocation for T" reads "none in the window".
enum class AlertCheckMode { Continuous, OneShot };

struct AlertCheck {
    AlertCondition condition = AlertCondition::Unknown;
    std::optional<double> value; // the figure compared with the threshold (members, %, ...)
    QByteArray member;           // flood and starved: the member concerned
    QString message;             // one line for people, credentials masked
};

// The rule's condition on the facts, with the figure and a sentence saying what was found.
// Messages go through QCoreApplication::translate (context "poolscope::Alerts").
AlertCheck checkAlertRule(const AlertRule &rule, const AlertFacts &facts,
                          AlertCheckMode mode = AlertCheckMode::Continuous,
                          const QLocale &locale = QLocale::c());

enum class AlertState { Inactive, Pending, Firing };
QString alertStateName(AlertState state); // "ok", "pending", "firing"

struct AlertStatus {
    AlertRule rule;
    AlertState state = AlertState::Inactive;
    qint64 activeSinceMs = -1; // the condition has been met since (pending and firing)
    qint64 firingSinceMs = -1;
    qint64 clearSinceMs = -1; // firing, but the condition has been clear since (resolving)
    AlertCheck check;         // the last check
};

struct AlertTransition {
    enum class Kind {
        Pending,  // the condition is met; it fires if it still is after the rule's for
        Fired,    // for the notification, the event and the chart marker
        Resolved, // clear for the rule's keep-firing time (or the rule was changed or removed)
        Cleared,  // pending, then clear again before it fired: nothing to tell anyone
    };
    Kind kind = Kind::Pending;
    AlertRule rule;
    qint64 timeMs = 0;
    qint64 sinceMs = 0; // Fired, Resolved: when it began firing; Pending, Cleared: when met
    AlertCheck check;
};
QString transitionKindName(AlertTransition::Kind kind); // "pending", "fired", ...

// The alerts of one pool: each enabled rule's state machine, Inactive -> Pending -> Firing ->
// (resolved) Inactive, advanced by evaluate() on each new AlertFacts.
//
// - Firing needs the condition met on every evaluation for the rule's forMs (0: at the first
//   one). A condition that clears while pending starts over: a flicker never fires.
// - Resolving needs the condition clear on every evaluation for the rule's keepFiringMs; met
//   again in that time, the alert goes on firing as one alert: a flicker never resolves and fires
//   again.
// - Unknown (the server unreachable, say) changes nothing for a firing alert, and sends a pending
//   one back to the start: an alert fires on what was seen, never on a gap.
// Pure logic: no clock (time comes in the facts), no I/O, no signals; the session that owns an
// engine per watched pool turns the transitions into events, markers and notifications.
class AlertEngine {
public:
    explicit AlertEngine(AlertRuleSet rules = AlertRuleSet::defaults());

    // Rules unchanged keep their state; an alert of a rule changed, disabled or removed ends
    // (Resolved when it was firing, Cleared when pending).
    QList<AlertTransition> setRules(const AlertRuleSet &rules, qint64 nowMs);
    const AlertRuleSet &rules() const { return m_rules; }

    QList<AlertTransition> evaluate(const AlertFacts &facts);
    // Every alert ends (another server or pool is watched now).
    QList<AlertTransition> reset(qint64 nowMs);

    // One per enabled rule, in the rules' order.
    const QList<AlertStatus> &statuses() const { return m_statuses; }
    // Pending and firing ones.
    QList<AlertStatus> active() const;
    std::optional<AlertSeverity> worstFiring() const;

    // One look, no state (`alert-check`): every enabled rule checked in OneShot mode, firing
    // when its condition is met (its for is not waited for: the check's window stands for it).
    static QList<AlertStatus> judgeOnce(const AlertRuleSet &rules, const AlertFacts &facts,
                                        const QLocale &locale = QLocale::c());

private:
    QList<AlertTransition> endAll(const QList<AlertStatus> &ending, qint64 nowMs);

    AlertRuleSet m_rules;
    QList<AlertStatus> m_statuses;
};

} // namespace poolscope
