#include "pool/PoolStats.h"

#include <algorithm>
#include <cmath>

namespace poolscope {

namespace {

// Neumaier (improved Kahan) summation in long double: adding small counts to a huge running total
// must not silently drop them, even where long double is no wider than double.
class CompensatedSum {
public:
    void add(long double value) {
        const long double newSum = m_sum + value;
        if (std::fabs(m_sum) >= std::fabs(value))
            m_compensation += (m_sum - newSum) + value;
        else
            m_compensation += (value - newSum) + m_sum;
        m_sum = newSum;
    }
    long double result() const { return m_sum + m_compensation; }

private:
    long double m_sum = 0;
    long double m_compensation = 0;
};

double medianOfSorted(const QList<double> &sortedCounts) {
    const qsizetype count = sortedCounts.size();
    if (count == 0)
        return 0;
    const qsizetype middle = count / 2;
    if (count % 2 == 1)
        return sortedCounts[middle];
    const double lower = sortedCounts[middle - 1];
    const double upper = sortedCounts[middle];
    // lower + half the gap: cannot overflow for huge values, unlike (lower + upper) / 2.
    return lower + (upper - lower) / 2;
}

} // namespace

double jainFairnessIndex(const QList<double> &counts) {
    if (counts.isEmpty())
        return 1.0;

    long double largestMagnitude = 0;
    for (const double count : counts)
        largestMagnitude = std::max(largestMagnitude, std::fabs(static_cast<long double>(count)));
    if (largestMagnitude == 0)
        return 1.0; // all zeros: nothing allocated, perfectly fair

    // The index is scale invariant; scaling into [-1, 1] keeps x^2 from overflowing/underflowing.
    CompensatedSum sum;
    CompensatedSum sumOfSquares;
    for (const double count : counts) {
        const long double scaled = count / largestMagnitude;
        sum.add(scaled);
        sumOfSquares.add(scaled * scaled);
    }
    const long double numerator = sum.result() * sum.result();
    const long double denominator = static_cast<long double>(counts.size()) * sumOfSquares.result();
    // Cauchy-Schwarz bounds the exact value by 1; clamp away rounding noise above it.
    return static_cast<double>(std::min<long double>(1.0L, numerator / denominator));
}

PoolStats computePoolStats(QList<double> counts, qint64 evictedCount) {
    PoolStats stats;
    stats.size = counts.size();
    stats.evicted = evictedCount;
    // Scores of +inf/-inf (only bad data makes them) are counted apart, not summed.
    const auto invalid = std::remove_if(counts.begin(), counts.end(),
                                        [](double count) { return !std::isfinite(count); });
    stats.invalid = std::distance(invalid, counts.end());
    counts.erase(invalid, counts.end());
    if (counts.isEmpty())
        return stats;

    if (!std::is_sorted(counts.cbegin(), counts.cend())) // a snapshot's are, every poll
        std::sort(counts.begin(), counts.end());
    stats.min = counts.front();
    stats.max = counts.back();
    stats.spread = stats.max - stats.min;
    stats.median = medianOfSorted(counts);

    CompensatedSum total;
    for (const double count : std::as_const(counts))
        total.add(count);
    stats.total = static_cast<double>(total.result());

    stats.jainIndex = jainFairnessIndex(counts);
    return stats;
}

double busiestShare(const QList<double> &deltas) {
    double busiest = 0;
    CompensatedSum total;
    for (const double delta : deltas) {
        const double allocations = std::max(0.0, delta);
        busiest = std::max(busiest, allocations);
        total.add(allocations);
    }
    const long double totalAllocations = total.result();
    if (totalAllocations <= 0)
        return 0;
    return static_cast<double>(busiest / totalAllocations);
}

} // namespace poolscope
