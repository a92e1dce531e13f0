// An event marker on the chart and where it is drawn (no Qt Charts: tests include it).
#pragma once

#include "history/PoolHistory.h"

#include <QList>
#include <QRectF>
#include <QString>

namespace poolscope {

struct ChartMarker {
    qint64 timeMs = 0;
    HistoryEvent::Kind kind = HistoryEvent::Kind::Note;
    QString label;
};

// Where one marker is drawn: its line at x, and its label (possibly elided) in box. A label that
// finds no free row is not drawn (empty box and text): its full text is in the tooltip.
struct MarkerPlacement {
    qsizetype marker = 0; // index into markers()
    double x = 0;
    QRectF box;
    QString text;
};

} // namespace poolscope
