#include "pool/PoolKeys.h"

#include "topology/HashSlot.h"

#include <array>

namespace poolscope {
namespace {

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
                QByteArray &slot = table[topology::hashSlot(tag)];
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
    , m_evicted(companionKey(m_pool)) {}

namespace {

constexpr char kCompanionMiddle[] = "}:evicted:";

// A brace-free-closing tag with the pool key's slot: its own tag, the whole key, or a computed one.
QByteArray companionTag(const QByteArray &poolKey) {
    if (topology::hasHashTag(poolKey))
        return topology::hashedPart(poolKey); // a tag never holds '}'
    if (!poolKey.contains('{') && !poolKey.contains('}'))
        return poolKey;
    return tagsBySlot()[static_cast<size_t>(topology::hashSlot(poolKey))];
}

} // namespace

QByteArray PoolKeys::companionKey(const QByteArray &poolKey) {
    return '{' + companionTag(poolKey) + kCompanionMiddle + poolKey;
}

std::optional<QByteArray> PoolKeys::poolOfCompanion(const QByteArray &key) {
    if (!key.startsWith('{'))
        return std::nullopt;
    const qsizetype close = key.indexOf('}');
    if (close < 0 || key.mid(close, int(sizeof kCompanionMiddle) - 1) != kCompanionMiddle)
        return std::nullopt;
    const QByteArray pool = key.mid(close + qsizetype(sizeof kCompanionMiddle) - 1);
    if (pool.isEmpty() || companionKey(pool) != key)
        return std::nullopt;
    return pool;
}

QByteArray PoolKeys::legacyCompanionKey(const QByteArray &poolKey) {
    if (topology::hasHashTag(poolKey))
        return poolKey + ":evicted";
    if (!poolKey.contains('{') && !poolKey.contains('}'))
        return '{' + poolKey + "}:evicted";
    return '{' + tagsBySlot()[static_cast<size_t>(topology::hashSlot(poolKey))] + '}' + poolKey +
           ":evicted";
}

QByteArray PoolKeys::companionNamed(const char *kind) const {
    return '{' + companionTag(m_pool) + "}:" + kind + ':' + m_pool;
}

QByteArray PoolKeys::legacyEvicted() const {
    return legacyCompanionKey(m_pool);
}

QList<QByteArray> PoolKeys::legacySharers() const {
    // Every pool key whose legacy companion is N: N's stem itself (a tagged key), and, when the
    // stem starts with "{tag}", the tag alone (a brace-free key) and what follows the tag (a key
    // whose braces form no tag).
    const QByteArray legacy = legacyEvicted();
    const QByteArray stem = legacy.chopped(int(sizeof ":evicted") - 1);
    QList<QByteArray> candidates{stem};
    if (stem.startsWith('{')) {
        const qsizetype close = stem.indexOf('}');
        if (close > 0) {
            candidates.append(stem.mid(1, close - 1));
            candidates.append(stem.mid(close + 1));
        }
    }
    QList<QByteArray> sharers;
    for (const QByteArray &candidate : candidates)
        if (!candidate.isEmpty() && candidate != m_pool && !sharers.contains(candidate) &&
            legacyCompanionKey(candidate) == legacy)
            sharers.append(candidate);
    return sharers;
}

} // namespace poolscope
