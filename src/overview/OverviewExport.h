#pragma once

#include <QByteArray>
#include <QJsonArray>

class QAbstractItemModel;

namespace poolscope {

// What an overview shows, exported: the rows of `model` (an OverviewModel, or a sort/filter proxy
// over one: its order and its filter) with every column's raw value (OverviewModel::ExportRole),
// under the columns' stable keys (OverviewModel::ColumnKeyRole). Unknown figures are empty in CSV
// and null in JSON; trends are lists of numbers (JSON) or numbers separated by spaces (CSV).

// RFC 4180: a header line of keys, then one line per row; a field is quoted when it holds a
// comma, a quote or a line break. Ends with a line break.
QByteArray overviewCsv(const QAbstractItemModel &model);
// One object per row, keyed by column; "error_kind" too when the row is not ok.
QJsonArray overviewJson(const QAbstractItemModel &model);

} // namespace poolscope
