// Full reads of a pool put in allocation order by merging with the previous read, and what
// changed between two reads.
#pragma once

#include "pool/PoolTypes.h"

#include <optional>
#include <vector>

#include <QByteArray>
#include <QHash>
#include <QList>

namespace poolscope {

// Puts the members of successive full reads of one pool in allocation order (count, then member:
// the order ZRANGE gives) and says what changed from one read to the next.
//
// A big pool is read with ZSCAN, in no order, and was sorted whole on every poll: at 10,000
// members, ties on the count compared member names a hundred thousand times a second. Between two
// polls only the members allocated meanwhile change (about 500 a second under a worker at 500/s):
// the members whose count did not change keep their order from the previous read, so only the
// changed ones are sorted and merged in. The same pass gives the changes (PoolChanges), which the
// session's per-poll work uses instead of comparing every member again.
//
// Cost per read: a hash lookup per member (fewer: ZSCAN returns an unchanged set in the same order,
// so each member is first compared with the one read at its place last time), a merge, and a sort
// of the changed ones. Memory: the last read's members and an index by name.
class SnapshotOrder {
public:
    // read: the members and counts of one read of the whole pool, in any order; a member read twice
    // (ZSCAN may return one twice) counts with its last count. Returns them in allocation order.
    // The snapshot's readId and changes (against the previous call) are set in *snapshot when
    // given; changes are unknown (nullopt) on the first call and after reset().
    QList<PoolMember> order(const QList<PoolMember> &read, PoolSnapshot *snapshot = nullptr);
    void reset();

private:
    struct Slot {
        QByteArray member;
        double count = 0;   // as of the previous read
        double now = 0;     // as of the read under way
        quint64 stamp = 0;  // the read that last saw the member
        bool fresh = false; // not in the previous read
    };
    bool lessThan(int a, int b) const;
    int take(const QByteArray &member);

    std::vector<Slot> m_slots;
    std::vector<int> m_free;
    QHash<QByteArray, int> m_index; // member -> slot
    std::vector<int> m_order;       // slots in allocation order, as of the previous read
    std::vector<int> m_readSlots;   // the slot of each place of the previous read, as read
    quint64 m_reads = 0;
    quint64 m_lastReadId = 0; // 0: no read since reset()
};

} // namespace poolscope
