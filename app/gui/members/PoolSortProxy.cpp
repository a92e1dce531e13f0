#include "members/PoolSortProxy.h"

#include "members/MemberOrder.h"
#include "members/PoolTableModel.h"

namespace poolscope {

PoolSortProxy::PoolSortProxy(PoolTableModel *source, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_source(source) {
    setSourceModel(source);
    setSortRole(PoolTableModel::SortRole);
    // The text filter looks at the member column only: health changes re-filter here.
    connect(source, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                if (m_healthFilter && topLeft.column() <= PoolTableModel::Health &&
                    bottomRight.column() >= PoolTableModel::Health)
                    invalidateRowsFilter();
            });
}

bool PoolSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const {
    const int column = left.column();
    if (left.model() != m_source || right.model() != m_source ||
        !m_source->isRowLoaded(left.row()) || !m_source->isRowLoaded(right.row()))
        return QSortFilterProxyModel::lessThan(left, right);
    if (column == PoolTableModel::Health)
        return healthSortKey(m_source->healthOf(m_source->rowAt(left.row()).member)) <
               healthSortKey(m_source->healthOf(m_source->rowAt(right.row()).member));
    if (column == PoolTableModel::Member) // hosts and ports as numbers, not as text
        return memberNaturallyLess(m_source->rowAt(left.row()).member,
                                   m_source->rowAt(right.row()).member);
    return PoolTableModel::numericSortKey(m_source->rowAt(left.row()), column) <
           PoolTableModel::numericSortKey(m_source->rowAt(right.row()), column);
}

void PoolSortProxy::setHealthFilter(std::optional<HealthState> state) {
    if (state == m_healthFilter)
        return;
    m_healthFilter = state;
    invalidateRowsFilter();
}

bool PoolSortProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const {
    if (m_healthFilter && m_source->isRowLoaded(sourceRow) &&
        healthState(m_source->healthOf(m_source->rowAt(sourceRow).member)) != *m_healthFilter)
        return false;
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace poolscope
