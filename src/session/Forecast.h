#pragma once

#include "monitor/PoolMonitor.h"
#include "pool/PoolTypes.h"

#include <optional>

#include <QString>

namespace poolscope {

// What happens after a member joins the pool below the pool's lowest count: allocate.lua always
// picks the lowest count, so it takes every allocation until it has caught up (the flood).
struct FloodForecast {
    double joinCount = 0;   // the count the member(s) join at
    double perMember = 0;   // allocations each will take before the others get any: min - join
    double allocations = 0; // all of them together (perMember x members)
    bool poolEmpty = false; // nobody to catch up with: they get every allocation from now on
    std::optional<double> seconds; // allocations / current rate; nullopt when no rate is known
    QString text;                  // one sentence for the UI
};

// members: how many join at joinCount. poolMinimum: the pool's lowest count now (nullopt: empty).
FloodForecast forecastFlood(double joinCount, int members, std::optional<double> poolMinimum,
                            double ratePerSecond);

// The count a restored member gets under a policy.
double restoredCount(RestorePolicy policy, double savedCount, std::optional<double> poolMinimum,
                     double startCount);

// The forecast shown before a restore: "this member will receive the next ~N allocations, about
// T s at the current rate", N = pool minimum - restored count. savedCounts: one per member.
FloodForecast forecastRestore(RestorePolicy policy, const QList<double> &savedCounts,
                              std::optional<double> poolMinimum, double startCount,
                              double ratePerSecond);

// The pool's counts as far as the last poll read them.
struct PoolLevels {
    std::optional<double> minimum; // nullopt: empty pool (or not read yet)
    double maximum = 0;
    qint64 size = 0;
    double total = 0;     // the sum of the counts
    QList<double> counts; // every count when the pool was read whole; empty in summary mode
};
PoolLevels poolLevelsOf(const std::optional<PoolObservation> &observation);

// The other side of the flood: a member that joins above the pool minimum gets no allocation
// until every member below it has caught up, since allocate.lua always picks the lowest count.
struct StarvationForecast {
    double joinCount = 0;
    double allocations = 0;        // allocations the rest of the pool takes first
    bool atLeast = false;          // a lower bound: a big pool's counts were not all read
    std::optional<double> seconds; // allocations / current rate; nullopt when no rate is known
    QString text;                  // one sentence for the UI, empty when there is no wait
};

// joinCounts: the count each member joins at; the first of them to get a turn is the lowest.
StarvationForecast forecastStarvation(const QList<double> &joinCounts, const PoolLevels &levels,
                                      double ratePerSecond);
// The same for a restore under a policy (one saved count per member).
StarvationForecast forecastRestoreStarvation(RestorePolicy policy, const QList<double> &savedCounts,
                                             const PoolLevels &levels, double startCount,
                                             double ratePerSecond);

} // namespace poolscope
