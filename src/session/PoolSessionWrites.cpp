// PoolSession's writes: seed, evict and restore handed to the writer's thread, and their outcomes
// turned into events, history markers and forecasts.
#include "session/PoolSession.h"

#include "session/DisplayFormat.h"
#include "session/Forecast.h"
#include "session/OutsideChanges.h"

#include <QDateTime>

namespace poolscope {

namespace {

QString utf8Text(const QByteArray &member) {
    return QString::fromUtf8(member);
}

} // namespace

bool PoolSession::refuseWrite(const QString &operation) {
    const QString reason = writeBlockReason();
    if (reason.isEmpty())
        return false;
    log(LogSeverity::Warning, operation, tr("%1 refused: %2").arg(operation, reason));
    return true;
}

bool PoolSession::seed(const QList<QByteArray> &members, const SeedOptions &options) {
    if (refuseWrite(QStringLiteral("seed")))
        return false;
    ++m_writesInFlight;
    m_feed->seed(members, options);
    return true;
}

bool PoolSession::evict(const QList<QByteArray> &members, const QString &reason) {
    if (members.isEmpty() || refuseWrite(QStringLiteral("evict")))
        return false;
    ++m_writesInFlight;
    m_feed->evict(members, reason);
    return true;
}

bool PoolSession::restore(const QList<QByteArray> &members, RestorePolicy policy, double startCount,
                          const QString &reason) {
    if (members.isEmpty() || refuseWrite(QStringLiteral("restore")))
        return false;
    ++m_writesInFlight;
    m_feed->restore(members, policy, startCount, reason);
    return true;
}

void PoolSession::handleSeedFinished(const SeedResult &result) {
    QString label =
        tr("seed +%L1 at %2").arg(result.added.size()).arg(formatCount(result.startCount));
    QStringList details;
    if (!result.alreadyPresent.isEmpty())
        details << tr("%L1 already in the pool kept their count").arg(result.alreadyPresent.size());
    if (!result.overwritten.isEmpty())
        details << tr("%L1 reset").arg(result.overwritten.size());
    if (!result.evicted.isEmpty())
        details << tr("%L1 evicted not re-added (restore them instead)").arg(result.evicted.size());
    if (!result.added.isEmpty() || !result.overwritten.isEmpty())
        addHistoryEvent(HistoryEvent::Kind::Seed, {}, label);
    log(LogSeverity::Info, QStringLiteral("seed"),
        details.isEmpty() ? label
                          : label + QStringLiteral(" · ") + details.join(QStringLiteral(", ")));
    pollNow();
    Q_EMIT seedFinished(result);
}

void PoolSession::handleEvicted(const QList<EvictResult> &results) {
    for (const EvictResult &result : results) {
        const QString label =
            tr("evict %1 (saved %2)").arg(utf8Text(result.member), formatCount(result.savedCount));
        addHistoryEvent(HistoryEvent::Kind::Evict, result.member, label);
        log(LogSeverity::Info, QStringLiteral("evict"), label);
    }
    pollNow();
    Q_EMIT membersEvicted(results);
}

void PoolSession::handleRestored(const QList<RestoreResult> &results, double poolMinimumBefore) {
    const std::optional<double> minimum =
        poolMinimumBefore < 0 ? std::nullopt : std::optional<double>(poolMinimumBefore);
    QList<double> savedCounts;
    QList<QByteArray> members;
    for (const RestoreResult &result : results) {
        const QString label = tr("restore %1 (%2) at %3")
                                  .arg(utf8Text(result.member), restorePolicyName(result.policy),
                                       formatCount(result.restoredCount));
        addHistoryEvent(HistoryEvent::Kind::Restore, result.member, label);
        savedCounts.append(result.savedCount);
        members.append(result.member);
    }
    if (!results.isEmpty()) {
        // One entry for the restore, with the forecast the dialog showed: restored members share
        // the flood (they take turns at the bottom of the pool), they do not each get one.
        const RestoreResult &first = results.constFirst();
        const FloodForecast forecast = forecastRestore(first.policy, savedCounts, minimum,
                                                       first.restoredCount, m_rates.poolRate());
        const QString what = results.size() == 1
                                 ? tr("restore %1 (%2) at %3")
                                       .arg(utf8Text(first.member), restorePolicyName(first.policy),
                                            formatCount(first.restoredCount))
                                 : tr("restore %L1 members (%2): %3")
                                       .arg(results.size())
                                       .arg(restorePolicyName(first.policy), nameSome(members));
        // Above the minimum there is no flood but a wait: said as clearly.
        QList<double> joins;
        for (const RestoreResult &result : results)
            joins.append(result.restoredCount);
        const StarvationForecast wait =
            forecastStarvation(joins, poolLevelsOf(m_latest), m_rates.poolRate());
        log(forecast.allocations > 0 || wait.allocations > 0 ? LogSeverity::Warning
                                                             : LogSeverity::Info,
            QStringLiteral("restore"),
            tr("%1 · forecast: %2", "%1: the restore done, %2: what it will do to the pool")
                .arg(what, wait.allocations > 0 ? wait.text : forecast.text));
    }
    pollNow();
    Q_EMIT membersRestored(results, poolMinimumBefore);
}

void PoolSession::handleCommandFailure(const QString &operation, const Failure &failure) {
    log(LogSeverity::Error, operation, failure.text);
    // A refusal for lack of rights will not go away by retrying: switch to read-only, and say so.
    if (failure.noPermission() || failure.readOnlyReplica()) {
        m_serverRefusesWrites = failure.noPermission() ? QStringLiteral("NOPERM")
                                                       : tr("connected to a read-only replica");
        updateWriteAvailability();
    }
    Q_EMIT commandFailed(operation, failure);
}

void PoolSession::beginOwnWrites() {
    ++m_ownWrites;
}

void PoolSession::endOwnWrites() {
    if (m_ownWrites == 0)
        return;
    if (--m_ownWrites == 0)
        m_ownWritesEndedMs = QDateTime::currentMSecsSinceEpoch();
}

} // namespace poolscope
