#include "chart/ChartPanel.h"

#include "session/ChartMath.h"
#include "session/PoolSession.h"
#include "chart/BandRuns.h"
#include "chart/MarkerChartView.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
#include <QPainter>
#include <QValueAxis>
#include <QVBoxLayout>

namespace poolscope {

namespace {

constexpr qint64 kFiveMinutesMs = 5 * 60 * 1000;
constexpr qint64 kHourMs = 60 * 60 * 1000;
constexpr qint64 kWeekMs = 7 * 24 * kHourMs;
constexpr qint64 kMinimumSpanMs = 20 * 1000;

// A round tick interval that gives at most 7 intervals over the span.
qint64 niceTimeStep(qint64 spanMs) {
    static constexpr qint64 kSteps[] = {1,     2,     5,     10,    15,     30,    60,
                                        120,   300,   600,   900,   1800,   3600,  7200,
                                        10800, 21600, 43200, 86400, 172800, 604800};
    for (qint64 seconds : kSteps)
        if (spanMs <= 7 * seconds * 1000)
            return seconds * 1000;
    return 604800 * 1000;
}

} // namespace

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
    std::unique_ptr<BandRuns> bandRuns; // the band and median broken at outages
};

ChartPanel::ChartPanel(PoolSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_charts(std::make_unique<Charts>())
    , m_modeBox(new QComboBox(this))
    , m_windowBox(new QComboBox(this))
    , m_caption(new QLabel(this)) {
    Charts &c = *m_charts;
    c.chart = new QChart;
    c.chart->setAnimationOptions(QChart::NoAnimation);
    c.chart->setBackgroundRoundness(0);
    c.chart->setMargins(QMargins(4, 4, 4, 4));
    c.chart->legend()->setAlignment(Qt::AlignRight);
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
    for (QAbstractSeries *series :
         {static_cast<QAbstractSeries *>(c.band), static_cast<QAbstractSeries *>(c.median)}) {
        c.chart->addSeries(series);
        series->attachAxis(c.timeAxis);
        series->attachAxis(c.valueAxis);
        series->setVisible(false);
    }
    c.bandRuns = std::make_unique<BandRuns>(c.chart, c.band, c.median, c.timeAxis, c.valueAxis);

    c.view = new MarkerChartView(c.chart, this);
    c.view->setRenderHint(QPainter::Antialiasing, true);
    c.view->setMinimumSize(320, 200);
    c.view->setToolTip(QStringLiteral("Click a legend entry to hide or show its line; pin members "
                                      "from the table (Ctrl+P) to keep them charted"));

    m_modeBox->addItem(QStringLiteral("Cumulative count"));
    m_modeBox->addItem(QStringLiteral("Rate (allocations/s)"));
    m_modeBox->setToolTip(QStringLiteral("Chart each member's count, or how many allocations per "
                                         "second it receives"));
    m_windowBox->addItem(QStringLiteral("Last 5 min"));
    m_windowBox->addItem(QStringLiteral("Last hour"));
    m_windowBox->addItem(QStringLiteral("Everything"));
    m_windowBox->setToolTip(QStringLiteral("Time window of the chart (history is kept for up to a "
                                           "week, coarser for older data)"));
    m_caption->setToolTip(QStringLiteral("Which members the chart shows"));
    m_caption->setStyleSheet(QStringLiteral("color: palette(mid);"));

    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(new QLabel(QStringLiteral("Show"), this));
    controls->addWidget(m_modeBox);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(QStringLiteral("Window"), this));
    controls->addWidget(m_windowBox);
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
    connect(m_modeBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        setValueMode(index == 1 ? ValueMode::Rate : ValueMode::Cumulative);
    });
    connect(m_windowBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        setTimeWindow(index == 1   ? TimeWindow::OneHour
                      : index == 2 ? TimeWindow::Everything
                                   : TimeWindow::FiveMinutes);
    });
    connect(m_session, &PoolSession::observationApplied, this, &ChartPanel::scheduleRefresh);
    connect(m_session, &PoolSession::historyEventAdded, this, &ChartPanel::scheduleRefresh);
    connect(m_session, &PoolSession::stateChanged, this, &ChartPanel::scheduleRefresh);
    connect(m_session, &PoolSession::targetChanged, this, [this] {
        m_hidden.clear(); // hidden lines belong to the pool they were hidden in
        scheduleRefresh();
    });
    connect(m_session, &PoolSession::pollFailed, this, &ChartPanel::scheduleRefresh);
    connect(m_session, &PoolSession::credentialsShownChanged, this, &ChartPanel::scheduleRefresh);
    scheduleRefresh();
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::setValueMode(ValueMode mode) {
    if (mode == m_mode)
        return;
    m_mode = mode;
    m_modeBox->setCurrentIndex(mode == ValueMode::Rate ? 1 : 0);
    m_charts->valueAxis->setLabelFormat(mode == ValueMode::Rate ? QStringLiteral("%.1f")
                                                                : QStringLiteral("%.0f"));
    scheduleRefresh();
}

