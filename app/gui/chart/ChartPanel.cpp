#include "chart/ChartPanel.h"

#include "ElidedLabel.h"
#include "session/ChartMath.h"
#include "session/PoolSession.h"
#include "chart/ChartParts.h"
#include "chart/MarkerChartView.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QToolButton>
#include <QPainter>
#include <QValueAxis>
#include <QVBoxLayout>

namespace poolscope {

namespace {

constexpr qint64 kFiveMinutesMs = 5 * 60 * 1000;
constexpr qint64 kMinimumSpanMs = 20 * 1000;

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
    c.timeAxis = new QDateTimeAxis;
    c.timeAxis->setFormat(QStringLiteral("HH:mm:ss"));
    c.timeAxis->setTickCount(7);
    c.timeAxis->setTitleText(QStringLiteral("time"));
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
    c.band->setName(QStringLiteral("pool min–max"));
    c.band->setColor(QColor(0x90, 0xa4, 0xae, 70));
    c.band->setBorderColor(QColor(0x90, 0xa4, 0xae, 140));
    c.median = new QLineSeries;
    c.median->setName(QStringLiteral("pool median"));
    QPen medianPen(QColor(0x54, 0x6e, 0x7a), 1.5, Qt::DashLine);
    c.median->setPen(medianPen);
    c.poolMinimum = new QLineSeries;
    c.poolMinimum->setName(QStringLiteral("pool minimum"));
    c.poolMinimum->setPen(QPen(QColor(0x37, 0x47, 0x4f), 2.0));
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
    c.poolRate->setName(tr("pool rate (/s, right axis)"));
    c.poolRate->setPen(QPen(QColor(0x42, 0x42, 0x42, 210), 2.0, Qt::DotLine));
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
    c.view->setToolTip(QStringLiteral("Click a legend entry to hide or show its line; pin members "
                                      "from the table (Ctrl+P) to keep them charted") +
                       QLatin1Char('\n') +
                       tr("In a big pool ▲ marks the most allocated members, ▼ the ones "
                          "allocated next. The dotted grey line is the pool's allocation rate "
                          "(right axis)."));

