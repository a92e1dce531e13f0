#pragma once

#include "members/HealthCell.h"

#include <optional>

#include <QSortFilterProxyModel>

namespace poolscope {

class PoolTableModel;

// Sorts and filters the members table. Numeric columns compare the model's rows directly instead
// of through QVariant sort roles: a 10,000-row table sorted by count is re-sorted on every poll,
// and the QVariant comparisons made that cost about 20 ms of the GUI thread. Members sort
// naturally (MemberOrder.h): 45.76.1.1 before 45.76.1.10.
class PoolSortProxy final : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit PoolSortProxy(PoolTableModel *source, QObject *parent = nullptr);
    // Shows only members in this health state (nullopt: all), on top of the text filter.
    void setHealthFilter(std::optional<HealthState> state);
    std::optional<HealthState> healthFilter() const { return m_healthFilter; }

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    PoolTableModel *m_source;
    std::optional<HealthState> m_healthFilter;
};

} // namespace poolscope
