#include "pool/SnapshotOrder.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

namespace poolscope {

namespace {

// Read ids are unique in the process: a session compares them to know what changes are against.
std::atomic<quint64> g_readIds{0};

} // namespace

bool SnapshotOrder::lessThan(int a, int b) const {
    const Slot &x = m_slots[size_t(a)];
    const Slot &y = m_slots[size_t(b)];
    return x.now != y.now ? x.now < y.now : x.member < y.member;
}

int SnapshotOrder::take(const QByteArray &member) {
    int slot;
    if (!m_free.empty()) {
        slot = m_free.back();
        m_free.pop_back();
    } else {
        slot = int(m_slots.size());
        m_slots.emplace_back();
    }
    m_slots[size_t(slot)] = Slot{member, std::numeric_limits<double>::quiet_NaN(), 0, 0, true};
    m_index.insert(member, slot);
    return slot;
}

QList<PoolMember> SnapshotOrder::order(const QList<PoolMember> &read, PoolSnapshot *snapshot) {
    const quint64 stamp = ++m_reads;
    std::vector<int> changed; // slots whose count changed, and new members
    std::vector<int> readSlots;
    readSlots.reserve(size_t(read.size()));
    for (qsizetype at = 0; at < read.size(); ++at) {
        const PoolMember &member = read[at];
        // The member read at this place last time, if it is the same one (a compare of the
        // names, no hash). Those slots were all in the previous read, so none has been freed.
        int slot = -1;
        if (size_t(at) < m_readSlots.size() &&
            m_slots[size_t(m_readSlots[size_t(at)])].member == member.member)
            slot = m_readSlots[size_t(at)];
        if (slot < 0)
            slot = m_index.value(member.member, -1);
        if (slot < 0) {
            slot = take(member.member);
            changed.push_back(slot);
        }
        Slot &entry = m_slots[size_t(slot)];
        entry.now = member.count; // read twice: the last count
        entry.stamp = stamp;
        readSlots.push_back(slot);
    }
    m_readSlots = std::move(readSlots);

    // The previous order without the members gone; the unchanged ones keep their order.
    std::vector<int> kept;
    kept.reserve(m_order.size());
    QList<QByteArray> gone;
    for (const int slot : m_order) {
        Slot &entry = m_slots[size_t(slot)];
        if (entry.stamp != stamp) {
            gone.append(entry.member);
            m_index.remove(entry.member);
            entry = Slot{};
            m_free.push_back(slot);
        } else if (entry.now == entry.count) {
            kept.push_back(slot);
        } else {
            changed.push_back(slot);
        }
    }
    const auto less = [this](int a, int b) { return lessThan(a, b); };
    std::sort(changed.begin(), changed.end(), less);
    std::vector<int> merged;
    merged.reserve(kept.size() + changed.size());
    std::merge(kept.cbegin(), kept.cend(), changed.cbegin(), changed.cend(),
               std::back_inserter(merged), less);
    m_order = std::move(merged);

    const bool known = m_lastReadId != 0;
    PoolChanges changes;
    changes.sinceReadId = m_lastReadId;
    changes.gone = std::move(gone);
    QList<PoolMember> ordered;
    ordered.reserve(qsizetype(m_order.size()));
    for (const int slot : m_order) {
        Slot &entry = m_slots[size_t(slot)];
        if (entry.fresh || entry.now != entry.count)
            changes.changed.append({entry.member, entry.count, entry.now});
        entry.count = entry.now;
        entry.fresh = false;
        ordered.append({entry.member, entry.now});
    }
    m_lastReadId = ++g_readIds;
    if (snapshot) {
        snapshot->readId = m_lastReadId;
        if (known)
            snapshot->changes = std::move(changes);
        else
            snapshot->changes.reset();
    }
    return ordered;
}

void SnapshotOrder::reset() {
    m_slots.clear();
    m_free.clear();
    m_index.clear();
    m_order.clear();
    m_readSlots.clear();
    m_lastReadId = 0;
}

} // namespace poolscope
