// ChartPanel's axes and legend layout, what is on the chart (for tests and exports), and the
// exported image with its title line.

#include "chart/ChartParts.h"

#include "ElidedLabel.h"

#include "session/ChartMath.h"
#include "session/PoolSession.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QLabel>
#include <QDateTime>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QPainter>
#include <QSet>

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

void ChartPanel::updateAxes(const ValueRange &values, qint64 from, qint64 to) {
    Charts &c = *m_charts;
    const QRectF plot = c.chart->plotArea();
    // Before the first layout the plot area is empty: assume most of the view.
    const double plotWidth = plot.width() > 10 ? plot.width() : c.view->width() * 0.75;
    const double plotHeight = plot.height() > 10 ? plot.height() : c.view->height() * 0.7;

    const ValueRange range = paddedRange(values, m_mode == ValueMode::DifferenceFromMedian);
    if (m_mode == ValueMode::Rate) {
        c.valueAxis->setLabelFormat(QStringLiteral("%.1f"));
        c.valueAxis->setTickCount(6);
        c.valueAxis->setRange(range.low, range.high);
        c.valueAxis->applyNiceNumbers(); // round labels; widens the range a little at most
    } else {
        // Counts are whole numbers: whole ticks only, each label once (not 0, 0, 1, 1, 2).
        const int intervals = std::clamp(int(plotHeight / 36), 2, 6);
        const AxisTicks ticks = integerTicks(range, intervals);
        c.valueAxis->setLabelFormat(QStringLiteral("%.0f"));
        c.valueAxis->setRange(ticks.low, ticks.high);
        c.valueAxis->setTickCount(ticks.count);
    }
    c.valueAxis->setTitleText(m_mode == ValueMode::Rate ? QStringLiteral("allocations/s")
                              : m_mode == ValueMode::DifferenceFromMedian
                                  ? QStringLiteral("count − median")
                                  : QStringLiteral("allocations (count)"));

    // Ticks on round times, as many as have room for their labels: the axis spans whole steps
    // and has a tick at each. A narrow chart gets fewer ticks, and minutes without seconds.
    const QFontMetricsF metrics(c.timeAxis->labelsFont());
    const auto intervalsFor = [&](const QString &format) {
        const QString sample = QDateTime(QDate(2026, 12, 28), QTime(23, 58, 58)).toString(format);
        return std::clamp(int(plotWidth / (metrics.horizontalAdvance(sample) + 22)), 1, 7);
    };
    qint64 step = niceTimeStepMs(to - from, intervalsFor(QStringLiteral("HH:mm:ss")));
    if (const QString wider = timeLabelFormat(step); wider.size() > 8)
        step = niceTimeStepMs(to - from, intervalsFor(wider));
    const qint64 axisFrom = from / step * step;
    const qint64 axisTo = std::max(axisFrom + step, (to + step - 1) / step * step);
    c.timeAxis->setFormat(timeLabelFormat(step));
    c.timeAxis->setTickCount(int((axisTo - axisFrom) / step) + 1);
    c.timeAxis->setRange(QDateTime::fromMSecsSinceEpoch(axisFrom),
                         QDateTime::fromMSecsSinceEpoch(axisTo));
}

void ChartPanel::updateLegend() {
    // Decision (issue 12, item 19): a narrow chart hides its legend instead of moving it below.
    // Below the plot Qt Charts lays the legend out in one row, which at these widths cuts every
    // name to a few letters and still takes plot height a 500-pixel window cannot spare; the
    // members table beside the chart has each member's colour swatch, so the lines stay named.
    QLegend *legend = m_charts->chart->legend();
    const bool wanted = width() >= kNarrowWidth;
    if (legend->isVisible() != wanted)
        legend->setVisible(wanted);
}

