// The storage blocks behind PoolHistory: value buffers, tiers, member tracks and line breaks.
#pragma once

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <QByteArray>

namespace poolscope::historydetail {

constexpr int kTierCount = 3; // fine, medium, coarse
constexpr qint32 kMissing = std::numeric_limits<qint32>::min();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr size_t kMaxEvents = 10000;
constexpr size_t kMaxGaps = 10000;
// What one QHash / QSet entry costs beyond its key's bytes (node, span slot, spare capacity).
constexpr qint64 kHashEntryOverhead = 48;
// A QByteArray's heap block: header plus terminating NUL.
constexpr qint64 kByteArrayHeader = 17;

inline qint64 keyBytes(const QByteArray &key) {
    return key.isEmpty() ? 0 : key.capacity() + kByteArrayHeader;
}

// Grows a buffer towards its tier's fixed capacity; plain push_back would double past it.
template <typename T> void reserveForOneMore(std::vector<T> &buffer, size_t capacity) {
    if (buffer.size() == buffer.capacity())
        buffer.reserve(std::min(capacity, std::max<size_t>(64, buffer.capacity() * 2)));
}

// One member's counts in one tier, parallel to the tier's slots. Stored as 32-bit offsets from
// a base, 4 bytes a point, so a day of 1,000 members fits the memory budget. A buffer whose
// counts do not fit (fractional, infinite, or spread over more than 2^31) switches to doubles.
class ValueBuffer {
public:
    void appendMissing(size_t capacity) {
        if (m_isWide) {
            reserveForOneMore(m_wide, capacity);
            m_wide.push_back(kNaN);
        } else {
            reserveForOneMore(m_narrow, capacity);
            m_narrow.push_back(kMissing);
        }
    }

    void setMissing(size_t index) {
        if (m_isWide)
            m_wide[index] = kNaN;
        else
            m_narrow[index] = kMissing;
    }

    void set(size_t index, double value) {
        if (!m_isWide) {
            if (!m_hasBase && std::isfinite(value) && std::floor(value) == value &&
                std::abs(value) < 9.0e15) {
                m_base = value;
                m_hasBase = true;
            }
            const double offset = value - m_base;
            if (m_hasBase && std::floor(value) == value && std::isfinite(value) &&
                offset > kMissing && offset <= std::numeric_limits<qint32>::max()) {
                m_narrow[index] = static_cast<qint32>(offset);
                return;
            }
            widen();
        }
        m_wide[index] = value;
    }

    // NaN when the member had no count in that slot.
    double at(size_t index) const {
        if (m_isWide)
            return m_wide[index];
        const qint32 offset = m_narrow[index];
        return offset == kMissing ? kNaN : m_base + offset;
    }

    // All slots missing; keeps the allocation so a reused member costs nothing new.
    void reset(size_t size) {
        m_isWide = false;
        m_hasBase = false;
        m_base = 0;
        m_wide.clear();
        m_wide.shrink_to_fit();
        m_narrow.assign(size, kMissing);
    }

    qint64 bytes() const {
        return qint64(m_narrow.capacity() * sizeof(qint32) + m_wide.capacity() * sizeof(double));
    }

private:
    void widen() {
        m_wide.reserve(m_narrow.capacity());
        for (qsizetype i = 0; i < qsizetype(m_narrow.size()); ++i)
            m_wide.push_back(at(size_t(i)));
        m_narrow.clear();
        m_narrow.shrink_to_fit();
        m_isWide = true;
    }

    std::vector<qint32> m_narrow;
    std::vector<double> m_wide;
    double m_base = 0;
    bool m_hasBase = false;
    bool m_isWide = false;
};

// The slots of one resolution, oldest first, in a ring of fixed capacity. A slot gathers the
// samples of resolutionMs (9/10 of it in the finest tier) from its first one and keeps the last
// (counts are cumulative).
struct Tier {
    qint64 resolutionMs = 1000;
    size_t capacity = 1;
    size_t head = 0; // physical index of the oldest slot (0 until the ring is full)
    size_t size = 0;
    qint64 slotStartMs = 0;    // first sample time of the newest slot
    std::vector<qint64> times; // last sample time of each slot
    std::vector<double> min;   // pool-wide band and total, parallel to times
    std::vector<double> median;
    std::vector<double> max;
    std::vector<double> total;

    size_t physical(size_t logical) const { return (head + logical) % capacity; }
    qint64 timeAt(size_t logical) const { return times[physical(logical)]; }
    // Logical index of the first slot at or after timeMs.
    size_t lowerBound(qint64 timeMs) const {
        size_t low = 0;
        size_t high = size;
        while (low < high) {
            const size_t middle = (low + high) / 2;
            if (timeAt(middle) < timeMs)
                low = middle + 1;
            else
                high = middle;
        }
        return low;
    }
    qint64 bytes() const {
        return qint64(times.capacity() * sizeof(qint64) +
                      (min.capacity() + median.capacity() + max.capacity() + total.capacity()) *
                          sizeof(double));
    }
};

struct MemberTrack {
    QByteArray name;
    ValueBuffer values[kTierCount];
    double lastValue = kNaN;
    qint64 lastChangeMs = -1;
    qint64 lastSeenMs = 0;
    bool active = false;
    bool pinned = false;
};

// Decides where a chart line must break: at marked gaps, and where a member went missing
// (evicted) between two points that exist. Feed it the slots in time order.
class LineBreaks {
public:
    LineBreaks(const std::deque<qint64> &gaps, qint64 fromMs)
        : m_gaps(gaps)
        , m_next(size_t(std::lower_bound(gaps.begin(), gaps.end(), fromMs) - gaps.begin())) {}

    // The time of a break to emit before this slot's point, if any.
    std::optional<qint64> before(qint64 timeMs, bool present) {
        for (; m_next < m_gaps.size() && m_gaps[m_next] <= timeMs; ++m_next)
            if (m_drawn && !m_pending)
                m_pending = m_gaps[m_next];
        if (!present) {
            if (m_drawn && !m_pending)
                m_pending = timeMs;
            return std::nullopt;
        }
        m_drawn = true;
        return std::exchange(m_pending, std::nullopt);
    }

private:
    const std::deque<qint64> &m_gaps;
    size_t m_next;
    bool m_drawn = false;
    std::optional<qint64> m_pending;
};

} // namespace poolscope::historydetail
