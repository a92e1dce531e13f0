#include "session/ChartFrame.h"

#include "session/ChartMath.h"
#include "session/ChartMembers.h"
#include "session/MemberColors.h"
#include "session/PoolSession.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

namespace poolscope {

namespace {

// The context lupdate gives the texts of this file.
struct ChartText {
    Q_DECLARE_TR_FUNCTIONS(poolscope::ChartFrame)
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr qint64 kMinimumSpanMs = 20 * 1000; // a young chart's axis is at least this wide
constexpr qint64 kRateLookBackMs = 10000;    // a rate needs the point before the window
constexpr qsizetype kMaxBandRuns = 32;       // past this, the oldest runs share one area

void dropBefore(QList<QPointF> &points, qint64 fromMs) {
    points.erase(std::remove_if(points.begin(), points.end(),
                                [fromMs](const QPointF &p) { return p.x() < double(fromMs); }),
                 points.end());
}

// Points in the middle of a stretch where the upper edge, the lower edge and the median all stay
// the same: the band is drawn the same without them, with fewer edges to rasterise.
void dropFlatPoints(ChartBandRun &run) {
    const qsizetype n = run.upper.size();
    if (n < 3)
        return;
    ChartBandRun kept;
    const auto same = [&](qsizetype a, qsizetype b) {
        return run.upper[a].y() == run.upper[b].y() && run.lower[a].y() == run.lower[b].y() &&
               run.median[a].y() == run.median[b].y();
    };
    for (qsizetype i = 0; i < n; ++i) {
        if (i > 0 && i + 1 < n && same(i - 1, i) && same(i, i + 1))
            continue;
        kept.upper.append(run.upper[i]);
        kept.lower.append(run.lower[i]);
        kept.median.append(run.median[i]);
    }
    run = std::move(kept);
}

// The band's envelope per bucket of bucketMs: at the last point of each bucket (and at the run's
// first), the highest upper and the lowest lower edge of the points within a bucket's width
// before it, with the median as it is there. A band that flips at every poll is drawn as the area
// the flips cover, a polygon of a few hundred short edges instead of hundreds of spikes across
// the plot (which cost the raster engine more than all the rest of the window). A run too short
// to see is widened to a bucket.
QList<ChartBandRun> envelopeRuns(const QList<QPointF> &upper, const QList<QPointF> &lower,
                                 const QList<QPointF> &median, double bucketMs) {
    QList<ChartBandRun> runs;
    const auto broken = [&](qsizetype i) {
        return std::isnan(upper[i].y()) || std::isnan(lower[i].y());
    };
    qsizetype i = 0;
    while (i < upper.size()) {
        if (broken(i)) {
            ++i;
            continue;
        }
        qsizetype end = i;
        while (end < upper.size() && !broken(end))
            ++end;
        ChartBandRun run;
        const auto addAt = [&](qsizetype at) {
            double high = upper[at].y();
            double low = lower[at].y();
            for (qsizetype k = at - 1; k >= i && upper[k].x() >= upper[at].x() - bucketMs; --k) {
                high = std::max(high, upper[k].y());
                low = std::min(low, lower[k].y());
            }
            run.upper.append(QPointF(upper[at].x(), high));
            run.lower.append(QPointF(upper[at].x(), low));
            run.median.append(median[at]);
        };
        addAt(i); // the run starts where its data starts
        for (qsizetype k = i + 1; k < end - 1; ++k)
            if (std::floor(upper[k + 1].x() / bucketMs) != std::floor(upper[k].x() / bucketMs))
                addAt(k);  // the last point of its bucket
        if (end - 1 > i) { // and it ends at the latest poll as it is
            run.upper.append(upper[end - 1]);
            run.lower.append(lower[end - 1]);
            run.median.append(median[end - 1]);
        }
        const double first = run.upper.constFirst().x();
        const double last = run.upper.constLast().x();
        if (last - first < bucketMs) { // one poll, or a few within a pixel: a narrow block
            const double middle = (first + last) / 2;
            const auto widen = [&](QList<QPointF> &edge, double value) {
                edge = {{middle - bucketMs / 2, value}, {middle + bucketMs / 2, value}};
            };
            widen(run.upper, run.upper.constLast().y());
            widen(run.lower, run.lower.constLast().y());
            widen(run.median, run.median.constLast().y());
        }
        dropFlatPoints(run);
        runs.append(std::move(run));
        i = end;
    }
    while (runs.size() > kMaxBandRuns) { // the oldest runs share one area
        runs[1].upper = runs[0].upper + runs[1].upper;
        runs[1].lower = runs[0].lower + runs[1].lower;
        runs[1].median = runs[0].median + runs[1].median;
        runs.removeFirst();
    }
    return runs;
}

// The runs joined again, a line break (NaN) between two.
QList<QPointF> joinRuns(const QList<ChartBandRun> &runs, QList<QPointF> ChartBandRun::*part) {
    QList<QPointF> joined;
    for (const ChartBandRun &run : runs) {
        if (!joined.isEmpty())
            joined.append(QPointF((run.*part).constFirst().x(), kNaN));
        joined += run.*part;
    }
    return joined;
}

// Points of runs (between line breaks) that draw no visible line: a run of one point, or one
// narrower and flatter than kDotPixels.
QList<QPointF> lonePoints(const QList<QPointF> &points, double msPerPixel, double valuePerPixel) {
    QList<QPointF> dots;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= points.size(); ++i) {
        if (i < points.size() && !std::isnan(points[i].y()))
            continue;
        if (i > start) {
            double low = points[start].y();
            double high = low;
            for (qsizetype k = start; k < i; ++k) {
                low = std::min(low, points[k].y());
                high = std::max(high, points[k].y());
            }
            const double wide = (points[i - 1].x() - points[start].x()) / msPerPixel;
            const double tall = (high - low) / valuePerPixel;
            if (wide < kDotPixels && tall < kDotPixels)
                dots.append(points[i - 1]);
        }
        start = i + 1;
    }
    return dots;
}

// The pool's allocation rate: what this session counted poll by poll; before that (and in a
// recording) the rise of the recorded sum of the counts. A big pool's recorded sum comes from a
// slow scan: not a rate.
QList<QPointF> poolRatePoints(const ChartSource &source, qint64 from, qint64 to, bool summary) {
    const qint64 fetchFrom = from - kRateLookBackMs;
    const QList<HistoryPoint> counted = source.countedAllocations
                                            ? source.countedAllocations(fetchFrom, to)
                                            : QList<HistoryPoint>();
    const qint64 countedFrom = counted.isEmpty() ? to + 1 : counted.constFirst().timeMs;
    QList<QPointF> points;
    if (countedFrom > from && !summary) {
        points = ratePoints(source.history->totalSeries(fetchFrom, countedFrom - 1));
        if (!points.isEmpty() && !counted.isEmpty()) // not joined across the seam
            points.append(QPointF(double(countedFrom), kNaN));
    }
    points += ratePoints(counted);
    dropBefore(points, from);
    return points;
}

// The rate axis' top: a round number a steady rate sits high under (at 3/4 or more), clear of
// a difference chart's zero line in the middle.
ChartValueAxis rateAxisFor(const QList<QPointF> &points) {
    double highest = 0;
    for (const QPointF &point : points)
        if (std::isfinite(point.y()))
            highest = std::max(highest, point.y());
    ChartValueAxis axis;
    axis.low = 0;
    axis.high = 1;
    axis.tickCount = 3;
    if (highest > 0) {
        const double wanted = highest * 1.25;
        const double power = std::pow(10.0, std::floor(std::log10(wanted)));
        for (const double step : {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
            if (step * power >= wanted) {
                axis.high = step * power;
                break;
            }
    }
    axis.labelFormat = highest >= 10 ? QStringLiteral("%.0f") : QStringLiteral("%.1f");
    axis.title = ChartText::tr("pool allocations/s");
    return axis;
}

ChartValueAxis valueAxisFor(const ValueRange &values, const ChartOptions &options) {
    const bool difference = options.mode == ChartMode::DifferenceFromMedian;
    const ValueRange range = paddedRange(values, difference);
    ChartValueAxis axis;
    if (options.mode == ChartMode::Rate) {
        const AxisTicks ticks = niceTicks(range, 6);
        axis.low = ticks.low;
        axis.high = ticks.high;
        axis.tickCount = ticks.count;
        axis.labelFormat = QStringLiteral("%.1f");
        axis.title = ChartText::tr("allocations/s");
        return axis;
    }
    // Counts are whole numbers: whole ticks only, each label once (not 0, 0, 1, 1, 2).
    const int intervals = std::clamp(int(options.plotHeight / 36), 2, 6);
    const AxisTicks ticks = integerTicks(range, intervals);
    axis.low = ticks.low;
    axis.high = ticks.high;
    axis.tickCount = ticks.count;
    axis.title =
        difference ? ChartText::tr("count − median") : ChartText::tr("allocations (count)");
    return axis;
}

// Ticks on round times, as many as have room for their labels: the axis spans whole steps and
// has a tick at each. A narrow chart gets fewer ticks, and minutes without seconds.
ChartTimeAxis timeAxisFor(qint64 from, qint64 to, const ChartOptions &options) {
    const auto width = [&](const QString &text) {
        return options.textWidth ? options.textWidth(text) : 7.0 * double(text.size());
    };
    const auto intervalsFor = [&](const QString &format) {
        const QString sample = QDateTime(QDate(2026, 12, 28), QTime(23, 58, 58)).toString(format);
        return std::clamp(int(options.plotWidth / (width(sample) + 22)), 1, 7);
    };
    qint64 step = niceTimeStepMs(to - from, intervalsFor(QStringLiteral("HH:mm:ss")));
    if (const QString wider = timeLabelFormat(step); wider.size() > 8)
        step = niceTimeStepMs(to - from, intervalsFor(wider));
    ChartTimeAxis axis;
    axis.stepMs = step;
    axis.fromMs = from / step * step;
    axis.toMs = std::max(axis.fromMs + step, (to + step - 1) / step * step);
    axis.format = timeLabelFormat(step);
    return axis;
}

QString placeholderFor(const ChartSource &source, bool summary) {
    const PoolObservation *latest = source.latest;
    if (!source.hasTarget)
        return ChartText::tr("Not connected");
    if (source.state == ConnectionState::Reconnecting)
        return ChartText::tr("No connection to Redis: retrying…");
    if (source.state == ConnectionState::Disconnected && !latest && !source.pollFailure.isEmpty())
        return ChartText::tr("Not connected (the events panel says why)");
    if (!latest && !source.pollFailure.isEmpty())
        return ChartText::tr("Reading the pool fails: %1").arg(source.pollFailure);
    if (!latest)
        return ChartText::tr("Waiting for the first poll…");
    if (!summary && latest->snapshot.members.isEmpty())
        return ChartText::tr("No pool at this key yet: Seed… to add proxies");
    return ChartText::tr("Collecting data…");
}

// The caption: which members the chart shows, then any notes, each a whole phrase of its own.
QString captionFor(const ChartFrame &frame, const ChartOptions &options) {
    const int known = int(frame.poolSize); // the pool as it is now, not every member it had
    const QString pinned = QLocale().toString(options.pinned.size());
    const QString edge = QLocale().toString(options.edgeMembers);
    const bool rate = options.mode == ChartMode::Rate;
    QStringList parts;
    if (known > 0 && known <= options.maxIndividual && !frame.summaryMode)
        parts << ChartText::tr("%Ln members", "the chart's caption: all of them are charted",
                               known);
    else if (known > 0 && frame.summaryMode)
        parts << (rate ? ChartText::tr("%Ln members (summary): top %1, %2 pinned",
                                       "the chart's caption: %1 members with the highest counts "
                                       "and %2 pinned ones are charted",
                                       known)
                       : ChartText::tr("%Ln members (summary): top %1, %2 pinned, the bottom as "
                                       "the pool minimum line + band",
                                       "the chart's caption: %1 members with the highest counts "
                                       "and %2 pinned ones are charted",
                                       known))
                     .arg(edge, pinned);
    else if (known > 0)
        parts << (rate ? ChartText::tr("%Ln members: top %1, bottom %1, %2 pinned",
                                       "the chart's caption: %1 members with the highest and %1 "
                                       "with the lowest counts, and %2 pinned ones are charted",
                                       known)
                       : ChartText::tr("%Ln members: top %1, bottom %1, %2 pinned + "
                                       "min/median/max band",
                                       "the chart's caption: %1 members with the highest and %1 "
                                       "with the lowest counts, and %2 pinned ones are charted",
                                       known))
                     .arg(edge, pinned);
    const auto hidden = std::count_if(frame.lines.cbegin(), frame.lines.cend(),
                                      [](const ChartLine &line) { return line.hidden; });
    if (hidden > 0)
        parts << ChartText::tr("%Ln hidden", "the chart's caption: lines hidden from the chart",
                               int(hidden));
    if (options.zoom)
        parts << ChartText::tr("zoomed in: Esc or a right click to zoom out");
    if (known > 0 && !options.legendShown)
        parts << ChartText::tr("legend hidden (narrow): colours as in the table");
    return parts.join(QStringLiteral(" · "));
}

} // namespace

ChartSource chartSourceOf(const PoolSession &session) {
    ChartSource source;
    source.history = &session.history();
    source.latest = session.latestObservation() ? &*session.latestObservation() : nullptr;
    source.countedAllocations = [&session](qint64 fromMs, qint64 toMs) {
        return session.countedAllocations(fromMs, toMs);
    };
    source.memberText = [&session](const QByteArray &member) {
        return session.displayMember(member);
    };
    source.eventText = [&session](const QString &text) { return session.displayText(text); };
    source.memberColor = [&session](const QByteArray &member) {
        return session.colors().colorFor(member);
    };
    source.hasTarget = session.hasTarget();
    source.state = session.state();
    source.pollFailure = session.pollFailure();
    return source;
}

ChartFrame makeChartFrame(const ChartSource &source, const ChartOptions &options,
                          const ChartFrame *previous) {
    static const PoolHistory empty;
    const PoolHistory &history = source.history ? *source.history : empty;
    ChartSource withHistory = source;
    withHistory.history = &history;
    ChartFrame frame;
    frame.mode = options.mode;
    frame.plotWidth = std::max(options.plotWidth, 1.0);
    frame.legendShown = options.legendShown;

    const qint64 latest = history.latestTimeMs();
    const qint64 latestOrNow = latest > 0 ? latest : options.nowMs;
    // Everything: from the first point held (a recording can reach back further than a week).
    qint64 from = options.windowMs > 0 ? latestOrNow - options.windowMs : 0;
    qint64 to = latestOrNow;
    if (options.zoom)
        std::tie(from, to) = *options.zoom;

    const ChartMemberChoice choice = chooseChartMembers(withHistory, options, previous);
    frame.memberCount = choice.known;
    frame.top = choice.top;
    frame.bottom = choice.bottom;
    frame.summaryMode = source.latest && source.latest->summaryMode;
    const bool difference = options.mode == ChartMode::DifferenceFromMedian;
    const bool rate = options.mode == ChartMode::Rate;
    frame.bandShown = (frame.summaryMode || choice.known > options.maxIndividual) && !rate;
    frame.minimumShown = frame.summaryMode && !rate;
    // The pool-wide band: drawn for big pools, and the median every difference is taken from.
    const bool bandNeeded = frame.bandShown || difference || frame.minimumShown;
    const QList<BandPoint> bandPoints = bandNeeded ? history.band(from, to) : QList<BandPoint>();
    ValueRange values;
    qint64 earliest = std::numeric_limits<qint64>::max();
    for (const QByteArray &member : choice.members) {
        ChartLine line;
        line.member = member;
        const QList<HistoryPoint> raw =
            history.series(member, rate ? from - kRateLookBackMs : from, to);
        line.points = rate         ? ratePoints(raw)
                      : difference ? differencePoints(raw, bandPoints)
                                   : countPoints(raw);
        if (rate)
            dropBefore(line.points, from);
        if (!line.points.isEmpty())
            earliest = std::min(earliest, qint64(line.points.constFirst().x()));
        line.pinned = options.pinned.contains(member);
        line.hidden = options.hidden.contains(member);
        if (!line.hidden)
            for (const QPointF &point : std::as_const(line.points))
                values.include(point.y());
        // Credentials masked unless shown. Above the individual limit the legend says which
        // lines are the top and which the bottom members.
        line.name = source.memberText ? source.memberText(member) : QString::fromUtf8(member);
        if (choice.top.contains(member) && !line.pinned) {
            line.edge = ChartLine::Edge::Top;
            line.name = ChartText::tr("▲ %1").arg(line.name);
        } else if (choice.bottom.contains(member) && !line.pinned) {
            line.edge = ChartLine::Edge::Bottom;
            line.name = ChartText::tr("▼ %1").arg(line.name);
        }
        line.color =
            source.memberColor ? source.memberColor(member) : MemberColors().colorFor(member);
        line.width = line.pinned ? 2.6 : 1.6;
        frame.lines.append(std::move(line));
    }

    QList<QPointF> upper, lower, median;
    if (bandNeeded) {
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
        if (frame.bandShown || frame.minimumShown) {
            for (qsizetype i = 0; i < upper.size(); ++i) {
                values.include(lower[i].y());
                values.include(frame.bandShown ? upper[i].y() : lower[i].y());
            }
            const auto first = std::find_if(lower.cbegin(), lower.cend(),
                                            [](const QPointF &p) { return !std::isnan(p.y()); });
            if (first != lower.cend())
                earliest = std::min(earliest, qint64(first->x()));
        }
    }
    const QList<HistoryEvent> events = history.events(from, to);
    for (const HistoryEvent &event : events)
        earliest = std::min(earliest, event.timeMs);
    // Until the window has filled up, the axis starts at the first point (at least a minute
    // wide), so a young chart uses the whole plot instead of a sliver at the right. A zoomed
    // chart shows exactly the range chosen.
    if (!options.zoom && earliest != std::numeric_limits<qint64>::max())
        from = std::max(from, std::min(earliest, to - kMinimumSpanMs));
    else if (!options.zoom)
        from = to - kMinimumSpanMs; // nothing to show: not an empty week

    // Points are bucketed to kEnvelopePixels of the range shown (of a plot at least 200 pixels
    // wide: a chart not laid out yet has a plot of a few pixels).
    const double columns = std::max(200.0, frame.plotWidth) / kEnvelopePixels;
    const double bucketMs = std::max(1.0, double(std::max<qint64>(to - from, 1)) / columns);
    frame.bucketMs = bucketMs;
    for (ChartLine &line : frame.lines)
        line.points = bucketMinMax(line.points, bucketMs);
    if (bandNeeded) {
        const QList<ChartBandRun> runs = envelopeRuns(upper, lower, median, bucketMs);
        if (frame.bandShown)
            frame.band = runs;
        else if (difference) // the zero line every value is measured from: no break needed
            frame.zeroLine = joinRuns(runs, &ChartBandRun::median);
        if (frame.minimumShown)
            frame.minimum = joinRuns(runs, &ChartBandRun::lower);
    }

    frame.poolRate =
        bucketMinMax(poolRatePoints(withHistory, from, to, frame.summaryMode), bucketMs);
    frame.rateAxis = rateAxisFor(frame.poolRate);
    frame.rateName = ChartText::tr("pool rate (/s, right axis)");

    // The pool as it is now, not every member it ever had (the chart keeps those who left).
    frame.poolSize = source.latest ? qsizetype(source.latest->stats.size) : choice.known;
    const QString size = QLocale().toString(frame.poolSize);
    frame.bandName =
        difference ? ChartText::tr("pool min–max − median (%1)",
                                   "legend: the band of the pool's counts (scores) minus their "
                                   "median; %1: how many members the pool has")
                         .arg(size)
                   : ChartText::tr("pool min–max (%1)",
                                   "legend: the band from the pool's lowest to its highest count "
                                   "(score); %1: how many members the pool has")
                         .arg(size);
    frame.medianName = difference ? ChartText::tr("pool median (0)") : ChartText::tr("pool median");
    frame.minimumName =
        difference ? ChartText::tr("pool minimum − median") : ChartText::tr("pool minimum");

    if (difference) // the zero line belongs on the chart even when every value is above it
        values.include(0);
    frame.values = valueAxisFor(values, options);
    frame.time = timeAxisFor(from, to, options);

    for (const HistoryEvent &event : events)
        if (event.timeMs >= from)
            frame.markers.append({event.timeMs, event.kind,
                                  source.eventText ? source.eventText(event.label) : event.label});

    const double msPerPixel = double(frame.time.toMs - frame.time.fromMs) / frame.plotWidth;
    const double valuePerPixel =
        (frame.values.high - frame.values.low) / std::max(options.plotHeight, 1.0);
    bool anyPoints = !frame.band.isEmpty();
    for (ChartLine &line : frame.lines) {
        anyPoints = anyPoints || !line.points.isEmpty();
        line.dots = lonePoints(line.points, msPerPixel, valuePerPixel);
    }
    const double rateSpan = frame.rateAxis.high - frame.rateAxis.low;
    if (rateSpan > 0)
        for (const QPointF &dot :
             lonePoints(frame.poolRate, msPerPixel, rateSpan / std::max(options.plotHeight, 1.0)))
            frame.poolRateDots.append(
                QPointF(dot.x(), frame.values.low + (dot.y() - frame.rateAxis.low) / rateSpan *
                                                        (frame.values.high - frame.values.low)));
    if (!anyPoints)
        frame.placeholder = placeholderFor(source, frame.summaryMode);
    frame.caption = captionFor(frame, options);
    fitChartLegend(frame, options.legendRows);
    return frame;
}

void fitChartLegend(ChartFrame &frame, int legendRows) {
    frame.legend.clear();
    frame.legendOverflow = 0;
    if (!frame.legendShown)
        return;
    // The entries above the members: the band, its median, the pool minimum and the pool rate.
    if (frame.bandShown) {
        frame.legend.append({ChartLegendEntry::Kind::Band, frame.bandName, ChartColors::band()});
        frame.legend.append(
            {ChartLegendEntry::Kind::Median, frame.medianName, ChartColors::median()});
    } else if (frame.mode == ChartMode::DifferenceFromMedian) {
        frame.legend.append(
            {ChartLegendEntry::Kind::Median, frame.medianName, ChartColors::median()});
    }
    if (frame.minimumShown)
        frame.legend.append(
            {ChartLegendEntry::Kind::Minimum, frame.minimumName, ChartColors::minimum()});
    frame.legend.append({ChartLegendEntry::Kind::Rate, frame.rateName, ChartColors::rate()});
    // Then the members that fit, pinned ones first, and "+N more" for the rest.
    const int room = std::max(0, legendRows - int(frame.legend.size()));
    const int count = int(frame.lines.size());
    const int shown = count <= room ? count : std::max(0, room - 1);
    int given = 0;
    for (const bool pinnedPass : {true, false})
        for (ChartLine &line : frame.lines)
            if (line.pinned == pinnedPass) {
                line.inLegend = given < shown;
                given += 1;
            }
    for (const ChartLine &line : std::as_const(frame.lines)) {
        if (!line.inLegend)
            continue;
        QColor color = line.color;
        color.setAlphaF(line.hidden ? 0.25f : 1.0f);
        frame.legend.append(
            {ChartLegendEntry::Kind::Member, line.name, color, line.member, line.hidden});
    }
    frame.legendOverflow = count - shown;
    if (frame.legendOverflow > 0)
        frame.legend.append({ChartLegendEntry::Kind::More,
                             ChartText::tr("+%n more (see the table)", "", frame.legendOverflow),
                             QColor(Qt::transparent)});
}

} // namespace poolscope