void ChartPanel::fitLegend(const QList<QByteArray> &members) {
    // Qt Charts lays a right-hand legend out in one column and lets it run past the chart's
    // bottom: show the entries that fit (pinned members first) and "+N more" for the rest.
    Charts &c = *m_charts;
    QLegend *legend = c.chart->legend();
    m_legendOverflow = 0;
    if (!legend->isVisible()) {
        c.moreEntry->setVisible(false);
        return;
    }
    const QFontMetricsF metrics(legend->font());
    const double entryHeight = metrics.height() + kLegendEntrySpacing;
    QSet<const QAbstractSeries *> memberSeries;
    for (const QLineSeries *series : std::as_const(c.series))
        memberSeries.insert(series);
    int others = 0; // the band, median and minimum entries shown above the members
    for (QLegendMarker *marker : legend->markers())
        if (marker->isVisible() && marker->series() != c.moreEntry &&
            !memberSeries.contains(marker->series()))
            ++others;
    // The legend gets about the plot's height (the chart's minus the time axis and the margins);
    // before the first layout, assume most of the view.
    const QRectF plot = c.chart->plotArea();
    const double height = plot.height() > 10 ? plot.height() : c.view->height() * 0.7;
    // One row less than would fill it: the legend pads its top and bottom.
    const int room = std::max(0, int(height / entryHeight) - others - 1);
    const int count = int(members.size());
    const int shown = count <= room ? count : std::max(0, room - 1);
    QList<QByteArray> priority;
    for (const QByteArray &member : members)
        if (m_session->isPinned(member))
            priority.append(member);
    for (const QByteArray &member : members)
        if (!m_session->isPinned(member))
            priority.append(member);
    const QSet<QByteArray> visible(priority.cbegin(), priority.cbegin() + shown);
    for (const QByteArray &member : members)
        if (QLineSeries *series = c.series.value(member))
            for (QLegendMarker *marker : legend->markers(series))
                if (marker->isVisible() != visible.contains(member))
                    marker->setVisible(visible.contains(member));
    m_legendOverflow = count - shown;
    c.moreEntry->setVisible(m_legendOverflow > 0);
    if (m_legendOverflow > 0) {
        c.moreEntry->setName(tr("+%n more (see the table)", "", m_legendOverflow));
        for (QLegendMarker *marker : legend->markers(c.moreEntry)) {
            marker->setBrush(Qt::transparent);
            marker->setPen(QPen(Qt::transparent));
        }
    }
}

QStringList ChartPanel::legendLabels() const {
    QStringList labels;
    for (QLegendMarker *marker : m_charts->chart->legend()->markers())
        if (marker->isVisible())
            labels.append(marker->label());
    return labels;
}

QColor ChartPanel::lineColor(const QByteArray &member) const {
    const QLineSeries *series = m_charts->series.value(member);
    return series ? series->pen().color() : QColor();
}

QColor ChartPanel::legendColor(const QByteArray &member) const {
    QLineSeries *series = m_charts->series.value(member);
    if (!series)
        return {};
    const QList<QLegendMarker *> markers = m_charts->chart->legend()->markers(series);
    return markers.isEmpty() ? QColor() : markers.constFirst()->brush().color();
}

QList<QByteArray> ChartPanel::chartedMembers() const {
    return m_charts->order;
}

bool ChartPanel::isBandShown() const {
    return m_charts->band->isVisible();
}

QStringList ChartPanel::markerLabels() const {
    QStringList labels;
    for (const ChartMarker &marker : m_charts->view->markers())
        labels.append(marker.label);
    return labels;
}

qsizetype ChartPanel::pointCount(const QByteArray &member) const {
    const QLineSeries *series = m_charts->series.value(member);
    return series ? series->count() : 0;
}

double ChartPanel::lastValue(const QByteArray &member) const {
    const QLineSeries *series = m_charts->series.value(member);
    if (!series || series->count() == 0)
        return std::numeric_limits<double>::quiet_NaN();
    return series->at(series->count() - 1).y();
}

