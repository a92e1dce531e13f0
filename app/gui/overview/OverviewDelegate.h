#pragma once

#include <QStyledItemDelegate>

namespace poolscope {

// Paints the overview's cells that are more than text: the environment's colour as a bar at the
// start of the connection cell, the trends as small line charts (OverviewModel::TrendRole), and
// the state and reason of rows that are not read (unreachable, not polled) in a warning colour.
class OverviewDelegate final : public QStyledItemDelegate {
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    void paintTrend(QPainter *painter, const QStyleOptionViewItem &option,
                    const QModelIndex &index) const;
};

} // namespace poolscope
