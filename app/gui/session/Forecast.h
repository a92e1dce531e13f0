#pragma once

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

} // namespace poolscope
