#pragma once

#include <QString>

namespace poolscope {

struct LoadReport;

// Short human texts shared by the panels. Numbers follow the user's locale.
QString formatRate(double perSecond);            // "98.0", "1,180"
QString formatShare(double fraction);            // "8.3 %"
QString formatSeconds(double seconds);           // "0.03 s", "2.5 s", "3.2 min", "1.5 h"
QString formatAgo(qint64 elapsedMs);             // "0.4 s ago", "2 min ago"
QString formatMilliseconds(double milliseconds); // "0.31 ms", "12 ms"

// The result of a test-allocation run, several lines: allocated, empty answers, errors, unknown,
// rate, latency, and for the naive mode the collisions. An empty pool says so plainly.
QString describeLoadReport(const LoadReport &report);

} // namespace poolscope
