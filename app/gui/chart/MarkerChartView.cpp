#include "chart/MarkerChartView.h"

#include <algorithm>

#include <QChart>
#include <QDateTime>
#include <QLocale>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace poolscope {

namespace {

constexpr double kMaxLabelWidth = 260;
constexpr double kMinElidedWidth = 48; // narrower than this, a label says nothing: tooltip only
constexpr double kLabelGap = 3;        // between a label and its line, and between labels
constexpr double kHoverDistance = 4;   // how near a marker line the pointer must be
constexpr double kMinDragWidth = 6;    // a narrower drag is a click, not a range

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
    : QChartView(chart, parent) {
    // The chart lays out its new plot area after the resize's own repaint, and then repaints only
    // the items that moved: markers and dots drawn for the old plot area stayed on screen (twice
    // over, while paused). They are placed from the plot area, so all of it is drawn again.
    connect(chart, &QChart::plotAreaChanged, this, [this] { viewport()->update(); });
}

void MarkerChartView::setFrame(QList<ChartMarker> markers, QList<ChartDot> dots, qint64 fromMs,
                               qint64 toMs, double valueLow, double valueHigh) {
    const bool moved =
        fromMs != m_fromMs || toMs != m_toMs || valueLow != m_valueLow || valueHigh != m_valueHigh;
    const bool changed =
        moved || markers.size() != m_markers.size() || !m_dots.isEmpty() || !dots.isEmpty() ||
        !std::equal(markers.cbegin(), markers.cend(), m_markers.cbegin(),
                    [](const ChartMarker &a, const ChartMarker &b) {
                        return a.timeMs == b.timeMs && a.kind == b.kind && a.label == b.label;
                    });
    m_markers = std::move(markers);
    m_dots = std::move(dots);
    m_fromMs = fromMs;
    m_toMs = toMs;
    m_valueLow = valueLow;
    m_valueHigh = valueHigh;
    if (changed) // the series repaint what they cover themselves
        viewport()->update();
}

void MarkerChartView::setPlaceholder(const QString &text) {
    if (text == m_placeholder)
        return;
    m_placeholder = text;
    // A placeholder moves with the plot area and lies partly outside it: a repaint of only the
    // items that changed (the default) redrew it there and left the old one elsewhere, two texts
    // printed over each other. With no data to draw, a whole repaint costs nothing.
    setViewportUpdateMode(text.isEmpty() ? QGraphicsView::MinimalViewportUpdate
                                         : QGraphicsView::FullViewportUpdate);
    viewport()->update();
}

QFont MarkerChartView::markerFont() const {
    QFont font = this->font();
    font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.85));
    return font;
}

QFont MarkerChartView::placeholderFont() const {
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 1.15);
    return font;
}

QList<MarkerPlacement> MarkerChartView::placements() const {
    QList<MarkerPlacement> out;
    const QRectF plot = chart()->plotArea();
    if (m_toMs <= m_fromMs || plot.width() <= 0 || plot.height() <= 0)
        return out;
    const QFontMetricsF metrics(markerFont());
    const double height = metrics.height() + 2;
    // Rows at the top of the plot, as many as fit in its upper half (the lines live below).
    const int maxRows = std::clamp(int(plot.height() * 0.5 / (height + kLabelGap)), 1, 8);
    QList<double> rowEnds(maxRows, -1e9); // right edge of the last label in each row
    const double maxWidth = std::min(kMaxLabelWidth, plot.width() - 2 * kLabelGap);

    QList<qsizetype> order;
    for (qsizetype i = 0; i < m_markers.size(); ++i)
        order.append(i);
    std::stable_sort(order.begin(), order.end(), [this](qsizetype a, qsizetype b) {
        return m_markers[a].timeMs < m_markers[b].timeMs;
    });
    for (qsizetype index : order) {
        const ChartMarker &marker = m_markers[index];
        const double fraction = double(marker.timeMs - m_fromMs) / double(m_toMs - m_fromMs);
        if (fraction < 0 || fraction > 1)
            continue;
        MarkerPlacement placement;
        placement.marker = index;
        placement.x = plot.left() + fraction * plot.width();
        if (marker.kind != HistoryEvent::Kind::Gap && !marker.label.isEmpty()) {
            const double x = placement.x;
            const auto boxFor = [&](double width) {
                // Right of the line, or left of it near the plot's right edge; always inside.
                double left = std::min(x + kLabelGap, plot.right() - kLabelGap - width);
                return std::max(left, plot.left() + kLabelGap);
            };
            QString text = metrics.elidedText(marker.label, Qt::ElideMiddle, maxWidth - 8);
            double width = metrics.horizontalAdvance(text) + 8;
            double left = boxFor(width);
            int row = -1;
            for (int r = 0; r < maxRows && row < 0; ++r)
                if (rowEnds[r] + kLabelGap <= left)
                    row = r;
            if (row < 0) {
                // No row is free at full width: the widest elided label that ends at the line and
                // starts after the last label of some row.
                double best = 0;
                for (int r = 0; r < maxRows; ++r) {
                    const double room = x - kLabelGap - (rowEnds[r] + kLabelGap);
                    if (room > best) {
                        best = room;
                        row = r;
                    }
                }
                if (best >= kMinElidedWidth) {
                    text = metrics.elidedText(marker.label, Qt::ElideMiddle, best - 8);
                    width = metrics.horizontalAdvance(text) + 8;
                    left = x - kLabelGap - width;
                } else {
                    row = -1;
                }
            }
            if (row >= 0 && !text.isEmpty()) {
                placement.text = text;
                placement.box =
                    QRectF(left, plot.top() + 2 + row * (height + kLabelGap), width, height);
                rowEnds[row] = left + width;
            }
        }
        out.append(placement);
    }
    std::sort(out.begin(), out.end(), [](const MarkerPlacement &a, const MarkerPlacement &b) {
        return a.marker < b.marker;
    });
    return out;
}

