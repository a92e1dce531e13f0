#pragma once

#include "history/PoolHistory.h"

#include <QByteArray>
#include <QList>

class QAbstractItemModel;
class QTextStream;

namespace poolscope {

// Whether proxy credentials in member ids (`user:pass@`) are written as they are or masked
// (`user:****~hhhhhh@`, see maskCredentials). Masked unless the user asked otherwise.
enum class CsvCredentials { Masked, Shown };

// RFC 4180 field: quoted when it holds a comma, a quote or a line break.
QString csvField(const QString &text);

// "time,member,count": one row per history point of the given members between fromMs and toMs,
// ordered by time then member; time in ISO 8601 UTC with milliseconds.
void writeHistoryCsv(QTextStream &out, const PoolHistory &history, const QList<QByteArray> &members,
                     qint64 fromMs, qint64 toMs,
                     CsvCredentials credentials = CsvCredentials::Masked);

// The model's header and every row in its current order, with the data of `role` (the header's
// too, when the model gives one for that role; else its display text). Every field is masked as
// a member id unless credentials are shown.
void writeModelCsv(QTextStream &out, const QAbstractItemModel &model, int role,
                   CsvCredentials credentials = CsvCredentials::Masked);

} // namespace poolscope
