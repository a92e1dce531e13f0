// The accepted members of a judged proxy list, stored compactly (one byte buffer, two arrays).
#pragma once

#include <iterator>

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringView>

namespace poolscope {

// One accepted member, as the preview and the seeding need it.
struct AcceptedProxy {
    QByteArray memberId; // canonical id stored in Redis (see ProxyEntry::memberId)
    int lineNumber = 0;  // 1-based line; for JSON the 1-based array element index
    QString sourceText;  // the line/element as written, cut to kMaxDisplayTextChars
};

// Accepted members, unique by member id, in input order. A big list is held as one buffer of
// member ids (plus the source text where it differs from the id) with an offset per member and
// the line numbers as runs (a new run only where lines were skipped): about 4-8 bytes beyond the
// id itself, instead of a ProxyEntry's five strings. Implicitly shared: copies are cheap.
class AcceptedProxies {
public:
    qsizetype size() const { return m_offsets.size(); }
    bool isEmpty() const { return m_offsets.isEmpty(); }
    AcceptedProxy at(qsizetype index) const;
    AcceptedProxy operator[](qsizetype index) const { return at(index); }
    QByteArray memberId(qsizetype index) const;
    int lineNumber(qsizetype index) const;
    QList<QByteArray> memberIds() const;
    // Bytes of member data held (ids, source texts, offsets, line numbers, lookup table).
    qsizetype bytesHeld() const;

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = AcceptedProxy;
        using difference_type = qsizetype;
        using pointer = void;
        using reference = AcceptedProxy; // made on the fly: bind it to a const reference

        const_iterator() = default;
        const_iterator(const AcceptedProxies *list, qsizetype index)
            : m_list(list)
            , m_index(index) {}
        AcceptedProxy operator*() const { return m_list->at(m_index); }
        const_iterator &operator++() {
            ++m_index;
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator before = *this;
            ++m_index;
            return before;
        }
        bool operator==(const const_iterator &other) const { return m_index == other.m_index; }

    private:
        const AcceptedProxies *m_list = nullptr;
        qsizetype m_index = 0;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

    // The index of the member with this id, or -1. Hashed while the list is built, a linear
    // search after finishBuilding().
    qsizetype indexOf(QByteArrayView memberId) const;

    // Building, while a list is judged: appends a member not held yet (see indexOf), storing
    // sourceText only where it differs from the id. The id must not contain a NUL byte (the
    // parser never produces one). False when the storage's 4 GiB limit would be passed.
    bool append(QByteArrayView memberId, int lineNumber, QStringView sourceText);
    // Drops the lookup table and spare capacity once the list is complete.
    void finishBuilding();
    // Capacity for a list of this many bytes and lines: untouched, it costs address space only,
    // and it spares the copies that growing would make.
    void reserveForInput(qsizetype bytes, qsizetype lines);
    void clear();

private:
    QByteArrayView record(qsizetype index) const;
    static QByteArrayView idOfRecord(QByteArrayView record);
    // The member's index and its slot, or -1 and the free slot where it belongs.
    qsizetype find(QByteArrayView memberId, size_t hash, qsizetype *slot) const;
    void growTable();

    QByteArray m_records;     // per member: id, then '\0' and the source text if it differs
    QList<quint32> m_offsets; // where each member's record starts in m_records
    // Line numbers: from member `first` on, line = index + lineMinusIndex, up to the next run.
    struct LineRun {
        quint32 first;
        qint32 lineMinusIndex;
    };
    QList<LineRun> m_lineRuns;
    QList<quint32> m_slots; // open addressing while building: member index + 1, 0 = free
};

} // namespace poolscope
