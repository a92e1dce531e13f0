#pragma once

#include <QByteArray>

namespace poolscope {

// Where a pool lives in Redis.
//
// - The pool itself is the sorted set at the key the user names (member = proxy id,
//   score = allocations so far).
// - Evicted members and their counts live in a companion hash. Scripts touch both keys at once,
//   so in Redis Cluster they must hash to the same slot:
//     * a pool key with a hash tag ("{proxies}:pool") gets "<key>:evicted", which keeps the tag;
//     * a pool key without braces ("proxies") gets "{proxies}:evicted", whose tag is the whole key;
//     * any other key (braces that do not form a tag, e.g. "a}b") gets "{<t>}<key>:evicted" with
//       a short tag <t> chosen to hash to the pool key's slot.
class PoolKeys {
public:
    explicit PoolKeys(QByteArray poolKey);

    const QByteArray &pool() const { return m_pool; }
    const QByteArray &evicted() const { return m_evicted; }

    // Redis Cluster hash slot of a key (CRC16/XMODEM of the hash tag or whole key, mod 16384).
    static int hashSlot(const QByteArray &key);
    // The part of the key that is hashed: the tag between the first '{' and the next '}' when
    // it is non-empty, else the whole key.
    static QByteArray hashedPart(const QByteArray &key);
    static bool hasHashTag(const QByteArray &key);

private:
    static QByteArray companionKey(const QByteArray &poolKey, const char *suffix);
    QByteArray m_pool;
    QByteArray m_evicted;
};

} // namespace poolscope