void ChartPanel::setTimeWindow(TimeWindow window) {
    if (window == m_window)
        return;
    m_window = window;
    m_windowBox->setCurrentIndex(window == TimeWindow::OneHour      ? 1
                                 : window == TimeWindow::Everything ? 2
                                                                    : 0);
    scheduleRefresh();
}

void ChartPanel::setMaxIndividualSeries(int count) {
    m_maxIndividual = std::max(1, count);
    scheduleRefresh();
}

void ChartPanel::pinMembers(const QList<QByteArray> &members) {
    for (const QByteArray &member : members)
        m_pinned.insert(member);
    m_session->setPinnedMembers(pinnedMembers()); // history, and the poller in summary mode
    Q_EMIT pinnedMembersChanged(pinnedMembers());
    scheduleRefresh();
}

void ChartPanel::unpinMembers(const QList<QByteArray> &members) {
    for (const QByteArray &member : members)
        m_pinned.remove(member);
    m_session->setPinnedMembers(pinnedMembers()); // history, and the poller in summary mode
    Q_EMIT pinnedMembersChanged(pinnedMembers());
    scheduleRefresh();
}

void ChartPanel::togglePinned(const QList<QByteArray> &members) {
    const bool allPinned = std::all_of(members.cbegin(), members.cend(),
                                       [this](const auto &m) { return m_pinned.contains(m); });
    if (allPinned)
        unpinMembers(members);
    else
        pinMembers(members);
}

