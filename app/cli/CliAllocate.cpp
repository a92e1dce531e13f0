// poolscope-cli allocate (one by one, or under load) and scenario reset.
#include "CliApp.h"

#include "base/BrokenPipe.h"
#include "base/RedisError.h"
#include "text/MemberText.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <tuple>

namespace poolscope::cli {

int Cli::allocate(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("allocate takes no positional arguments (use -n N)");
    bool ok = false;
    const qint64 count = m_parser.value(QStringLiteral("n")).toLongLong(&ok);
    if (!ok || count < 1)
        throw UsageError(QStringLiteral("-n %1 is not a positive number")
                             .arg(m_parser.value(QStringLiteral("n")))
                             .toStdString());
    const bool underLoad =
        m_json || m_parser.isSet(QStringLiteral("workers")) ||
        m_parser.isSet(QStringLiteral("threads")) || m_parser.isSet(QStringLiteral("pipeline")) ||
        m_parser.isSet(QStringLiteral("rate")) || m_parser.isSet(QStringLiteral("duration")) ||
        m_parser.isSet(QStringLiteral("non-atomic")) ||
        m_parser.isSet(QStringLiteral("wait-replicas"));
    return underLoad ? allocateUnderLoad(count) : allocateOneByOne(count);
}

int Cli::allocateOneByOne(qint64 count) {
    const BrokenPipeGuard brokenPipeGuard;
    for (qint64 i = 0; i < count; ++i) {
        const std::optional<QByteArray> member = pool().allocate();
        if (!member) {
            m_err << "poolscope-cli: pool \"" << m_parser.value(QStringLiteral("key"))
                  << "\" is empty: no proxy allocated\n";
            return kExitEmptyPool;
        }
        m_out << memberText(*member) << '\n';
        // Written at once and checked: a reader gone (`| head -1`) must stop the allocations,
        // not let them all run into a closed pipe (SIGPIPE is ignored, so write fails EPIPE).
        m_out.flush();
        if (m_out.status() != QTextStream::Ok) {
            const int error = errno;
            m_err << "poolscope-cli: standard output could not be written ("
                  << QString::fromLocal8Bit(std::strerror(error ? error : EIO))
                  << "); stopped after " << i + 1 << " of " << count << " allocations\n";
            return kExitFailure;
        }
    }
    return kExitOk;
}

int Cli::allocateUnderLoad(qint64 count) {
    LoadSpec spec;
    std::tie(spec.endpoint, spec.connection) = target();
    spec.poolKey = poolKey();
    spec.workers = wholeOption(QStringLiteral("workers"), 1, 1, 1000);
    spec.pipeline = wholeOption(QStringLiteral("pipeline"), 1, 1, 4096);
    spec.threads = wholeOption(QStringLiteral("threads"), 0, 1, 256);
    spec.ratePerSecond = numberOption(QStringLiteral("rate"), 0, 0.001, 1e9);
    const double seconds = numberOption(QStringLiteral("duration"), 0, 0.001, 7 * 24 * 3600.0);
    spec.duration = std::chrono::milliseconds(std::llround(seconds * 1000));
    // -n defaults to 1; with --duration alone the run is bounded by time only.
    spec.total = seconds > 0 && !m_parser.isSet(QStringLiteral("n")) ? 0 : count;
    spec.atomic = !m_parser.isSet(QStringLiteral("non-atomic"));
    spec.waitReplicas = wholeOption(QStringLiteral("wait-replicas"), 0, 1, 1000);
    spec.waitTimeout =
        std::chrono::milliseconds(wholeOption(QStringLiteral("wait-timeout"), 1000, 1, 3600000));
    if (!spec.atomic && spec.pipeline > 1)
        m_err << "poolscope-cli: --non-atomic sends one command at a time; --pipeline ignored\n";
    if (const QString problem = validateLoadSpec(spec); !problem.isEmpty())
        throw UsageError(problem.toStdString());

    LoadReport report;
    bool interrupted = false;
    {
        const InterruptGuard interruptGuard;
        report = LoadRunner::run(spec, &g_interrupted);
        interrupted = g_interrupted.load();
    }
    if (report.errorsByKind.contains(QStringLiteral("WRONGTYPE"))) {
        // Say what the key holds instead of the bare error code.
        try {
            pool().checkKeyTypes();
        } catch (const RedisError &e) {
            m_err << "poolscope-cli: " << e.message() << '\n';
        }
    }
    if (!report.error.isEmpty())
        m_err << "poolscope-cli: " << report.error << '\n';
    if (m_json)
        printJson(report.toJson());
    else
        printLoadReport(report);

    if (interrupted)
        return kExitInterrupted;
    if (report.errors() > 0 || !report.error.isEmpty())
        return kExitFailure;
    if (report.allocated == 0 && report.empty > 0) {
        m_err << "poolscope-cli: pool \"" << memberText(spec.poolKey)
              << "\" is empty: no proxy allocated\n";
        return kExitEmptyPool;
    }
    return kExitOk;
}

void Cli::printLoadReport(const LoadReport &r) {
    m_out << "allocated " << r.allocated;
    if (r.requested > 0)
        m_out << " of " << r.requested;
    m_out << " in " << QString::number(r.elapsedSeconds, 'f', 3)
          << " s: " << QString::number(r.ratePerSecond(), 'f', 0) << " allocations/s (" << r.workers
          << (r.workers == 1 ? " worker" : " workers") << ", pipeline " << r.pipeline << ", "
          << r.threads << (r.threads == 1 ? " thread, " : " threads, ")
          << (r.atomic ? "atomic script" : "naive ZRANGE + ZINCRBY") << ')'
          << (r.cancelled ? ", cancelled" : "") << '\n';
    m_out << "empty " << r.empty << ", errors " << r.errors() << ", unknown " << r.unknown;
    for (auto it = r.errorsByKind.cbegin(); it != r.errorsByKind.cend(); ++it)
        m_out << ", " << it.key() << ' ' << it.value();
    if (r.connectionLosses > 0)
        m_out << ", connection losses " << r.connectionLosses << ", reconnects " << r.reconnects;
    m_out << '\n';
    if (r.waits > 0)
        m_out << "WAIT answered " << r.waits << " times, " << r.waitsShort
              << " of them with fewer replicas than asked for\n";
    if (r.primaries.size() > 1)
        m_out << "failover: the primary went from " << r.primaries.join(QStringLiteral(" to "))
              << '\n';
    if (r.lossChecked)
        m_out << "lost in failover " << r.lostInFailover << " acknowledged allocations on "
              << r.lostMembers << " members (sum of counts " << formatCount(r.baselineSum)
              << " before, " << formatCount(r.finalSum) << " after)\n";
    else if (!r.lossCheck.isEmpty())
        m_out << "lost in failover: not checked (" << r.lossCheck << ")\n";
    if (r.movedRedirects + r.askRedirects + r.tryAgainRetries > 0)
        m_out << "cluster redirections followed: MOVED " << r.movedRedirects << ", ASK "
              << r.askRedirects << ", TRYAGAIN " << r.tryAgainRetries << '\n';
    m_out << "latency p50 " << QString::number(r.latencyP50Ms, 'f', 3) << " ms, p99 "
          << QString::number(r.latencyP99Ms, 'f', 3) << " ms, max "
          << QString::number(r.latencyMaxMs, 'f', 3) << " ms\n";
    if (!r.perMember.isEmpty()) {
        const auto [least, most] = std::minmax_element(r.perMember.cbegin(), r.perMember.cend());
        m_out << r.perMember.size() << " members got allocations, from " << *least << " ("
              << memberText(least.key()) << ") to " << *most << " (" << memberText(most.key())
              << ")\n";
    }
    if (!r.atomic) {
        const double share = r.allocated > 0 ? double(r.collisions) / double(r.allocated) : 0;
        m_out << "collisions " << r.collisions << " of " << r.allocated << " allocations ("
              << percent(share) << "), duplicate picks " << r.duplicatePicks
              << ": another worker was handed the same proxy at the same count; the final counts "
                 "can still look fair\n";
    }
}

int Cli::scenario(const QStringList &args) {
    if (args != QStringList{QStringLiteral("reset")})
        throw UsageError("scenario takes one name: reset");
    const RestorePolicy policy = policyOption("scenario reset");
    ResetScenarioSpec spec;
    std::tie(spec.endpoint, spec.connection) = target();
    spec.poolKey = poolKey();
    spec.policy = policy;
    spec.members = wholeOption(QStringLiteral("members"), 10, 2, 1000);
    spec.ratePerSecond = numberOption(QStringLiteral("rate"), 500, 0.1, 1e6);
    spec.startCount = countOption(QStringLiteral("start"), 0);
    spec.before = std::chrono::milliseconds(
        std::llround(1000 * numberOption(QStringLiteral("seconds-before"), 10, 0.01, 3600)));
    spec.after = std::chrono::milliseconds(
        std::llround(1000 * numberOption(QStringLiteral("seconds-after"), 10, 0.01, 3600)));
    spec.replace = m_parser.isSet(QStringLiteral("replace"));

    auto lastPhase = ResetScenarioProgress::Phase::Running;
    const auto progress = [this, &lastPhase](const ResetScenarioProgress &step) {
        if (m_json || step.phase == lastPhase)
            return;
        lastPhase = step.phase;
        if (step.phase == ResetScenarioProgress::Phase::Evicted)
            m_err << "evicted at " << QString::number(step.elapsedSeconds, 'f', 2) << " s\n";
        else if (step.phase == ResetScenarioProgress::Phase::Restored)
            m_err << "restored at " << QString::number(step.elapsedSeconds, 'f', 2) << " s\n";
        m_err.flush();
    };
    ResetScenarioReport report;
    bool interrupted = false;
    {
        const InterruptGuard interruptGuard;
        report = runResetScenario(spec, progress, &g_interrupted);
        interrupted = g_interrupted.load();
    }
    if (m_json)
        printJson(report.toJson());
    else
        printScenarioReport(report);
    return interrupted ? kExitInterrupted : kExitOk;
}

void Cli::printScenarioReport(const ResetScenarioReport &r) {
    const QString member = memberText(r.member);
    m_out << "count reset on pool \"" << memberText(r.poolKey) << "\": " << r.members
          << " members, " << QString::number(r.ratePerSecond, 'g', 6) << " allocations/s asked, "
          << QString::number(r.achievedRatePerSecond, 'f', 1) << " achieved, policy "
          << restorePolicyName(r.policy) << (r.cancelled ? " (cancelled)" : "") << '\n';
    if (r.evictedAtSeconds >= 0)
        m_out << "evicted " << member << " at " << QString::number(r.evictedAtSeconds, 'f', 2)
              << " s with count " << formatCount(r.savedCount) << '\n';
    if (r.restoredAtSeconds < 0) {
        m_out << "not restored: the run ended first\n";
        return;
    }
    m_out << "restored it at " << QString::number(r.restoredAtSeconds, 'f', 2) << " s with count "
          << formatCount(r.restoredCount) << "; the other members' lowest count was "
          << formatCount(r.poolMinimumAtRestore) << '\n';
    const QString catchUp = r.catchUpSeconds ? QString::number(*r.catchUpSeconds, 'f', 2) + " s"
                                             : QStringLiteral("not within the run");
    const auto row = [this](const QString &label, const QString &forecast,
                            const QString &observed) {
        m_out << label.leftJustified(36) << forecast.leftJustified(16) << observed << '\n';
    };
    row(QString(), QStringLiteral("forecast"), QStringLiteral("observed"));
    row(QStringLiteral("allocations in a row to it"), formatCount(r.forecastRun),
        QString::number(r.longestRun));
    row(QStringLiteral("time until within 1 of the minimum"),
        QString::number(r.forecastRun / r.ratePerSecond, 'f', 2) + QStringLiteral(" s"), catchUp);
    row(QStringLiteral("its share of the first %1 s").arg(r.shareWindowSeconds, 0, 'g', 3),
        percent(r.fairShare) + QStringLiteral(" (fair)"), percent(r.shareInWindow));
}

} // namespace poolscope::cli
