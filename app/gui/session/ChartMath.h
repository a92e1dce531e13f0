#pragma once

#include "history/PoolHistory.h"

#include <QList>
#include <QPointF>

namespace poolscope {

// Chart data preparation, kept apart from Qt Charts so it can be tested and reused.
// x is milliseconds since the epoch (what QDateTimeAxis expects), y the value.

QList<QPointF> countPoints(const QList<HistoryPoint> &history);

// Allocations per second between consecutive points, placed at the later point. A count that
// went down (evicted and restored lower) is no allocation: 0, not a negative rate. A line break
// (NaN) stays a break: no rate is made up across an outage.
QList<QPointF> ratePoints(const QList<HistoryPoint> &history);

// Keeps the first, the last, and the lowest and highest point of each of `columns` equal slices
// of the x range, in x order: spikes survive, the line looks the same at that width, and a
// series never has more than about 2 x columns points. Input must be sorted by x. Points with a
// NaN y (line breaks: outages) are all kept, so a decimated line still breaks there.
QList<QPointF> decimateMinMax(const QList<QPointF> &points, int columns);

// The runs of points between line breaks (NaN y), in order; empty runs are left out.
QList<QList<QPointF>> splitAtBreaks(const QList<QPointF> &points);

struct ValueRange {
    double low = 0;
    double high = 0;
    bool valid = false;
    void include(double value);
};

// A y range that shows every value with a little air, never empty, never below 0.
ValueRange paddedRange(ValueRange range);

} // namespace poolscope
