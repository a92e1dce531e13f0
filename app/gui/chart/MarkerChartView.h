// The chart view that draws event markers and the empty-state text over the plot.
#pragma once

#include "history/PoolHistory.h"

#include <QChartView>
#include <QList>
#include <QString>

namespace poolscope {

struct ChartMarker {
    qint64 timeMs = 0;
    HistoryEvent::Kind kind = HistoryEvent::Kind::Note;
    QString label;
};

// The chart view draws the event markers and the empty-state text on top of the plot. Markers are
// placed from the x axis range and the plot area, so they need no series of their own.
class MarkerChartView final : public QChartView {
public:
    explicit MarkerChartView(QChart *chart, QWidget *parent);

    void setMarkers(QList<ChartMarker> markers, qint64 fromMs, qint64 toMs);
    const QList<ChartMarker> &markers() const { return m_markers; }
    void setPlaceholder(const QString &text);
    const QString &placeholder() const { return m_placeholder; }

protected:
    void drawForeground(QPainter *painter, const QRectF &rect) override;

private:
    QList<ChartMarker> m_markers;
    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
    QString m_placeholder;
};

} // namespace poolscope
