#include "overview/OverviewAlerts.h"

#include <algorithm>

#include <QCoreApplication>
#include <QSet>

namespace poolscope {

OverviewAlerts::OverviewAlerts(AlertRuleSet rules)
    : m_rules(std::move(rules)) {}

AlertFacts OverviewAlerts::factsOf(const OverviewRow &row, qint64 nowMs, qint64 observedSinceMs,
                                   std::optional<qint64> unreachableSinceMs, bool guardSeen) {
    AlertFacts facts;
    facts.timeMs = nowMs;
    facts.poolKey = row.pool;
    facts.observedSinceMs = observedSinceMs;
    switch (row.state) {
    case RowState::Ok:
        facts.reachable = true;
        break;
    case RowState::Unreachable:
    case RowState::NodeUnreachable:
        facts.reachable = false;
        facts.unreachableSinceMs = unreachableSinceMs;
        facts.unreachableReason = row.problem;
        break;
    default: // waiting, not a pool, not polled: nothing known yet
        break;
    }
    facts.polled = row.hasFigures && row.state == RowState::Ok;
    if (!facts.polled)
        return facts;
    facts.pollTimeMs = row.lastGoodPollMs;
    facts.members = row.members;
    facts.evicted = row.evicted;
    facts.min = row.minimum;
    facts.median = row.median;
    facts.max = row.maximum;
    facts.spread = row.spread();
    facts.jain = row.jainIndex;
    facts.summaryMode = !row.jainIndex.has_value();
    if (row.allocationRate && !row.rateEstimated) {
        // The rate between the last two readings stands for the rule's window.
        facts.windowMs = 10000;
        facts.coveredMs = facts.windowMs;
        facts.ratePerSecond = row.allocationRate;
        facts.windowAllocations = *row.allocationRate * double(facts.windowMs) / 1000.0;
    }
    if (row.guardKnown) {
        GuardFacts guard;
        guard.leaseHeld = !row.guardHolder.isEmpty();
        guard.holder = row.guardHolder;
        guard.seen = guardSeen || guard.leaseHeld;
        facts.guard = guard;
    }
    return facts;
}

QList<OverviewAlerts::Verdict> OverviewAlerts::evaluate(const QList<OverviewRow> &rows,
                                                        qint64 nowMs) {
    QList<Verdict> verdicts;
    QSet<QString> listed;
    for (const OverviewRow &row : rows) {
        if (row.placeholder || row.pool.isEmpty() || row.state == RowState::NotPolled)
            continue;
        const QString id = row.id();
        listed.insert(id);
        auto found = m_pools.find(id);
        if (found == m_pools.end())
            found = m_pools.insert(id, Pool{AlertEngine(m_rules), nowMs, std::nullopt, false});
        Pool &pool = *found;
        const bool unreachable =
            row.state == RowState::Unreachable || row.state == RowState::NodeUnreachable;
        if (!unreachable)
            pool.unreachableSinceMs.reset();
        else if (!pool.unreachableSinceMs)
            pool.unreachableSinceMs = nowMs;
        if (row.guardKnown && !row.guardHolder.isEmpty())
            pool.guardSeen = true;
        pool.engine.evaluate(
            factsOf(row, nowMs, pool.observedSinceMs, pool.unreachableSinceMs, pool.guardSeen));
        QList<AlertStatus> firing;
        for (const AlertStatus &status : pool.engine.statuses())
            if (status.state == AlertState::Firing)
                firing.append(status);
        std::stable_sort(firing.begin(), firing.end(), [](const auto &a, const auto &b) {
            return a.rule.severity == AlertSeverity::Critical &&
                   b.rule.severity != AlertSeverity::Critical;
        });
        Verdict verdict{row.connection, row.pool, {}};
        for (const AlertStatus &status : firing)
            verdict.firing.append(
                status.rule.name.isEmpty()
                    ? QCoreApplication::translate("poolscope::AlertRules",
                                                  alertKindInfo(status.rule.kind).title)
                    : status.rule.name);
        verdicts.append(verdict);
    }
    for (auto it = m_pools.begin(); it != m_pools.end();)
        it = listed.contains(it.key()) ? std::next(it) : m_pools.erase(it);
    return verdicts;
}

} // namespace poolscope
