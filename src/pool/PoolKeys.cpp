#include "pool/PoolKeys.h"

#include <array>

namespace poolscope {
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

// A short brace-free tag for every slot, found once: base-36 strings of up to 4 characters
// cover all 16384 slots.
const std::array<QByteArray, 16384> &tagsBySlot() {
    static const std::array<QByteArray, 16384> tags = [] {
        std::array<QByteArray, 16384> table;
        int filled = 0;
        const QByteArray alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
        for (int length = 1; length <= 4 && filled < 16384; ++length) {
            int combinations = 1;
            for (int i = 0; i < length; ++i)
                combinations *= static_cast<int>(alphabet.size());
            for (int n = 0; n < combinations && filled < 16384; ++n) {
                QByteArray tag(length, '0');
                for (int i = 0, rest = n; i < length;
                     ++i, rest /= static_cast<int>(alphabet.size()))
                    tag[i] = alphabet[rest % alphabet.size()];
                QByteArray &slot = table[PoolKeys::hashSlot(tag)];
                if (slot.isEmpty()) {
                    slot = tag;
                    ++filled;
                }
            }
        }
        return table;
    }();
    return tags;
}

} // namespace

PoolKeys::PoolKeys(QByteArray poolKey)
    : m_pool(std::move(poolKey))
    , m_evicted(companionKey(m_pool, ":evicted")) {}

QByteArray PoolKeys::hashedPart(const QByteArray &key) {
    const qsizetype open = key.indexOf('{');
    if (open >= 0) {
        const qsizetype close = key.indexOf('}', open + 1);
        if (close > open + 1)
            return key.mid(open + 1, close - open - 1);
    }
    return key;
}

bool PoolKeys::hasHashTag(const QByteArray &key) {
    return hashedPart(key).size() != key.size();
}

int PoolKeys::hashSlot(const QByteArray &key) {
    return crc16(hashedPart(key)) & 16383;
}

QByteArray PoolKeys::companionKey(const QByteArray &poolKey, const char *suffix) {
    if (hasHashTag(poolKey))
        return poolKey + suffix;
    if (!poolKey.contains('{') && !poolKey.contains('}'))
        return '{' + poolKey + '}' + suffix;
    return '{' + tagsBySlot()[static_cast<size_t>(hashSlot(poolKey))] + '}' + poolKey + suffix;
}

} // namespace poolscope
