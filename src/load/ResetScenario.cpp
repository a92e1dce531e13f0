#include "load/ResetScenario.h"

#include "audit/AuditActor.h"
#include "base/BrokenPipe.h"
#include "base/RedisError.h"
#include "pool/LuaScript.h"
#include "pool/PoolOperations.h"
#include "text/MemberText.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <thread>
#include <vector>

#include <QDateTime>
#include <QHash>
#include <QJsonArray>

namespace poolscope {
namespace {

// Why the scenario's seed, evict and restore happened, for the pool's audit trail.
const QString kScenarioReason = QStringLiteral("count-reset demo (scenario reset)");

using Clock = std::chrono::steady_clock;

constexpr int kMinMembers = 2;
constexpr int kMaxMembers = 1000;
constexpr double kMaxRate = 1e6;
constexpr auto kProgressInterval = std::chrono::milliseconds(100);
constexpr auto kBucket = std::chrono::milliseconds(250);
constexpr auto kShareWindow = std::chrono::seconds(10);
// A stalled server must not be answered with a burst: give up lost slots beyond this.
constexpr auto kMaxLag = std::chrono::milliseconds(100);

struct Allocation {
    Clock::duration at; // since the start of the load
    int member;         // index into the seeded names; -1 for a member we did not seed
};

RedisError usage(const QString &message) {
    return RedisError(RedisError::Kind::Usage, message);
}

void validate(const ResetScenarioSpec &spec) {
    if (spec.poolKey.isEmpty())
        throw usage(QStringLiteral("the pool key is empty: name the sorted set to use"));
    if (spec.members < kMinMembers || spec.members > kMaxMembers)
        throw usage(QStringLiteral("the scenario needs %1-%2 members, not %3")
                        .arg(kMinMembers)
                        .arg(kMaxMembers)
                        .arg(spec.members));
    if (!std::isfinite(spec.ratePerSecond) || spec.ratePerSecond <= 0 ||
        spec.ratePerSecond > kMaxRate)
        throw usage(QStringLiteral("the rate must be more than 0 and at most %1 allocations per "
                                   "second")
                        .arg(kMaxRate, 0, 'f', 0));
    if (spec.before.count() < 2 || spec.after.count() < 1)
        throw usage(QStringLiteral("the scenario needs some time before and after the restore"));
    if (const QString problem = validateCount(spec.startCount); !problem.isEmpty())
        throw usage(QStringLiteral("bad starting count: %1").arg(problem));
}

QList<QByteArray> memberNames(int count) {
    // Zero-padded so that member order (the tie-break) is numeric order.
    const int width = std::max(2, static_cast<int>(QByteArray::number(count - 1).size()));
    QList<QByteArray> names;
    for (int i = 0; i < count; ++i)
        names.append("proxy-" + QByteArray::number(i).rightJustified(width, '0'));
    return names;
}

double seconds(Clock::duration duration) {
    return std::chrono::duration<double>(duration).count();
}

// Deletes the pool at the key (after checking that it is one) or refuses to touch it.
void requireFreshPool(RedisConnection &connection, PoolOperations &pool, bool replace) {
    pool.checkKeyTypes(); // never delete a key that is not a pool
    const QList<RedisReply> sizes =
        connection.pipeline({{"ZCARD", pool.keys().pool()}, {"HLEN", pool.keys().evicted()}});
    for (const RedisReply &reply : sizes)
        if (reply.isError())
            pool.throwServerError(reply, QStringLiteral("checking that the pool is new"));
    const qint64 members = sizes[0].integer;
    const qint64 evicted = sizes[1].integer;
    if (members == 0 && evicted == 0)
        return;
    if (!replace)
        throw usage(QStringLiteral("pool \"%1\" already has %2 members and %3 evicted: the "
                                   "scenario seeds a fresh pool; choose another key or replace it")
                        .arg(QString::fromUtf8(pool.keys().pool()))
                        .arg(members)
                        .arg(evicted));
    const RedisReply deleted =
        connection.command({"DEL", pool.keys().pool(), pool.keys().evicted()});
    if (deleted.isError())
        pool.throwServerError(deleted, QStringLiteral("deleting the old pool"));
}

struct RestoreOutcome {
    double savedCount = 0;
    double restoredCount = 0;
    QHash<QByteArray, double> others; // every other member's count at that moment
};

// Reads the pool and restores the member in one MULTI, so the forecast is computed from the
// counts exactly as they were when the restore happened.
RestoreOutcome restoreAtomically(RedisConnection &connection, PoolOperations &pool,
                                 const QByteArray &member, RestorePolicy policy,
                                 double startCount) {
    const PoolKeys &keys = pool.keys();
    // EVAL rather than EVALSHA: inside MULTI a NOSCRIPT could not be retried.
    const QList<RedisReply> replies = connection.pipeline(
        {{"MULTI"},
         {"ZRANGE", keys.pool(), "0", "-1", "WITHSCORES"},
         // No marks hash: the scenario's own evict (an operator's) dropped any guard's mark.
         LuaScript::restore().evalCommand({keys.pool(), keys.evicted(), keys.audit()},
                                          pool.auditArguments(kScenarioReason) +
                                              QList<QByteArray>{member, auditShownMember(member),
                                                                restorePolicyName(policy).toUtf8(),
                                                                formatCount(startCount).toUtf8()}),
         {"EXEC"}});
    const QString during = QStringLiteral("restoring %1").arg(describeMember(member));
    for (const RedisReply &reply : replies)
        if (reply.isError())
            pool.throwServerError(reply, during);
    const RedisReply &exec = replies.last();
    if (exec.elements.size() != 2)
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("%1: the transaction was aborted").arg(during));
    const RedisReply &counts = exec.elements[0];
    const RedisReply &restored = exec.elements[1];
    if (counts.isError())
        pool.throwServerError(counts, during);
    if (restored.isError())
        pool.throwServerError(restored, during);
    if (restored.elements.value(0).text != "restored")
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("%1: the member was not evicted any more (%2)")
                             .arg(during, QString::fromUtf8(restored.elements.value(0).text)));
    RestoreOutcome outcome;
    outcome.restoredCount = restored.elements.value(1).toDouble();
    outcome.savedCount = restored.elements.value(2).toDouble();
    for (qsizetype i = 0; i + 1 < counts.elements.size(); i += 2)
        outcome.others.insert(counts.elements[i].text, counts.elements[i + 1].toDouble());
    return outcome;
}

