#pragma once

#include "alerts/AlertEngine.h"
#include "alerts/AlertFactsBuilder.h"

#include <QObject>
#include <QTimer>

namespace poolscope {

class PoolSession;
struct GuardStatus;

// A watched pool's alerts, below the widget line (owned by PoolSession): every observation, every
// loss of the connection and every guard status the session's health reads bring go to an
// AlertFactsBuilder, and an AlertEngine judges the facts at each of them and on a timer (so a
// rule's "for" runs out and an unreachable server is noticed between polls). The rules are the
// connection's profile's for this pool (set by whoever connects), the defaults otherwise. Fired
// and resolved alerts are also logged and marked on the chart by the session; the dashboard adds
// the desktop notification. Recordings are not judged: their polls are not live.
class PoolAlerts : public QObject {
    Q_OBJECT

public:
    static constexpr int kEvaluateIntervalMs = 1000;

    explicit PoolAlerts(PoolSession *session);
    ~PoolAlerts() override;

    // The rules of the watched pool. Alerts of changed or removed rules end.
    void setRules(const AlertRuleSet &rules);
    const AlertRuleSet &rules() const { return m_engine.rules(); }

    // One per enabled rule, in the rules' order, with its state and its last check.
    const QList<AlertStatus> &statuses() const { return m_engine.statuses(); }
    // Pending and firing alerts.
    QList<AlertStatus> active() const { return m_engine.active(); }
    std::optional<AlertSeverity> worstFiring() const { return m_engine.worstFiring(); }

    // Judges now (the timer does it every kEvaluateIntervalMs while a live pool is watched).
    void evaluateNow();
    // A pool being prepared (the demo seeding its empty pool) is not judged, and its polls are
    // not facts, until the preparer says it is ready: an empty pool about to be seeded is no
    // alert. Ends by itself when the session watches another pool.
    void setPreparing(bool preparing);
    bool isPreparing() const { return m_preparing; }
    // How the pool is named in notifications: "proxies on 127.0.0.1:6379".
    QString poolText() const;

Q_SIGNALS:
    void alertFired(const poolscope::AlertTransition &transition);
    void alertResolved(const poolscope::AlertTransition &transition);
    // active() or the figures of a status changed (after every evaluation that changed them).
    void activeAlertsChanged();

private:
    void targetChanged();
    void stateChanged();
    void guardStatusRead(const GuardStatus &status);
    // record: log them and mark them on the chart.
    void apply(const QList<AlertTransition> &transitions, bool record = true);
    bool isLive() const;

    PoolSession *m_session;
    AlertEngine m_engine;
    AlertFactsBuilder m_builder;
    QTimer m_timer;
    bool m_preparing = false;
};

} // namespace poolscope
