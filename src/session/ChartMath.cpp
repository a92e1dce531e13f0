#include "session/ChartMath.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace poolscope {

QList<QPointF> countPoints(const QList<HistoryPoint> &history) {
    QList<QPointF> points;
    points.reserve(history.size());
    for (const HistoryPoint &point : history)
        points.append(QPointF(double(point.timeMs), point.count));
    return points;
}

QList<QPointF> ratePoints(const QList<HistoryPoint> &history) {
    QList<QPointF> points;
    if (history.size() < 2)
        return points;
    points.reserve(history.size() - 1);
    for (qsizetype i = 1; i < history.size(); ++i) {
        if (std::isnan(history[i].count)) { // a line break: no rate across it
            points.append(QPointF(double(history[i].timeMs), history[i].count));
            continue;
        }
        if (std::isnan(history[i - 1].count))
            continue;
        const qint64 dt = history[i].timeMs - history[i - 1].timeMs;
        if (dt <= 0)
            continue;
        const double rise = std::max(0.0, history[i].count - history[i - 1].count);
        points.append(QPointF(double(history[i].timeMs), rise * 1000.0 / double(dt)));
    }
    return points;
}

QList<QPointF> bucketMinMax(const QList<QPointF> &points, double bucketMs) {
    QList<QPointF> out;
    if (points.size() <= 2 || !(bucketMs > 0))
        return points;
    out.reserve(points.size());
    qsizetype i = 0;
    while (i < points.size()) {
        if (std::isnan(points[i].y())) {
            out.append(points[i++]);
            continue;
        }
        // One run between breaks: its first point, then each bucket's extremes.
        qsizetype end = i;
        while (end < points.size() && !std::isnan(points[end].y()))
            ++end;
        out.append(points[i]);
        qsizetype b = i + 1;
        while (b < end - 1) {
            const double bucket = std::floor(points[b].x() / bucketMs);
            qsizetype lowest = b;
            qsizetype highest = b;
            qsizetype k = b;
            for (; k < end - 1 && std::floor(points[k].x() / bucketMs) == bucket; ++k) {
                if (points[k].y() < points[lowest].y())
                    lowest = k;
                if (points[k].y() > points[highest].y())
                    highest = k;
            }
            if (lowest == highest) {
                out.append(points[lowest]);
            } else {
                // From the point before, to the nearer extreme first, unless the time order
                // already goes that way.
                const double before = out.constLast().y();
                const bool lowFirst = std::abs(points[lowest].y() - before) <
                                          std::abs(points[highest].y() - before) ||
                                      (std::abs(points[lowest].y() - before) ==
                                           std::abs(points[highest].y() - before) &&
                                       lowest < highest);
                const QPointF &first = lowFirst ? points[lowest] : points[highest];
                const QPointF &second = lowFirst ? points[highest] : points[lowest];
                const double x0 = std::min(first.x(), second.x());
                const double x1 = std::max(first.x(), second.x());
                out.append(QPointF(x0, first.y()));
                out.append(QPointF(x1, second.y()));
            }
            b = k;
        }
        if (end - 1 > i)
            out.append(points[end - 1]);
        i = end;
    }
    return out;
}

QList<QList<QPointF>> splitAtBreaks(const QList<QPointF> &points) {
    QList<QList<QPointF>> runs;
    QList<QPointF> run;
    for (const QPointF &point : points) {
        if (!std::isnan(point.y())) {
            run.append(point);
        } else if (!run.isEmpty()) {
            runs.append(run);
            run.clear();
        }
    }
    if (!run.isEmpty())
        runs.append(run);
    return runs;
}

void ValueRange::include(double value) {
    if (!std::isfinite(value))
        return;
    if (!valid) {
        low = high = value;
        valid = true;
        return;
    }
    low = std::min(low, value);
    high = std::max(high, value);
}

ValueRange paddedRange(ValueRange range, bool allowNegative) {
    if (!range.valid)
        return allowNegative ? ValueRange{-2, 2, true} : ValueRange{0, 10, true};
    double span = range.high - range.low;
    if (span < 1)
        span = std::max(1.0, std::abs(range.high) * 0.1);
    ValueRange padded;
    padded.valid = true;
    padded.low = range.low - span * 0.05;
    if (!allowNegative)
        padded.low = std::max(0.0, padded.low);
    padded.high = range.high + span * 0.08;
    if (padded.high - padded.low < 2)
        padded.high = padded.low + 2;
    return padded;
}

