// The chart view that draws event markers and the empty-state text over the plot.
#pragma once

#include "chart/ChartMarker.h"

#include <QChartView>
#include <QList>
#include <QRectF>
#include <QString>

namespace poolscope {

// The chart view draws the event markers and the empty-state text on top of the plot. Markers are
// placed from the x axis range and the plot area, so they need no series of their own. Labels are
// stacked in rows at the top of the plot, never over each other and never past its edges: a label
// that does not fit is elided, or left out when no row has room; hovering a marker line (or its
// label) shows the full text of every marker there.
class MarkerChartView final : public QChartView {
public:
    explicit MarkerChartView(QChart *chart, QWidget *parent);

    void setMarkers(QList<ChartMarker> markers, qint64 fromMs, qint64 toMs);
    const QList<ChartMarker> &markers() const { return m_markers; }
    void setPlaceholder(const QString &text);
    const QString &placeholder() const { return m_placeholder; }

    // The markers' places for the current plot area (scene coordinates), in marker order.
    QList<MarkerPlacement> placements() const;
    // The full labels of the markers at a scene position (line within a few pixels, or label
    // box), one per line with their time; empty when there is none.
    QString markerToolTipAt(const QPointF &scenePos) const;
    // Where the placeholder is drawn (scene coordinates); empty when there is none.
    QRectF placeholderRect() const;

protected:
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    bool viewportEvent(QEvent *event) override;

private:
    QFont markerFont() const;
    QFont placeholderFont() const;

    QList<ChartMarker> m_markers;
    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
    QString m_placeholder;
};

} // namespace poolscope