QStringList ChartPanel::seriesNames() const {
    QStringList names;
    for (const QByteArray &member : m_charts->order)
        if (const QLineSeries *series = m_charts->series.value(member))
            names.append(series->name());
    return names;
}

QString ChartPanel::captionText() const {
    return m_caption->fullText();
}

QString ChartPanel::bandName() const {
    return m_charts->band->name();
}

int ChartPanel::bandAreaCount() const {
    return m_charts->bandRuns->areaCount();
}

qint64 ChartPanel::timeAxisSpanMs() const {
    return m_charts->timeAxis->min().msecsTo(m_charts->timeAxis->max());
}

QString ChartPanel::placeholderText() const {
    return m_charts->view->placeholder();
}

qsizetype ChartPanel::poolRatePointCount() const {
    return m_charts->poolRate->count();
}

double ChartPanel::poolRateLastValue() const {
    const QLineSeries *line = m_charts->poolRate;
    for (qsizetype i = line->count() - 1; i >= 0; --i)
        if (std::isfinite(line->at(i).y()))
            return line->at(i).y();
    return std::numeric_limits<double>::quiet_NaN();
}

qsizetype ChartPanel::poolMinimumPointCount() const {
    return m_charts->poolMinimum->isVisible() ? m_charts->poolMinimum->count() : 0;
}

double ChartPanel::poolMinimumLastValue() const {
    const QLineSeries *line = m_charts->poolMinimum;
    if (!line->isVisible() || line->count() == 0)
        return std::numeric_limits<double>::quiet_NaN();
    return line->at(line->count() - 1).y();
}

QList<double> ChartPanel::bandLastValues() const {
    const Charts &c = *m_charts;
    const auto last = [](const QLineSeries *series) {
        return series->count() ? series->at(series->count() - 1).y()
                               : std::numeric_limits<double>::quiet_NaN();
    };
    if (!c.band->isVisible())
        return {};
    return {last(c.bandLower), last(c.median), last(c.bandUpper)};
}

bool ChartPanel::isLegendShown() const {
    return m_charts->chart->legend()->isVisible();
}

QStringList ChartPanel::timeAxisLabels() const {
    const QDateTimeAxis *axis = m_charts->timeAxis;
    QStringList labels;
    const qint64 from = axis->min().toMSecsSinceEpoch();
    const qint64 to = axis->max().toMSecsSinceEpoch();
    const int count = axis->tickCount();
    for (int i = 0; i < count && count > 1; ++i)
        labels.append(QDateTime::fromMSecsSinceEpoch(from + (to - from) * i / (count - 1))
                          .toString(axis->format()));
    return labels;
}

double ChartPanel::plotWidth() const {
    return m_charts->chart->plotArea().width();
}

QStringList ChartPanel::valueAxisLabels() const {
    const QValueAxis *axis = m_charts->valueAxis;
    QStringList labels;
    const int count = axis->tickCount();
    for (int i = 0; i < count && count > 1; ++i) {
        const double value = axis->min() + (axis->max() - axis->min()) * i / (count - 1);
        labels.append(QString::asprintf(qPrintable(axis->labelFormat()), value));
    }
    return labels;
}

QString ChartPanel::exportTitle() const {
    const QString mode = QString::fromUtf8(kModeItems[modeIndex(m_mode)].label).toLower();
    QString title =
        QStringLiteral("poolscope · %1 · %2")
            .arg(QString::fromUtf8(m_session->poolKey()), m_session->endpoint().toDisplayString());
    if (m_shownToMs > m_shownFromMs)
        title += QStringLiteral(" · %1").arg(rangeText(m_shownFromMs, m_shownToMs));
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

QList<ChartMarker> ChartPanel::markers() const {
    return m_charts->view->markers();
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
    if (m_refreshTimer.isActive())
        refreshNow();
    return m_charts->view->grab();
}

bool ChartPanel::saveImage(const QString &path) {
    return exportPixmap().save(path, "PNG");
}

} // namespace poolscope
