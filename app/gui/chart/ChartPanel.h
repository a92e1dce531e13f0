#pragma once

#include "chart/ChartMarker.h"

#include <memory>

#include <QByteArray>
#include <QColor>
#include <QList>
#include <utility>
#include <vector>
#include <QPixmap>
#include <QSet>
#include <QStringList>
#include <QTimer>
#include <QWidget>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QToolButton;

namespace poolscope {

class ElidedLabel;

class PoolSession;
struct PoolObservation;
struct ValueRange;

// Per-member allocation counts over time. The only class that touches Qt Charts (deprecated
// from Qt 6.10): its includes stay in ChartPanel.cpp, so a replacement changes one file.
//
// Drawing discipline (Qt Charts is slow): redraws are coalesced by a 40 ms single-shot timer,
// each redraw does one replace() per series, every series is decimated to about the plot's pixel
// width, axis ranges are set explicitly, no animations and no OpenGL (it crashes offscreen).
// With more than maxIndividualSeries() members only the top and bottom few, the pinned ones and
// a min / median / max band for the whole pool are drawn; in summary mode (a pool too big to read
// whole) the top few, the pinned ones, the band and the pool minimum as a line of its own.
//
// Three value modes: the cumulative count, the allocation rate, and the difference from the pool
// median at each moment (count - median; the band as min - median .. max - median around a median
// line at 0), where a fair pool is a flat bundle near zero and a flooded or starved member stands
// out at once.
//
// Time: a window (last 5 min, hour, 24 h, 7 days, or all the history holds) ending at the latest
// poll, and within it a zoom: dragging across the plot zooms into the range dragged, as deep as
// wanted (each step kept); the Zoom out button, Esc and a right click go back one step, a double
// click (or Ctrl+0) back to the whole window. A zoomed chart stays on its range while polls come
// in; choosing a window or another pool ends the zoom.
class ChartPanel : public QWidget {
    Q_OBJECT

public:
    enum class ValueMode { Cumulative, Rate, DifferenceFromMedian };
    // Everything: all the history holds (a week live, a whole recording).
    enum class TimeWindow { FiveMinutes, OneHour, Day, Week, Everything };
    static constexpr qint64 kMinimumZoomMs = 2000; // a narrower drag is widened to this
    static constexpr int kDefaultMaxIndividualSeries = 20;
    static constexpr int kEdgeMembers = 5; // top and bottom members shown above the limit
    // A pool whose members are all within this many allocations of each other at its first poll
    // opens in DifferenceFromMedian mode (see chooseDefaultMode in ChartPanel.cpp).
    static constexpr double kFairSpread = 5;
    // Narrower than this (the panel, in pixels) the legend is hidden (see updateLegend).
    static constexpr int kNarrowWidth = 720;

    explicit ChartPanel(PoolSession *session, QWidget *parent = nullptr);
    ~ChartPanel() override;

    // A mode set here (or picked in the panel) is kept; until then each pool opens in the mode
    // that suits it (chooseDefaultMode).
    void setValueMode(ValueMode mode);
    ValueMode valueMode() const { return m_mode; }
    void setTimeWindow(TimeWindow window);
    TimeWindow timeWindow() const { return m_window; }
    // Zooms into [fromMs, toMs] (at least kMinimumZoomMs wide), one step deeper.
    void zoomTo(qint64 fromMs, qint64 toMs);
    void zoomOut(); // one step back
    void showWholeWindow();
    bool isZoomed() const { return !m_zoomSteps.empty(); }
    int zoomDepth() const { return int(m_zoomSteps.size()); }
    // The View menu's entries: the windows (Alt+1 … Alt+5), Zoom out (Esc, on the chart) and
    // Whole window (Ctrl+0).
    QList<QAction *> viewActions() const;
    // The chart view, for tests that drag across it.
    QWidget *chartView() const;
    void setMaxIndividualSeries(int count);
    int maxIndividualSeries() const { return m_maxIndividual; }

    // What a click on the member's legend entry does: hide or show its line.
    void toggleSeriesVisible(const QByteArray &member);
    bool isSeriesHidden(const QByteArray &member) const { return m_hidden.contains(member); }

    // Asks for a redraw within 40 ms; many requests in that time make one redraw.
    void scheduleRefresh();
    void refreshNow();

