#include "members/PoolSortProxy.h"

#include "members/MemberOrder.h"
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
    if (left.model() != m_source || right.model() != m_source ||
        !m_source->isRowLoaded(left.row()) || !m_source->isRowLoaded(right.row()))
        return QSortFilterProxyModel::lessThan(left, right);
    if (column == PoolTableModel::Member) // hosts and ports as numbers, not as text
        return memberNaturallyLess(m_source->rowAt(left.row()).member,
                                   m_source->rowAt(right.row()).member);
    return PoolTableModel::numericSortKey(m_source->rowAt(left.row()), column) <
           PoolTableModel::numericSortKey(m_source->rowAt(right.row()), column);
}

} // namespace poolscope
