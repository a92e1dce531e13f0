#pragma once

#include <QByteArray>

namespace poolscope::topology {

// Redis Cluster hash slot of a key (CRC16/XMODEM of the hash tag or whole key, mod 16384).
int hashSlot(const QByteArray &key);
// The part of the key that is hashed: the tag between the first '{' and the next '}' when it is
// non-empty, else the whole key.
QByteArray hashedPart(const QByteArray &key);
bool hasHashTag(const QByteArray &key);

} // namespace poolscope::topology
