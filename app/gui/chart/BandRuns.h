// The pool-wide band (min..max area and dashed median) drawn in pieces between line breaks.
#pragma once

#include "session/ChartFrame.h"

#include <QList>
#include <QPointF>

class QAbstractAxis;
class QAreaSeries;
class QChart;
class QLineSeries;

namespace poolscope {

// Qt Charts joins a QAreaSeries, and a dashed QLineSeries, across a NaN point, so an outage in
// the band would be drawn as a diagonal. This draws one area and one median line per run of the
// frame's band (ChartFrame::band): the first run in the band's own series (the legend entries),
// later runs in extra series without legend entries, made as needed.
class BandRuns {
public:
    // band and median are already in the chart; the extra series attach to these axes.
    BandRuns(QChart *chart, QAreaSeries *band, QLineSeries *median, QAbstractAxis *timeAxis,
             QAbstractAxis *valueAxis);
    ~BandRuns();

    // zeroLine: drawn as the median (no band) when given: difference mode without a band.
    void replace(const QList<ChartBandRun> &runs, bool visible,
                 const QList<QPointF> *zeroLine = nullptr);

private:
    struct Part {
        QAreaSeries *area = nullptr; // owned by the chart
        QLineSeries *median = nullptr;
    };

    QChart *m_chart;
    QAreaSeries *m_band;
    QLineSeries *m_median;
    QAbstractAxis *m_timeAxis;
    QAbstractAxis *m_valueAxis;
    QList<Part> m_parts;
};

} // namespace poolscope
