#include "pools/PoolsTableModel.h"

#include "pool/PoolTypes.h"
#include "text/MemberText.h"

namespace poolscope {

PoolsTableModel::PoolsTableModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void PoolsTableModel::setPools(const QList<PoolOverview> &pools) {
    beginResetModel();
    m_pools = pools;
    endResetModel();
}

int PoolsTableModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_pools.size());
}

int PoolsTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PoolsTableModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_pools.size())
        return {};
    const PoolOverview &pool = m_pools[index.row()];
    if (role == KeyRole)
        return pool.key;
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Size ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == Qt::ToolTipRole && index.column() == Rate && pool.rateEstimated)
        return tr("Estimated: pool size × rise of the median count per second (the pool is too "
                  "big to sum in one bounded read)");
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sorting = role == SortRole;
    switch (index.column()) {
    case Key:
        return memberText(pool.key);
    case Node:
        return pool.node;
    case Size:
        return sorting ? QVariant(pool.size) : QVariant(QString::number(pool.size));
    case Minimum:
        return sorting ? QVariant(pool.minimum) : QVariant(formatCount(pool.minimum));
    case Median:
        return sorting ? QVariant(pool.median) : QVariant(formatCount(pool.median));
    case Maximum:
        return sorting ? QVariant(pool.maximum) : QVariant(formatCount(pool.maximum));
    case Spread:
        return sorting ? QVariant(pool.spread()) : QVariant(formatCount(pool.spread()));
    case Evicted:
        return sorting ? QVariant(pool.evicted) : QVariant(QString::number(pool.evicted));
    case Rate:
        if (sorting)
            return pool.allocationRate.value_or(-1);
        if (!pool.allocationRate)
            return QStringLiteral("…");
        return (pool.rateEstimated ? QStringLiteral("≈") : QString()) +
               QString::number(*pool.allocationRate, 'f', 1);
    default:
        return {};
    }
}

QVariant PoolsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Key:
        return tr("Pool");
    case Node:
        return tr("Node");
    case Size:
        return tr("Size");
    case Minimum:
        return tr("Min");
    case Median:
        return tr("Median");
    case Maximum:
        return tr("Max");
    case Spread:
        return tr("Spread");
    case Evicted:
        return tr("Evicted");
    case Rate:
        return tr("Alloc/s");
    default:
        return {};
    }
}

} // namespace poolscope
