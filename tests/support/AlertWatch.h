// Shared by the alert tests against real servers: a pool watched the way the dashboard's session
// will watch it. A PoolMonitor polls every 100 ms and feeds an AlertFactsBuilder; an AlertEngine
// judges every poll, every loss of the connection and, on a 100 ms timer (so that an outage's
// for-duration can pass without polls), the facts of now. Transitions are kept in order.
#pragma once

#include "alerts/AlertEngine.h"
#include "alerts/AlertFactsBuilder.h"
#include "health/HealthStore.h"
#include "monitor/PoolMonitor.h"
#include "base/RedisError.h"

#include <chrono>
#include <memory>

#include <QDateTime>
#include <QObject>
#include <QStringList>
#include <QTimer>

namespace poolscope::testing {

class AlertWatch {
public:
    AlertWatch(const Endpoint &endpoint, const QByteArray &key, const AlertRuleSet &rules,
               AlertFactsBuilder::Options options)
        : m_key(key)
        , m_builder(key, options)
        , m_engine(rules) {
        using namespace std::chrono_literals;
        QObject::connect(&m_monitor, &PoolMonitor::observationArrived, &m_context,
                         [this](const PoolObservation &observation) {
                             m_builder.observe(observation);
                             ++m_polls;
                             evaluate();
                         });
        QObject::connect(&m_monitor, &PoolMonitor::stateChanged, &m_context,
                         [this](ConnectionState state, const QString &detail) {
                             if (state == ConnectionState::Reconnecting ||
                                 state == ConnectionState::Disconnected) {
                                 m_builder.observeUnreachable(now(), detail);
                                 evaluate();
                             }
                         });
        QObject::connect(&m_timer, &QTimer::timeout, &m_context, [this] {
            readGuard();
            evaluate();
        });
        m_timer.start(100ms);
        m_monitor.setPollInterval(100ms);
        m_monitor.connectTo(endpoint, key);
    }

    // Reads the guard's lease and cap on every timer tick, over this connection.
    void watchGuard(std::unique_ptr<RedisConnection> connection) {
        m_guardConnection = std::move(connection);
    }

    int count(const QString &ruleId, AlertTransition::Kind kind) const {
        int n = 0;
        for (const AlertTransition &t : m_transitions)
            n += t.rule.id() == ruleId && t.kind == kind;
        return n;
    }
    bool saw(const QString &ruleId, AlertTransition::Kind kind) const {
        return count(ruleId, kind) > 0;
    }
    bool firing(const QString &ruleId) const {
        for (const AlertStatus &status : m_engine.statuses())
            if (status.rule.id() == ruleId)
                return status.state == AlertState::Firing;
        return false;
    }
    int polls() const { return m_polls; }
    AlertFacts facts() const { return m_builder.facts(now()); }
    const QList<AlertTransition> &transitions() const { return m_transitions; }
    // For failure messages: every transition, and what each rule saw last.
    QString log() const {
        QStringList lines;
        for (const AlertTransition &t : m_transitions)
            lines << QStringLiteral("%1 %2 +%3 ms: %4")
                         .arg(transitionKindName(t.kind), t.rule.id())
                         .arg(t.timeMs - m_started)
                         .arg(t.check.message);
        for (const AlertStatus &status : m_engine.statuses())
            lines << QStringLiteral("now %1 %2: %3")
                         .arg(status.rule.id(), alertStateName(status.state), status.check.message);
        return lines.join(u'\n');
    }

private:
    static qint64 now() { return QDateTime::currentMSecsSinceEpoch(); }
    void evaluate() { m_transitions += m_engine.evaluate(m_builder.facts(now())); }
    void readGuard() {
        if (!m_guardConnection)
            return;
        try {
            HealthStore store(*m_guardConnection, PoolKeys(m_key));
            m_builder.observeGuard(now(), store.guardStatus());
        } catch (const RedisError &) {
            m_guardConnection.reset(); // the guard rules stay unknown
        }
    }

    QByteArray m_key;
    AlertFactsBuilder m_builder;
    AlertEngine m_engine;
    std::unique_ptr<RedisConnection> m_guardConnection;
    QList<AlertTransition> m_transitions;
    qint64 m_started = now();
    int m_polls = 0;
    PoolMonitor m_monitor;
    QTimer m_timer;
    QObject m_context; // the receiver of the connections: gone first, so nothing calls in late
};

} // namespace poolscope::testing
