#include "members/PoolSortProxy.h"

#include "members/PoolTableModel.h"

namespace poolscope {

PoolSortProxy::PoolSortProxy(PoolTableModel *source, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_source(source) {
    setSourceModel(source);
    setSortRole(PoolTableModel::SortRole);
}

bool PoolSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const {
    const int column = left.column();
    if (column == PoolTableModel::Member || left.model() != m_source || right.model() != m_source ||
        !m_source->isRowLoaded(left.row()) || !m_source->isRowLoaded(right.row()))
        return QSortFilterProxyModel::lessThan(left, right);
    return PoolTableModel::numericSortKey(m_source->rowAt(left.row()), column) <
           PoolTableModel::numericSortKey(m_source->rowAt(right.row()), column);
}

} // namespace poolscope
