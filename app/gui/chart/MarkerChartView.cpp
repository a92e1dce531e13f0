#include "chart/MarkerChartView.h"

#include <algorithm>

#include <QChart>
#include <QPainter>

namespace poolscope {

namespace {

QColor markerColor(HistoryEvent::Kind kind) {
    switch (kind) {
    case HistoryEvent::Kind::Seed:
        return QColor(0x2e, 0x7d, 0x32);
    case HistoryEvent::Kind::Evict:
        return QColor(0xc6, 0x28, 0x28);
    case HistoryEvent::Kind::Restore:
        return QColor(0x15, 0x65, 0xc0);
    case HistoryEvent::Kind::Gap:
        return QColor(0x9e, 0x9e, 0x9e);
    case HistoryEvent::Kind::Note:
        break;
    }
    return QColor(0x6d, 0x4c, 0x41);
}

} // namespace

MarkerChartView::MarkerChartView(QChart *chart, QWidget *parent)
    : QChartView(chart, parent) {}

void MarkerChartView::setMarkers(QList<ChartMarker> markers, qint64 fromMs, qint64 toMs) {
    m_markers = std::move(markers);
    m_fromMs = fromMs;
    m_toMs = toMs;
    viewport()->update();
}

void MarkerChartView::setPlaceholder(const QString &text) {
    if (text == m_placeholder)
        return;
    m_placeholder = text;
    viewport()->update();
}

void MarkerChartView::drawForeground(QPainter *painter, const QRectF &rect) {
    QChartView::drawForeground(painter, rect);
    const QRectF plot = chart()->plotArea();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    if (!m_placeholder.isEmpty()) {
        QFont font = painter->font();
        font.setPointSizeF(font.pointSizeF() * 1.15);
        painter->setFont(font);
        painter->setPen(QColor(0x75, 0x75, 0x75));
        painter->drawText(plot, Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
    }
    if (m_toMs > m_fromMs && plot.width() > 0) {
        QFont font = painter->font();
        font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.85));
        painter->setFont(font);
        const QFontMetricsF metrics(font);
        QList<double> rowEnds; // right edge of the last label in each row, to stagger labels
        for (const ChartMarker &marker : m_markers) {
            const double fraction = double(marker.timeMs - m_fromMs) / double(m_toMs - m_fromMs);
            if (fraction < 0 || fraction > 1)
                continue;
            const double x = plot.left() + fraction * plot.width();
            const QColor color = markerColor(marker.kind);
            QPen pen(color, 1.2, Qt::DashLine);
            painter->setPen(pen);
            painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));

            if (marker.kind == HistoryEvent::Kind::Gap)
                continue; // a gap is just a line: its reason is in the events panel
            const QString text = metrics.elidedText(marker.label, Qt::ElideMiddle, 260);
            const double width = metrics.horizontalAdvance(text) + 8;
            const double height = metrics.height() + 2;
            double left = x + 3;
            if (left + width > plot.right())
                left = x - 3 - width;
            int row = 0;
            while (row < rowEnds.size() && rowEnds[row] > left)
                ++row;
            if (row >= 4)
                row = int(rowEnds.size()) % 4;
            if (row >= rowEnds.size())
                rowEnds.append(0);
            rowEnds[row] = std::max(left + width, x + 3);
            const QRectF box(left, plot.top() + 2 + row * (height + 2), width, height);
            painter->setPen(Qt::NoPen);
            painter->setBrush(QColor(255, 255, 255, 215));
            painter->drawRoundedRect(box, 3, 3);
            painter->setPen(color);
            painter->drawText(box, Qt::AlignCenter, text);
        }
    }
    painter->restore();
}

} // namespace poolscope
