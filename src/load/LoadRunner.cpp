// The load runner's public face: spec validation, the report's JSON, and LoadRunner starting a
// Session in the background or running one to its end.
#include "load/LoadRunner.h"

#include "load/LoadSession.h"
#include "text/MemberText.h"

#include <cmath>

#include <QJsonArray>
#include <QJsonObject>
#include <QTimer>

namespace poolscope {

using loadrunner_detail::Clock;
using loadrunner_detail::Session;

QString validateLoadSpec(const LoadSpec &spec) {
    if (spec.poolKey.isEmpty())
        return QStringLiteral("the pool key is empty: name the sorted set to use");
    if (spec.workers < 1 || spec.workers > loadrunner_detail::kMaxWorkers)
        return QStringLiteral("workers must be 1-%1, not %2")
            .arg(loadrunner_detail::kMaxWorkers)
            .arg(spec.workers);
    if (spec.threads < 0 || spec.threads > loadrunner_detail::kMaxThreads)
        return QStringLiteral("threads must be 0 (automatic) to %1, not %2")
            .arg(loadrunner_detail::kMaxThreads)
            .arg(spec.threads);
    if (spec.connection.commandTimeout.count() <= 0 || spec.connection.connectTimeout.count() <= 0)
        return QStringLiteral("the connect and command timeouts must be positive");
    if (spec.pipeline < 1 || spec.pipeline > loadrunner_detail::kMaxPipeline)
        return QStringLiteral("pipeline must be 1-%1, not %2")
            .arg(loadrunner_detail::kMaxPipeline)
            .arg(spec.pipeline);
    if (spec.total < 0)
        return QStringLiteral("the number of allocations is negative");
    if (spec.duration.count() < 0)
        return QStringLiteral("the duration is negative");
    if (spec.total == 0 && spec.duration.count() == 0)
        return QStringLiteral("give a number of allocations or a duration");
    if (!std::isfinite(spec.ratePerSecond) || spec.ratePerSecond < 0)
        return QStringLiteral("the rate must be a positive number of allocations per second");
    if (spec.waitReplicas < 0 || spec.waitReplicas > 1000)
        return QStringLiteral("--wait-replicas must be 0-1000, not %1").arg(spec.waitReplicas);
    if (spec.waitReplicas > 0 && !spec.atomic)
        return QStringLiteral("--wait-replicas needs the atomic script (not --non-atomic)");
    if (spec.waitReplicas > 0 && spec.waitTimeout.count() <= 0)
        return QStringLiteral("--wait-timeout must be a positive number of milliseconds");
    return {};
}

qint64 LoadReport::errors() const {
    qint64 sum = 0;
    for (const qint64 count : errorsByKind)
        sum += count;
    return sum;
}

QJsonObject LoadReport::toJson() const {
    QJsonObject errorKinds;
    for (auto it = errorsByKind.cbegin(); it != errorsByKind.cend(); ++it)
        errorKinds.insert(it.key(), it.value());
    QJsonObject members;
    for (auto it = perMember.cbegin(); it != perMember.cend(); ++it)
        members.insert(memberText(it.key()), it.value()); // escaped: keys stay distinct
    QJsonObject object{
        {QStringLiteral("requested"), requested},
        {QStringLiteral("allocated"), allocated},
        {QStringLiteral("empty"), empty},
        {QStringLiteral("errors"), errors()},
        {QStringLiteral("errors_by_kind"), errorKinds},
        {QStringLiteral("unknown"), unknown},
        {QStringLiteral("elapsed_s"), elapsedSeconds},
        {QStringLiteral("rate_per_s"), ratePerSecond()},
        {QStringLiteral("latency_ms"), QJsonObject{{QStringLiteral("p50"), latencyP50Ms},
                                                   {QStringLiteral("p99"), latencyP99Ms},
                                                   {QStringLiteral("max"), latencyMaxMs}}},
        {QStringLiteral("per_member"), members},
        {QStringLiteral("collisions"), collisions},
        {QStringLiteral("duplicate_picks"), duplicatePicks},
        {QStringLiteral("atomic"), atomic},
        {QStringLiteral("workers"), workers},
        {QStringLiteral("pipeline"), pipeline},
        {QStringLiteral("threads"), threads},
        {QStringLiteral("cancelled"), cancelled},
        {QStringLiteral("connection_losses"), connectionLosses},
        {QStringLiteral("reconnects"), reconnects},
        {QStringLiteral("primaries"), QJsonArray::fromStringList(primaries)},
        {QStringLiteral("failovers"), std::max<qsizetype>(0, primaries.size() - 1)},
        {QStringLiteral("lost_in_failover"), lostInFailover},
        {QStringLiteral("lost_members"), lostMembers},
        {QStringLiteral("loss_checked"), lossChecked},
        {QStringLiteral("waits"), waits},
        {QStringLiteral("waits_short"), waitsShort},
        {QStringLiteral("cluster_redirects"),
         QJsonObject{{QStringLiteral("moved"), movedRedirects},
                     {QStringLiteral("ask"), askRedirects},
                     {QStringLiteral("tryagain"), tryAgainRetries}}},
    };
    if (lossChecked) {
        object.insert(QStringLiteral("baseline_sum"), baselineSum);
        object.insert(QStringLiteral("final_sum"), finalSum);
    } else if (!lossCheck.isEmpty()) {
        object.insert(QStringLiteral("loss_check"), lossCheck);
    }
    if (!error.isEmpty())
        object.insert(QStringLiteral("error"), error);
    return object;
}

struct LoadRunner::Run {
    std::unique_ptr<Session> session;
    QTimer progressTimer;
    qint64 lastAllocated = 0;
    Clock::time_point lastTick;
};

LoadRunner::LoadRunner(QObject *parent)
    : QObject(parent) {}

LoadRunner::~LoadRunner() {
    // Session's destructor cancels and joins; a queued "all finished" call dies with this object.
    m_run.reset();
}

bool LoadRunner::start(const LoadSpec &spec) {
    if (m_run || !validateLoadSpec(spec).isEmpty())
        return false;
    m_run = std::make_unique<Run>();
    m_run->session = std::make_unique<Session>(spec, nullptr);
    m_run->lastTick = Clock::now();

    const auto emitProgress = [this] {
        Session &session = *m_run->session;
        const Clock::time_point now = Clock::now();
        const qint64 allocated = session.allocated();
        const double seconds = std::chrono::duration<double>(now - m_run->lastTick).count();
        const double rate = seconds > 0 ? (allocated - m_run->lastAllocated) / seconds : 0;
        m_run->lastAllocated = allocated;
        m_run->lastTick = now;
        Q_EMIT progressed(session.done(), session.spec().total, rate);
    };
    const auto finish = [this, emitProgress] {
        if (!m_run)
            return;
        m_run->progressTimer.stop();
        m_run->session->join();
        emitProgress();
        const LoadReport report = m_run->session->report();
        m_run.reset();
        Q_EMIT finished(report);
    };
    m_run->progressTimer.setInterval(std::chrono::milliseconds(100));
    connect(&m_run->progressTimer, &QTimer::timeout, this, emitProgress);
    m_run->progressTimer.start();
    // The last worker out asks this thread to collect the report.
    m_run->session->start(
        [this, finish] { QMetaObject::invokeMethod(this, finish, Qt::QueuedConnection); });
    return true;
}

void LoadRunner::cancel() {
    if (m_run)
        m_run->session->cancel();
}

bool LoadRunner::isRunning() const {
    return m_run != nullptr;
}

LoadReport LoadRunner::run(const LoadSpec &spec, const std::atomic<bool> *cancelFlag) {
    if (const QString problem = validateLoadSpec(spec); !problem.isEmpty())
        return loadrunner_detail::failedReport(spec, problem);
    Session session(spec, cancelFlag);
    session.start({});
    session.join();
    return session.report();
}

} // namespace poolscope
