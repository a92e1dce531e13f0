#pragma once

#include <bitset>

#include <QByteArray>
#include <QSet>

namespace poolscope {

// A few members (the pinned and charted ones) to pick out of every member of a poll, in the
// poll's order. A set's contains() hashes each of 10,000 members a poll, several times over (the
// history, the recorder, the health reads): a few % of a core. Here the member's length and last
// two bytes, which tell ids apart (m0001234, 10.0.0.1:8080), rule out almost every member before
// the set is asked.
class MemberSubset {
public:
    MemberSubset() = default;
    explicit MemberSubset(const QSet<QByteArray> &members) {
        for (const QByteArray &member : members)
            insert(member);
    }
    void insert(const QByteArray &member) {
        m_members.insert(member);
        m_mask.set(slot(member));
    }
    bool contains(const QByteArray &member) const {
        return !m_members.isEmpty() && m_mask.test(slot(member)) && m_members.contains(member);
    }

private:
    static constexpr size_t kSlots = 4096;
    static size_t slot(const QByteArray &member) {
        const qsizetype size = member.size();
        const auto last = size > 0 ? size_t(uchar(member.at(size - 1))) : 0;
        const auto before = size > 1 ? size_t(uchar(member.at(size - 2))) : 0;
        // Ids that differ only in their last two digits land apart.
        return (size_t(size) * 2053 + before * 131 + last * 7) % kSlots;
    }

    std::bitset<kSlots> m_mask;
    QSet<QByteArray> m_members;
};

} // namespace poolscope
