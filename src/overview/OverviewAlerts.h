#pragma once

#include "alerts/AlertEngine.h"
#include "overview/OverviewTypes.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace poolscope {

// The overview's active alerts column: the default alert rules judged on each row's own bounded
// readings (no read of its own). A row's facts are what the overview knows of the pool: whether
// its server answered, its size, evicted members, min / median / max, spread, Jain (small pools),
// allocations per second and the guard's lease. Rules that need members' own allocations (flood,
// starved), a baseline (rate changed) or failovers see those facts as unknown and never fire
// here; the pool's own tab judges them.
class OverviewAlerts {
public:
    explicit OverviewAlerts(AlertRuleSet rules = AlertRuleSet::defaults());

    struct Verdict {
        QString connection;
        QByteArray pool;
        QStringList firing; // the firing rules' titles, worst first
    };
    // Judges every row at NOWMS; one verdict per pool row (placeholders and rows of connections
    // that cannot be polled have none). Rows no longer listed are forgotten.
    QList<Verdict> evaluate(const QList<OverviewRow> &rows, qint64 nowMs);

    // What a row tells the rules, for the tests.
    static AlertFacts factsOf(const OverviewRow &row, qint64 nowMs, qint64 observedSinceMs,
                              std::optional<qint64> unreachableSinceMs, bool guardSeen);

private:
    struct Pool {
        AlertEngine engine;
        qint64 observedSinceMs = -1;
        std::optional<qint64> unreachableSinceMs;
        bool guardSeen = false;
    };
    AlertRuleSet m_rules;
    QHash<QString, Pool> m_pools; // by OverviewRow::id()
};

} // namespace poolscope
