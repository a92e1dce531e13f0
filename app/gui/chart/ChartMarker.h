// Where an event marker is drawn (no Qt Charts: tests include it).
#pragma once

#include "session/ChartFrame.h"

#include <QList>
#include <QRectF>
#include <QString>

namespace poolscope {

// Where one marker is drawn: its line at x, and its label (possibly elided) in box. A label that
// finds no free row is not drawn (empty box and text): its full text is in the tooltip.
struct MarkerPlacement {
    qsizetype marker = 0; // index into the frame's markers
    double x = 0;
    QRectF box;
    QString text;
};

} // namespace poolscope
