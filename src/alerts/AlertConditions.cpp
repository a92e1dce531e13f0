// checkAlertRule: each kind's condition on the facts, and the sentence that says what was found.
#include "alerts/AlertEngine.h"

#include "text/MemberText.h"

#include <algorithm>

#include <QCoreApplication>

namespace poolscope {

namespace {

// The context lupdate gives the texts of this file.
struct ConditionText {
    Q_DECLARE_TR_FUNCTIONS(poolscope::Alerts)
};

AlertCheck result(AlertCondition condition, std::optional<double> value, QString message,
                  QByteArray member = {}) {
    return {condition, value, std::move(member), std::move(message)};
}

AlertCheck unknown(QString why) {
    return {AlertCondition::Unknown, std::nullopt, {}, std::move(why)};
}

AlertCondition metIf(bool met) {
    return met ? AlertCondition::Met : AlertCondition::Clear;
}

class Checker {
public:
    Checker(const AlertRule &rule, const AlertFacts &facts, AlertCheckMode mode,
            const QLocale &locale)
        : r(rule)
        , f(facts)
        , m_mode(mode)
        , m_locale(locale)
        , m_pool(u'"' + memberText(facts.poolKey) + u'"') {}

    AlertCheck check() const {
        switch (r.kind) {
        case AlertKind::Unreachable:
            return unreachable();
        case AlertKind::Failover:
            return failover();
        default:
            break;
        }
        if (!f.reachable)
            return unknown(f.unreachableSinceMs
                               ? ConditionText::tr("the server cannot be reached: nothing is "
                                                   "known of the pool now")
                               : ConditionText::tr("not connected yet"));
        switch (r.kind) {
        case AlertKind::GuardCapped:
        case AlertKind::GuardLeaseLost:
            return guard();
        default:
            break;
        }
        if (!f.polled)
            return unknown(ConditionText::tr("no poll yet"));
        switch (r.kind) {
        case AlertKind::PoolEmpty:
            return result(
                metIf(f.members == 0), double(f.members),
                f.members == 0
                    ? ConditionText::tr("pool %1 is empty: every allocation returns nil")
                          .arg(m_pool)
                    : ConditionText::tr("pool %1 has %2 members").arg(m_pool, number(f.members)));
        case AlertKind::PoolSmall:
            return poolSmall();
        case AlertKind::EvictedShare:
            return evictedShare();
        case AlertKind::MemberFlood:
            return flood();
        case AlertKind::MemberStarved:
            return starved();
        case AlertKind::SpreadHigh:
            return result(
                metIf(f.members > 0 && f.spread > r.parameter("maxSpread")), f.spread,
                ConditionText::tr("counts spread by %1 (highest %2, lowest %3; at most %4)")
                    .arg(number(f.spread), number(f.max), number(f.min),
                         number(r.parameter("maxSpread"))));
        case AlertKind::JainLow:
            if (!f.jain)
                return unknown(ConditionText::tr(
                    "Jain's index unknown until the first totals scan is through"));
            return result(
                metIf(f.members > 0 && *f.jain < r.parameter("minJain")), *f.jain,
                ConditionText::tr("Jain's fairness index %1 (at least %2)")
                    .arg(m_locale.toString(*f.jain, 'f', 4), number(r.parameter("minJain"))));
        case AlertKind::WorkersStopped:
            return workersStopped();
        case AlertKind::RateChanged:
            return rateChanged();
        default:
            return unknown({});
        }
    }

private:
    QString number(double value) const { return m_locale.toString(value, 'g', 6); }
    QString percent(double share) const { return m_locale.toString(share, 'f', 1) + u'%'; }
    QString duration(qint64 ms) const { return formatAlertDuration(ms, m_locale); }

    AlertCheck poolSmall() const {
        const double least = r.parameter("minMembers");
        return result(metIf(f.members > 0 && double(f.members) < least), double(f.members),
                      ConditionText::tr("pool %1 has %2 members (at least %3 wanted)")
                          .arg(m_pool, number(f.members), number(least)));
    }

    AlertCheck evictedShare() const {
        const qint64 all = f.members + f.evicted;
        const double share = all > 0 ? 100.0 * double(f.evicted) / double(all) : 0.0;
        return result(metIf(f.evicted > 0 && share >= r.parameter("maxPercent")), share,
                      ConditionText::tr("%1 of the members evicted (%2 of %3; below %4% wanted)")
                          .arg(percent(share), number(f.evicted), number(all),
                               number(r.parameter("maxPercent"))));
    }

    AlertCheck flood() const {
        if (!f.ratePerSecond)
            return unknown(ConditionText::tr("no allocations measured yet (two polls are needed)"));
        const double fewest = r.parameter("minMembers");
        const double least = r.parameter("minAllocations");
        if (double(f.members) < fewest)
            return result(
                AlertCondition::Clear, std::nullopt,
                ConditionText::tr("%1 members: too few to tell a flood").arg(number(f.members)));
        if (f.windowAllocations < least || !f.busiest)
            return result(
                AlertCondition::Clear, std::nullopt,
                ConditionText::tr("%1 allocations in the last %2: too few to tell a flood")
                    .arg(number(f.windowAllocations), duration(f.coveredMs)));
        const double share = 100.0 * f.busiest->allocations / f.windowAllocations;
        return result(metIf(share > r.parameter("maxSharePercent")), share,
                      ConditionText::tr(
                          "%1 took %2 of the last %3's allocations (%4 of %5; at most %6% wanted)")
                          .arg(alertMemberText(f.busiest->member), percent(share),
                               duration(f.coveredMs), number(f.busiest->allocations),
                               number(f.windowAllocations), number(r.parameter("maxSharePercent"))),
                      f.busiest->member);
    }

