#include "session/Forecast.h"

#include "session/DisplayFormat.h"

#include <algorithm>

#include <QCoreApplication>

namespace poolscope {

namespace {

QString secondsClause(const FloodForecast &forecast) {
    if (!forecast.seconds)
        return QCoreApplication::translate(
            "Forecast", " (no allocations measured right now, so no time estimate)");
    return QCoreApplication::translate("Forecast", ", about %1 at the current rate")
        .arg(formatSeconds(*forecast.seconds));
}

} // namespace

FloodForecast forecastFlood(double joinCount, int members, std::optional<double> poolMinimum,
                            double ratePerSecond) {
    FloodForecast forecast;
    forecast.joinCount = joinCount;
    members = std::max(members, 1);
    if (!poolMinimum) {
        forecast.poolEmpty = true;
        forecast.text =
            members == 1
                ? QCoreApplication::translate("Forecast",
                                              "The pool is empty: this member will receive every "
                                              "allocation until others join.")
                : QCoreApplication::translate(
                      "Forecast", "The pool is empty: these %L1 members will share every "
                                  "allocation between them.")
                      .arg(members);
        return forecast;
    }
    forecast.perMember = std::max(0.0, *poolMinimum - joinCount);
    forecast.allocations = forecast.perMember * members;
    if (ratePerSecond > 0)
        forecast.seconds = forecast.allocations / ratePerSecond;
    if (forecast.allocations <= 0 && joinCount > *poolMinimum) {
        // Not "joins the rotation": it waits until the pool catches up (forecastStarvation).
        forecast.text =
            QCoreApplication::translate("Forecast", "No flood: joining at %1, above the pool "
                                                    "minimum (%2).")
                .arg(formatCount(joinCount), formatCount(*poolMinimum));
        return forecast;
    }
    if (forecast.allocations <= 0) {
        forecast.text =
            QCoreApplication::translate(
                "Forecast", "No flood: joining at %1, at or above the pool minimum (%2), "
                            "so it joins the rotation.")
                .arg(formatCount(joinCount), formatCount(*poolMinimum));
        return forecast;
    }
    if (members == 1)
        forecast.text = QCoreApplication::translate(
                            "Forecast", "This member will receive the next ~%1 allocations%2.")
                            .arg(formatCount(forecast.allocations), secondsClause(forecast));
    else
        forecast.text = QCoreApplication::translate(
                            "Forecast", "These %L1 members will receive the next ~%2 allocations "
                                        "(~%3 each)%4.")
                            .arg(members)
                            .arg(formatCount(forecast.allocations), formatCount(forecast.perMember),
                                 secondsClause(forecast));
    return forecast;
}

double restoredCount(RestorePolicy policy, double savedCount, std::optional<double> poolMinimum,
                     double startCount) {
    switch (policy) {
    case RestorePolicy::Keep:
        return savedCount;
    case RestorePolicy::Zero:
        return 0;
    case RestorePolicy::Start:
        return startCount;
    case RestorePolicy::Min:
        return poolMinimum.value_or(startCount);
    }
    return savedCount;
}

FloodForecast forecastRestore(RestorePolicy policy, const QList<double> &savedCounts,
                              std::optional<double> poolMinimum, double startCount,
                              double ratePerSecond) {
    if (savedCounts.isEmpty())
        return forecastFlood(startCount, 1, poolMinimum, ratePerSecond);
    // Each restored member floods by its own gap; they take turns at the bottom of the pool.
    double total = 0;
    double lowest = restoredCount(policy, savedCounts.first(), poolMinimum, startCount);
    for (double saved : savedCounts) {
        const double joins = restoredCount(policy, saved, poolMinimum, startCount);
        lowest = std::min(lowest, joins);
        if (poolMinimum)
            total += std::max(0.0, *poolMinimum - joins);
    }
    FloodForecast forecast =
        forecastFlood(lowest, int(savedCounts.size()), poolMinimum, ratePerSecond);
    if (savedCounts.size() > 1 && poolMinimum && !forecast.poolEmpty) {
        // Members restored from different saved counts (keep) flood by different amounts.
        forecast.allocations = total;
        forecast.perMember = total / double(savedCounts.size());
        forecast.seconds.reset();
        if (ratePerSecond > 0)
            forecast.seconds = total / ratePerSecond;
        forecast.text =
            total <= 0 ? QCoreApplication::translate("Forecast",
                                                     "No flood: they join at or above the pool "
                                                     "minimum (%1), so they join the rotation.")
                             .arg(formatCount(*poolMinimum))
                       : QCoreApplication::translate("Forecast",
                                                     "These %L1 members will receive the next ~%2 "
                                                     "allocations between them%3.")
                             .arg(savedCounts.size())
                             .arg(formatCount(total), secondsClause(forecast));
    }
    return forecast;
}

PoolLevels poolLevelsOf(const std::optional<PoolObservation> &observation) {
    PoolLevels levels;
    if (!observation)
        return levels;
    const PoolStats &stats = observation->stats;
    levels.size = observation->summaryMode ? observation->summary.size : stats.size;
    if (levels.size <= 0)
        return levels;
    levels.minimum = stats.min;
    levels.maximum = stats.max;
    levels.total = stats.total;
    if (!observation->summaryMode)
        for (const PoolMember &member : observation->snapshot.members)
            levels.counts.append(member.count);
    return levels;
}

StarvationForecast forecastStarvation(const QList<double> &joinCounts, const PoolLevels &levels,
                                      double ratePerSecond) {
    StarvationForecast forecast;
    if (joinCounts.isEmpty() || !levels.minimum)
        return forecast;
    const double join = *std::min_element(joinCounts.begin(), joinCounts.end());
    forecast.joinCount = join;
    if (join <= *levels.minimum)
        return forecast;
    if (!levels.counts.isEmpty()) {
        for (const double count : levels.counts)
            forecast.allocations += std::max(0.0, join - count);
    } else if (join >= levels.maximum) {
        forecast.allocations = std::max(0.0, double(levels.size) * join - levels.total);
    } else {
        // Only the minimum is known below the join count: at least it has to catch up.
        forecast.allocations = join - *levels.minimum;
        forecast.atLeast = true;
    }
    if (forecast.allocations <= 0)
        return forecast;
    if (ratePerSecond > 0)
        forecast.seconds = forecast.allocations / ratePerSecond;
    const QString where =
        join > levels.maximum
            ? QCoreApplication::translate("Forecast", "above the pool maximum (%1)")
                  .arg(formatCount(levels.maximum))
            : QCoreApplication::translate("Forecast", "above the pool minimum (%1)")
                  .arg(formatCount(*levels.minimum));
    const QString amount = (forecast.atLeast ? QStringLiteral("≥") : QStringLiteral("~")) +
                           formatCount(forecast.allocations);
    const QString when =
        forecast.seconds
            ? QCoreApplication::translate("Forecast", "about %1 at the current rate")
                  .arg(formatSeconds(*forecast.seconds))
            : QCoreApplication::translate("Forecast",
                                          "no allocations measured right now, so no time estimate");
    forecast.text =
        QCoreApplication::translate(
            "Forecast", "Starvation warning: joining at %1, %2, it gets none of the next %3 "
                        "allocations (%4): the rest of the pool catches up first.")
            .arg(formatCount(join), where, amount, when);
    if (joinCounts.size() > 1)
        forecast.text = QCoreApplication::translate(
                            "Forecast",
                            "Starvation warning: joining at %1 or more, %2, none of these %n "
                            "members gets any of the next %3 allocations (%4): the rest of the "
                            "pool catches up first.",
                            nullptr, int(joinCounts.size()))
                            .arg(formatCount(join), where, amount, when);
    return forecast;
}

StarvationForecast forecastRestoreStarvation(RestorePolicy policy, const QList<double> &savedCounts,
                                             const PoolLevels &levels, double startCount,
                                             double ratePerSecond) {
    QList<double> joins;
    for (const double saved : savedCounts)
        joins.append(restoredCount(policy, saved, levels.minimum, startCount));
    if (joins.isEmpty())
        joins.append(restoredCount(policy, 0, levels.minimum, startCount));
    return forecastStarvation(joins, levels, ratePerSecond);
}

} // namespace poolscope
