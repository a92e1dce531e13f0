#pragma once

#include "history/PoolHistory.h"

#include <QList>
#include <QPointF>
#include <QString>

namespace poolscope {

// Chart data preparation, kept apart from Qt Charts so it can be tested and reused.
// x is milliseconds since the epoch (what QDateTimeAxis expects), y the value.

QList<QPointF> countPoints(const QList<HistoryPoint> &history);

// Allocations per second between consecutive points, placed at the later point. A count that
// went down (evicted and restored lower) is no allocation: 0, not a negative rate. A line break
// (NaN) stays a break: no rate is made up across an outage.
QList<QPointF> ratePoints(const QList<HistoryPoint> &history);

// The lowest and highest point of each bucket of bucketMs (buckets counted from x = 0), the
// run's first and last point, and every line break (NaN y). Within a bucket the two are put in
// the order that continues from the point before: a line that flips between two values at every
// point is drawn as one stroke up or down per bucket, not a zigzag of a stroke per point, and a
// rising or falling line keeps its time order. Input must be sorted by x.
QList<QPointF> bucketMinMax(const QList<QPointF> &points, double bucketMs);

// The runs of points between line breaks (NaN y), in order; empty runs are left out.
QList<QList<QPointF>> splitAtBreaks(const QList<QPointF> &points);

struct ValueRange {
    double low = 0;
    double high = 0;
    bool valid = false;
    void include(double value);
};

// A y range that shows every value with a little air, never empty; never below 0 unless
// allowNegative (the difference-from-median mode, whose values sit around 0).
ValueRange paddedRange(ValueRange range, bool allowNegative = false);

// Each point's count minus the pool median "at that moment": the median of the latest band point
// at or before the point's time (a poll records both at the same time; in the coarser tiers the
// buckets may close at different polls). NaN where either is a line break (NaN) or no band point
// is that old. `band` must be sorted by time.
QList<QPointF> differencePoints(const QList<HistoryPoint> &history, const QList<BandPoint> &band);

// The band in difference mode: min - median .. max - median, and the median itself at 0.
struct DifferenceBand {
    QList<QPointF> upper;
    QList<QPointF> lower;
    QList<QPointF> median;
};
DifferenceBand differenceBand(const QList<BandPoint> &band);

// True when a pool of `members` members with counts min..max has at least two members, all
// within `allocations` of each other: its cumulative lines would lie on top of each other.
bool isFairSpread(qint64 members, double min, double max, double allocations);

// Ticks for a count axis: whole numbers only, a round step (1, 2, 5 x 10^n), at most
// maxIntervals intervals, the range widened to whole steps so every tick has a label of its own.
struct AxisTicks {
    double low = 0;
    double high = 1;
    double step = 1;
    int count = 2; // ticks, ends included
};
AxisTicks integerTicks(ValueRange range, int maxIntervals);

// Ticks for a rate axis: a round step (1, 2, 5 x 10^n) for about `ticks` ticks over the range,
// the range widened to whole steps.
AxisTicks niceTicks(ValueRange range, int ticks);

// A round time step (1 s .. 1 week) giving at most maxIntervals intervals over spanMs, and the
// label format for it: seconds only when the step needs them, the date when steps are days.
qint64 niceTimeStepMs(qint64 spanMs, int maxIntervals);
QString timeLabelFormat(qint64 stepMs);

} // namespace poolscope
