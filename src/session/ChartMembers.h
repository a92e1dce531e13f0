// The members a chart frame draws (ChartFrame.cpp's first step).
#pragma once

#include "session/ChartFrame.h"

namespace poolscope {

struct ChartMemberChoice {
    QList<QByteArray> members; // in legend order: natural, or top then bottom by rank; then pinned
    qsizetype known = 0;       // members in the pool (the history may track fewer)
    QSet<QByteArray> top;      // charted as the highest counts (big pools)
    QSet<QByteArray> bottom;
};

ChartMemberChoice chooseChartMembers(const ChartSource &source, const ChartOptions &options,
                                     const ChartFrame *previous);

} // namespace poolscope
