// What the chart draws, worked out from a pool's history without any widget: ChartPanel only
// hands the frame to Qt Charts, and tests read the frame.
#pragma once

#include "history/PoolHistory.h"
#include "monitor/PoolMonitor.h"

#include <functional>
#include <optional>
#include <utility>

#include <QByteArray>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QSet>
#include <QString>
#include <QStringList>

namespace poolscope {

class PoolSession;

// The cumulative count, the allocation rate, and the difference from the pool median at each
// moment (count - median; the band as min - median .. max - median around a median line at 0),
// where a fair pool is a flat bundle near zero and a flooded or starved member stands out at once.
enum class ChartMode { Cumulative, Rate, DifferenceFromMedian };

// An event marker: a vertical line at timeMs with its label.
struct ChartMarker {
    qint64 timeMs = 0;
    HistoryEvent::Kind kind = HistoryEvent::Kind::Note;
    QString label;
};

// What a frame is made from: the session's history and latest poll, how members and events are
// shown (credentials masked or not) and coloured, and the connection for the placeholder's words.
// chartSourceOf() fills it from a PoolSession; tests fill it by hand.
struct ChartSource {
    const PoolHistory *history = nullptr;
    const PoolObservation *latest = nullptr; // nullptr before the first poll
    // The pool's allocations counted poll by poll, cumulative (PoolSession::countedAllocations);
    // unset: the pool rate comes from the history's recorded sums only.
    std::function<QList<HistoryPoint>(qint64 fromMs, qint64 toMs)> countedAllocations;
    std::function<QString(const QByteArray &)> memberText; // unset: the name as UTF-8
    std::function<QString(const QString &)> eventText;     // unset: as recorded
    std::function<QColor(const QByteArray &)> memberColor; // unset: MemberColors' colour by name
    bool hasTarget = false;
    ConnectionState state = ConnectionState::Disconnected;
    QString pollFailure; // why the last poll failed; empty once one succeeds
};
ChartSource chartSourceOf(const PoolSession &session);

// What the person chose and how big the plot is.
struct ChartOptions {
    ChartMode mode = ChartMode::Cumulative;
    qint64 windowMs = 5 * 60 * 1000;               // ending at the latest poll; 0: all held
    std::optional<std::pair<qint64, qint64>> zoom; // the range zoomed into, if any
    QSet<QByteArray> pinned;                       // always charted, drawn thicker
    QSet<QByteArray> hidden;                       // charted, line hidden (legend dimmed)
    int maxIndividual = 20;                        // more members: top, bottom and a band
    int edgeMembers = 5;                           // top and bottom members then charted
    double plotWidth = 600;                        // pixels
    double plotHeight = 300;
    bool legendShown = true;                          // false: a narrow chart, no legend
    int legendRows = 1000;                            // legend entries that fit its height
    std::function<double(const QString &)> textWidth; // a time label's width in pixels
    qint64 nowMs = 0;                                 // where an empty chart's axis ends
};

// One member's line.
struct ChartLine {
    enum class Edge { None, Top, Bottom }; // charted as one of the highest or lowest counts
    QByteArray member;
    QString name; // its legend entry: "▲ m29" for a top member of a big pool
    Edge edge = Edge::None;
    QColor color;
    double width = 1.6; // pinned lines are thicker
    bool pinned = false;
    bool hidden = false;
    bool inLegend = true; // its legend entry fits (the rest are "+N more")
    // x: ms since the epoch, y: the value; a NaN y breaks the line (an outage). At most a few
    // points per envelope bucket (kEnvelopePixels wide).
    QList<QPointF> points;
    // Points no neighbour is joined to (a run of one point, or a run narrower than a pixel or
    // two): drawn as dots, or a line of one poll would not show at all.
    QList<QPointF> dots;
};

// The band's points between two line breaks: upper and lower edge and the median, same x.
struct ChartBandRun {
    QList<QPointF> upper;
    QList<QPointF> lower;
    QList<QPointF> median;
};

struct ChartValueAxis {
    double low = 0;
    double high = 10;
    int tickCount = 6;
    QString labelFormat = QStringLiteral("%.0f"); // printf format of a tick's label
    QString title;
    QStringList labels() const;
};

struct ChartTimeAxis {
    qint64 fromMs = 0; // whole ticks: the shown range rounded out to the step
    qint64 toMs = 0;
    qint64 stepMs = 60000;
    QString format = QStringLiteral("HH:mm:ss"); // QDateTime format of a tick's label
    int tickCount() const;
    qint64 spanMs() const { return toMs - fromMs; }
    QStringList labels() const;
};

// The colours of the pool-wide lines, shared by the chart and its legend.
struct ChartColors {
    static QColor band(); // the min–max area's fill
    static QColor bandBorder();
    static QColor median();
    static QColor minimum();
    static QColor rate();
};

// One legend entry, top to bottom.
struct ChartLegendEntry {
    enum class Kind { Band, Median, Minimum, Rate, Member, More };
    Kind kind = Kind::Member;
    QString label;
    QColor color;
    QByteArray member{}; // Kind::Member only
    bool dimmed{false};  // a hidden line's entry, kept to be clicked back on
};

// Everything the chart draws.
struct ChartFrame {
    ChartMode mode = ChartMode::Cumulative;
    bool summaryMode = false;
    qsizetype memberCount = 0; // members known (the pool's size when it is bigger than the history)
    qsizetype poolSize = 0;    // the pool as it is now
    double plotWidth = 0;      // the options' plot width
    double bucketMs = 0;       // the time an envelope bucket (kEnvelopePixels) covers

