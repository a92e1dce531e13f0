#pragma once

#include <array>

#include <QtGlobal>

namespace poolscope {

// Durations in microseconds, log-linear buckets: exact below 128 µs, then 64 buckets per power of
// two (under 1.6% error) up to 10 s; longer values land in the last bucket (max() stays exact).
// Fixed size and no allocation while recording, so each load worker keeps its own and the
// runner adds them up at the end.
class LatencyHistogram {
public:
    static constexpr qint64 kMaxMicros = 10'000'000;

    void record(qint64 micros);
    void merge(const LatencyHistogram &other);
    qint64 count() const { return m_count; }
    qint64 maxMicros() const { return m_max; }
    // The smallest bucket edge with at least q of the values at or below it (q in 0..1), capped
    // at max(); 0 when empty. Exact below 128 µs.
    qint64 quantileMicros(double q) const;

    static int bucketOf(qint64 micros);
    static qint64 upperEdgeOf(int bucket);

private:
    static constexpr int kExactBuckets = 128;
    static constexpr int kSubBuckets = 64;
    // 10 s < 2^24 µs: shifts 1..17 above the exact range.
    static constexpr int kBuckets = kExactBuckets + 17 * kSubBuckets;

    std::array<qint64, kBuckets> m_counts{};
    qint64 m_count = 0;
    qint64 m_max = 0;
};

} // namespace poolscope