QString MarkerChartView::markerToolTipAt(const QPointF &scenePos) const {
    QStringList lines;
    const QRectF plot = chart()->plotArea();
    for (const MarkerPlacement &placement : placements()) {
        const bool onLine = std::abs(placement.x - scenePos.x()) <= kHoverDistance &&
                            scenePos.y() >= plot.top() - 2 && scenePos.y() <= plot.bottom() + 2;
        if (!onLine && !placement.box.contains(scenePos))
            continue;
        const ChartMarker &marker = m_markers[placement.marker];
        const QString time = QLocale().toString(
            QDateTime::fromMSecsSinceEpoch(marker.timeMs).time(), QStringLiteral("HH:mm:ss"));
        lines.append(tr("%1  %2", "a marker's tooltip line: the time, what happened then")
                         .arg(time, marker.label));
    }
    return lines.join(QLatin1Char('\n'));
}

QRectF MarkerChartView::placeholderRect() const {
    if (m_placeholder.isEmpty())
        return {};
    // Centred on the plot, but sized against the whole view: a small plot must not cut it.
    const QRectF view = sceneRect().isValid() && !sceneRect().isEmpty()
                            ? sceneRect()
                            : QRectF(QPointF(0, 0), QSizeF(viewport()->size()));
    QRectF plot = chart()->plotArea();
    if (plot.isEmpty())
        plot = view;
    const QFontMetricsF metrics(placeholderFont());
    const double maxWidth = std::max(40.0, view.width() - 24);
    const QRectF text = metrics.boundingRect(QRectF(0, 0, maxWidth, 1e6),
                                             Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
    QRectF box(0, 0, text.width() + 24, text.height() + 14);
    box.moveCenter(plot.center());
    if (box.left() < view.left())
        box.moveLeft(view.left());
    if (box.right() > view.right())
        box.moveRight(view.right());
    if (box.top() < view.top())
        box.moveTop(view.top());
    return box;
}

void MarkerChartView::drawForeground(QPainter *painter, const QRectF &rect) {
    QChartView::drawForeground(painter, rect);
    const QRectF plot = chart()->plotArea();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setClipping(false);
    if (m_dragging) { // the range a drag would zoom into
        const QRectF band(QPointF(std::min(m_dragFromX, m_dragToX), plot.top()),
                          QPointF(std::max(m_dragFromX, m_dragToX), plot.bottom()));
        painter->fillRect(band, QColor(0x15, 0x65, 0xc0, 40));
        painter->setPen(QPen(QColor(0x15, 0x65, 0xc0, 160), 1));
        painter->drawRect(band);
    }
    // Dots of lines too short to draw, under the markers.
    if (m_toMs > m_fromMs && m_valueHigh > m_valueLow) {
        painter->save();
        painter->setClipRect(plot.adjusted(-4, -4, 4, 4));
        painter->setPen(Qt::NoPen);
        for (const ChartDot &dot : std::as_const(m_dots)) {
            const double x = plot.left() + (dot.point.x() - double(m_fromMs)) /
                                               double(m_toMs - m_fromMs) * plot.width();
            const double y = plot.bottom() - (dot.point.y() - m_valueLow) /
                                                 (m_valueHigh - m_valueLow) * plot.height();
            const double radius = dot.lineWidth * 1.6;
            painter->setBrush(dot.color);
            painter->drawEllipse(QPointF(x, y), radius, radius);
        }
        painter->restore();
    }
    const QList<MarkerPlacement> placed = placements();
    QFont font = markerFont();
    painter->setFont(font);
    // Every line first, then the labels: a label is never crossed by a later marker's line.
    for (const MarkerPlacement &placement : placed) {
        painter->setPen(QPen(markerColor(m_markers[placement.marker].kind), 1.2, Qt::DashLine));
        painter->drawLine(QPointF(placement.x, plot.top()), QPointF(placement.x, plot.bottom()));
    }
    for (const MarkerPlacement &placement : placed) {
        const ChartMarker &marker = m_markers[placement.marker];
        const QColor color = markerColor(marker.kind);
        if (marker.kind == HistoryEvent::Kind::Gap)
            continue; // a gap is just a line: its reason is in the events panel
        if (placement.text.isEmpty()) {
            // No room for the label: a tab at the top of the line says there is one to hover.
            painter->setPen(Qt::NoPen);
            painter->setBrush(color);
            const QPointF top(placement.x, plot.top());
            painter->drawPolygon(
                QPolygonF({top + QPointF(-4, 0), top + QPointF(4, 0), top + QPointF(0, 6)}));
            continue;
        }
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 225));
        painter->drawRoundedRect(placement.box, 3, 3);
        painter->setPen(color);
        painter->drawText(placement.box, Qt::AlignCenter, placement.text);
    }
    // The empty-state text last, on top of grid lines and markers, on a background of its own.
    const QRectF box = placeholderRect();
    if (!box.isEmpty()) {
        painter->setFont(placeholderFont());
        painter->setPen(QPen(QColor(0xb0, 0xbe, 0xc5), 1));
        painter->setBrush(QColor(255, 255, 255, 240));
        painter->drawRoundedRect(box, 6, 6);
        painter->setPen(QColor(0x37, 0x47, 0x4f));
        painter->drawText(box.adjusted(12, 7, -12, -7), Qt::AlignCenter | Qt::TextWordWrap,
                          m_placeholder);
    }
    painter->restore();
}