QList<QByteArray> ChartPanel::pinnedMembers() const {
    QList<QByteArray> members(m_pinned.cbegin(), m_pinned.cend());
    std::sort(members.begin(), members.end());
    return members;
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

QList<QByteArray> ChartPanel::chooseMembers(qsizetype *knownCount) {
    if (const auto &observation = m_session->latestObservation();
        observation && observation->summaryMode)
        return chooseSummaryMembers(*observation, knownCount);
    const QList<QByteArray> known = m_session->history().trackedMembers();
    // A pool too big for the history to record whole has fewer tracked members than members.
    const auto &latest = m_session->latestObservation();
    *knownCount = std::max<qsizetype>(known.size(), latest ? latest->snapshot.members.size() : 0);
    if (*knownCount <= m_maxIndividual) {
        QList<QByteArray> all = known;
        std::sort(all.begin(), all.end());
        return all;
    }
    // Top and bottom by the latest counts (the snapshot is in allocation order), plus the pinned.
    // Sticky: a charted member is only replaced by one that is more extreme by more than one
    // allocation, so a fair pool (counts within 1 of each other) keeps its lines and legend
    // instead of swapping them on every poll, while a real outlier enters at once.
    QList<QByteArray> chosen;
    QSet<QByteArray> seen;
    const auto add = [&](const QByteArray &member) {
        if (!seen.contains(member)) {
            seen.insert(member);
            chosen.append(member);
        }
    };
    QSet<QByteArray> top;
    QSet<QByteArray> bottom;
    if (const auto &observation = m_session->latestObservation()) {
        const QList<PoolMember> &members = observation->snapshot.members;
        const qsizetype n = members.size();
        const qsizetype edge = std::min<qsizetype>(kEdgeMembers, n / 2);
        // Counts of the members in play only: the previous picks (one pass over the pool with a
        // lookup in a set of ten) and the candidates taken from the ends. A hash of all 10,000
        // counts on every refresh cost the GUI thread milliseconds.
        QHash<QByteArray, double> countOf;
        for (const PoolMember &member : members)
            if (m_topMembers.contains(member.member) || m_bottomMembers.contains(member.member))
                countOf.insert(member.member, member.count);
        const auto pickEnd = [&](bool highest, const QSet<QByteArray> &previous,
                                 const QSet<QByteArray> &taken) {
            // sign > 0: more extreme means a higher count.
            const double sign = highest ? 1.0 : -1.0;
            QSet<QByteArray> picked;
            for (const QByteArray &member : previous)
                if (countOf.contains(member) && !taken.contains(member))
                    picked.insert(member);
            const auto memberAt = [&](qsizetype i) -> const PoolMember & {
                return members[highest ? n - 1 - i : i];
            };
            for (qsizetype i = 0; i < n && picked.size() < edge; ++i)
                if (!taken.contains(memberAt(i).member)) {
                    picked.insert(memberAt(i).member);
                    countOf.insert(memberAt(i).member, memberAt(i).count);
                }
            while (picked.size() > edge) // the pool shrank
                picked.erase(picked.begin());
            for (qsizetype i = 0; i < n; ++i) {
                const PoolMember &candidate = memberAt(i);
                if (picked.contains(candidate.member) || taken.contains(candidate.member))
                    continue;
                auto weakest = picked.end();
                for (auto it = picked.begin(); it != picked.end(); ++it)
                    if (weakest == picked.end() ||
                        sign * countOf.value(*it) < sign * countOf.value(*weakest))
                        weakest = it;
                if (weakest == picked.end() ||
                    sign * (candidate.count - countOf.value(*weakest)) <= 1.0)
                    break; // candidates only get less extreme from here
                picked.erase(weakest);
                picked.insert(candidate.member);
                countOf.insert(candidate.member, candidate.count);
            }
            return picked;
        };
        top = pickEnd(true, m_topMembers, {});
        bottom = pickEnd(false, m_bottomMembers, top);
        // Chart them in rank order, highest first, so the legend reads like the table. Redis
        // orders equal counts by member, so (count, member) descending is the rank order reversed.
        const auto byRankDescending = [&](const QSet<QByteArray> &set) {
            QList<QByteArray> ordered(set.cbegin(), set.cend());
            std::sort(ordered.begin(), ordered.end(),
                      [&](const QByteArray &a, const QByteArray &b) {
                          const double countA = countOf.value(a);
                          const double countB = countOf.value(b);
                          return countA != countB ? countA > countB : a > b;
                      });
            return ordered;
        };
        for (const QByteArray &member : byRankDescending(top))
            add(member);
        for (const QByteArray &member : byRankDescending(bottom))
            add(member);
    }
    m_topMembers = top;
    m_bottomMembers = bottom;
    for (const QByteArray &member : pinnedMembers())
        add(member);
    return chosen;
}

QList<QByteArray> ChartPanel::chooseSummaryMembers(const PoolObservation &observation,
                                                   qsizetype *knownCount) {
    // A big pool: the poller read its top and bottom members (and the pinned ones) by rank.
    const PoolSummary &summary = observation.summary;
    *knownCount = summary.size;
    QList<QByteArray> chosen;
    QSet<QByteArray> top;
    QSet<QByteArray> bottom;
    const auto add = [&](const QByteArray &member, QSet<QByteArray> *set) {
        if (chosen.contains(member))
            return;
        chosen.append(member);
        if (set)
            set->insert(member);
    };
    // Highest first, so the legend reads like the table upside down: top, then bottom.
    for (qsizetype i = 0; i < std::min<qsizetype>(kEdgeMembers, summary.top.size()); ++i)
        add(summary.top[i].member, &top);
    const qsizetype bottomCount = std::min<qsizetype>(kEdgeMembers, summary.bottom.size());
    for (qsizetype i = bottomCount - 1; i >= 0; --i)
        add(summary.bottom[i].member, &bottom);
    m_topMembers = top;
    m_bottomMembers = bottom;
    for (const QByteArray &member : pinnedMembers())
        add(member, nullptr);
    return chosen;
}

void ChartPanel::refreshNow() {
    m_refreshTimer.stop();
    QElapsedTimer clock;
    clock.start();
    Charts &c = *m_charts;
    const PoolHistory &history = m_session->history();

    const qint64 latest = history.latestTimeMs();
    const qint64 to = latest > 0 ? latest : QDateTime::currentMSecsSinceEpoch();
    const qint64 span = m_window == TimeWindow::FiveMinutes ? kFiveMinutesMs
                        : m_window == TimeWindow::OneHour   ? kHourMs
                                                            : kWeekMs;
    qint64 from = to - span;
    const int columns = std::max(200, int(c.chart->plotArea().width()));

    qsizetype known = 0;
    const QList<QByteArray> members = chooseMembers(&known);
    m_session->setChartedMembers(members); // their history keeps growing however big the pool
    const bool summaryMode =
        m_session->latestObservation() && m_session->latestObservation()->summaryMode;
    const bool bandWanted =
        (summaryMode || known > m_maxIndividual) && m_mode == ValueMode::Cumulative;

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
        QList<QPointF> points = m_mode == ValueMode::Rate ? ratePoints(raw) : countPoints(raw);
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
    if (bandWanted) {
        for (const BandPoint &point : history.band(from, to)) {
            upper.append(QPointF(double(point.timeMs), point.max));
            lower.append(QPointF(double(point.timeMs), point.min));
            median.append(QPointF(double(point.timeMs), point.median));
            values.include(point.min);
            values.include(point.max);
        }
        upper = decimateMinMax(upper, columns);
        lower = decimateMinMax(lower, columns);
        median = decimateMinMax(median, columns);
        if (!upper.isEmpty())
            earliest = std::min(earliest, qint64(upper.constFirst().x()));
    }
    const QList<HistoryEvent> events = history.events(from, to);
    for (const HistoryEvent &event : events)
        earliest = std::min(earliest, event.timeMs);
    // Until the window has filled up, the axis starts at the first point (at least a minute
    // wide), so a young chart uses the whole plot instead of a sliver at the right.
    if (earliest != std::numeric_limits<qint64>::max())
        from = std::max(from, std::min(earliest, to - kMinimumSpanMs));
    else
        from = to - kMinimumSpanMs; // nothing to show: not an empty week

    for (const QByteArray &member : members) {
        QLineSeries *series = c.series.value(member);
        if (!series) {
            series = new QLineSeries;
            c.chart->addSeries(series);
            series->attachAxis(c.timeAxis);
            series->attachAxis(c.valueAxis);
            c.series.insert(member, series);
            c.order.append(member);
            const QList<QLegendMarker *> markers = c.chart->legend()->markers(series);
            for (QLegendMarker *marker : markers)
                connect(marker, &QLegendMarker::clicked, this,
                        [this, member] { toggleSeriesVisible(member); });
        }
        // Credentials masked unless shown (the toggle renames every series on the next refresh).
        const QString name = m_session->displayMember(member);
        if (series->name() != name)
            series->setName(name);
        QPen pen(m_session->colors().colorFor(member));
        pen.setWidthF(m_pinned.contains(member) ? 2.6 : 1.6);
        if (series->pen() != pen)
            series->setPen(pen);
        series->replace(pointsOf.value(member));
        const bool hidden = m_hidden.contains(member);
        const auto applied = c.hiddenApplied.constFind(member);
        if (applied != c.hiddenApplied.constEnd() && *applied == hidden)
            continue;
        c.hiddenApplied.insert(member, hidden);
        series->setVisible(!hidden);
        // A hidden series hides its legend entry too; keep the entry, dimmed, so it can be
        // clicked back on.
        for (QLegendMarker *marker : c.chart->legend()->markers(series)) {
            marker->setVisible(true);
            QColor labelColor = marker->labelBrush().color();
            labelColor.setAlphaF(hidden ? 0.35f : 1.0f);
            marker->setLabelBrush(labelColor);
            QBrush brush = marker->brush();
            QColor brushColor = brush.color();
            brushColor.setAlphaF(hidden ? 0.25f : 1.0f);
            brush.setColor(brushColor);
            marker->setBrush(brush);
        }
    }

    c.bandRuns->replace(upper, lower, median, bandWanted);
    // The pool as it is now, not every member it ever had (the chart keeps those who left).
    const auto &observation = m_session->latestObservation();
    const qsizetype poolSize = observation ? qsizetype(observation->stats.size) : known;
    c.band->setName(QStringLiteral("pool min–max (%1)").arg(QLocale().toString(poolSize)));

    const ValueRange range = paddedRange(values);
    c.valueAxis->setTickCount(6);
    c.valueAxis->setRange(range.low, range.high);
    c.valueAxis->applyNiceNumbers(); // round labels; widens the range a little at most
    c.valueAxis->setTitleText(m_mode == ValueMode::Rate ? QStringLiteral("allocations/s")
                                                        : QStringLiteral("allocations (count)"));
    // Ticks on round times: the axis spans whole steps and has a tick at each.
    const qint64 step = niceTimeStep(to - from);
    const qint64 axisFrom = from / step * step;
    const qint64 axisTo = std::max(axisFrom + step, (to + step - 1) / step * step);
    c.timeAxis->setFormat(step >= 24 * kHourMs ? QStringLiteral("dd MMM")
                          : step >= kHourMs    ? QStringLiteral("dd MMM HH:mm")
                          : step >= 60000      ? QStringLiteral("HH:mm")
                                               : QStringLiteral("HH:mm:ss"));
    c.timeAxis->setTickCount(int((axisTo - axisFrom) / step) + 1);
    c.timeAxis->setRange(QDateTime::fromMSecsSinceEpoch(axisFrom),
                         QDateTime::fromMSecsSinceEpoch(axisTo));

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
    updateCaption(poolSize, members);
    ++m_refreshCount;
    m_lastRefreshMs = double(clock.nsecsElapsed()) / 1e6;
    Q_EMIT refreshed();
}

void ChartPanel::updateCaption(qsizetype known, const QList<QByteArray> &charted) {
    QString text;
    if (known == 0)
        text = QString();
    else if (known <= m_maxIndividual && !m_session->isSummaryMode())
        text = QStringLiteral("%1 members").arg(known);
    else
        text = QStringLiteral("%1 members%5: top %2, bottom %2, %3 pinned%4")
                   .arg(QLocale().toString(known))
                   .arg(kEdgeMembers)
                   .arg(m_pinned.size())
                   .arg(m_mode == ValueMode::Cumulative ? QStringLiteral(" + min/median/max band")
                                                        : QString(),
                        m_session->isSummaryMode() ? QStringLiteral(" (summary)") : QString());
    const auto hidden = std::count_if(charted.cbegin(), charted.cend(),
                                      [this](const QByteArray &m) { return m_hidden.contains(m); });
    if (hidden > 0)
        text += QStringLiteral(" · %1 hidden").arg(hidden);
    m_caption->setText(text);
}

QList<QByteArray> ChartPanel::chartedMembers() const {
    return m_charts->order;
}

bool ChartPanel::isBandShown() const {
    return m_charts->band->isVisible();
}

QStringList ChartPanel::markerLabels() const {
    QStringList labels;
    for (const ChartMarker &marker : m_charts->view->markers())
        labels.append(marker.label);
    return labels;
}

QStringList ChartPanel::seriesNames() const {
    QStringList names;
    for (const QByteArray &member : m_charts->order)
        if (const QLineSeries *series = m_charts->series.value(member))
            names.append(series->name());
    return names;
}

qsizetype ChartPanel::pointCount(const QByteArray &member) const {
    const QLineSeries *series = m_charts->series.value(member);
    return series ? series->count() : 0;
}

double ChartPanel::lastValue(const QByteArray &member) const {
    const QLineSeries *series = m_charts->series.value(member);
    if (!series || series->count() == 0)
        return std::numeric_limits<double>::quiet_NaN();
    return series->at(series->count() - 1).y();
}

QString ChartPanel::captionText() const {
    return m_caption->text();
}

QString ChartPanel::bandName() const {
    return m_charts->band->name();
}

int ChartPanel::bandAreaCount() const {
    return m_charts->bandRuns->areaCount();
}

qint64 ChartPanel::timeAxisSpanMs() const {
    return m_charts->timeAxis->min().msecsTo(m_charts->timeAxis->max());
}

QString ChartPanel::placeholderText() const {
    return m_charts->view->placeholder();
}

QPixmap ChartPanel::grabChart() {
    if (m_refreshTimer.isActive())
        refreshNow();
    return m_charts->view->grab();
}

bool ChartPanel::saveImage(const QString &path) {
    return grabChart().save(path, "PNG");
}

} // namespace poolscope
