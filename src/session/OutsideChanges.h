#pragma once

#include "monitor/PoolMonitor.h"

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QStringList>

namespace poolscope {

// What changed in a pool between two polls that no action of this dashboard explains: the pool
// vanished (a server restart without persistence, FLUSHALL, a deleted key), counts went down (a
// reset by another client) or members left without being evicted. One sentence per kind, for the
// events panel and a chart marker; empty when nothing unexplained happened.
// explained: members this dashboard evicted or restored since `before`.
// A big pool read as a summary is checked only for vanishing (its members are not all read).
// Counts that went down between two polls read from different primaries (before.primary !=
// now.primary, a Sentinel failover) are named as such: what the old primary acknowledged and
// did not replicate.
QStringList describeOutsideChanges(const PoolObservation &before, const PoolObservation &now,
                                   const QSet<QByteArray> &explained);

// "m1, m2, m3 and 4 more": the first `shown` members by name.
QString nameSome(const QList<QByteArray> &members, int shown = 3);

} // namespace poolscope
