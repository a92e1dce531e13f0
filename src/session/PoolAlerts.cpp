#include "session/PoolAlerts.h"

#include "health/HealthTypes.h"
#include "session/PoolHealth.h"
#include "session/PoolSession.h"

#include <QDateTime>

namespace poolscope {

PoolAlerts::PoolAlerts(PoolSession *session)
    : m_session(session)
    , m_builder(session->poolKey()) {
    qRegisterMetaType<poolscope::AlertTransition>("poolscope::AlertTransition");
    m_timer.setInterval(kEvaluateIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &PoolAlerts::evaluateNow);
    connect(session, &PoolSession::targetChanged, this, &PoolAlerts::targetChanged);
    connect(session, &PoolSession::stateChanged, this, &PoolAlerts::stateChanged);
    connect(session, &PoolSession::observationApplied, this,
            [this](const PoolObservation &observation) {
                if (!isLive() || m_preparing)
                    return;
                m_builder.observe(observation);
                evaluateNow();
            });
    connect(&session->health(), &PoolHealth::guardStatusRead, this, &PoolAlerts::guardStatusRead);
}

PoolAlerts::~PoolAlerts() = default;

bool PoolAlerts::isLive() const {
    return m_session->hasTarget() && !m_session->isShowingRecording();
}

QString PoolAlerts::poolText() const {
    return tr("%1 on %2")
        .arg(m_session->displayText(QString::fromUtf8(m_session->poolKey())),
             m_session->endpoint().toDisplayString());
}

void PoolAlerts::setRules(const AlertRuleSet &rules) {
    if (rules == m_engine.rules())
        return;
    apply(m_engine.setRules(rules, QDateTime::currentMSecsSinceEpoch()));
    if (isLive())
        evaluateNow();
    Q_EMIT activeAlertsChanged();
}

void PoolAlerts::targetChanged() {
    // Another pool, or none: what was firing for the old one ends, and its facts are forgotten.
    apply(m_engine.reset(QDateTime::currentMSecsSinceEpoch()), false);
    m_builder = AlertFactsBuilder(m_session->poolKey());
    m_preparing = false;
    if (isLive())
        m_timer.start();
    else
        m_timer.stop();
    Q_EMIT activeAlertsChanged();
}

void PoolAlerts::setPreparing(bool preparing) {
    if (preparing == m_preparing)
        return;
    m_preparing = preparing;
    if (!preparing && isLive())
        evaluateNow();
}

void PoolAlerts::stateChanged() {
    if (!isLive() || m_preparing)
        return;
    const ConnectionState state = m_session->state();
    if (state == ConnectionState::Reconnecting || state == ConnectionState::Disconnected) {
        const QString reason = m_session->pollFailure();
        m_builder.observeUnreachable(QDateTime::currentMSecsSinceEpoch(),
                                     reason.isEmpty() ? connectionStateName(state) : reason);
        evaluateNow();
    }
}

void PoolAlerts::guardStatusRead(const GuardStatus &status) {
    if (!isLive() || m_preparing)
        return;
    m_builder.observeGuard(QDateTime::currentMSecsSinceEpoch(), status);
}

void PoolAlerts::evaluateNow() {
    // Paused: no poll comes, and facts that stand still are no news (no rate is no stopped
    // workers); judging resumes with the next poll.
    if (!isLive() || m_session->isPaused() || m_preparing)
        return;
    const QList<AlertTransition> transitions =
        m_engine.evaluate(m_builder.facts(QDateTime::currentMSecsSinceEpoch()));
    apply(transitions);
    // The active alerts' figures move with every evaluation, so their view is told each time.
    if (!transitions.isEmpty() || !m_engine.active().isEmpty())
        Q_EMIT activeAlertsChanged();
}

void PoolAlerts::apply(const QList<AlertTransition> &transitions, bool record) {
    for (const AlertTransition &transition : transitions) {
        if (!record) { // the pool they were about is no longer watched: no event, no marker
            if (transition.kind == AlertTransition::Kind::Resolved)
                Q_EMIT alertResolved(transition);
            continue;
        }
        const QString title = alertRuleTitle(transition.rule.kind);
        const QString message = m_session->displayText(transition.check.message);
        if (transition.kind == AlertTransition::Kind::Fired) {
            const QString text = tr("alert fired: %1: %2").arg(title, message);
            m_session->log(transition.rule.severity == AlertSeverity::Critical
                               ? LogSeverity::Error
                               : LogSeverity::Warning,
                           QStringLiteral("alert"), text);
            m_session->addHistoryEvent(HistoryEvent::Kind::Note, transition.check.member,
                                       tr("alert: %1").arg(title), transition.timeMs);
            Q_EMIT alertFired(transition);
        } else if (transition.kind == AlertTransition::Kind::Resolved) {
            m_session->log(LogSeverity::Info, QStringLiteral("alert"),
                           tr("alert resolved: %1").arg(title));
            m_session->addHistoryEvent(HistoryEvent::Kind::Note, transition.check.member,
                                       tr("resolved: %1").arg(title), transition.timeMs);
            Q_EMIT alertResolved(transition);
        }
    }
}

} // namespace poolscope
