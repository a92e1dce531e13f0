// The chart view that draws event markers and the empty-state text over the plot, and turns a
// drag across the plot into a time range to zoom into.
#pragma once

#include "chart/ChartMarker.h"

#include <QChartView>
#include <QColor>
#include <QList>
#include <QRectF>
#include <QString>

namespace poolscope {

// A point of a line too short to see as a line (ChartLine::dots), drawn as a dot of its colour.
struct ChartDot {
    QPointF point; // x: ms since the epoch, y: the value
    QColor color;
    double lineWidth = 1.6;
};

// The chart view draws the event markers, the lines' dots and the empty-state text on top of the
// plot. They are placed from the axis ranges and the plot area, so they need no series of their
// own. Labels are
// stacked in rows at the top of the plot, never over each other and never past its edges: a label
// that does not fit is elided, or left out when no row has room; hovering a marker line (or its
// label) shows the full text of every marker there.
//
// Zoom gestures: a drag with the left button across the plot draws a band and, released at least
// a few pixels from where it started, reports the time range under it (rangeDragged); a right
// click on the plot asks to zoom out one step, a double click to show the whole window. The view
// only reports: the panel owns the zoom.
class MarkerChartView final : public QChartView {
    Q_OBJECT

public:
    explicit MarkerChartView(QChart *chart, QWidget *parent);

    // The frame's markers and dots, and the axis ranges they are placed on.
    void setFrame(QList<ChartMarker> markers, QList<ChartDot> dots, qint64 fromMs, qint64 toMs,
                  double valueLow, double valueHigh);
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
    // The time under a scene x coordinate, from the range the markers were placed for.
    qint64 timeAtSceneX(double x) const;
    bool isDragging() const { return m_dragging; }

Q_SIGNALS:
    void rangeDragged(qint64 fromMs, qint64 toMs);
    void zoomOutClicked();
    void wholeWindowClicked();

protected:
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    bool viewportEvent(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    QFont markerFont() const;
    QFont placeholderFont() const;

    QList<ChartMarker> m_markers;
    QList<ChartDot> m_dots;
    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
    double m_valueLow = 0;
    double m_valueHigh = 1;
    QString m_placeholder;
    bool m_dragging = false;
    double m_dragFromX = 0; // scene coordinates
    double m_dragToX = 0;
};

} // namespace poolscope
