#include "load/LatencyHistogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace poolscope {

int LatencyHistogram::bucketOf(qint64 micros) {
    const auto value = static_cast<quint64>(std::clamp<qint64>(micros, 0, kMaxMicros));
    if (value < kExactBuckets)
        return static_cast<int>(value);
    // Keep the top 7 bits: the leading one plus 6 bits of mantissa (64 sub-buckets).
    const int shift = std::bit_width(value) - 7;
    const auto sub = static_cast<int>(value >> shift); // 64..127
    return kExactBuckets + (shift - 1) * kSubBuckets + (sub - kSubBuckets);
}

qint64 LatencyHistogram::upperEdgeOf(int bucket) {
    if (bucket < kExactBuckets)
        return bucket;
    const int shift = (bucket - kExactBuckets) / kSubBuckets + 1;
    const qint64 sub = (bucket - kExactBuckets) % kSubBuckets + kSubBuckets;
    return ((sub + 1) << shift) - 1;
}

void LatencyHistogram::record(qint64 micros) {
    ++m_counts[static_cast<size_t>(bucketOf(micros))];
    ++m_count;
    m_max = std::max(m_max, micros);
}

void LatencyHistogram::merge(const LatencyHistogram &other) {
    for (size_t i = 0; i < m_counts.size(); ++i)
        m_counts[i] += other.m_counts[i];
    m_count += other.m_count;
    m_max = std::max(m_max, other.m_max);
}

qint64 LatencyHistogram::quantileMicros(double q) const {
    if (m_count == 0)
        return 0;
    const auto rank =
        std::max<qint64>(1, static_cast<qint64>(std::ceil(std::clamp(q, 0.0, 1.0) * m_count)));
    qint64 seen = 0;
    for (size_t i = 0; i < m_counts.size(); ++i) {
        seen += m_counts[i];
        if (seen >= rank)
            return std::min(upperEdgeOf(static_cast<int>(i)), m_max);
    }
    return m_max;
}

} // namespace poolscope
