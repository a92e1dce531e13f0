// ChartPanel's exported image with its title line, and where things are drawn in the panel.

#include "chart/ChartParts.h"

#include "session/PoolSession.h"

#include <QDateTime>
#include <QPainter>

namespace poolscope {

namespace {

QString rangeText(qint64 fromMs, qint64 toMs) {
    const QDateTime from = QDateTime::fromMSecsSinceEpoch(fromMs);
    const QDateTime to = QDateTime::fromMSecsSinceEpoch(toMs);
    const QString end = from.date() == to.date()
                            ? to.toString(QStringLiteral("HH:mm:ss"))
                            : to.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    return QStringLiteral("%1 – %2 %3")
        .arg(from.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), end, to.timeZoneAbbreviation());
}

} // namespace

QString ChartPanel::exportTitle() const {
    const QString mode = QString::fromUtf8(kModeItems[modeIndex(m_mode)].label).toLower();
    QString title =
        QStringLiteral("poolscope · %1 · %2")
            .arg(QString::fromUtf8(m_session->poolKey()), m_session->endpoint().toDisplayString());
    if (m_frame.time.toMs > m_frame.time.fromMs)
        title += QStringLiteral(" · %1").arg(rangeText(m_frame.time.fromMs, m_frame.time.toMs));
    return title + QStringLiteral(" · %1").arg(mode);
}

QPixmap ChartPanel::exportPixmap() {
    const QPixmap chart = grabChart();
    QFont font = this->font();
    font.setBold(true);
    const QFontMetrics metrics(font);
    const QString title = exportTitle();
    const int titleHeight = metrics.height() + 12;
    const qreal ratio = chart.devicePixelRatio();
    const QSize logical = (QSizeF(chart.size()) / ratio).toSize();
    QPixmap image(QSize(logical.width(), logical.height() + titleHeight) * ratio);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setFont(font);
    painter.setPen(QColor(0x26, 0x32, 0x38));
    painter.drawText(QRect(8, 0, logical.width() - 16, titleHeight),
                     Qt::AlignVCenter | Qt::AlignLeft,
                     metrics.elidedText(title, Qt::ElideMiddle, logical.width() - 16));
    painter.drawPixmap(0, titleHeight, chart);
    return image;
}

namespace {

// The chart's scene (QChartView does not scroll: scene = viewport coordinates) to the panel.
QPointF sceneToPanel(const MarkerChartView *view, const QWidget *panel, const QPointF &point) {
    return QPointF(view->viewport()->mapTo(panel, QPoint(0, 0))) + point;
}

} // namespace

QRectF ChartPanel::plotRect() const {
    const QRectF plot = m_charts->chart->plotArea();
    return plot.translated(sceneToPanel(m_charts->view, this, QPointF(0, 0)));
}

QList<MarkerPlacement> ChartPanel::markerPlacements() const {
    const QPointF offset = sceneToPanel(m_charts->view, this, QPointF(0, 0));
    QList<MarkerPlacement> placed = m_charts->view->placements();
    for (MarkerPlacement &placement : placed) {
        placement.x += offset.x();
        if (!placement.box.isEmpty())
            placement.box.translate(offset);
    }
    return placed;
}

QString ChartPanel::markerToolTipAt(const QPointF &panelPos) const {
    const QPointF offset = sceneToPanel(m_charts->view, this, QPointF(0, 0));
    return m_charts->view->markerToolTipAt(panelPos - offset);
}

QRectF ChartPanel::placeholderRect() const {
    const QRectF box = m_charts->view->placeholderRect();
    return box.isEmpty() ? box : box.translated(sceneToPanel(m_charts->view, this, QPointF(0, 0)));
}

QPixmap ChartPanel::grabChart() {
    if (m_refreshTimer.isActive() || m_pollTimer.isActive())
        refreshNow();
    return m_charts->view->grab();
}

bool ChartPanel::saveImage(const QString &path) {
    return exportPixmap().save(path, "PNG");
}

} // namespace poolscope
