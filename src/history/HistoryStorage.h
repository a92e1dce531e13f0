// The storage blocks behind PoolHistory: value buffers, tiers, member tracks and line breaks.
#pragma once

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <QByteArray>

namespace poolscope::historydetail {

constexpr int kTierCount = 3; // fine, medium, coarse
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

// One member's counts in one tier, parallel to the tier's slots. The slots are cut into blocks
// of 64; a block stores its counts as 16-bit offsets from a base of its own, 2 bytes a point, so
// a day of 1,000 members fits the memory budget. A block whose counts do not fit (fractional,
// infinite, or spread over more than 65,534 within the block, as when the ring wraps over a busy
// member's hour) keeps them as doubles until its slots are overwritten with counts that fit
// again. Reading a slot stays one lookup; what the chart shows is exactly what was written.
class ValueBuffer {
public:
    void appendMissing(size_t capacity) {
        reserveForOneMore(m_offsets, capacity);
        m_offsets.push_back(kMissingOffset);
        const size_t index = m_offsets.size() - 1;
        if (blockOf(index) >= m_blocks.size()) {
            reserveForOneMore(m_blocks, blocksFor(capacity));
            m_blocks.emplace_back();
        } else if (m_blocks[blockOf(index)].wide) {
            m_blocks[blockOf(index)].wide[index & kBlockMask] = kNaN;
        }
    }

    void setMissing(size_t index) {
        Block &block = m_blocks[blockOf(index)];
        if (block.wide)
            block.wide[index & kBlockMask] = kNaN;
        else
            m_offsets[index] = kMissingOffset;
    }

    void set(size_t index, double value) {
        const size_t blockIndex = blockOf(index);
        Block &block = m_blocks[blockIndex];
        if (block.wide) {
            block.wide[index & kBlockMask] = value;
            // The block's last slot written: its counts may fit in offsets again.
            if ((index & kBlockMask) == kBlockMask || index + 1 == m_offsets.size())
                narrow(blockIndex);
            return;
        }
        if (isWhole(value)) {
            if (std::isnan(block.base))
                block.base = value + kFreshBaseLead; // room for a rising count
            const double offset = value - block.base;
            if (std::abs(offset) <= kMaxOffset) {
                m_offsets[index] = static_cast<qint16>(offset);
                return;
            }
            if (rebase(blockIndex, value)) {
                m_offsets[index] = static_cast<qint16>(value - block.base);
                return;
            }
        }
        widen(blockIndex);
        block.wide[index & kBlockMask] = value;
    }

    // NaN when the member had no count in that slot.
    double at(size_t index) const {
        const Block &block = m_blocks[blockOf(index)];
        if (block.wide)
            return block.wide[index & kBlockMask];
        const qint16 offset = m_offsets[index];
        return offset == kMissingOffset ? kNaN : block.base + offset;
    }

    // All slots missing; keeps the allocation so a reused member costs nothing new.
    void reset(size_t size) {
        m_offsets.assign(size, kMissingOffset);
        m_blocks.clear();
        m_blocks.resize(blocksFor(size));
    }

    qint64 bytes() const {
        qint64 wideBlocks = 0;
        for (const Block &block : m_blocks)
            wideBlocks += block.wide ? 1 : 0;
        return qint64(m_offsets.capacity() * sizeof(qint16) + m_blocks.capacity() * sizeof(Block)) +
               wideBlocks * qint64(kBlockSize * sizeof(double));
    }

private:
    static constexpr size_t kBlockShift = 6;
    static constexpr size_t kBlockSize = size_t(1) << kBlockShift;
    static constexpr size_t kBlockMask = kBlockSize - 1;
    static constexpr qint16 kMissingOffset = std::numeric_limits<qint16>::min();
    static constexpr double kMaxOffset = std::numeric_limits<qint16>::max();
    static constexpr double kFreshBaseLead = 32000;

    struct Block {
        double base = kNaN;             // NaN until the block's first count
        std::unique_ptr<double[]> wide; // the block's counts when they do not fit in offsets
    };

    static size_t blockOf(size_t index) { return index >> kBlockShift; }
    static size_t blocksFor(size_t slotCount) { return (slotCount + kBlockMask) >> kBlockShift; }
    static bool isWhole(double value) {
        return std::isfinite(value) && std::floor(value) == value && std::abs(value) < 9.0e15;
    }
    size_t blockEnd(size_t blockIndex) const {
        return std::min(m_offsets.size(), (blockIndex + 1) << kBlockShift);
    }

    // A new base under which the block's counts and value all fit, if there is one.
    bool rebase(size_t blockIndex, double value) {
        Block &block = m_blocks[blockIndex];
        double low = value;
        double high = value;
        const size_t first = blockIndex << kBlockShift;
        for (size_t i = first; i < blockEnd(blockIndex); ++i) {
            if (m_offsets[i] == kMissingOffset)
                continue;
            low = std::min(low, block.base + m_offsets[i]);
            high = std::max(high, block.base + m_offsets[i]);
        }
        if (high - low > 2 * kMaxOffset)
            return false;
        const double base = low + kMaxOffset;
        for (size_t i = first; i < blockEnd(blockIndex); ++i)
            if (m_offsets[i] != kMissingOffset)
                m_offsets[i] = static_cast<qint16>(block.base + m_offsets[i] - base);
        block.base = base;
        return true;
    }

    void widen(size_t blockIndex) {
        Block &block = m_blocks[blockIndex];
        auto wide = std::make_unique<double[]>(kBlockSize);
        const size_t first = blockIndex << kBlockShift;
        for (size_t i = 0; i < kBlockSize; ++i)
            wide[i] = first + i < m_offsets.size() ? at(first + i) : kNaN;
        block.wide = std::move(wide);
    }

    // Back to offsets once every count in the block fits them.
    void narrow(size_t blockIndex) {
        Block &block = m_blocks[blockIndex];
        const size_t first = blockIndex << kBlockShift;
        double low = std::numeric_limits<double>::infinity();
        double high = -low;
        for (size_t i = first; i < blockEnd(blockIndex); ++i) {
            const double value = block.wide[i - first];
            if (std::isnan(value))
                continue;
            if (!isWhole(value))
                return;
            low = std::min(low, value);
            high = std::max(high, value);
        }
        if (high - low > 2 * kMaxOffset)
            return;
        block.base = std::isinf(low) ? kNaN : low + kMaxOffset;
        for (size_t i = first; i < blockEnd(blockIndex); ++i) {
            const double value = block.wide[i - first];
            m_offsets[i] =
                std::isnan(value) ? kMissingOffset : static_cast<qint16>(value - block.base);
        }
        block.wide.reset();
    }

    std::vector<qint16> m_offsets; // one per slot; unused in a block that is wide
    std::vector<Block> m_blocks;
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
