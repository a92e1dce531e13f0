// The Qt Charts objects ChartPanel owns and the value modes' labels, shared by its source files.
#pragma once

#include "chart/BandRuns.h"
#include "chart/ChartPanel.h"
#include "chart/MarkerChartView.h"

#include <iterator>
#include <memory>

#include <QAreaSeries>
#include <QChart>
#include <QDateTimeAxis>
#include <QHash>
#include <QLineSeries>
#include <QValueAxis>

namespace poolscope {

struct ChartPanel::Charts {
    QChart *chart = nullptr; // owned by the view
    MarkerChartView *view = nullptr;
    QDateTimeAxis *timeAxis = nullptr;
    QValueAxis *valueAxis = nullptr;
    QHash<QByteArray, QLineSeries *> series;
    QHash<QByteArray, bool> hiddenApplied; // legend styling done for this hidden state
    QList<QByteArray> order;               // charted members, in the order added
    QAreaSeries *band = nullptr;
    QLineSeries *bandUpper = nullptr;
    QLineSeries *bandLower = nullptr;
    QLineSeries *median = nullptr;
    QLineSeries *poolMinimum = nullptr; // summary mode: the bottom of the pool as a line
    // The pool's allocation rate, in every mode, on an axis of its own at the right: a burst and
    // an idle pool look alike in the other modes.
    QLineSeries *poolRate = nullptr;
    QValueAxis *rateAxis = nullptr;
    // The legend's last entry when not every member's entry fits: "+N more", no line.
    QLineSeries *moreEntry = nullptr;
    std::unique_ptr<BandRuns> bandRuns; // the band and median broken at outages
};

// The label of each value mode in the panel's box, in box order (translated where shown:
// ChartPanel::tr(label, comment)).
struct ModeItem {
    ChartPanel::ValueMode mode;
    struct {
        const char *label;
        const char *comment;
    } text;
};
inline constexpr ModeItem kModeItems[] = {
    {ChartPanel::ValueMode::Cumulative,
     QT_TRANSLATE_NOOP3("poolscope::ChartPanel", "Cumulative count",
                        "chart mode: each member's allocation count (its score in the sorted "
                        "set) as it grows")},
    {ChartPanel::ValueMode::DifferenceFromMedian,
     QT_TRANSLATE_NOOP3("poolscope::ChartPanel", "Difference from median",
                        "chart mode: each member's count minus the pool's median count")},
    {ChartPanel::ValueMode::Rate,
     QT_TRANSLATE_NOOP3("poolscope::ChartPanel", "Rate (allocations/s)",
                        "chart mode: allocations per second each member receives")},
};

inline int modeIndex(ChartPanel::ValueMode mode) {
    for (int i = 0; i < int(std::size(kModeItems)); ++i)
        if (kModeItems[i].mode == mode)
            return i;
    return 0;
}

} // namespace poolscope