    for (const ModeItem &item : kModeItems)
        m_modeBox->addItem(QString::fromUtf8(item.label));
    m_modeBox->setToolTip(QStringLiteral(
        "Chart each member's count; its count minus the pool median at each moment (a fair pool "
        "is a flat bundle near 0, a flooded or starved member stands out); or how many "
        "allocations per second it receives"));
    buildTimeControls();
    m_caption->setToolTip(QStringLiteral("Which members the chart shows"));
    m_caption->setStyleSheet(QStringLiteral("color: palette(mid);"));
    // Neither the caption nor the mode names may set the chart's minimum width: in a small
    // window that squeezed the docks beside it (issue 12, item 19). The caption is cut instead
    // (its full text in the tooltip), the mode box shows the start of a long name.
    m_caption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_modeBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_modeBox->setMinimumContentsLength(22); // "Difference from median" whole

    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(new QLabel(QStringLiteral("Show"), this));
    controls->addWidget(m_modeBox);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(QStringLiteral("Window"), this));
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
    connect(m_session, &PoolSession::observationApplied, this, [this] {
        chooseDefaultMode();
        scheduleRefresh();
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
    // Decision (issue 11, from screenshots of the demo, a skewed pool and a restore at zero under
    // load): a pool whose members are all within kFairSpread allocations of each other at its
    // first poll (with at least two members) opens in DifferenceFromMedian mode. There its
    // cumulative lines lie on top of each other (one thick line), while the differences show each
    // member as a line of its own near 0, and a later flood (a member restored at zero sits
    // thousands below 0 and climbs back) or a starved member is the one line far from the bundle. A
    // skewed pool opens in Cumulative mode: its lines are apart already, and the counts themselves
    // are what one reads there. Decided once per pool, and never once the user (or the API) picked
    // a mode: the mode does not change under the user's eyes.
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
    if (!m_refreshTimer.isActive())
        m_refreshTimer.start();
}

void ChartPanel::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    scheduleRefresh(); // the decimation width changed
}

void ChartPanel::refreshNow() {
    m_refreshTimer.stop();
    QElapsedTimer clock;
    clock.start();
    Charts &c = *m_charts;
    const PoolHistory &history = m_session->history();

    const qint64 latest = history.latestTimeMs();
    const qint64 latestOrNow = latest > 0 ? latest : QDateTime::currentMSecsSinceEpoch();
    const qint64 span = windowSpanMs(m_window);
    // Everything: from the first point held (a recording can reach back further than a week).
    qint64 from = span > 0 ? latestOrNow - span : 0;
    qint64 to = latestOrNow;
    const bool zoomed = isZoomed();
    if (zoomed)
        std::tie(from, to) = m_zoomSteps.back();
    const int columns = std::max(200, int(c.chart->plotArea().width()));

    qsizetype known = 0;
    const QList<QByteArray> members = chooseMembers(&known);
    m_session->setChartedMembers(members); // their history keeps growing however big the pool
    const bool summaryMode =
        m_session->latestObservation() && m_session->latestObservation()->summaryMode;
    const bool difference = m_mode == ValueMode::DifferenceFromMedian;
    const bool bandWanted = (summaryMode || known > m_maxIndividual) && m_mode != ValueMode::Rate;
    const bool minimumWanted = summaryMode && m_mode != ValueMode::Rate;
    // The pool-wide band: drawn for big pools, and the median every difference is taken from.
    const QList<BandPoint> bandPoints =
        bandWanted || difference || minimumWanted ? history.band(from, to) : QList<BandPoint>();

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

    ValueRange values;
    qint64 earliest = std::numeric_limits<qint64>::max();
    QHash<QByteArray, QList<QPointF>> pointsOf;
    for (const QByteArray &member : members) {
        // A rate needs the point before the window too.
        const qint64 fetchFrom = m_mode == ValueMode::Rate ? from - 10000 : from;
        const QList<HistoryPoint> raw = history.series(member, fetchFrom, to);
        QList<QPointF> points = m_mode == ValueMode::Rate ? ratePoints(raw)
                                : difference              ? differencePoints(raw, bandPoints)
                                                          : countPoints(raw);
        if (m_mode == ValueMode::Rate)
            points.erase(std::remove_if(points.begin(), points.end(),
                                        [from](const QPointF &p) { return p.x() < double(from); }),
                         points.end());
        points = decimateMinMax(points, columns);
        if (!points.isEmpty())
            earliest = std::min(earliest, qint64(points.constFirst().x()));
        if (!m_hidden.contains(member))
            for (const QPointF &point : points)
                values.include(point.y());
        pointsOf.insert(member, std::move(points));
    }

    QList<QPointF> upper, lower, median;
    if (bandWanted || difference || minimumWanted) {
        if (difference) {
            DifferenceBand band = differenceBand(bandPoints);
            upper = std::move(band.upper);
            lower = std::move(band.lower);
            median = std::move(band.median);
        } else {
            for (const BandPoint &point : bandPoints) {
                upper.append(QPointF(double(point.timeMs), point.max));
                lower.append(QPointF(double(point.timeMs), point.min));
                median.append(QPointF(double(point.timeMs), point.median));
            }
        }
        if (bandWanted || minimumWanted)
            for (qsizetype i = 0; i < upper.size(); ++i) {
                values.include(lower[i].y());
                values.include(bandWanted ? upper[i].y() : lower[i].y());
            }
        upper = decimateMinMax(upper, columns);
        lower = decimateMinMax(lower, columns);
        median = decimateMinMax(median, columns);
        if (!upper.isEmpty() && (bandWanted || minimumWanted))
            earliest = std::min(earliest, qint64(upper.constFirst().x()));
    }
    const QList<HistoryEvent> events = history.events(from, to);
    for (const HistoryEvent &event : events)
        earliest = std::min(earliest, event.timeMs);
    // Until the window has filled up, the axis starts at the first point (at least a minute
    // wide), so a young chart uses the whole plot instead of a sliver at the right.
    // A zoomed chart shows exactly the range chosen.
    if (!zoomed && earliest != std::numeric_limits<qint64>::max())
        from = std::max(from, std::min(earliest, to - kMinimumSpanMs));
    else if (!zoomed)
        from = to - kMinimumSpanMs; // nothing to show: not an empty week

    // The legend lists series in the order they were added: when a member joins, add them all
    // again in the chosen order (natural, or rank within top and bottom), so a new member does
    // not land at the end. Only then: a rank change alone must not rebuild the legend each poll.
    const bool joined = std::any_of(members.cbegin(), members.cend(),
                                    [&c](const QByteArray &m) { return !c.series.contains(m); });
    if (joined && !c.order.isEmpty()) {
        for (const QByteArray &member : std::as_const(c.order))
            c.chart->removeSeries(c.series.value(member)); // the chart gives it back to us
        c.order.clear();
        c.hiddenApplied.clear(); // the legend markers are new
    }
    for (const QByteArray &member : members) {
        QLineSeries *series = c.series.value(member);
        if (!series) {
            series = new QLineSeries;
            c.series.insert(member, series);
        }
        if (joined) {
            c.chart->addSeries(series);
            series->attachAxis(c.timeAxis);
            series->attachAxis(c.valueAxis);
            c.order.append(member);
            const QList<QLegendMarker *> markers = c.chart->legend()->markers(series);
            for (QLegendMarker *marker : markers)
                connect(marker, &QLegendMarker::clicked, this,
                        [this, member] { toggleSeriesVisible(member); });
        }
        // Credentials masked unless shown (the toggle renames every series on the next refresh).
        // Above the individual limit the legend says which lines are the top and which the
        // bottom members.
        QString name = m_session->displayMember(member);
        if (m_topMembers.contains(member) && !m_session->isPinned(member))
            name = tr("▲ %1").arg(name);
        else if (m_bottomMembers.contains(member) && !m_session->isPinned(member))
            name = tr("▼ %1").arg(name);
        if (series->name() != name)
            series->setName(name);
        QPen pen(m_session->colors().colorFor(member));
        pen.setWidthF(m_session->isPinned(member) ? 2.6 : 1.6);
        const bool recoloured = series->pen().color() != pen.color();
        if (series->pen() != pen)
            series->setPen(pen);
        series->replace(pointsOf.value(member));
        const bool hidden = m_hidden.contains(member);
        const auto applied = c.hiddenApplied.constFind(member);
        if (!recoloured && applied != c.hiddenApplied.constEnd() && *applied == hidden)
            continue;
        c.hiddenApplied.insert(member, hidden);
        series->setVisible(!hidden);
        // A hidden series hides its legend entry too; keep the entry, dimmed, so it can be
        // clicked back on. The swatch is the line's colour (set here, it no longer follows the
        // pen by itself).
        for (QLegendMarker *marker : c.chart->legend()->markers(series)) {
            marker->setVisible(true);
            QColor labelColor = marker->labelBrush().color();
            labelColor.setAlphaF(hidden ? 0.35f : 1.0f);
            marker->setLabelBrush(labelColor);
            QBrush brush = marker->brush();
            QColor brushColor = pen.color();
            brushColor.setAlphaF(hidden ? 0.25f : 1.0f);
            brush.setColor(brushColor);
            marker->setBrush(brush);
        }
    }

    if (joined) { // the "+N more" entry stays the legend's last
        c.chart->removeSeries(c.moreEntry);
        c.chart->addSeries(c.moreEntry);
        c.moreEntry->attachAxis(c.timeAxis);
        c.moreEntry->attachAxis(c.valueAxis);
    }

    updatePoolRate(from, to, columns, summaryMode);

    // The band and its median in runs between outages, so an outage is a gap, not a diagonal.
    c.bandRuns->replace(bandWanted ? upper : QList<QPointF>(),
                        bandWanted ? lower : QList<QPointF>(),
                        bandWanted ? median : QList<QPointF>(), bandWanted);
    // In difference mode the median is the zero line every value is measured from: always shown
    // (a flat line at 0 needs no break at an outage).
    if (difference && !bandWanted) {
        c.median->replace(median);
        c.median->setVisible(true);
    }
    // The pool as it is now, not every member it ever had (the chart keeps those who left).
    const auto &observation = m_session->latestObservation();
    const qsizetype poolSize = observation ? qsizetype(observation->stats.size) : known;
    c.band->setName(
        difference ? QStringLiteral("pool min–max − median (%1)").arg(QLocale().toString(poolSize))
                   : QStringLiteral("pool min–max (%1)").arg(QLocale().toString(poolSize)));
    c.median->setName(difference ? QStringLiteral("pool median (0)")
                                 : QStringLiteral("pool median"));
    c.poolMinimum->replace(minimumWanted ? lower : QList<QPointF>());
    c.poolMinimum->setName(difference ? QStringLiteral("pool minimum − median")
                                      : QStringLiteral("pool minimum"));
    c.poolMinimum->setVisible(minimumWanted);
    if (difference) // the zero line belongs on the chart even when every value is above it
        values.include(0);
    updateAxes(values, from, to);
    const qint64 axisFrom = c.timeAxis->min().toMSecsSinceEpoch();
    const qint64 axisTo = c.timeAxis->max().toMSecsSinceEpoch();
    m_shownFromMs = axisFrom; // the time range on the axis, for the export title
    m_shownToMs = axisTo;

    QList<ChartMarker> markers;
    for (const HistoryEvent &event : events)
        if (event.timeMs >= from)
            markers.append({event.timeMs, event.kind, m_session->displayText(event.label)});
    c.view->setMarkers(markers, axisFrom, axisTo);

    bool anyPoints = std::any_of(pointsOf.cbegin(), pointsOf.cend(),
                                 [](const QList<QPointF> &points) { return !points.isEmpty(); });
    anyPoints = anyPoints || !upper.isEmpty();
    QString placeholder;
    if (!anyPoints) {
        if (!m_session->hasTarget())
            placeholder = QStringLiteral("Not connected");
        else if (m_session->state() == ConnectionState::Reconnecting)
            placeholder = QStringLiteral("No connection to Redis: retrying…");
        else if (m_session->state() == ConnectionState::Disconnected &&
                 !m_session->latestObservation() && !m_session->pollFailure().isEmpty())
            placeholder = QStringLiteral("Not connected (the events panel says why)");
        else if (!m_session->latestObservation() && !m_session->pollFailure().isEmpty())
            placeholder =
                QStringLiteral("Reading the pool fails: %1").arg(m_session->pollFailure());
        else if (!m_session->latestObservation())
            placeholder = QStringLiteral("Waiting for the first poll…");
        else if (!summaryMode && m_session->latestObservation()->snapshot.members.isEmpty())
            placeholder = QStringLiteral("No pool at this key yet: Seed… to add proxies");
        else
            placeholder = QStringLiteral("Collecting data…");
    }
    c.view->setPlaceholder(placeholder);
    updateLegend();
    fitLegend(members);
    // New legend entries are laid out (and shown) by the legend on the next turn of the event
    // loop: fit them again after that.
    if (joined)
        QTimer::singleShot(0, this, [this, members] { fitLegend(members); });
    updateCaption(poolSize, members);
    ++m_refreshCount;
    m_lastRefreshMs = double(clock.nsecsElapsed()) / 1e6;
    Q_EMIT refreshed();
}

void ChartPanel::updatePoolRate(qint64 from, qint64 to, int columns, bool summaryMode) {
    Charts &c = *m_charts;
    // What this session counted, poll by poll; before that (and in a recording) the rise of the
    // recorded sum of the counts. A big pool's recorded sum comes from a slow scan: not a rate.
    const qint64 fetchFrom = from - 10000; // a rate needs the point before the window
    const QList<HistoryPoint> counted = m_session->countedAllocations(fetchFrom, to);
    const qint64 countedFrom = counted.isEmpty() ? to + 1 : counted.constFirst().timeMs;
    QList<QPointF> points;
    if (countedFrom > from && !summaryMode) {
        points = ratePoints(m_session->history().totalSeries(fetchFrom, countedFrom - 1));
        if (!points.isEmpty() && !counted.isEmpty()) // not joined across the seam
            points.append(QPointF(double(countedFrom), std::numeric_limits<double>::quiet_NaN()));
    }
    points += ratePoints(counted);
    points.erase(std::remove_if(points.begin(), points.end(),
                                [from](const QPointF &p) { return p.x() < double(from); }),
                 points.end());
    points = decimateMinMax(points, columns);
    double highest = 0;
    for (const QPointF &point : std::as_const(points))
        if (std::isfinite(point.y()))
            highest = std::max(highest, point.y());
    c.poolRate->replace(points);
    // A steady rate sits high on its axis (at 3/4 or more), clear of a difference chart's zero
    // line in the middle; the top is a round number (applyNiceNumbers would double it).
    double top = 1.0;
    if (highest > 0) {
        const double wanted = highest * 1.25;
        const double power = std::pow(10.0, std::floor(std::log10(wanted)));
        for (const double step : {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
            if (step * power >= wanted) {
                top = step * power;
                break;
            }
    }
    c.rateAxis->setRange(0, top);
    c.rateAxis->setLabelFormat(highest >= 10 ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
}

void ChartPanel::updateCaption(qsizetype known, const QList<QByteArray> &charted) {
    QString text;
    if (known == 0)
        text = QString();
    else if (known <= m_maxIndividual && !m_session->isSummaryMode())
        text = QStringLiteral("%1 members").arg(known);
    else if (m_session->isSummaryMode())
        text = QStringLiteral("%1 members (summary): top %2, %3 pinned%4")
                   .arg(QLocale().toString(known))
                   .arg(kEdgeMembers)
                   .arg(m_session->pins().size())
                   .arg(m_mode != ValueMode::Rate
                            ? QStringLiteral(", the bottom as the pool minimum line + band")
                            : QString());
    else
        text = QStringLiteral("%1 members: top %2, bottom %2, %3 pinned%4")
                   .arg(QLocale().toString(known))
                   .arg(kEdgeMembers)
                   .arg(m_session->pins().size())
                   .arg(m_mode != ValueMode::Rate ? QStringLiteral(" + min/median/max band")
                                                  : QString());
    const auto hidden = std::count_if(charted.cbegin(), charted.cend(),
                                      [this](const QByteArray &m) { return m_hidden.contains(m); });
    if (hidden > 0)
        text += QStringLiteral(" · %1 hidden").arg(hidden);
    if (isZoomed())
        text += QStringLiteral(" · zoomed in: Esc or a right click to zoom out");
    if (known > 0 && !m_charts->chart->legend()->isVisible())
        text += QStringLiteral(" · legend hidden (narrow): colours as in the table");
    m_caption->setFullText(text);
    if (text.isEmpty())
        m_caption->setToolTip(tr("Which members the chart shows"));
}

} // namespace poolscope
