// poolscope-cli check and guard: health checks through each member's proxy (src/health).
#include "CliApp.h"

#include "base/RedisError.h"
#include "health/HealthChecker.h"
#include "health/GuardRunner.h"
#include "health/HealthGuard.h"
#include "health/HealthStore.h"
#include "text/CredentialMask.h"
#include "text/MemberText.h"

#include <QDateTime>
#include <QEventLoop>
#include <QSet>
#include <QTimer>

#include <chrono>
#include <optional>
#include <tuple>

namespace poolscope::cli {
namespace {

QJsonObject resultToJson(const CheckResult &result) {
    QJsonObject object{{QStringLiteral("member"), maskCredentials(memberText(result.member))},
                       {QStringLiteral("result"), outcomeName(result.outcome)},
                       {QStringLiteral("probed"), result.probed}};
    if (!result.detail.isEmpty())
        object.insert(QStringLiteral("detail"), result.detail);
    if (result.status > 0)
        object.insert(QStringLiteral("status"), result.status);
    if (result.connectMs >= 0)
        object.insert(QStringLiteral("connect_ms"), result.connectMs);
    if (result.proxyMs >= 0)
        object.insert(QStringLiteral("proxy_ms"), result.proxyMs);
    if (result.totalMs >= 0)
        object.insert(QStringLiteral("total_ms"), result.totalMs);
    return object;
}

QString latencyText(const CheckResult &result) {
    const qint64 ms = result.totalMs >= 0 ? result.totalMs : result.proxyMs;
    return ms >= 0 ? QStringLiteral("%1 ms").arg(ms) : QStringLiteral("-");
}

} // namespace

CheckOptions Cli::checkOptions() {
    if (!m_parser.isSet(QStringLiteral("target")))
        throw UsageError("needs --target URL (http:// or https://), the page fetched through "
                         "each proxy");
    CheckOptions options;
    QString problem;
    const auto target = CheckTarget::parse(m_parser.value(QStringLiteral("target")), &problem);
    if (!target)
        throw UsageError(QStringLiteral("--target: %1").arg(problem).toStdString());
    options.target = *target;
    if (m_parser.isSet(QStringLiteral("expect-status"))) {
        const auto ranges =
            StatusRanges::parse(m_parser.value(QStringLiteral("expect-status")), &problem);
        if (!ranges)
            throw UsageError(QStringLiteral("--expect-status: %1").arg(problem).toStdString());
        options.expectStatus = *ranges;
    }
    const auto ms = [this](const char *name, std::chrono::milliseconds fallback) {
        return std::chrono::milliseconds(
            wholeOption(QLatin1String(name), int(fallback.count()), 1, 3600000));
    };
    options.connectTimeout = ms("probe-connect-timeout", options.connectTimeout);
    options.proxyTimeout = ms("proxy-timeout", options.proxyTimeout);
    options.targetTimeout = ms("target-timeout", options.targetTimeout);
    options.checkTimeout = ms("check-timeout", options.checkTimeout);
    options.concurrency = wholeOption(QStringLiteral("concurrency"), 50, 1, 10000);
    options.ratePerSecond = numberOption(QStringLiteral("rate"), 0, 0, 1e6);
    options.caFile = m_parser.value(QStringLiteral("target-ca"));
    options.tlsInsecure = m_parser.isSet(QStringLiteral("target-insecure"));
    if (options.tlsInsecure)
        m_err << "poolscope-cli: warning: TLS to proxies and the target is NOT verified "
                 "(--target-insecure)\n";
    return options;
}

int Cli::check(const QStringList &args) {
    const bool all = m_parser.isSet(QStringLiteral("all"));
    if (all == !args.isEmpty())
        throw UsageError("check takes MEMBER... or --all (not both)");
    const CheckOptions options = checkOptions();
    const PoolSnapshot snapshot = pool().snapshot();
    QSet<QByteArray> known;
    QList<QByteArray> members;
    for (const PoolMember &member : snapshot.members)
        known.insert(member.member);
    for (const EvictedMember &member : snapshot.evicted)
        known.insert(member.member);
    if (all) {
        for (const PoolMember &member : snapshot.members)
            members << member.member;
        for (const EvictedMember &member : snapshot.evicted)
            members << member.member;
    } else {
        QStringList unknown;
        for (const QString &arg : args) {
            const QByteArray member = arg.toUtf8();
            if (!known.contains(member))
                unknown << maskCredentials(arg);
            else if (!members.contains(member))
                members << member;
        }
        if (!unknown.isEmpty())
            throw UsageError(QStringLiteral("not in pool %1 (nor evicted): %2")
                                 .arg(QString::fromUtf8(poolKey()), unknown.join(u", "))
                                 .toStdString());
    }
    InterruptGuard interrupt;
    const CheckRound round = runCheckRound(members, options, &g_interrupted);
    // Record the results in the health hash: counts of consecutive results carry on.
    HealthStore store(connection(), pool().keys());
    const QHash<QByteArray, HealthRecord> previous = store.read(members);
    QHash<QByteArray, HealthRecord> records;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const CheckResult &result : round.results)
        records.insert(result.member, previous.value(result.member).after(result, now));
    store.write(records);

