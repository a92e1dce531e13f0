#pragma once

#include "history/PoolHistory.h"

#include <QByteArray>
#include <QList>

class QAbstractItemModel;
class QTextStream;

namespace poolscope {

// RFC 4180 field: quoted when it holds a comma, a quote or a line break.
QString csvField(const QString &text);

// "time,member,count": one row per history point of the given members between fromMs and toMs,
// ordered by time then member; time in ISO 8601 UTC with milliseconds.
void writeHistoryCsv(QTextStream &out, const PoolHistory &history, const QList<QByteArray> &members,
                     qint64 fromMs, qint64 toMs);

// The model's header and every row in its current order, with the data of `role`.
void writeModelCsv(QTextStream &out, const QAbstractItemModel &model, int role);

} // namespace poolscope