    QList<ChartLine> lines; // in legend order
    bool bandShown = false;
    QString bandName;         // "pool min–max (22)"
    QString medianName;       // "pool median"
    QList<ChartBandRun> band; // one run per stretch between outages (the oldest merged past 32)
    // Difference mode without a band: the median, the zero line every value is measured from.
    QList<QPointF> zeroLine;
    bool minimumShown = false; // summary mode: the bottom of the pool as a line of its own
    QString minimumName;
    QList<QPointF> minimum;
    QString rateName;
    QList<QPointF> poolRate; // allocations/s of the whole pool, on the right axis
    ChartValueAxis rateAxis;
    // Rate points too short to see as a line (two polls give one rate): placed on the left
    // axis' values, as the lines' dots are.
    QList<QPointF> poolRateDots;

    ChartValueAxis values;
    ChartTimeAxis time;
    QList<ChartMarker> markers;
    QString placeholder; // what an empty chart says
    QString caption;     // the line above the chart: "12 members · 1 hidden"

    bool legendShown = true;
    QList<ChartLegendEntry> legend;
    int legendOverflow = 0; // charted members without a legend entry ("+N more")

    // The members charted as the highest and lowest counts: sticky from frame to frame.
    QSet<QByteArray> top;
    QSet<QByteArray> bottom;

    const ChartLine *line(const QByteArray &member) const;
    QList<QByteArray> members() const;
    // Points drawn for a member (0 when not charted), and the last one's value (NaN then).
    qsizetype pointCount(const QByteArray &member) const;
    double lastValue(const QByteArray &member) const;
    // The band's last values (lower, median, upper); empty when the band is not shown.
    QList<double> bandLastValues() const;
    QStringList markerLabels() const;
    QStringList legendLabels() const;
};

// Points are bucketed to this many pixels: each bucket keeps its lowest and highest value (the
// band its envelope), so a line or band that flips at every poll is drawn as what the eye sees
// at that width, not as hundreds of strokes across the plot.
inline constexpr double kEnvelopePixels = 4;
// Points of a run narrower than this many pixels are drawn as a dot as well.
inline constexpr double kDotPixels = 2;

// The frame for a source and options. previous: the frame drawn before, whose top and bottom
// members stay charted until a member is more extreme by more than one allocation (so a fair
// pool keeps its lines instead of swapping them at every poll).
ChartFrame makeChartFrame(const ChartSource &source, const ChartOptions &options,
                          const ChartFrame *previous = nullptr);

// Which legend entries fit legendRows (pinned members first) and "+N more" for the rest.
void fitChartLegend(ChartFrame &frame, int legendRows);

} // namespace poolscope
