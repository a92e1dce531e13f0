#pragma once

#include "chart/ChartMarker.h"
#include "session/ChartFrame.h"

#include <memory>
#include <utility>
#include <vector>

#include <QByteArray>
#include <QList>
#include <QPixmap>
#include <QSet>
#include <QTimer>
#include <QWidget>

class QAction;
class QActionGroup;
class QComboBox;
class QToolButton;

namespace poolscope {

class ElidedLabel;
class PoolSession;

// Per-member allocation counts over time. What is drawn is worked out by makeChartFrame
// (session/ChartFrame.h, no widget): this panel keeps the person's choices (mode, window, zoom,
// pins, hidden lines), asks for a frame and hands it to Qt Charts. The only class that touches
// Qt Charts (deprecated from Qt 6.10): its includes stay in app/gui/chart.
//
// Drawing discipline (see TECH-NOTES.md): redraws are coalesced by a 40 ms single-shot timer,
// each redraw does one replace() per series, every series is bucketed to a few pixels, axis
// ranges are set explicitly, no animations and no OpenGL (it crashes offscreen). A poll redraws
// the chart only once it moved by a bucket (kEnvelopePixels): at the 5-minute window every other
// second; a choice of the person's redraws it at once.
//
// Time: a window (last 5 min, hour, 24 h, 7 days, or all the history holds) ending at the latest
// poll, and within it a zoom: dragging across the plot zooms into the range dragged, as deep as
// wanted (each step kept); the Zoom out button, Esc and a right click go back one step, a double
// click (or Ctrl+0) back to the whole window. A zoomed chart stays on its range while polls come
// in; choosing a window or another pool ends the zoom.
class ChartPanel : public QWidget {
    Q_OBJECT

public:
    using ValueMode = ChartMode;
    // Everything: all the history holds (a week live, a whole recording).
    enum class TimeWindow { FiveMinutes, OneHour, Day, Week, Everything };
    static constexpr qint64 kMinimumZoomMs = 2000; // a narrower drag is widened to this
    static constexpr int kDefaultMaxIndividualSeries = 20;
    static constexpr int kEdgeMembers = 5; // top and bottom members shown above the limit
    // A pool whose members are all within this many allocations of each other at its first poll
    // opens in DifferenceFromMedian mode (see chooseDefaultMode in ChartPanel.cpp).
    static constexpr double kFairSpread = 5;
    // Narrower than this (the panel, in pixels) the legend is hidden.
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

    // The frame drawn last: every series, the band, axes, legend, markers and placeholder.
    const ChartFrame &frame() const { return m_frame; }
    // Wall time of the last redraw (refreshNow), in milliseconds: what one tick costs the GUI.
    double lastRefreshMs() const { return m_lastRefreshMs; }
    // Where things are drawn now, in this panel's coordinates: what only the widget knows, for
    // tests that drag, hover and read pixels.
    QRectF plotRect() const;
    QList<MarkerPlacement> markerPlacements() const; // box and x mapped to the panel
    QString markerToolTipAt(const QPointF &panelPos) const;
    QRectF placeholderRect() const;
    QPixmap grabChart();
    // The title line of an exported image: pool key, server, the time range shown and the mode.
    QString exportTitle() const;
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
    ChartOptions frameOptions() const;
    int legendRows() const;
    void chooseDefaultMode();
    void handlePoll();
    void syncLines(bool *joined);
    void syncPoolLines();
    void syncAxes();
    void syncLegend();
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
    QTimer m_pollTimer; // a poll's redraw, held until the chart moved by a bucket
    ValueMode m_mode = ValueMode::Cumulative;
    bool m_modeChosen = false;     // set by the user or the API: no default mode any more
    bool m_defaultDecided = false; // this pool's default mode was chosen
    TimeWindow m_window = TimeWindow::FiveMinutes;
    int m_maxIndividual = kDefaultMaxIndividualSeries;
    QSet<QByteArray> m_hidden;
    static constexpr double kLegendEntrySpacing = 7; // between legend rows, besides the font
    ChartFrame m_frame;
    qint64 m_framePollMs = 0; // the latest poll the frame drawn was made after
    double m_lastRefreshMs = 0;
};

} // namespace poolscope