// Everything measured from the allocation replies after the restore.
void analyse(ResetScenarioReport &report, const std::vector<Allocation> &allocations,
             size_t restoredIndex, Clock::duration restoredAt, int restoredMember,
             const QList<QByteArray> &names, const RestoreOutcome &outcome,
             Clock::duration shareWindow) {
    qint64 run = 0;
    qint64 inWindow = 0;
    qint64 inWindowToMember = 0;
    for (size_t i = restoredIndex; i < allocations.size(); ++i) {
        const bool toMember = allocations[i].member == restoredMember;
        run = toMember ? run + 1 : 0;
        report.longestRun = std::max(report.longestRun, run);
        report.toRestoredMemberAfterRestore += toMember ? 1 : 0;
        if (allocations[i].at - restoredAt <= shareWindow) {
            ++inWindow;
            inWindowToMember += toMember ? 1 : 0;
        }
    }
    report.allocationsAfterRestore = static_cast<qint64>(allocations.size() - restoredIndex);
    report.shareInWindow = inWindow > 0 ? double(inWindowToMember) / double(inWindow) : 0;

    // Replay the counts: the pool is ours alone, so they follow the replies exactly.
    std::vector<double> counts(static_cast<size_t>(names.size()), 0);
    std::multiset<double> others;
    for (int i = 0; i < names.size(); ++i) {
        if (i == restoredMember)
            continue;
        counts[static_cast<size_t>(i)] = outcome.others.value(names[i]);
        others.insert(counts[static_cast<size_t>(i)]);
    }
    double member = outcome.restoredCount;
    const auto caughtUp = [&] {
        return others.empty() || std::fabs(member - *others.begin()) <= 1;
    };
    if (caughtUp()) {
        report.catchUpSeconds = 0;
        return;
    }
    for (size_t i = restoredIndex; i < allocations.size(); ++i) {
        const int index = allocations[i].member;
        if (index == restoredMember) {
            member += 1;
        } else if (index >= 0) {
            double &count = counts[static_cast<size_t>(index)];
            others.erase(others.find(count));
            count += 1;
            others.insert(count);
        }
        if (caughtUp()) {
            report.catchUpSeconds = seconds(allocations[i].at - restoredAt);
            return;
        }
    }
}

} // namespace

