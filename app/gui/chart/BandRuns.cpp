#include "chart/BandRuns.h"

#include "session/ChartMath.h"

#include <QAbstractAxis>
#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

namespace poolscope {

namespace {

constexpr qsizetype kMaxRuns = 32;

QList<QList<QPointF>> joined(const QList<QList<QPointF>> &runs) {
    QList<QPointF> all;
    for (const QList<QPointF> &run : runs)
        all += run;
    return {all};
}

} // namespace

BandRuns::BandRuns(QChart *chart, QAreaSeries *band, QLineSeries *median, QAbstractAxis *timeAxis,
                   QAbstractAxis *valueAxis)
    : m_chart(chart)
    , m_band(band)
    , m_median(median)
    , m_timeAxis(timeAxis)
    , m_valueAxis(valueAxis) {}

BandRuns::~BandRuns() = default; // the series belong to the chart

void BandRuns::replace(const QList<QPointF> &upper, const QList<QPointF> &lower,
                       const QList<QPointF> &median, bool visible) {
    QList<QList<QPointF>> upperRuns = splitAtBreaks(upper);
    QList<QList<QPointF>> lowerRuns = splitAtBreaks(lower);
    QList<QList<QPointF>> medianRuns = splitAtBreaks(median);
    if (upperRuns.size() != lowerRuns.size() || upperRuns.size() != medianRuns.size()) {
        // min, median and max break together: never expected; draw the band joined, not wrong
        upperRuns = joined(upperRuns);
        lowerRuns = joined(lowerRuns);
        medianRuns = joined(medianRuns);
    }
    while (upperRuns.size() > kMaxRuns) { // the oldest runs share one area
        for (QList<QList<QPointF>> *runs : {&upperRuns, &lowerRuns, &medianRuns}) {
            (*runs)[1] = (*runs)[0] + (*runs)[1];
            runs->removeFirst();
        }
    }
    m_band->upperSeries()->replace(upperRuns.value(0));
    m_band->lowerSeries()->replace(lowerRuns.value(0));
    m_median->replace(medianRuns.value(0));
    m_band->setVisible(visible);
    m_median->setVisible(visible);
    while (m_parts.size() < upperRuns.size() - 1) {
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
        }
        m_parts.append(part);
    }
    for (qsizetype i = 0; i < m_parts.size(); ++i) {
        const Part &part = m_parts[i];
        part.area->upperSeries()->replace(upperRuns.value(i + 1));
        part.area->lowerSeries()->replace(lowerRuns.value(i + 1));
        part.median->replace(medianRuns.value(i + 1));
        const bool shown = visible && i + 1 < upperRuns.size();
        for (QAbstractSeries *series : {static_cast<QAbstractSeries *>(part.area),
                                        static_cast<QAbstractSeries *>(part.median)}) {
            series->setVisible(shown);
            for (QLegendMarker *marker : m_chart->legend()->markers(series))
                marker->setVisible(false); // showing a series shows its legend entry again
        }
    }
}

int BandRuns::areaCount() const {
    int count = m_band->isVisible() ? 1 : 0;
    for (const Part &part : m_parts)
        count += part.area->isVisible() ? 1 : 0;
    return count;
}

} // namespace poolscope
