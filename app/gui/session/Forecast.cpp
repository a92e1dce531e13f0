#include "session/Forecast.h"

#include "session/DisplayFormat.h"

#include <algorithm>

namespace poolscope {

namespace {

QString secondsClause(const FloodForecast &forecast) {
    if (!forecast.seconds)
        return QStringLiteral(" (no allocations measured right now, so no time estimate)");
    return QStringLiteral(", about %1 at the current rate").arg(formatSeconds(*forecast.seconds));
}

} // namespace

FloodForecast forecastFlood(double joinCount, int members, std::optional<double> poolMinimum,
                            double ratePerSecond) {
    FloodForecast forecast;
    forecast.joinCount = joinCount;
    members = std::max(members, 1);
    if (!poolMinimum) {
        forecast.poolEmpty = true;
        forecast.text = members == 1
                            ? QStringLiteral("The pool is empty: this member will receive every "
                                             "allocation until others join.")
                            : QStringLiteral("The pool is empty: these %1 members will share every "
                                             "allocation between them.")
                                  .arg(members);
        return forecast;
    }
    forecast.perMember = std::max(0.0, *poolMinimum - joinCount);
    forecast.allocations = forecast.perMember * members;
    if (ratePerSecond > 0)
        forecast.seconds = forecast.allocations / ratePerSecond;
    if (forecast.allocations <= 0) {
        forecast.text =
            QStringLiteral("No flood: joining at %1, at or above the pool minimum (%2), "
                           "so it joins the rotation.")
                .arg(formatCount(joinCount), formatCount(*poolMinimum));
        return forecast;
    }
    if (members == 1)
        forecast.text = QStringLiteral("This member will receive the next ~%1 allocations%2.")
                            .arg(formatCount(forecast.allocations), secondsClause(forecast));
    else
        forecast.text = QStringLiteral("These %1 members will receive the next ~%2 allocations "
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
        forecast.text = total <= 0 ? QStringLiteral("No flood: they join at or above the pool "
                                                    "minimum (%1), so they join the rotation.")
                                         .arg(formatCount(*poolMinimum))
                                   : QStringLiteral("These %1 members will receive the next ~%2 "
                                                    "allocations between them%3.")
                                         .arg(savedCounts.size())
                                         .arg(formatCount(total), secondsClause(forecast));
    }
    return forecast;
}

} // namespace poolscope
