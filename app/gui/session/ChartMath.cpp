#include "session/ChartMath.h"

#include <algorithm>
#include <cmath>

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

namespace {

QList<QPointF> decimateRun(const QList<QPointF> &points, int columns);

} // namespace

QList<QPointF> decimateMinMax(const QList<QPointF> &points, int columns) {
    columns = std::max(columns, 1);
    if (points.size() <= 2 * qsizetype(columns) + 2)
        return points;
    // A NaN is a line break (an outage, a gap): decimate the runs between breaks, each with its
    // share of the columns, and keep every break.
    const auto isBreak = [](const QPointF &p) { return std::isnan(p.y()); };
    if (std::none_of(points.cbegin(), points.cend(), isBreak))
        return decimateRun(points, columns);
    const double span = points.constLast().x() - points.constFirst().x();
    QList<QPointF> out;
    QList<QPointF> run;
    const auto flush = [&] {
        if (run.isEmpty())
            return;
        const double share = span > 0 ? (run.constLast().x() - run.constFirst().x()) / span : 1.0;
        out.append(decimateRun(run, std::max(1, int(std::ceil(share * columns)))));
        run.clear();
    };
    for (const QPointF &point : points) {
        if (isBreak(point)) {
            flush();
            out.append(point);
        } else {
            run.append(point);
        }
    }
    flush();
    return out;
}

namespace {

QList<QPointF> decimateRun(const QList<QPointF> &points, int columns) {
    columns = std::max(columns, 1);
    if (points.size() <= 2 * qsizetype(columns) + 2)
        return points;
    const double first = points.constFirst().x();
    const double span = points.constLast().x() - first;
    if (span <= 0)
        return {points.constFirst(), points.constLast()};

    QList<QPointF> out;
    out.reserve(2 * columns + 2);
    out.append(points.constFirst());
    qsizetype i = 1;
    const qsizetype end = points.size() - 1; // the last point is appended separately
    while (i < end) {
        const int column = std::min(columns - 1, int((points[i].x() - first) / span * columns));
        qsizetype lowest = i;
        qsizetype highest = i;
        qsizetype j = i;
        for (; j < end; ++j) {
            const int c = std::min(columns - 1, int((points[j].x() - first) / span * columns));
            if (c != column)
                break;
            if (points[j].y() < points[lowest].y())
                lowest = j;
            if (points[j].y() > points[highest].y())
                highest = j;
        }
        if (lowest == highest) {
            out.append(points[lowest]);
        } else {
            out.append(points[std::min(lowest, highest)]);
            out.append(points[std::max(lowest, highest)]);
        }
        i = j;
    }
    out.append(points.constLast());
    return out;
}

} // namespace

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

ValueRange paddedRange(ValueRange range) {
    if (!range.valid)
        return {0, 10, true};
    double span = range.high - range.low;
    if (span < 1)
        span = std::max(1.0, std::abs(range.high) * 0.1);
    ValueRange padded;
    padded.valid = true;
    padded.low = std::max(0.0, range.low - span * 0.05);
    padded.high = range.high + span * 0.08;
    if (padded.high - padded.low < 2)
        padded.high = padded.low + 2;
    return padded;
}

} // namespace poolscope