    // What is on the chart now, for tests and exports.
    QList<QByteArray> chartedMembers() const;
    bool isBandShown() const;
    QStringList markerLabels() const;
    qsizetype pointCount(const QByteArray &member) const;
    // The last value drawn for a member (count or rate by mode); NaN when not charted.
    double lastValue(const QByteArray &member) const;
    QString placeholderText() const;
    // The pool minimum line of summary mode (points drawn; 0 when not shown) and its last value.
    // The pool's allocation rate line (every mode): its points and its latest value.
    qsizetype poolRatePointCount() const;
    double poolRateLastValue() const;
    qsizetype poolMinimumPointCount() const;
    double poolMinimumLastValue() const;
    // The band's last values as drawn (lower, median, upper); NaN when the band is not shown.
    QList<double> bandLastValues() const;
    bool isLegendShown() const;
    // The legend's entries shown now, top to bottom, and how many members have none ("+N more").
    QStringList legendLabels() const;
    int legendOverflow() const { return m_legendOverflow; }
    // A charted member's line colour and its legend swatch's (invalid when not charted).
    QColor lineColor(const QByteArray &member) const;
    QColor legendColor(const QByteArray &member) const;
    // The time axis labels as drawn, and the width of the plot they share.
    QStringList timeAxisLabels() const;
    double plotWidth() const;
    // The y axis labels as drawn (count modes: whole numbers, each once).
    QStringList valueAxisLabels() const;
    // The title line of an exported image: pool key, server and the time range shown.
    QString exportTitle() const;
    // The legend's name of each charted member's line, in the order added.
    QStringList seriesNames() const;
    // The line above the chart ("12 members · 1 hidden"), the band's legend name and the time
    // axis' span in milliseconds.
    QString captionText() const;
    QString bandName() const;
    qint64 timeAxisSpanMs() const;
    // The time range on the axis now (the window or the zoom, rounded out to whole ticks).
    qint64 shownFromMs() const { return m_shownFromMs; }
    qint64 shownToMs() const { return m_shownToMs; }
    // Areas the band is drawn in now: one per run between outages.
    int bandAreaCount() const;
    quint64 refreshCount() const { return m_refreshCount; }
    // Wall time of the last redraw (refreshNow), in milliseconds: what one tick costs the GUI.
    double lastRefreshMs() const { return m_lastRefreshMs; }
    // Event markers and the placeholder as drawn, in this panel's coordinates.
    QRectF plotRect() const;
    QList<ChartMarker> markers() const;
    QList<MarkerPlacement> markerPlacements() const; // box and x mapped to the panel
    QString markerToolTipAt(const QPointF &panelPos) const;
    QRectF placeholderRect() const;
    QPixmap grabChart();
    // The chart with the title line above it, as exported.
    QPixmap exportPixmap();
    bool saveImage(const QString &path);

Q_SIGNALS:
    void refreshed();
    void zoomChanged();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Charts;
    QList<QByteArray> chooseMembers(qsizetype *knownCount);
    QList<QByteArray> chooseSummaryMembers(const PoolObservation &observation,
                                           qsizetype *knownCount);
    void updateCaption(qsizetype known, const QList<QByteArray> &charted);
    void chooseDefaultMode();
    void updateLegend();
    // Shows the legend entries that fit the chart's height, the rest as "+N more".
    void fitLegend(const QList<QByteArray> &members);
    void updatePoolRate(qint64 from, qint64 to, int columns, bool summaryMode);
    void updateAxes(const ValueRange &values, qint64 from, qint64 to);
    void buildTimeControls();
    void applyZoomState();
    static qint64 windowSpanMs(TimeWindow window);

    PoolSession *m_session;
    std::unique_ptr<Charts> m_charts;
    QComboBox *m_modeBox;
    QComboBox *m_windowBox;
    ElidedLabel *m_caption; // cut with "…" when narrow, the whole text in its tooltip
    QToolButton *m_zoomOutButton = nullptr;
    QActionGroup *m_windowActions = nullptr;
    QAction *m_zoomOutAction = nullptr;
    QAction *m_wholeWindowAction = nullptr;
    std::vector<std::pair<qint64, qint64>> m_zoomSteps; // ranges zoomed into, deepest last
    QTimer m_refreshTimer;
    ValueMode m_mode = ValueMode::Cumulative;
    bool m_modeChosen = false;     // set by the user or the API: no default mode any more
    bool m_defaultDecided = false; // this pool's default mode was chosen
    qint64 m_shownFromMs = 0;      // the time range drawn, for the export title
    qint64 m_shownToMs = 0;
    TimeWindow m_window = TimeWindow::FiveMinutes;
    int m_maxIndividual = kDefaultMaxIndividualSeries;
    QSet<QByteArray> m_hidden;
    static constexpr double kLegendEntrySpacing = 7; // between legend rows, besides the font
    int m_legendOverflow = 0;      // members charted without a legend entry ("+N more")
    QSet<QByteArray> m_topMembers; // charted as the highest counts (big pools)
    QSet<QByteArray> m_bottomMembers;
    quint64 m_refreshCount = 0;
    double m_lastRefreshMs = 0;
};

} // namespace poolscope