QList<QPointF> differencePoints(const QList<HistoryPoint> &history, const QList<BandPoint> &band) {
    QList<QPointF> points;
    points.reserve(history.size());
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    qsizetype b = 0; // the first band point later than the current point
    for (const HistoryPoint &point : history) {
        while (b < band.size() && band[b].timeMs <= point.timeMs)
            ++b;
        const double median = b > 0 ? band[b - 1].median : nan;
        // NaN minus anything is NaN: a break in either line stays a break.
        points.append(QPointF(double(point.timeMs), point.count - median));
    }
    return points;
}

DifferenceBand differenceBand(const QList<BandPoint> &band) {
    DifferenceBand out;
    out.upper.reserve(band.size());
    out.lower.reserve(band.size());
    out.median.reserve(band.size());
    for (const BandPoint &point : band) {
        const double x = double(point.timeMs);
        out.upper.append(QPointF(x, point.max - point.median));
        out.lower.append(QPointF(x, point.min - point.median));
        out.median.append(QPointF(x, point.median - point.median)); // 0, or NaN at a break
    }
    return out;
}

bool isFairSpread(qint64 members, double min, double max, double allocations) {
    return members >= 2 && std::isfinite(min) && std::isfinite(max) && max - min <= allocations;
}

AxisTicks integerTicks(ValueRange range, int maxIntervals) {
    maxIntervals = std::max(1, maxIntervals);
    if (!range.valid || !std::isfinite(range.low) || !std::isfinite(range.high))
        range = {0, 1, true};
    const double low = std::floor(range.low);
    const double high = std::max(std::ceil(range.high), low + 1);
    double step = 1;
    for (double magnitude = 1;; magnitude *= 10) {
        bool found = false;
        for (double factor : {1.0, 2.0, 5.0}) {
            step = factor * magnitude;
            const double first = std::floor(low / step) * step;
            const double last = std::ceil(high / step) * step;
            if ((last - first) / step <= maxIntervals) {
                found = true;
                break;
            }
        }
        if (found || magnitude > 1e15)
            break;
    }
    AxisTicks ticks;
    ticks.step = step;
    ticks.low = std::floor(low / step) * step;
    ticks.high = std::max(ticks.low + step, std::ceil(high / step) * step);
    ticks.count = int(std::lround((ticks.high - ticks.low) / step)) + 1;
    return ticks;
}

namespace {

// A number of the form 1, 2 or 5 x 10^n near x: the nearest one, or the first at least x.
double roundNumber(double x, bool atLeast) {
    const double power = std::pow(10.0, std::floor(std::log10(x)));
    const double fraction = x / power;
    if (atLeast)
        return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
    return (fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10) * power;
}

} // namespace

AxisTicks niceTicks(ValueRange range, int ticks) {
    if (!range.valid || !std::isfinite(range.low) || !std::isfinite(range.high))
        range = {0, 1, true};
    ticks = std::max(2, ticks);
    const double span = range.high > range.low ? range.high - range.low : 1.0;
    const double step = roundNumber(roundNumber(span, true) / (ticks - 1), false);
    AxisTicks out;
    out.step = step;
    out.low = std::floor(range.low / step) * step;
    out.high = std::max(out.low + step, std::ceil(range.high / step) * step);
    out.count = int(std::lround((out.high - out.low) / step)) + 1;
    return out;
}

qint64 niceTimeStepMs(qint64 spanMs, int maxIntervals) {
    static constexpr qint64 kSteps[] = {1,     2,     5,     10,    15,     30,    60,
                                        120,   300,   600,   900,   1800,   3600,  7200,
                                        10800, 21600, 43200, 86400, 172800, 604800};
    maxIntervals = std::max(1, maxIntervals);
    for (qint64 seconds : kSteps)
        if (spanMs <= maxIntervals * seconds * 1000)
            return seconds * 1000;
    constexpr qint64 kWeekMs = 604800LL * 1000;
    return (spanMs / maxIntervals + kWeekMs - 1) / kWeekMs * kWeekMs;
}

QString timeLabelFormat(qint64 stepMs) {
    constexpr qint64 kHourMs = 3600 * 1000;
    return stepMs >= 24 * kHourMs ? QStringLiteral("dd MMM")
           : stepMs >= kHourMs    ? QStringLiteral("dd MMM HH:mm")
           : stepMs >= 60000      ? QStringLiteral("HH:mm")
                                  : QStringLiteral("HH:mm:ss");
}

} // namespace poolscope
