// ChartPanel's exported image with its title line, and where things are drawn in the panel.

#include "chart/ChartParts.h"

#include "session/PoolSession.h"

#include <QDateTime>
#include <QLocale>
#include <QPainter>

namespace poolscope {

namespace {

QString rangeText(qint64 fromMs, qint64 toMs) {
    const QDateTime from = QDateTime::fromMSecsSinceEpoch(fromMs);
    const QDateTime to = QDateTime::fromMSecsSinceEpoch(toMs);
    // ISO dates (unambiguous in every language), in the locale's digits.
    const QLocale locale;
    const QString full = QStringLiteral("yyyy-MM-dd HH:mm:ss");
    const QString end = from.date() == to.date()
                            ? locale.toString(to.time(), QStringLiteral("HH:mm:ss"))
                            : locale.toString(to, full);
    return ChartPanel::tr("%1 – %2 %3",
                          "a time range in the exported chart's title: from – to, time zone")
        .arg(locale.toString(from, full), end, to.timeZoneAbbreviation());
}

} // namespace

QString ChartPanel::exportTitle() const {
    const ModeItem &item = kModeItems[modeIndex(m_mode)];
    const QString mode = tr(item.text.label, item.text.comment);
    const QString key = QString::fromUtf8(m_session->poolKey());
    const QString server = m_session->endpoint().toDisplayString();
    if (m_frame.time.toMs <= m_frame.time.fromMs)
        return tr("poolscope · %1 · %2 · %3",
                  "the exported chart's title: the pool's key, its server, the chart mode")
            .arg(key, server, mode);
    return tr("poolscope · %1 · %2 · %3 · %4",
              "the exported chart's title: the pool's key, its server, the time range, the chart "
              "mode")
        .arg(key, server, rangeText(m_frame.time.fromMs, m_frame.time.toMs), mode);
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
