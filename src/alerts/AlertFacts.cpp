#include "alerts/AlertFacts.h"

#include "text/CredentialMask.h"
#include "text/MemberText.h"

#include <QJsonArray>

namespace poolscope {

namespace {

QJsonValue optionalNumber(const std::optional<double> &value) {
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

} // namespace

QString alertMemberText(const QByteArray &member) {
    return maskCredentials(memberText(member));
}

QJsonObject AlertFacts::toJson() const {
    QJsonObject object{{QStringLiteral("time_ms"), timeMs},
                       {QStringLiteral("reachable"), reachable},
                       {QStringLiteral("polled"), polled}};
    if (unreachableSinceMs) {
        object.insert(QStringLiteral("unreachable_since_ms"), *unreachableSinceMs);
        object.insert(QStringLiteral("unreachable_reason"), unreachableReason);
    }
    if (polled) {
        object.insert(QStringLiteral("poll_time_ms"), pollTimeMs);
        object.insert(QStringLiteral("members"), members);
        object.insert(QStringLiteral("evicted"), evicted);
        object.insert(QStringLiteral("min"), min);
        object.insert(QStringLiteral("median"), median);
        object.insert(QStringLiteral("max"), max);
        object.insert(QStringLiteral("spread"), spread);
        object.insert(QStringLiteral("jain"), optionalNumber(jain));
        object.insert(QStringLiteral("summary_mode"), summaryMode);
    }
    object.insert(QStringLiteral("window_ms"), windowMs);
    object.insert(QStringLiteral("covered_ms"), coveredMs);
    object.insert(QStringLiteral("rate_per_s"), optionalNumber(ratePerSecond));
    object.insert(QStringLiteral("window_allocations"), windowAllocations);
    if (busiest)
        object.insert(QStringLiteral("busiest"),
                      QJsonObject{{QStringLiteral("member"), alertMemberText(busiest->member)},
                                  {QStringLiteral("allocations"), busiest->allocations}});
    QJsonArray idleMembers;
    for (const IdleMember &member : idle)
        idleMembers.append(
            QJsonObject{{QStringLiteral("member"), alertMemberText(member.member)},
                        {QStringLiteral("idle_ms"), member.idleMs},
                        {QStringLiteral("pool_allocations_since"), member.poolAllocationsSince}});
    object.insert(QStringLiteral("idle"), idleMembers);
    object.insert(QStringLiteral("baseline_rate_per_s"), optionalNumber(baselineRate));
    if (guard)
        object.insert(QStringLiteral("guard"),
                      QJsonObject{{QStringLiteral("seen"), guard->seen},
                                  {QStringLiteral("lease_held"), guard->leaseHeld},
                                  {QStringLiteral("holder"), QString::fromUtf8(guard->holder)},
                                  {QStringLiteral("capped"), guard->capped}});
    if (lastFailover)
        object.insert(QStringLiteral("last_failover"),
                      QJsonObject{{QStringLiteral("kind"),
                                   lastFailover->kind == FailoverFact::Kind::PrimaryChanged
                                       ? QStringLiteral("primary-changed")
                                       : QStringLiteral("slot-moved")},
                                  {QStringLiteral("time_ms"), lastFailover->timeMs},
                                  {QStringLiteral("from"), lastFailover->from},
                                  {QStringLiteral("to"), lastFailover->to}});
    return object;
}

} // namespace poolscope
