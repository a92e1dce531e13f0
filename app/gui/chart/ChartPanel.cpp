#include "chart/ChartPanel.h"

#include "ElidedLabel.h"
#include "session/ChartMath.h"
#include "session/PoolSession.h"
#include "chart/ChartParts.h"
#include "chart/MarkerChartView.h"

#include <algorithm>
#include <cmath>

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLocale>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QToolButton>
#include <QPainter>
#include <QValueAxis>
#include <QVBoxLayout>

namespace poolscope {

namespace {

constexpr qint64 kFiveMinutesMs = 5 * 60 * 1000;
// A poll waits at most this long for the chart to move by a bucket before it is drawn.
constexpr int kMaxPollDelayMs = 5000;

// Qt Charts lays the chart out again after most setters, even when nothing changed: each relayout
// repaints the axes and the legend. Only what changed is set.
void setSeriesName(QAbstractSeries *series, const QString &name) {
    if (series->name() != name)
        series->setName(name);
}

void showSeries(QAbstractSeries *series, bool visible) {
    if (series->isVisible() != visible)
        series->setVisible(visible);
}

void setAxis(QValueAxis *axis, const ChartValueAxis &values) {
    if (axis->labelFormat() != values.labelFormat)
        axis->setLabelFormat(values.labelFormat);
    if (axis->min() != values.low || axis->max() != values.high)
        axis->setRange(values.low, values.high);
    if (axis->tickCount() != values.tickCount)
        axis->setTickCount(values.tickCount);
    if (axis->titleText() != values.title)
        axis->setTitleText(values.title);
}

} // namespace

ChartPanel::ChartPanel(PoolSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_charts(std::make_unique<Charts>())
    , m_modeBox(new QComboBox(this))
    , m_windowBox(new QComboBox(this))
    , m_caption(new ElidedLabel(this)) {
    Charts &c = *m_charts;
    c.chart = new QChart;
    c.chart->setAnimationOptions(QChart::NoAnimation);
    c.chart->setBackgroundRoundness(0);
    c.chart->setMargins(QMargins(4, 4, 4, 4));
    // The legend at the end of a line of text (the left under Uyghur); the plot never mirrors:
    // time runs forward, left to right, in every language.
    c.chart->legend()->setAlignment(isRightToLeft() ? Qt::AlignLeft : Qt::AlignRight);
    c.chart->legend()->setShowToolTips(true);
    // Axis labels in the language's digits and separators.
    c.chart->setLocale(QLocale());
    c.chart->setLocalizeNumbers(true);
    c.timeAxis = new QDateTimeAxis;
    c.timeAxis->setFormat(QStringLiteral("HH:mm:ss"));
    c.timeAxis->setTickCount(7);
    c.timeAxis->setTitleText(tr("time", "title of the chart's horizontal axis"));
    c.valueAxis = new QValueAxis;
    c.valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    c.valueAxis->setTickCount(6);
    c.chart->addAxis(c.timeAxis, Qt::AlignBottom);
    c.chart->addAxis(c.valueAxis, Qt::AlignLeft);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    c.timeAxis->setRange(QDateTime::fromMSecsSinceEpoch(now - kFiveMinutesMs),
                         QDateTime::fromMSecsSinceEpoch(now));
    c.valueAxis->setRange(0, 10);

    // The band: pool min..max as an area, the median as a dashed line.
    c.bandUpper = new QLineSeries;
    c.bandLower = new QLineSeries;
    c.band = new QAreaSeries(c.bandUpper, c.bandLower);
    c.bandUpper->setParent(c.band);
    c.bandLower->setParent(c.band);
    c.band->setName(tr("pool min–max", "legend: the band from the pool's lowest to its highest "
                                       "allocation count (score)"));
    c.band->setColor(ChartColors::band());
    c.band->setBorderColor(ChartColors::bandBorder());
    c.median = new QLineSeries;
    c.median->setPen(QPen(ChartColors::median(), 1.5, Qt::DashLine));
    c.poolMinimum = new QLineSeries;
    c.poolMinimum->setPen(QPen(ChartColors::minimum(), 2.0));
    for (QAbstractSeries *series :
         {static_cast<QAbstractSeries *>(c.band), static_cast<QAbstractSeries *>(c.median),
          static_cast<QAbstractSeries *>(c.poolMinimum)}) {
        c.chart->addSeries(series);
        series->attachAxis(c.timeAxis);
        series->attachAxis(c.valueAxis);
        series->setVisible(false);
    }
    c.rateAxis = new QValueAxis;
    c.rateAxis->setLabelFormat(QStringLiteral("%.0f"));
    c.rateAxis->setTitleText(tr("pool allocations/s"));
    c.rateAxis->setTickCount(3);
    c.rateAxis->setGridLineVisible(false);
    c.rateAxis->setRange(0, 1);
    c.chart->addAxis(c.rateAxis, Qt::AlignRight);
    c.poolRate = new QLineSeries;
    c.poolRate->setPen(QPen(ChartColors::rate(), 2.0, Qt::DotLine));
    c.chart->addSeries(c.poolRate);
    c.poolRate->attachAxis(c.timeAxis);
    c.poolRate->attachAxis(c.rateAxis);
    c.rateAxis->setLinePenColor(QColor(0x60, 0x60, 0x60));
    c.moreEntry = new QLineSeries;
    c.moreEntry->setPen(QPen(Qt::transparent));
    c.chart->addSeries(c.moreEntry);
    c.moreEntry->attachAxis(c.timeAxis);
    c.moreEntry->attachAxis(c.valueAxis);
    c.moreEntry->setVisible(false);
    c.bandRuns = std::make_unique<BandRuns>(c.chart, c.band, c.median, c.timeAxis, c.valueAxis);

    c.view = new MarkerChartView(c.chart, this);
    c.view->setRenderHint(QPainter::Antialiasing, true);
    c.view->setMinimumSize(320, 200);
    // Two paragraphs, each a whole translatable text.
    c.view->setToolTip(
        tr("Click a legend entry to hide or show its line; pin members from the "
           "table (%1) to keep them charted")
            .arg(QKeySequence(Qt::CTRL | Qt::Key_P).toString(QKeySequence::NativeText)) +
        QLatin1Char('\n') +
        tr("In a big pool ▲ marks the most allocated members, ▼ the ones "
           "allocated next. The dotted grey line is the pool's allocation rate "
           "(right axis)."));

    for (const ModeItem &item : kModeItems)
        m_modeBox->addItem(tr(item.text.label, item.text.comment));
    m_modeBox->setToolTip(
        tr("Chart each member's count; its count minus the pool median at each moment (a fair "
           "pool is a flat bundle near %1, a flooded or starved member stands out); or how many "
           "allocations per second it receives",
           "count: how many times a member was allocated (its score)")
            .arg(QLocale().toString(0)));
    buildTimeControls();
    m_caption->setToolTip(tr("Which members the chart shows"));
    m_caption->setStyleSheet(QStringLiteral("color: palette(mid);"));
    // Neither the caption nor the mode names may set the chart's minimum width: in a small
    // window that squeezed the docks beside it. The caption is cut instead
    // (its full text in the tooltip), the mode box shows the start of a long name.
    m_caption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_modeBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_modeBox->setMinimumContentsLength(22); // "Difference from median" whole

    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(
        new QLabel(tr("Show", "label before the box choosing what the chart shows"), this));
    controls->addWidget(m_modeBox);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(
        tr("Window", "label before the chart's time span (last 5 min, last hour...), not a "
                     "window on the screen"),
        this));
    controls->addWidget(m_windowBox);
    controls->addWidget(m_zoomOutButton);
    controls->addSpacing(12);
    controls->addWidget(m_caption, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->setSpacing(2);
    layout->addLayout(controls);
    layout->addWidget(c.view, 1);

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(40);
    connect(&m_refreshTimer, &QTimer::timeout, this, &ChartPanel::refreshNow);
    connect(m_modeBox, &QComboBox::activated, this, [this](int index) {
        setValueMode(kModeItems[std::clamp(index, 0, int(std::size(kModeItems)) - 1)].mode);
    });
    m_pollTimer.setSingleShot(true);
    connect(&m_pollTimer, &QTimer::timeout, this, &ChartPanel::scheduleRefresh);
    connect(m_session, &PoolSession::observationApplied, this, [this] {
        chooseDefaultMode();
        handlePoll();
    });
    connect(m_session, &PoolSession::historyEventAdded, this, &ChartPanel::scheduleRefresh);
    connect(m_session, &PoolSession::historyLoaded, this, &ChartPanel::scheduleRefresh);
    connect(m_session, &PoolSession::stateChanged, this, &ChartPanel::scheduleRefresh);
    connect(m_session, &PoolSession::targetChanged, this, [this] {
        m_defaultDecided = false;
        m_hidden.clear(); // hidden lines belong to the pool they were hidden in
        if (isZoomed()) {
            m_zoomSteps.clear(); // a zoom belongs to the pool's times
            applyZoomState();
        }
        scheduleRefresh();
    });
    connect(m_session, &PoolSession::pollFailed, this, &ChartPanel::scheduleRefresh);
    connect(m_session, &PoolSession::credentialsShownChanged, this, &ChartPanel::scheduleRefresh);
    connect(m_session, &PoolSession::pinsChanged, this, &ChartPanel::scheduleRefresh);
    scheduleRefresh();
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::setValueMode(ValueMode mode) {
    m_modeChosen = true;
    if (mode == m_mode)
        return;
    m_mode = mode;
    m_modeBox->setCurrentIndex(modeIndex(mode));
    scheduleRefresh();
}

void ChartPanel::chooseDefaultMode() {
    // Decision (from screenshots of the demo, a skewed pool and a restore at zero under load): a
    // pool whose members are all within kFairSpread allocations of each other at its first poll
    // (with at least two members) opens in DifferenceFromMedian mode. There its cumulative lines
    // lie on top of each other (one thick line), while the differences show each member as a
    // line of its own near 0, and a later flood (a member restored at zero sits thousands below 0
    // and climbs back) or a starved member is the one line far from the bundle. A skewed pool
    // opens in Cumulative mode: its lines are apart already, and the counts themselves are what
    // one reads there. Decided once per pool, and never once the user (or the API) picked a
    // mode: the mode does not change under the user's eyes.
    if (m_modeChosen || m_defaultDecided)
        return;
    const auto &observation = m_session->latestObservation();
    if (!observation || observation->stats.size < 2)
        return; // not a pool yet (the demo seeds after the first poll): decide at its first poll
    m_defaultDecided = true;
    const bool fair = isFairSpread(observation->stats.size, observation->stats.min,
                                   observation->stats.max, kFairSpread);
    const ValueMode mode = fair ? ValueMode::DifferenceFromMedian : ValueMode::Cumulative;
    if (mode != m_mode) {
        m_mode = mode;
        m_modeBox->setCurrentIndex(modeIndex(mode));
        scheduleRefresh(); // a frame drawn before (a recording just opened) is in the old mode
    }
}

void ChartPanel::setMaxIndividualSeries(int count) {
    m_maxIndividual = std::max(1, count);
    scheduleRefresh();
}

void ChartPanel::toggleSeriesVisible(const QByteArray &member) {
    if (m_hidden.contains(member))
        m_hidden.remove(member);
    else
        m_hidden.insert(member);
    refreshNow();
}

void ChartPanel::scheduleRefresh() {
    m_pollTimer.stop();
    if (!m_refreshTimer.isActive())
        m_refreshTimer.start();
}

void ChartPanel::handlePoll() {
    // A poll moves the chart by less than a bucket (kEnvelopePixels) at wide windows: it is drawn
    // once the polls since the last frame span a bucket (at the 5-minute window every other
    // second), or after kMaxPollDelayMs, whichever comes first. A poll in a new pool (or after a
    // gap the frame has not drawn yet) is drawn at once.
    const qint64 latest = m_session->history().latestTimeMs();
    const double bucketMs = m_frame.bucketMs;
    const qint64 waited = latest - m_framePollMs;
    if (m_framePollMs <= 0 || waited < 0 || double(waited) >= bucketMs) {
        scheduleRefresh();
        return;
    }
    if (!m_refreshTimer.isActive() && !m_pollTimer.isActive())
        m_pollTimer.start(int(std::min<double>(kMaxPollDelayMs, bucketMs - double(waited))));
}

void ChartPanel::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    scheduleRefresh(); // the bucket width changed
}

int ChartPanel::legendRows() const {
    // Qt Charts lays a right-hand legend out in one column and lets it run past the chart's
    // bottom: the frame shows the entries that fit about the plot's height (before the first
    // layout, most of the view), one row less than would fill it (the legend pads its ends).
    const Charts &c = *m_charts;
    const QFontMetricsF metrics(c.chart->legend()->font());
    const double entryHeight = metrics.height() + kLegendEntrySpacing;
    const QRectF plot = c.chart->plotArea();
    const double room =
        plot.height() > 10 ? plot.height() : std::max(c.view->height(), height()) * 0.7;
    return std::max(0, int(room / entryHeight) - 1);
}

ChartOptions ChartPanel::frameOptions() const {
    const Charts &c = *m_charts;
    ChartOptions options;
    options.mode = m_mode;
    options.windowMs = windowSpanMs(m_window);
    if (isZoomed())
        options.zoom = m_zoomSteps.back();
    const QList<QByteArray> pins = m_session->pins();
    options.pinned = QSet<QByteArray>(pins.cbegin(), pins.cend());
    options.hidden = m_hidden;
    options.maxIndividual = m_maxIndividual;
    options.edgeMembers = kEdgeMembers;
    // Before the first layout the plot area is empty, and a hidden view has no size yet: assume
    // most of the view, or of the panel.
    const QRectF plot = c.chart->plotArea();
    options.plotWidth =
        plot.width() > 10 ? plot.width() : std::max(c.view->width(), width()) * 0.75;
    options.plotHeight =
        plot.height() > 10 ? plot.height() : std::max(c.view->height(), height()) * 0.7;
    // Decision: a narrow chart hides its legend instead of moving it below. Below the plot Qt
    // Charts lays the legend out in one row, which at these widths cuts every name to a few
    // letters and still takes plot height a 500-pixel window cannot spare; the members table
    // beside the chart has each member's colour swatch, so the lines stay named.
    options.legendShown = width() >= kNarrowWidth;
    options.legendRows = legendRows();
    const QFontMetricsF metrics(c.timeAxis->labelsFont());
    options.textWidth = [metrics](const QString &text) { return metrics.horizontalAdvance(text); };
    options.nowMs = QDateTime::currentMSecsSinceEpoch();
    return options;
}

void ChartPanel::refreshNow() {
    m_refreshTimer.stop();
    m_pollTimer.stop();
    QElapsedTimer clock;
    clock.start();
    m_frame = makeChartFrame(chartSourceOf(*m_session), frameOptions(), &m_frame);
    m_framePollMs = m_session->history().latestTimeMs();
    m_session->setChartedMembers(m_frame.members()); // their history grows however big the pool
    bool joined = false;
    syncLines(&joined);
    syncPoolLines();
    syncAxes();
    Charts &c = *m_charts;
    QList<ChartDot> dots;
    for (const ChartLine &line : std::as_const(m_frame.lines))
        if (!line.hidden)
            for (const QPointF &point : line.dots)
                dots.append({point, line.color, line.width});
    for (const QPointF &point : std::as_const(m_frame.poolRateDots))
        dots.append({point, ChartColors::rate(), 1.6});
    c.view->setFrame(m_frame.markers, std::move(dots), m_frame.time.fromMs, m_frame.time.toMs,
                     m_frame.values.low, m_frame.values.high);
    c.view->setPlaceholder(m_frame.placeholder);
    syncLegend();
    // New legend entries are laid out (and shown) by the legend on the next turn of the event
    // loop: fit them again after that.
    if (joined)
        QTimer::singleShot(0, this, [this] {
            fitChartLegend(m_frame, legendRows());
            syncLegend();
        });
    m_caption->setFullText(m_frame.caption);
    if (m_frame.caption.isEmpty())
        m_caption->setToolTip(tr("Which members the chart shows"));
    m_lastRefreshMs = double(clock.nsecsElapsed()) / 1e6;
    Q_EMIT refreshed();
}

void ChartPanel::syncLines(bool *joined) {
    Charts &c = *m_charts;
    const QList<QByteArray> members = m_frame.members();
    // Drop series of members no longer charted.
    for (auto it = c.series.begin(); it != c.series.end();) {
        if (members.contains(it.key())) {
            ++it;
            continue;
        }
        c.chart->removeSeries(it.value());
        delete it.value();
        c.order.removeAll(it.key());
        c.hiddenApplied.remove(it.key());
        it = c.series.erase(it);
    }
    // The legend lists series in the order they were added: when a member joins, add them all
    // again in the frame's order, so a new member does not land at the end. Only then: a rank
    // change alone must not rebuild the legend each poll.
    *joined = std::any_of(members.cbegin(), members.cend(),
                          [&c](const QByteArray &m) { return !c.series.contains(m); });
    if (*joined && !c.order.isEmpty()) {
        for (const QByteArray &member : std::as_const(c.order))
            c.chart->removeSeries(c.series.value(member)); // the chart gives it back to us
        c.order.clear();
        c.hiddenApplied.clear(); // the legend markers are new
    }
    for (const ChartLine &line : std::as_const(m_frame.lines)) {
        QLineSeries *series = c.series.value(line.member);
        if (!series) {
            series = new QLineSeries;
            c.series.insert(line.member, series);
        }
        if (*joined) {
            c.chart->addSeries(series);
            series->attachAxis(c.timeAxis);
            series->attachAxis(c.valueAxis);
            c.order.append(line.member);
            const QList<QLegendMarker *> markers = c.chart->legend()->markers(series);
            for (QLegendMarker *marker : markers)
                connect(marker, &QLegendMarker::clicked, this,
                        [this, member = line.member] { toggleSeriesVisible(member); });
        }
        setSeriesName(series, line.name);
        QPen pen(line.color);
        pen.setWidthF(line.width);
        const bool recoloured = series->pen().color() != pen.color();
        if (series->pen() != pen)
            series->setPen(pen);
        series->replace(line.points);
        const auto applied = c.hiddenApplied.constFind(line.member);
        if (!recoloured && applied != c.hiddenApplied.constEnd() && *applied == line.hidden)
            continue;
        c.hiddenApplied.insert(line.member, line.hidden);
        series->setVisible(!line.hidden);
        // A hidden series hides its legend entry too; keep the entry, dimmed, so it can be
        // clicked back on. The swatch is the line's colour (set here, it no longer follows the
        // pen by itself).
        for (QLegendMarker *marker : c.chart->legend()->markers(series)) {
            marker->setVisible(true);
            QColor labelColor = marker->labelBrush().color();
            labelColor.setAlphaF(line.hidden ? 0.35f : 1.0f);
            marker->setLabelBrush(labelColor);
            QBrush brush = marker->brush();
            QColor brushColor = line.color;
            brushColor.setAlphaF(line.hidden ? 0.25f : 1.0f);
            brush.setColor(brushColor);
            marker->setBrush(brush);
        }
    }
    if (*joined) { // the "+N more" entry stays the legend's last
        c.chart->removeSeries(c.moreEntry);
        c.chart->addSeries(c.moreEntry);
        c.moreEntry->attachAxis(c.timeAxis);
        c.moreEntry->attachAxis(c.valueAxis);
    }
}

void ChartPanel::syncPoolLines() {
    Charts &c = *m_charts;
    const ChartFrame &f = m_frame;
    setSeriesName(c.poolRate, f.rateName);
    c.poolRate->replace(f.poolRate);
    setAxis(c.rateAxis, f.rateAxis);
    // The band and its median in runs between outages, so an outage is a gap, not a diagonal.
    // In difference mode the median is the zero line every value is measured from: always shown.
    const bool zeroLine = f.mode == ValueMode::DifferenceFromMedian && !f.bandShown;
    c.bandRuns->replace(f.band, f.bandShown, zeroLine ? &f.zeroLine : nullptr);
    setSeriesName(c.band, f.bandName);
    setSeriesName(c.median, f.medianName);
    c.poolMinimum->replace(f.minimum);
    setSeriesName(c.poolMinimum, f.minimumName);
    showSeries(c.poolMinimum, f.minimumShown);
}

void ChartPanel::syncAxes() {
    Charts &c = *m_charts;
    setAxis(c.valueAxis, m_frame.values);
    const ChartTimeAxis &time = m_frame.time;
    if (c.timeAxis->format() != time.format)
        c.timeAxis->setFormat(time.format);
    if (c.timeAxis->tickCount() != time.tickCount())
        c.timeAxis->setTickCount(time.tickCount());
    if (c.timeAxis->min().toMSecsSinceEpoch() != time.fromMs ||
        c.timeAxis->max().toMSecsSinceEpoch() != time.toMs)
        c.timeAxis->setRange(QDateTime::fromMSecsSinceEpoch(time.fromMs),
                             QDateTime::fromMSecsSinceEpoch(time.toMs));
}

void ChartPanel::syncLegend() {
    Charts &c = *m_charts;
    QLegend *legend = c.chart->legend();
    if (legend->isVisible() != m_frame.legendShown) {
        legend->setVisible(m_frame.legendShown);
        // Shown again, the legend shows its entries only once the chart has laid it out, every
        // one of them, the ones hidden while it was away included: they are hidden again then.
        if (m_frame.legendShown)
            QTimer::singleShot(0, this, &ChartPanel::syncLegend);
    }
    bool changed = false;
    for (const ChartLine &line : std::as_const(m_frame.lines))
        if (QLineSeries *series = c.series.value(line.member))
            for (QLegendMarker *marker : legend->markers(series))
                if (marker->isVisible() != line.inLegend) {
                    marker->setVisible(line.inLegend);
                    changed = true;
                }
    const bool more = m_frame.legendOverflow > 0;
    changed = changed || c.moreEntry->isVisible() != more;
    showSeries(c.moreEntry, more);
    if (more) {
        setSeriesName(c.moreEntry, m_frame.legend.constLast().label);
        for (QLegendMarker *marker : legend->markers(c.moreEntry)) {
            marker->setBrush(Qt::transparent);
            marker->setPen(QPen(Qt::transparent));
        }
    }
    // A marker shown or hidden is not laid out again by the legend itself: the "+N more" entry
    // was drawn over a member's, below a gap where hidden ones had been, until a later change.
    if (changed)
        legend->layout()->invalidate();
}

} // namespace poolscope