    const auto [ok, failed, notCheckable] = CheckCounts::of(round.results);
    if (m_json) {
        QJsonArray rows;
        for (const CheckResult &result : round.results)
            rows.append(resultToJson(result));
        printJson({{QStringLiteral("results"), rows},
                   {QStringLiteral("ok"), ok},
                   {QStringLiteral("failed"), failed},
                   {QStringLiteral("not_checkable"), notCheckable},
                   {QStringLiteral("elapsed_ms"), round.elapsedMs}});
        return kExitOk;
    }
    int width = 6;
    for (const CheckResult &result : round.results)
        width = std::max(width, int(maskCredentials(memberText(result.member)).size()));
    m_out << QStringLiteral("MEMBER").leftJustified(width) << "  "
          << QStringLiteral("RESULT").leftJustified(20) << "  "
          << QStringLiteral("LATENCY").leftJustified(9) << "  DETAIL\n";
    for (const CheckResult &result : round.results)
        m_out << maskCredentials(memberText(result.member)).leftJustified(width) << "  "
              << outcomeName(result.outcome).leftJustified(20) << "  "
              << latencyText(result).leftJustified(9) << "  " << result.detail << '\n';
    m_out << ok << " ok, " << failed << " failed, " << notCheckable << " not checkable, in "
          << round.elapsedMs << " ms\n";
    return g_interrupted.load() ? kExitInterrupted : kExitOk;
}