bool MarkerChartView::viewportEvent(QEvent *event) {
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString text = markerToolTipAt(mapToScene(help->pos()));
        if (!text.isEmpty()) {
            QToolTip::showText(help->globalPos(), text, viewport());
            return true;
        }
        if (!toolTip().isEmpty()) {
            QToolTip::showText(help->globalPos(), toolTip(), viewport());
            return true;
        }
    }
    return QChartView::viewportEvent(event);
}

qint64 MarkerChartView::timeAtSceneX(double x) const {
    const QRectF plot = chart()->plotArea();
    if (plot.width() <= 0 || m_toMs <= m_fromMs)
        return m_fromMs;
    const double fraction = std::clamp((x - plot.left()) / plot.width(), 0.0, 1.0);
    return m_fromMs + qint64(std::llround(fraction * double(m_toMs - m_fromMs)));
}

void MarkerChartView::mousePressEvent(QMouseEvent *event) {
    const QPointF scene = mapToScene(event->position().toPoint());
    const QRectF plot = chart()->plotArea();
    if (plot.contains(scene) && m_toMs > m_fromMs) {
        if (event->button() == Qt::LeftButton) {
            m_dragging = true;
            m_dragFromX = m_dragToX = scene.x();
            event->accept();
            return;
        }
        if (event->button() == Qt::RightButton) {
            Q_EMIT zoomOutClicked();
            event->accept();
            return;
        }
    }
    QChartView::mousePressEvent(event);
}

void MarkerChartView::mouseMoveEvent(QMouseEvent *event) {
    if (m_dragging) {
        const QRectF plot = chart()->plotArea();
        m_dragToX =
            std::clamp(mapToScene(event->position().toPoint()).x(), plot.left(), plot.right());
        viewport()->update();
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void MarkerChartView::mouseReleaseEvent(QMouseEvent *event) {
    if (m_dragging && event->button() == Qt::LeftButton) {
        m_dragging = false;
        viewport()->update();
        event->accept();
        if (std::abs(m_dragToX - m_dragFromX) >= kMinDragWidth)
            Q_EMIT rangeDragged(timeAtSceneX(std::min(m_dragFromX, m_dragToX)),
                                timeAtSceneX(std::max(m_dragFromX, m_dragToX)));
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void MarkerChartView::mouseDoubleClickEvent(QMouseEvent *event) {
    const QPointF scene = mapToScene(event->position().toPoint());
    if (event->button() == Qt::LeftButton && chart()->plotArea().contains(scene)) {
        m_dragging = false;
        Q_EMIT wholeWindowClicked();
        event->accept();
        return;
    }
    QChartView::mouseDoubleClickEvent(event);
}

} // namespace poolscope
