// poolscope-cli stats and watch: the pool's figures, once or at every poll.
#include "CliApp.h"

#include "monitor/PoolMonitor.h"

#include <QDateTime>
#include <QEventLoop>
#include <QTimer>

namespace poolscope::cli {

namespace {

// The pool figures of `stats` and of each `watch` line, in JSON.
QJsonObject statsToJson(const PoolStats &stats) {
    return {{QStringLiteral("size"), stats.size},      {QStringLiteral("evicted"), stats.evicted},
            {QStringLiteral("min"), stats.min},        {QStringLiteral("median"), stats.median},
            {QStringLiteral("max"), stats.max},        {QStringLiteral("spread"), stats.spread},
            {QStringLiteral("total"), stats.total},    {QStringLiteral("jain"), stats.jainIndex},
            {QStringLiteral("invalid"), stats.invalid}};
}

} // namespace

int Cli::stats(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("stats takes no positional arguments");
    const PoolStats s = pool().stats();
    if (m_json) {
        printJson(statsToJson(s));
        return kExitOk;
    }
    m_out << "members  " << s.size << " (+" << s.evicted << " evicted)\n"
          << "min / median / max  " << formatCount(s.min) << " / " << s.median << " / "
          << formatCount(s.max) << '\n'
          << "spread  " << formatCount(s.spread) << '\n'
          << "total allocations  " << formatCount(s.total) << '\n'
          << "Jain's fairness index  " << QString::number(s.jainIndex, 'f', 6) << '\n';
    if (s.invalid > 0)
        m_out << "invalid counts  " << s.invalid
              << " (scores that are not finite numbers: left out of the figures above; "
                 "`list` shows them)\n";
    return kExitOk;
}

int Cli::watch(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("watch takes no positional arguments");
    bool ok = true;
    const ConnectionProfile *saved = profile();
    const int intervalMs = saved && !m_parser.isSet(QStringLiteral("interval"))
                               ? int(saved->pollInterval.count())
                               : m_parser.value(QStringLiteral("interval")).toInt(&ok);
    if (!ok || intervalMs < 10)
        throw UsageError("--interval takes milliseconds, at least 10");
    const qint64 threshold =
        m_parser.value(QStringLiteral("full-snapshot-threshold")).toLongLong(&ok);
    if (!ok || threshold < 1)
        throw UsageError("--full-snapshot-threshold takes a positive number of members");
    double seconds = 0;
    if (m_parser.isSet(QStringLiteral("duration"))) {
        seconds = m_parser.value(QStringLiteral("duration")).toDouble(&ok);
        if (!ok || !(seconds > 0))
            throw UsageError("--duration takes a positive number of seconds");
    }
    auto [endpoint, options] = target();
    options.clientName = QStringLiteral("poolscope-poller");

    PoolMonitor monitor;
    monitor.setPollInterval(std::chrono::milliseconds(intervalMs));
    monitor.setFullSnapshotThreshold(threshold);
    QEventLoop loop;
    int exitCode = kExitOk;
    QObject::connect(&monitor, &PoolMonitor::observationArrived, &loop,
                     [this](const PoolObservation &observation) {
                         const PoolStats &s = observation.stats;
                         if (m_json) {
                             QJsonObject line = statsToJson(s);
                             line.insert(QStringLiteral("time_ms"), observation.timeMs);
                             line.insert(QStringLiteral("round_trip_ms"), observation.roundTripMs);
                             line.insert(QStringLiteral("mode"), observation.mode);
                             printJson(line);
                         } else {
                             m_out << QDateTime::fromMSecsSinceEpoch(observation.timeMs)
                                          .toString(QStringLiteral("HH:mm:ss.zzz"))
                                   << "  members " << s.size << " (+" << s.evicted
                                   << " evicted)  min/median/max " << formatCount(s.min) << '/'
                                   << s.median << '/' << formatCount(s.max) << "  spread "
                                   << formatCount(s.spread) << "  Jain "
                                   << QString::number(s.jainIndex, 'f', 4) << "  rtt "
                                   << QString::number(observation.roundTripMs, 'f', 2) << " ms  "
                                   << observation.mode << '\n';
                         }
                         m_out.flush();
                     });
    // watch succeeds only if at least one poll did; otherwise it fails with the last reason.
    bool anyPoll = false;
    QString lastProblem;
    QObject::connect(&monitor, &PoolMonitor::observationArrived, &loop,
                     [&anyPoll] { anyPoll = true; });
    QObject::connect(&monitor, &PoolMonitor::pollFailed, &loop,
                     [this, &lastProblem](const Failure &failure) {
                         lastProblem = failure.text;
                         m_err << "poolscope-cli: " << failure.text << '\n';
                         m_err.flush();
                     });
    QObject::connect(&monitor, &PoolMonitor::stateChanged, &loop,
                     [&lastProblem](ConnectionState state, const QString &detail) {
                         if (state != ConnectionState::Connected && !detail.isEmpty())
                             lastProblem = detail;
                     });
    const InterruptGuard guard;
    QTimer interruptCheck;
    QObject::connect(&interruptCheck, &QTimer::timeout, &loop, [&] {
        if (g_interrupted.load()) {
            exitCode = kExitInterrupted;
            loop.quit();
        }
    });
    interruptCheck.start(100);
    if (seconds > 0)
        QTimer::singleShot(std::chrono::milliseconds(qint64(seconds * 1000)), &loop,
                           &QEventLoop::quit);
    monitor.connectTo(endpoint, poolKey(), options);
    loop.exec();
    if (exitCode == kExitOk && !anyPoll) {
        m_err << "poolscope-cli: watch: no poll succeeded"
              << (lastProblem.isEmpty() ? QString() : QStringLiteral(": ") + lastProblem) << '\n';
        return kExitFailure;
    }
    return exitCode;
}

} // namespace poolscope::cli