int Cli::guard(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("guard takes no positional arguments");
    GuardRunSettings settings;
    GuardOptions &options = settings.guard;
    options.check = checkOptions();
    options.fall = wholeOption(QStringLiteral("fall"), 3, 1, 1000);
    options.rise = wholeOption(QStringLiteral("rise"), 2, 1, 1000);
    options.maxEvictedPercent = numberOption(QStringLiteral("max-evicted-percent"), 30, 0, 100);
    options.checkNew = m_parser.isSet(QStringLiteral("check-new"));
    const QString policyText = m_parser.isSet(QStringLiteral("restore-policy"))
                                   ? m_parser.value(QStringLiteral("restore-policy"))
                                   : QStringLiteral("min");
    const std::optional<RestorePolicy> policy = parseRestorePolicy(policyText);
    if (!policy)
        throw UsageError(QStringLiteral("unknown --restore-policy \"%1\" (expected min, start, "
                                        "keep or zero)")
                             .arg(policyText)
                             .toStdString());
    options.restorePolicy = *policy;
    // Without an agreed count "start" would restore at 0: the flood the guard exists to prevent.
    if (*policy == RestorePolicy::Start && !m_parser.isSet(QStringLiteral("start")))
        throw UsageError("guard --restore-policy start needs --start N, the agreed starting count");
    options.startCount = countOption(QStringLiteral("start"), 0);
    // --interval is in seconds for the guard (watch's is in milliseconds).
    const double intervalSeconds = m_parser.isSet(QStringLiteral("interval"))
                                       ? numberOption(QStringLiteral("interval"), 10, 0.05, 86400)
                                       : 10;
    settings.interval = std::chrono::milliseconds(qint64(intervalSeconds * 1000));
    settings.rounds = wholeOption(QStringLiteral("rounds"), 0, 0, 1000000);
    options.guardId = HealthGuard::makeGuardId(); // kept across reconnections
    std::tie(settings.endpoint, settings.connection) = target();
    settings.poolKey = poolKey();
    settings.endOnRoundError = true; // a lost connection is tried again; anything else ends it

    // The loop is GuardRunner's (on its own thread); this prints its reports.
    GuardRunner runner;
    QEventLoop loop;
    const QString pool = QString::fromUtf8(settings.poolKey);
    std::optional<Failure> failure;
    QByteArray waitingFor;
    QObject::connect(&runner, &GuardRunner::started, &loop, [&](const QByteArray &guardId) {
        m_err << "poolscope-cli: guard " << guardId << " on pool " << pool << ": fall "
              << options.fall << ", rise " << options.rise << ", restore policy "
              << restorePolicyName(options.restorePolicy) << ", at most "
              << options.maxEvictedPercent << "% evicted\n";
        m_err.flush();
    });
    QObject::connect(&runner, &GuardRunner::roundFailed, &loop, [&](const Failure &lost) {
        // A guard outlives a server restart or a network blip: say so, pause, reconnect.
        m_err << "poolscope-cli: " << lost.text << "; trying again in " << intervalSeconds
              << " s\n";
        m_err.flush();
    });
    QObject::connect(
        &runner, &GuardRunner::roundFinished, &loop,
        [&](const GuardRoundReport &report) { printGuardRound(report, pool, waitingFor); });
    QObject::connect(&runner, &GuardRunner::runEnded, &loop, [&](const GuardRunEnd &end) {
        if (end.reason == GuardRunEnd::Reason::Failed)
            failure = end.failure;
        loop.quit();
    });
    InterruptGuard interrupt;
    const TerminateGuard terminate; // systemd's stop releases the lease too
    // Ctrl+C or SIGTERM: the round under way stops between its checks, the lease is released.
    QTimer signalCheck;
    QObject::connect(&signalCheck, &QTimer::timeout, &loop, [&] {
        if (g_interrupted.load())
            runner.stop();
    });
    signalCheck.start(20);
    runner.start(settings);
    loop.exec();
    if (failure)
        throw failure->toError();
    return stopExitCode();
}

void Cli::printGuardRound(const GuardRoundReport &report, const QString &pool,
                          QByteArray &waitingFor) {
    const GuardRound &round = report.round;
    if (!round.leaseHeld) {
        if (round.leaseHolder != waitingFor) {
            m_err << "poolscope-cli: another guard (" << round.leaseHolder
                  << ") holds the lease on pool " << pool << "; waiting\n";
            m_err.flush();
            waitingFor = round.leaseHolder;
        }
        return;
    }
    if (!waitingFor.isEmpty()) {
        m_err << "poolscope-cli: took the lease on pool " << pool << '\n';
        waitingFor.clear();
    }
    for (const GuardAction &action : round.actions) {
        static const char *names[] = {"evict", "restore", "capped"};
        if (m_json)
            printJson({{QStringLiteral("action"), QLatin1String(names[int(action.kind)])},
                       {QStringLiteral("member"), maskCredentials(memberText(action.member))},
                       {QStringLiteral("reason"), action.reason}});
        else
            m_out << names[int(action.kind)] << ' '
                  << (action.member.isEmpty() ? QStringLiteral("-")
                                              : maskCredentials(memberText(action.member)))
                  << ": " << action.reason << '\n';
    }
    if (m_json)
        printJson({{QStringLiteral("round"), report.number},
                   {QStringLiteral("members"), round.members},
                   {QStringLiteral("ok"), report.counts.ok},
                   {QStringLiteral("failed"), report.counts.failed},
                   {QStringLiteral("evicted"), round.evicted},
                   {QStringLiteral("elapsed_ms"), round.checks.elapsedMs},
                   {QStringLiteral("redis_commands"), round.redisCommands},
                   {QStringLiteral("health_records_pruned"), round.recordsPruned}});
    else
        m_out << "round " << report.number << ": " << round.members << " members, "
              << report.counts.ok << " ok, " << report.counts.failed << " failed, " << round.evicted
              << " evicted, " << round.checks.elapsedMs << " ms, " << round.redisCommands
              << " Redis commands"
              << (round.recordsPruned > 0
                      ? QStringLiteral(", %1 health records of removed members dropped")
                            .arg(round.recordsPruned)
                      : QString())
              << '\n';
    m_out.flush();
}

} // namespace poolscope::cli
