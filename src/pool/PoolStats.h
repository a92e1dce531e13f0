#pragma once

#include <QList>
#include <QtGlobal>

namespace poolscope {

// Summary of one "least-used" pool: a sorted set whose scores are allocation counts.
struct PoolStats {
    qint64 size = 0;    // members in the pool
    qint64 evicted = 0; // members in the evicted hash
    qint64 invalid = 0; // members whose score is not a finite number: left out of the figures
    // Of the counts; all 0 for an empty pool.
    double min = 0;
    double median = 0;
    double max = 0;
    double spread = 0; // max - min
    double total = 0;  // sum of counts
    // Jain's fairness index (sum x)^2 / (n * sum x^2), in [1/n, 1] for non-negative counts.
    // 1.0 for an empty pool or all zeros: nothing allocated yet is perfectly fair.
    double jainIndex = 1.0;
};

// counts may be in any order; the median of an even number of counts is the mean of the two
// middle values. Counts that are not finite (+inf/-inf/NaN: only bad data makes them) are counted
// in PoolStats::invalid and left out of every other figure.
PoolStats computePoolStats(QList<double> counts, qint64 evictedCount = 0);

// Jain's fairness index alone, with the same conventions as PoolStats::jainIndex. Scales by the
// largest magnitude before squaring, so huge (or tiny) counts neither overflow nor lose precision.
double jainFairnessIndex(const QList<double> &counts);

// Share of the busiest member among allocation deltas over a window: max(delta) / sum(delta);
// 0 when the sum is 0. Negative deltas (a count that went down, e.g. a member that was reset or
// re-added) are treated as 0 allocations, so the result stays within [0, 1].
double busiestShare(const QList<double> &deltas);

} // namespace poolscope