ResetScenarioReport runResetScenario(const ResetScenarioSpec &spec,
                                     const ResetScenarioProgressCallback &progress,
                                     const std::atomic<bool> *cancel) {
    validate(spec);
    const BrokenPipeGuard brokenPipeGuard;
    ConnectionOptions options = spec.connection;
    options.clientName = QStringLiteral("poolscope-scenario");
    const std::unique_ptr<RedisConnection> connection =
        RedisConnection::open(spec.endpoint, options);
    PoolOperations pool(*connection, spec.poolKey);
    pool.setActor(spec.actor);
    requireFreshPool(*connection, pool, spec.replace);

    const QList<QByteArray> names = memberNames(spec.members);
    SeedOptions seedOptions;
    seedOptions.startCount = spec.startCount;
    seedOptions.reason = kScenarioReason;
    pool.seed(names, seedOptions);
    QHash<QByteArray, int> indexOf;
    for (int i = 0; i < names.size(); ++i)
        indexOf.insert(names[i], i);
    // Ties go to the lower name, so the last member never wins one: the run it takes after a
    // reset is exactly the forecast, not one more.
    const int restoredMember = static_cast<int>(names.size()) - 1;

    ResetScenarioReport report;
    report.poolKey = spec.poolKey;
    report.members = spec.members;
    report.member = names[restoredMember];
    report.policy = spec.policy;
    report.ratePerSecond = spec.ratePerSecond;
    report.startCount = spec.startCount;
    report.fairShare = 1.0 / spec.members;
    const Clock::duration shareWindow = std::min<Clock::duration>(
        kShareWindow, std::chrono::duration_cast<Clock::duration>(spec.after));
    report.shareWindowSeconds = seconds(shareWindow);

    const LuaScript &script = LuaScript::allocate();
    script.load(*connection);
    const RedisCommand evalSha = script.evalShaCommand({spec.poolKey});
    const RedisCommand eval = script.evalCommand({spec.poolKey});

    std::vector<Allocation> allocations;
    allocations.reserve(static_cast<size_t>(
        std::min(1e7, spec.ratePerSecond * seconds(spec.before + spec.after) * 1.1 + 16)));
    RestoreOutcome outcome;
    size_t restoredIndex = 0;
    Clock::duration restoredAt{};
    bool evicted = false;
    bool restored = false;
    qint64 toMemberSinceRestore = 0;

    const Clock::time_point start = Clock::now();
    const Clock::time_point evictAt = start + spec.before / 2;
    const Clock::time_point restoreAt = start + spec.before;
    const Clock::time_point end = restoreAt + spec.after;
    const auto interval = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(1.0 / spec.ratePerSecond));
    Clock::time_point nextAllocation = start;
    Clock::time_point nextProgress = start;
    const double totalSeconds = seconds(end - start);

    const auto report_progress = [&](ResetScenarioProgress::Phase phase, Clock::time_point now) {
        if (!progress)
            return;
        ResetScenarioProgress step;
        step.phase = phase;
        step.elapsedSeconds = seconds(now - start);
        step.totalSeconds = totalSeconds;
        step.allocations = static_cast<qint64>(allocations.size());
        step.restoredMemberAllocations = toMemberSinceRestore;
        progress(step);
    };
    const auto currentPhase = [&] {
        return restored  ? ResetScenarioProgress::Phase::Restored
               : evicted ? ResetScenarioProgress::Phase::Evicted
                         : ResetScenarioProgress::Phase::Running;
    };

    Clock::time_point now = start;
    for (;;) {
        now = Clock::now();
        if (cancel && cancel->load()) {
            report.cancelled = true;
            break;
        }
        if (!evicted && now >= evictAt) {
            const EvictResult result = pool.evict(report.member, {}, kScenarioReason);
            report.savedCount = result.savedCount;
            report.evictedAtSeconds = seconds(now - start);
            report.evictedAtEpochMs = QDateTime::currentMSecsSinceEpoch();
            evicted = true;
            report_progress(ResetScenarioProgress::Phase::Evicted, now);
        }
        if (evicted && !restored && now >= restoreAt) {
            outcome =
                restoreAtomically(*connection, pool, report.member, spec.policy, spec.startCount);
            restoredAt = Clock::now() - start;
            restoredIndex = allocations.size();
            report.restoredAtSeconds = seconds(restoredAt);
            report.restoredAtEpochMs = QDateTime::currentMSecsSinceEpoch();
            report.savedCount = outcome.savedCount;
            report.restoredCount = outcome.restoredCount;
            double minimum = outcome.restoredCount;
            if (!outcome.others.isEmpty())
                minimum = *std::min_element(outcome.others.cbegin(), outcome.others.cend());
            report.poolMinimumAtRestore = minimum;
            report.forecastRun = std::max(0.0, minimum - outcome.restoredCount);
            restored = true;
            report_progress(ResetScenarioProgress::Phase::Restored, now);
        }
        if (now >= end)
            break;
        if (now >= nextAllocation) {
            RedisReply reply = connection->command(evalSha);
            if (LuaScript::isNoScript(reply)) // the cache was flushed: it did not run
                reply = connection->command(eval);
            if (reply.isError())
                pool.throwServerError(reply, QStringLiteral("allocating"));
            if (reply.isNil()) {
                ++report.empty;
            } else {
                const int member = indexOf.value(reply.text, -1);
                allocations.push_back({Clock::now() - start, member});
                if (restored && member == restoredMember)
                    ++toMemberSinceRestore;
            }
            nextAllocation = std::max(nextAllocation + interval, now - kMaxLag);
        } else {
            Clock::time_point wake = std::min({nextAllocation, nextProgress, end});
            if (!evicted)
                wake = std::min(wake, evictAt);
            else if (!restored)
                wake = std::min(wake, restoreAt);
            std::this_thread::sleep_until(wake);
        }
        if (now >= nextProgress) {
            report_progress(currentPhase(), now);
            nextProgress = now + kProgressInterval;
        }
    }

    report.elapsedSeconds = seconds(now - start);
    report.allocations = static_cast<qint64>(allocations.size());
    report.achievedRatePerSecond =
        report.elapsedSeconds > 0 ? report.allocations / report.elapsedSeconds : 0;
    if (restored)
        analyse(report, allocations, restoredIndex, restoredAt, restoredMember, names, outcome,
                shareWindow);
    for (const Allocation &allocation : allocations) {
        const auto bucket = static_cast<qsizetype>(allocation.at / kBucket);
        while (report.timeline.size() <= bucket)
            report.timeline.append({seconds(report.timeline.size() * kBucket), 0, 0});
        ++report.timeline[bucket].allocations;
        if (allocation.member == restoredMember)
            ++report.timeline[bucket].toRestoredMember;
    }
    report_progress(ResetScenarioProgress::Phase::Finished, now);
    return report;
}

