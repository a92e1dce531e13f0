// The accepted members of a judged proxy list: compact storage and the duplicate lookup.
#include "proxylist/AcceptedProxies.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>

#include <QHashFunctions>
#include <QStringDecoder>

namespace poolscope {

namespace {

constexpr qsizetype kFirstTableSize = 1024; // a power of two

size_t hashOf(QByteArrayView memberId) {
    // Seeded per process, so that a crafted list cannot pile its members into one chain.
    return qHash(memberId, QHashSeed::globalSeed());
}

} // namespace

QByteArrayView AcceptedProxies::record(qsizetype index) const {
    const qsizetype start = m_offsets.at(index);
    const qsizetype end = index + 1 < m_offsets.size() ? m_offsets.at(index + 1) : m_records.size();
    return QByteArrayView(m_records.constData() + start, end - start);
}

QByteArrayView AcceptedProxies::idOfRecord(QByteArrayView record) {
    const void *nul = std::memchr(record.data(), '\0', size_t(record.size()));
    return nul ? record.first(static_cast<const char *>(nul) - record.data()) : record;
}

AcceptedProxy AcceptedProxies::at(qsizetype index) const {
    const QByteArrayView whole = record(index);
    const QByteArrayView id = idOfRecord(whole);
    AcceptedProxy proxy;
    proxy.memberId = id.toByteArray();
    proxy.lineNumber = lineNumber(index);
    // Not QString::fromUtf8(): it drops a leading byte-order mark, and a line of a list may start
    // with one (only the file's first is stripped, by the parser), so the text would no longer be
    // the line as written.
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom);
    proxy.sourceText = decoder(id.size() < whole.size() ? whole.sliced(id.size() + 1) : id);
    return proxy;
}

int AcceptedProxies::lineNumber(qsizetype index) const {
    Q_ASSERT(index >= 0 && index < size());
    // The last run starting at or before index.
    const auto after =
        std::upper_bound(m_lineRuns.cbegin(), m_lineRuns.cend(), quint32(index),
                         [](quint32 wanted, const LineRun &run) { return wanted < run.first; });
    return int(index) + std::prev(after)->lineMinusIndex;
}

QByteArray AcceptedProxies::memberId(qsizetype index) const {
    return idOfRecord(record(index)).toByteArray();
}

QList<QByteArray> AcceptedProxies::memberIds() const {
    QList<QByteArray> ids;
    ids.reserve(size());
    for (qsizetype i = 0; i < size(); ++i)
        ids.append(memberId(i));
    return ids;
}

qsizetype AcceptedProxies::bytesHeld() const {
    return m_records.capacity() + m_offsets.capacity() * qsizetype(sizeof(quint32)) +
           m_lineRuns.capacity() * qsizetype(sizeof(LineRun)) +
           m_slots.capacity() * qsizetype(sizeof(quint32));
}

qsizetype AcceptedProxies::find(QByteArrayView memberId, size_t hash, qsizetype *slot) const {
    const size_t mask = size_t(m_slots.size()) - 1;
    size_t at = hash & mask;
    while (const quint32 entry = m_slots.at(qsizetype(at))) {
        if (idOfRecord(record(qsizetype(entry) - 1)) == memberId) {
            *slot = qsizetype(at);
            return qsizetype(entry) - 1;
        }
        at = (at + 1) & mask;
    }
    *slot = qsizetype(at);
    return -1;
}

void AcceptedProxies::growTable() {
    qsizetype newSize = qMax(kFirstTableSize, m_slots.size() * 2);
    while (newSize < (size() + 1) * 2)
        newSize *= 2;
    // The old table goes first: the new one is filled from the records.
    m_slots = QList<quint32>();
    m_slots = QList<quint32>(newSize, 0);
    const size_t mask = size_t(newSize) - 1;
    for (qsizetype i = 0; i < size(); ++i) {
        size_t at = hashOf(idOfRecord(record(i))) & mask;
        while (m_slots.at(qsizetype(at)))
            at = (at + 1) & mask;
        m_slots[qsizetype(at)] = quint32(i + 1);
    }
}

qsizetype AcceptedProxies::indexOf(QByteArrayView memberId) const {
    if (m_slots.isEmpty()) {
        for (qsizetype i = 0; i < size(); ++i)
            if (idOfRecord(record(i)) == memberId)
                return i;
        return -1;
    }
    qsizetype slot = 0;
    return find(memberId, hashOf(memberId), &slot);
}

bool AcceptedProxies::append(QByteArrayView memberId, int lineNumber, QStringView sourceText) {
    const QByteArray source = sourceText.toUtf8();
    const bool keepSource = QByteArrayView(source) != memberId;
    const qsizetype recordSize = memberId.size() + (keepSource ? 1 + source.size() : 0);
    if (m_records.size() + recordSize > qsizetype(std::numeric_limits<quint32>::max()) ||
        size() + 1 >= qsizetype(std::numeric_limits<quint32>::max()))
        return false;
    // At most half full, so that probe chains stay short.
    if ((size() + 1) * 2 > m_slots.size())
        growTable();
    qsizetype slot = 0;
    const qsizetype held = find(memberId, hashOf(memberId), &slot);
    Q_ASSERT(held < 0);
    if (held >= 0)
        return true;

    m_offsets.append(quint32(m_records.size()));
    m_records.append(memberId);
    if (keepSource) {
        m_records.append('\0');
        m_records.append(source);
    }
    const qint32 lineMinusIndex = lineNumber - qint32(m_offsets.size() - 1);
    if (m_lineRuns.isEmpty() || m_lineRuns.constLast().lineMinusIndex != lineMinusIndex)
        m_lineRuns.append({quint32(m_offsets.size() - 1), lineMinusIndex});
    m_slots[slot] = quint32(size());
    return true;
}

void AcceptedProxies::finishBuilding() {
    m_slots = QList<quint32>();
    m_records.squeeze();
    m_offsets.squeeze();
    m_lineRuns.squeeze();
}

void AcceptedProxies::reserveForInput(qsizetype bytes, qsizetype lines) {
    m_records.reserve(bytes + 1);
    m_offsets.reserve(lines);
}

void AcceptedProxies::clear() {
    *this = AcceptedProxies();
}

} // namespace poolscope
