// A load run's threads and accounting: starting them, collecting their tallies into the report.
#include "load/LoadSession.h"

#include "base/BrokenPipe.h"

#include <system_error>

#include <hiredis/hiredis.h>

#include <QSet>

namespace poolscope::loadrunner_detail {

void ThreadWork::countError(const redisReply &reply) {
    std::string_view code = "UNEXPECTED";
    if (reply.type == REDIS_REPLY_ERROR) {
        code = textOf(reply);
        code = code.substr(0, code.find(' '));
        if (code.empty())
            code = "ERR";
    }
    ++m_tally.errorsByKind[QString::fromUtf8(code.data(), qsizetype(code.size()))];
}

void Session::work(int index) {
    ThreadTally &tally = m_tallies[static_cast<size_t>(index)];
    const BrokenPipeGuard brokenPipeGuard;
    try {
        if (index == 0)
            readBaseline(); // the others wait at the connect latch, so nothing is allocated yet
        if (m_spec.atomic)
            runMultiplexed(*this, index, workersOf(index));
        else
            runNaive(*this, index);
    } catch (const std::exception &error) {
        // Not a Redis problem (out of memory, ...): report it, do not take the process down.
        tally.connectionError = QString::fromLocal8Bit(error.what());
        tally.failed = true;
        cancel(); // the others stop too: the run is broken
        if (!tally.arrived)
            m_connected.count_down(); // the others must not wait for this thread
    }
    tally.finishedAt = Clock::now();
}

void Session::start(std::function<void()> onAllFinished) {
    m_onAllFinished = std::move(onAllFinished);
    m_tallies.resize(static_cast<size_t>(m_threadCount));
    m_live = std::make_unique<ThreadLive[]>(static_cast<size_t>(m_threadCount));
    m_remaining.store(m_spec.total);
    m_running.store(m_threadCount);
    (void)LuaScript::allocate(); // load the resource once, before the threads race for it
    m_threads.reserve(static_cast<size_t>(m_threadCount));
    for (int i = 0; i < m_threadCount; ++i) {
        try {
            m_threads.emplace_back([this, i] {
                work(i);
                if (m_running.fetch_sub(1) == 1) {
                    checkLoss();
                    if (m_onAllFinished)
                        m_onAllFinished();
                }
            });
        } catch (const std::system_error &error) {
            // Out of threads: stop the ones already started and account for the rest.
            m_startError = QStringLiteral("cannot start thread %1 of %2: %3")
                               .arg(i + 1)
                               .arg(m_threadCount)
                               .arg(QString::fromLocal8Bit(error.what()));
            cancel();
            const int missing = m_threadCount - i;
            m_connected.count_down(missing);
            if (m_running.fetch_sub(missing) == missing && m_onAllFinished)
                m_onAllFinished();
            return;
        }
    }
}

void Session::readBaseline() {
    // A failover can only take counts back behind a Sentinel endpoint; elsewhere the check would
    // cost a full read of the pool for nothing.
    m_lossCheckWanted = m_spec.endpoint.topology == Endpoint::Topology::Sentinel;
    if (m_lossCheckWanted)
        m_baseline = readPoolCounts(m_spec.endpoint, m_spec.connection, m_spec.poolKey);
}

void Session::checkLoss() {
    if (m_lossCheckWanted && m_baseline.ok())
        m_final = readPoolCounts(m_spec.endpoint, m_spec.connection, m_spec.poolKey);
}

LoadReport Session::report() const {
    LoadReport report;
    report.requested = m_spec.total;
    report.atomic = m_spec.atomic;
    report.workers = m_spec.workers;
    report.pipeline = m_spec.atomic ? m_spec.pipeline : 1;
    report.threads = m_threadCount;
    report.cancelled = m_cancelled.load() || (m_externalCancel && m_externalCancel->load());
    LatencyHistogram latency;
    Clock::time_point finishedAt{};
    QSet<QByteArray> picked;
    int connected = 0;
    int gaveUp = 0;
    bool failed = false;
    QString lastConnectionError;
    for (const ThreadTally &tally : m_tallies) {
        report.allocated += tally.allocated;
        report.empty += tally.empty;
        report.unknown += tally.unknown;
        report.collisions += tally.collisions;
        report.connectionLosses += tally.connectionLosses;
        report.reconnects += tally.reconnects;
        report.waits += tally.waits;
        report.waitsShort += tally.waitsShort;
        for (const QString &primary : tally.primaries)
            if (!report.primaries.contains(primary))
                report.primaries.append(primary);
        report.movedRedirects += tally.moved;
        report.askRedirects += tally.ask;
        report.tryAgainRetries += tally.tryAgain;
        for (auto it = tally.errorsByKind.cbegin(); it != tally.errorsByKind.cend(); ++it)
            report.errorsByKind[it.key()] += it.value();
        for (const auto &[member, count] : tally.perMember)
            report.perMember[QByteArray(member.data(), qsizetype(member.size()))] += count;
        for (const QByteArray &pick : tally.picks) {
            if (picked.contains(pick))
                ++report.duplicatePicks;
            else
                picked.insert(pick);
        }
        latency.merge(tally.latency);
        finishedAt = std::max(finishedAt, tally.finishedAt);
        connected += tally.connectedWorkers;
        gaveUp += tally.gaveUpWorkers;
        failed = failed || tally.failed;
        if (!tally.connectionError.isEmpty())
            lastConnectionError = tally.connectionError;
    }
    const Clock::rep startedAt = m_startedAt.load();
    if (startedAt != 0 && finishedAt.time_since_epoch().count() > startedAt)
        report.elapsedSeconds = std::chrono::duration<double>(
                                    finishedAt - Clock::time_point(Clock::duration(startedAt)))
                                    .count();
    report.latencyP50Ms = latency.quantileMicros(0.50) / 1000.0;
    report.latencyP99Ms = latency.quantileMicros(0.99) / 1000.0;
    report.latencyMaxMs = latency.maxMicros() / 1000.0;
    if (m_lossCheckWanted) {
        if (!m_baseline.primary.isEmpty() && !report.primaries.contains(m_baseline.primary))
            report.primaries.prepend(m_baseline.primary);
        if (!m_final.primary.isEmpty()) {
            report.primaries.removeAll(m_final.primary);
            report.primaries.append(m_final.primary); // the primary the run ended on
        }
        if (!m_baseline.ok()) {
            report.lossCheck =
                QStringLiteral("pool not read before the run: %1").arg(m_baseline.error);
        } else if (!m_final.ok()) {
            report.lossCheck = QStringLiteral("pool not read after the run: %1").arg(m_final.error);
        } else {
            const FailoverLoss loss = compareCounts(m_baseline, report.perMember, m_final);
            report.lossChecked = true;
            report.lostInFailover = loss.lost;
            report.lostMembers = loss.lostMembers;
            report.baselineSum = loss.baselineSum;
            report.finalSum = loss.finalSum;
        }
    }

    if (!m_startError.isEmpty())
        report.error = m_startError;
    else if (failed)
        report.error = QStringLiteral("the run stopped: %1").arg(lastConnectionError);
    else if (connected == 0)
        report.error = lastConnectionError;
    else if (connected < m_spec.workers)
        report.error = QStringLiteral("%1 of %2 workers could not connect: %3")
                           .arg(m_spec.workers - connected)
                           .arg(m_spec.workers)
                           .arg(lastConnectionError);
    else if (gaveUp > 0)
        report.error = QStringLiteral("%1 of %2 workers gave up reconnecting: %3")
                           .arg(gaveUp)
                           .arg(m_spec.workers)
                           .arg(lastConnectionError);
    return report;
}

LoadReport failedReport(const LoadSpec &spec, const QString &error) {
    LoadReport report;
    report.requested = spec.total;
    report.atomic = spec.atomic;
    report.workers = spec.workers;
    report.pipeline = spec.pipeline;
    report.error = error;
    return report;
}

} // namespace poolscope::loadrunner_detail