QJsonObject ResetScenarioReport::toJson() const {
    QJsonArray buckets;
    for (const ResetScenarioBucket &bucket : timeline)
        buckets.append(
            QJsonArray{bucket.startSeconds, bucket.allocations, bucket.toRestoredMember});
    return {
        {QStringLiteral("pool_key"), memberText(poolKey)},
        {QStringLiteral("members"), members},
        {QStringLiteral("member"), memberText(member)},
        {QStringLiteral("policy"), restorePolicyName(policy)},
        {QStringLiteral("rate_per_s"), ratePerSecond},
        {QStringLiteral("achieved_rate_per_s"), achievedRatePerSecond},
        {QStringLiteral("start_count"), startCount},
        {QStringLiteral("evicted_at_s"), evictedAtSeconds},
        {QStringLiteral("restored_at_s"), restoredAtSeconds},
        {QStringLiteral("evicted_at_ms"), evictedAtEpochMs},
        {QStringLiteral("restored_at_ms"), restoredAtEpochMs},
        {QStringLiteral("saved_count"), savedCount},
        {QStringLiteral("restored_count"), restoredCount},
        {QStringLiteral("pool_min_at_restore"), poolMinimumAtRestore},
        {QStringLiteral("forecast_run"), forecastRun},
        {QStringLiteral("forecast_catch_up_s"),
         ratePerSecond > 0 ? forecastRun / ratePerSecond : 0},
        {QStringLiteral("observed_longest_run"), longestRun},
        {QStringLiteral("share_window_s"), shareWindowSeconds},
        {QStringLiteral("share_in_window"), shareInWindow},
        {QStringLiteral("fair_share"), fairShare},
        {QStringLiteral("catch_up_s"),
         catchUpSeconds ? QJsonValue(*catchUpSeconds) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("allocations"), allocations},
        {QStringLiteral("allocations_after_restore"), allocationsAfterRestore},
        {QStringLiteral("to_member_after_restore"), toRestoredMemberAfterRestore},
        {QStringLiteral("empty"), empty},
        {QStringLiteral("elapsed_s"), elapsedSeconds},
        {QStringLiteral("cancelled"), cancelled},
        {QStringLiteral("timeline"), buckets},
    };
}

} // namespace poolscope
