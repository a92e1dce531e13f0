#pragma once

#include "overview/OverviewTypes.h"

#include <QAbstractTableModel>
#include <QList>

namespace poolscope {

// The overview's rows as a table, shared by the CLI's text and the dashboard's view: the same
// columns and the same words. Sort and filter it through a QSortFilterProxyModel with
// setSortRole(SortRole): every column gives a raw value there (nothing for an unknown figure).
// Rows keep their identity from one update to the next (OverviewRow::id), so a view keeps its
// selection and current row while the figures change.
class OverviewModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        Connection,
        Group,
        EnvironmentColumn,
        Pool,
        Node,
        Members,
        Evicted,
        Minimum,
        Median,
        Maximum,
        Spread,
        Jain,
        AllocationRate,
        HealthUp,
        HealthDown,
        Guard,
        Alerts,
        LastPoll,
        RateTrend,
        SpreadTrend,
        Status,
        Why, // the problem, when the state is not ok (or a note: "no pools found")
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // raw value: number, text, time in ms; none when unknown
        ExportRole,                  // what CSV and JSON carry: raw, none when unknown
        ColumnKeyRole,               // headerData: the column's stable key ("members", ...)
        RowIdRole,                   // OverviewRow::id()
        StateRole,                   // RowState, as int
        EnvironmentRole,             // Environment, as int: the GUI's colour
        TrendRole,                   // QList<TrendPoint>, oldest first
        ErrorKindRole,               // RedisError::Kind, as int, when the state is not Ok
    };

    explicit OverviewModel(QObject *parent = nullptr);

    // New figures; rows are matched by id: kept, updated, added or removed, and put in the order
    // given (a layout change).
    void setRows(const QList<OverviewRow> &rows);
    const QList<OverviewRow> &rows() const { return m_rows; }

    // "connection", "group", "environment", "pool", ...: JSON keys and CSV headers.
    static QString columnKey(Column column);
    // The text a column shows for a row, as data(DisplayRole) gives it.
    static QString displayText(const OverviewRow &row, Column column);
    // The sparkline of a trend: one block character per point, scaled to the highest.
    static QString sparkline(const QList<std::optional<double>> &values);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    static QVariant rawValue(const OverviewRow &row, Column column);

    QList<OverviewRow> m_rows;
};

} // namespace poolscope

Q_DECLARE_METATYPE(poolscope::TrendPoint)
