#include "chart/BandRuns.h"

#include <QAbstractAxis>
#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

namespace poolscope {

BandRuns::BandRuns(QChart *chart, QAreaSeries *band, QLineSeries *median, QAbstractAxis *timeAxis,
                   QAbstractAxis *valueAxis)
    : m_chart(chart)
    , m_band(band)
    , m_median(median)
    , m_timeAxis(timeAxis)
    , m_valueAxis(valueAxis) {}

BandRuns::~BandRuns() = default; // the series belong to the chart

namespace {

// A series shown or hidden again lays the chart out again (and shows its legend entry): only when
// it changes.
void setVisible(QAbstractSeries *series, bool visible) {
    if (series->isVisible() != visible)
        series->setVisible(visible);
}

} // namespace

void BandRuns::replace(const QList<ChartBandRun> &runs, bool visible,
                       const QList<QPointF> *zeroLine) {
    const ChartBandRun none;
    const ChartBandRun &first = runs.isEmpty() ? none : runs.constFirst();
    m_band->upperSeries()->replace(first.upper);
    m_band->lowerSeries()->replace(first.lower);
    m_median->replace(zeroLine ? *zeroLine : first.median);
    setVisible(m_band, visible);
    setVisible(m_median, visible || zeroLine);
    while (m_parts.size() < runs.size() - 1) {
        Part part;
        auto *partUpper = new QLineSeries;
        auto *partLower = new QLineSeries;
        part.area = new QAreaSeries(partUpper, partLower);
        partUpper->setParent(part.area);
        partLower->setParent(part.area);
        part.area->setPen(m_band->pen());
        part.area->setBrush(m_band->brush());
        part.median = new QLineSeries;
        part.median->setPen(m_median->pen());
        for (QAbstractSeries *series : {static_cast<QAbstractSeries *>(part.area),
                                        static_cast<QAbstractSeries *>(part.median)}) {
            m_chart->addSeries(series);
            series->attachAxis(m_timeAxis);
            series->attachAxis(m_valueAxis);
            // The first run's entries name the band: a later run's would be nameless swatches.
            for (QLegendMarker *marker : m_chart->legend()->markers(series))
                marker->setVisible(false);
        }
        m_parts.append(part);
    }
    for (qsizetype i = 0; i < m_parts.size(); ++i) {
        const Part &part = m_parts[i];
        const ChartBandRun &run = i + 1 < runs.size() ? runs[i + 1] : none;
        part.area->upperSeries()->replace(run.upper);
        part.area->lowerSeries()->replace(run.lower);
        part.median->replace(run.median);
        const bool shown = visible && i + 1 < runs.size();
        for (QAbstractSeries *series : {static_cast<QAbstractSeries *>(part.area),
                                        static_cast<QAbstractSeries *>(part.median)}) {
            if (series->isVisible() == shown)
                continue;
            series->setVisible(shown);
            for (QLegendMarker *marker : m_chart->legend()->markers(series))
                marker->setVisible(false); // showing a series shows its legend entry again
        }
    }
}

} // namespace poolscope
