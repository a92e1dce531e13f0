#pragma once

#include <QByteArray>
#include <QString>

namespace poolscope {

struct LoadReport;
class RedisError;

// Short human texts shared by the panels. Numbers follow the user's locale.
QString formatRate(double perSecond);            // "98.0", "1,180"
QString formatShare(double fraction);            // "8.3 %"
QString formatSeconds(double seconds);           // "0.03 s", "2.5 s", "3.2 min", "1.5 h"
QString formatAgo(qint64 elapsedMs);             // "0.4 s ago", "2 min ago"
QString formatMilliseconds(double milliseconds); // "0.31 ms", "12 ms"

// The result of a test-allocation run, several lines: allocated, empty answers, errors, unknown,
// rate, latency, and for the naive mode the collisions. An empty pool says so plainly.
QString describeLoadReport(const LoadReport &report);

// An error as the dashboard tells it: its remedy names the field or button that fixes it
// (Connections… ▸ Edit ▸ CA file), not a command-line flag. Safe on any thread.
QString dashboardErrorText(const RedisError &error);

// Member names in "natural" order: runs of digits compare by value, so "m2" < "m10" and
// "10.0.0.9:80" < "10.0.0.10:80"; otherwise bytewise. A strict weak order (ties by bytes).
bool naturalLess(const QByteArray &a, const QByteArray &b);

} // namespace poolscope
