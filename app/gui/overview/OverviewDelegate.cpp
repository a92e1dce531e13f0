#include "overview/OverviewDelegate.h"

#include "overview/OverviewModel.h"
#include "session/WriteLock.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace poolscope {

namespace {

constexpr int kBarWidth = 5;
constexpr int kTrendWidth = 90;

bool isTrend(int column) {
    return column == OverviewModel::RateTrend || column == OverviewModel::SpreadTrend;
}

bool notRead(const QModelIndex &index) {
    const auto state = RowState(index.data(OverviewModel::StateRole).toInt());
    return state == RowState::Unreachable || state == RowState::NotPolled ||
           state == RowState::NodeUnreachable || state == RowState::NotAPool;
}

} // namespace

void OverviewDelegate::initStyleOption(QStyleOptionViewItem *option,
                                       const QModelIndex &index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    const int column = index.column();
    if (isTrend(column))
        option->text.clear(); // drawn as a line instead of block characters
    if (column == OverviewModel::Connection)
        option->rect.adjust(kBarWidth + 2, 0, 0, 0);
    if ((column == OverviewModel::Status || column == OverviewModel::Why) && notRead(index))
        option->palette.setColor(QPalette::Text, QColor(0xb7, 0x1c, 0x1c));
    if (column == OverviewModel::EnvironmentColumn) {
        const QColor colour =
            environmentColor(Environment(index.data(OverviewModel::EnvironmentRole).toInt()));
        if (colour.isValid()) {
            option->palette.setColor(QPalette::Text, colour);
            option->font.setBold(true);
        }
    }
}

void OverviewDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                             const QModelIndex &index) const {
    if (index.column() == OverviewModel::Connection) {
        const QColor colour =
            environmentColor(Environment(index.data(OverviewModel::EnvironmentRole).toInt()));
        QStyleOptionViewItem background = option;
        background.text.clear();
        const QWidget *widget = option.widget;
        QStyle *style = widget ? widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);
        if (colour.isValid())
            painter->fillRect(QRect(option.rect.left() + 1, option.rect.top() + 2, kBarWidth,
                                    option.rect.height() - 4),
                              colour);
        QStyleOptionViewItem text = option;
        initStyleOption(&text, index);
        text.backgroundBrush = Qt::NoBrush;
        text.state &= ~QStyle::State_HasFocus;
        style->drawControl(QStyle::CE_ItemViewItem, &text, painter, widget);
        return;
    }
    if (isTrend(index.column())) {
        paintTrend(painter, option, index);
        return;
    }
    QStyledItemDelegate::paint(painter, option, index);
}

void OverviewDelegate::paintTrend(QPainter *painter, const QStyleOptionViewItem &option,
                                  const QModelIndex &index) const {
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);

    const auto points = index.data(OverviewModel::TrendRole).value<QList<TrendPoint>>();
    const bool rate = index.column() == OverviewModel::RateTrend;
    QList<std::optional<double>> values;
    for (const TrendPoint &point : points)
        values.append(rate ? point.allocationRate : std::optional<double>(point.spread));
    double highest = 0;
    for (const std::optional<double> &value : values)
        if (value)
            highest = std::max(highest, *value);
    if (values.size() < 2)
        return;
    const QRectF area = QRectF(option.rect).adjusted(3, 4, -3, -4);
    const double step = area.width() / double(values.size() - 1);
    QPainterPath path;
    bool drawing = false;
    for (qsizetype i = 0; i < values.size(); ++i) {
        if (!values[i]) {
            drawing = false; // a gap where the figure was not known
            continue;
        }
        const double share = highest > 0 ? *values[i] / highest : 0;
        const QPointF at(area.left() + step * double(i), area.bottom() - share * area.height());
        if (drawing)
            path.lineTo(at);
        else
            path.moveTo(at);
        drawing = true;
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const bool selected = option.state & QStyle::State_Selected;
    QColor line = selected ? option.palette.color(QPalette::HighlightedText)
                           : option.palette.color(QPalette::Link);
    if (notRead(index))
        line = option.palette.color(QPalette::PlaceholderText);
    painter->setPen(QPen(line, 1.5));
    painter->drawPath(path);
    painter->restore();
}

QSize OverviewDelegate::sizeHint(const QStyleOptionViewItem &option,
                                 const QModelIndex &index) const {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (isTrend(index.column()))
        size.setWidth(kTrendWidth);
    if (index.column() == OverviewModel::Connection)
        size.rwidth() += kBarWidth + 2;
    return size;
}

} // namespace poolscope
