#pragma once

#include "catalog/PoolCatalog.h"

#include <QAbstractTableModel>
#include <QList>

namespace poolscope {

// Every pool found on the server or cluster, one row each (PoolCatalog). Rows are replaced as a
// whole on every reading; sorting belongs to a QSortFilterProxyModel (SortRole gives numbers).
class PoolsTableModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Key, Node, Size, Minimum, Median, Maximum, Spread, Evicted, Rate, ColumnCount };
    enum Role {
        KeyRole = Qt::UserRole + 1, // QByteArray: the pool key
        SortRole,                   // numbers as numbers
    };

    explicit PoolsTableModel(QObject *parent = nullptr);

    void setPools(const QList<PoolOverview> &pools);
    const QList<PoolOverview> &pools() const { return m_pools; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<PoolOverview> m_pools;
};

} // namespace poolscope