    AlertCheck starved() const {
        qint64 threshold = qint64(r.parameter("idleSeconds") * 1000);
        if (m_mode == AlertCheckMode::OneShot)
            threshold = std::min(threshold, f.pollTimeMs - f.observedSinceMs);
        if (threshold <= 0)
            return unknown(ConditionText::tr("one poll only: no member can be seen idle yet"));
        if (f.idle.isEmpty() || f.members < 2)
            return result(AlertCondition::Clear, std::nullopt,
                          ConditionText::tr("no member starves"));
        const IdleMember &worst = f.idle.first();
        const double rounds = r.parameter("minRounds") * double(f.members);
        const bool met = worst.idleMs >= threshold && worst.poolAllocationsSince > 0 &&
                         worst.poolAllocationsSince >= rounds;
        return result(metIf(met), double(worst.idleMs) / 1000.0,
                      ConditionText::tr(
                          "%1 has had no allocation for %2 while the pool made %3 (starved after "
                          "%4 and %5)")
                          .arg(alertMemberText(worst.member), duration(worst.idleMs),
                               number(worst.poolAllocationsSince), duration(threshold),
                               number(rounds)),
                      worst.member);
    }

    AlertCheck workersStopped() const {
        if (f.members == 0)
            return result(AlertCondition::Clear, std::nullopt,
                          ConditionText::tr("the pool is empty: nothing to allocate"));
        if (!f.ratePerSecond)
            return unknown(ConditionText::tr("no allocations measured yet (two polls are needed)"));
        return result(
            metIf(f.windowAllocations <= 0), *f.ratePerSecond,
            ConditionText::tr("%1 allocations in the last %2 (%3/s)")
                .arg(number(f.windowAllocations), duration(f.coveredMs), number(*f.ratePerSecond)));
    }

    AlertCheck rateChanged() const {
        if (!f.ratePerSecond || !f.baselineRate)
            return unknown(ConditionText::tr("no baseline yet (it takes minutes of polls)"));
        const double baseline = *f.baselineRate;
        const double rate = *f.ratePerSecond;
        const QString text = ConditionText::tr("%1 allocations/s now, %2/s before")
                                 .arg(number(rate), number(baseline));
        if (baseline < r.parameter("minBaselineRate") || rate <= 0)
            return result(AlertCondition::Clear, std::nullopt, text);
        const double ratio = rate / baseline;
        const double factor = r.parameter("factor");
        return result(metIf(ratio >= factor || ratio <= 1.0 / factor), ratio, text);
    }

    AlertCheck guard() const {
        if (!f.guard)
            return unknown(ConditionText::tr("the guard's lease and events were not read"));
        const GuardFacts &g = *f.guard;
        if (!g.seen)
            return result(AlertCondition::Clear, std::nullopt,
                          ConditionText::tr("no guard watches this pool"));
        if (r.kind == AlertKind::GuardCapped)
            return result(metIf(g.capped), std::nullopt,
                          g.capped
                              ? ConditionText::tr("the guard holds back evictions at its cap: %1")
                                    .arg(g.capReason)
                              : ConditionText::tr("the guard is not held back"));
        return result(
            metIf(!g.leaseHeld), std::nullopt,
            g.leaseHeld
                ? ConditionText::tr("guard %1 holds the lease").arg(QString::fromUtf8(g.holder))
                : ConditionText::tr("no guard holds the lease on pool %1").arg(m_pool));
    }

    AlertCheck unreachable() const {
        if (f.reachable)
            return result(AlertCondition::Clear, 0.0, ConditionText::tr("the server answers"));
        if (!f.unreachableSinceMs)
            return unknown(ConditionText::tr("not connected yet"));
        const qint64 down = std::max<qint64>(0, f.timeMs - *f.unreachableSinceMs);
        return result(AlertCondition::Met, double(down) / 1000.0,
                      ConditionText::tr("the server has not answered for %1: %2")
                          .arg(duration(down), f.unreachableReason));
    }

    AlertCheck failover() const {
        const qint64 recent = qint64(r.parameter("recentSeconds") * 1000);
        if (!f.lastFailover)
            return result(AlertCondition::Clear, std::nullopt,
                          ConditionText::tr("no failover seen"));
        const FailoverFact &last = *f.lastFailover;
        const qint64 ago = std::max<qint64>(0, f.timeMs - last.timeMs);
        const QString text =
            last.kind == FailoverFact::Kind::PrimaryChanged
                ? ConditionText::tr("the Sentinel primary changed from %1 to %2 %3 ago")
                      .arg(last.from, last.to, duration(ago))
                : ConditionText::tr("the pool's cluster slot moved from %1 to %2 %3 ago")
                      .arg(last.from, last.to, duration(ago));
        return result(metIf(ago < recent), double(ago) / 1000.0, text);
    }

    const AlertRule &r;
    const AlertFacts &f;
    AlertCheckMode m_mode;
    const QLocale &m_locale;
    QString m_pool;
};

} // namespace

AlertCheck checkAlertRule(const AlertRule &rule, const AlertFacts &facts, AlertCheckMode mode,
                          const QLocale &locale) {
    return Checker(rule, facts, mode, locale).check();
}

} // namespace poolscope
