#include "topology/HashSlot.h"

namespace poolscope::topology {
namespace {

// CRC16/XMODEM (polynomial 0x1021), the checksum Redis Cluster uses for key slots.
quint16 crc16(const QByteArray &data) {
    quint16 crc = 0;
    for (const char byte : data) {
        crc ^= static_cast<quint16>(static_cast<quint8>(byte)) << 8;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? static_cast<quint16>((crc << 1) ^ 0x1021)
                                 : static_cast<quint16>(crc << 1);
    }
    return crc;
}

} // namespace

QByteArray hashedPart(const QByteArray &key) {
    const qsizetype open = key.indexOf('{');
    if (open >= 0) {
        const qsizetype close = key.indexOf('}', open + 1);
        if (close > open + 1)
            return key.mid(open + 1, close - open - 1);
    }
    return key;
}

bool hasHashTag(const QByteArray &key) {
    return hashedPart(key).size() != key.size();
}

int hashSlot(const QByteArray &key) {
    return crc16(hashedPart(key)) & 16383;
}

} // namespace poolscope::topology
