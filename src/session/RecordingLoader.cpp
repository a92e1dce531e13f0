#include "session/RecordingLoader.h"

#include "client/BackgroundWorker.h"
#include "recording/RecordingReader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <QSet>

namespace poolscope {

namespace {

constexpr int kAllPoints = std::numeric_limits<int>::max(); // the finest tier for every part
constexpr qint64 kFramesPerChunk = 1000; // read at most this many frames of every member at once

// Adds the events up to and including timeMs, gaps as gaps (lines break there).
void addEventsUpTo(PoolHistory &history, const QList<RecordingEvent> &events, qsizetype &next,
                   qint64 timeMs) {
    for (; next < events.size() && events[next].timeMs <= timeMs; ++next) {
        const RecordingEvent &event = events[next];
        if (event.breaksLines())
            history.markGap(event.timeMs, event.toHistoryEvent().label);
        else
            history.addEvent(event.toHistoryEvent());
    }
}

} // namespace

PoolHistory::Limits historyLimitsFor(const RecordingInfo &info, qsizetype members) {
    PoolHistory::Limits limits;
    const auto points = [](const RecordingTier &tier) {
        return int(std::clamp<qint64>(tier.retentionMs / std::max<qint64>(1, tier.resolutionMs), 1,
                                      1'000'000));
    };
    limits.fineResolutionMs = info.tiers[0].resolutionMs;
    limits.finePoints = points(info.tiers[0]);
    limits.mediumResolutionMs = info.tiers[1].resolutionMs;
    limits.mediumPoints = points(info.tiers[1]);
    limits.coarseResolutionMs = info.tiers[2].resolutionMs;
    limits.coarsePoints = points(info.tiers[2]);
    limits.maxTrackedMembers = std::max<int>(limits.maxTrackedMembers, int(members));
    return limits;
}

LoadedRecording loadRecording(const QString &path, int overviewPoints) {
    LoadedRecording loaded;
    loaded.path = path;
    QString error;
    const std::unique_ptr<RecordingReader> reader = RecordingReader::open(path, &error);
    if (!reader) {
        loaded.error = error;
        return loaded;
    }
    loaded.info = reader->info();
    loaded.range = reader->timeRange();
    const QList<QByteArray> members = reader->members();
    loaded.history = std::make_unique<PoolHistory>(historyLimitsFor(loaded.info, members.size()));
    PoolHistory &history = *loaded.history;
    if (loaded.range.isEmpty())
        return loaded;

    // Every event kept: one may come before the first frame kept (a tier's frame carries the time
    // of the last poll in its slot) or after the last one.
    const QList<RecordingEvent> events = reader->events(0, std::numeric_limits<qint64>::max());
    qsizetype nextEvent = 0;
    // From the oldest part (coarsest tier) to the newest (finest), in chunks of about
    // kFramesPerChunk frames of the tier that holds each part, so memory stays modest.
    const RecordingTiers &tiers = loaded.info.tiers;
    const qint64 latest = loaded.range.toMs;
    QList<PoolMember> poll;
    std::vector<const QList<HistoryPoint> *> lists;
    std::vector<qsizetype> cursors;
    qint64 lastFrame = std::numeric_limits<qint64>::min();
    for (qint64 from = loaded.range.fromMs; from <= latest;) {
        int tier = kRecordingTierCount - 1;
        for (int t = 0; t < kRecordingTierCount; ++t)
            if (from >= latest - tiers[size_t(t)].retentionMs) {
                tier = t;
                break;
            }
        qint64 to = std::min(latest, from + kFramesPerChunk * tiers[size_t(tier)].resolutionMs);
        // Do not let a coarse chunk reach into the finer tier's part.
        for (int t = 0; t < tier; ++t)
            to = std::min(to, std::max(from, latest - tiers[size_t(t)].retentionMs - 1));
        // An overview: the whole range at once, in the tier that gives about that many points.
        const int wanted = overviewPoints > 0 ? overviewPoints : kAllPoints;
        if (overviewPoints > 0)
            to = latest;
        const QList<BandPoint> band = reader->band(from, to, wanted);
        const QList<HistoryPoint> totals = reader->totalSeries(from, to, wanted);
        const QHash<QByteArray, QList<HistoryPoint>> series =
            reader->series(members, from, to, wanted);
        if (!reader->lastError().isEmpty()) {
            loaded.error = reader->lastError();
            return loaded;
        }
        // Each member's points and a cursor into them, by position: no hashing per frame.
        lists.clear();
        static const QList<HistoryPoint> kNone;
        for (const QByteArray &member : members) {
            const auto found = series.constFind(member);
            lists.push_back(found == series.constEnd() ? &kNone : &found.value());
        }
        cursors.assign(members.size(), 0);
        qsizetype totalAt = 0;
        for (const BandPoint &frame : band) {
            if (std::isnan(frame.median) || frame.timeMs <= lastFrame)
                continue; // a line break, not a poll
            addEventsUpTo(history, events, nextEvent, frame.timeMs - 1);
            poll.clear();
            for (size_t m = 0; m < lists.size(); ++m) {
                const QList<HistoryPoint> &points = *lists[m];
                qsizetype &at = cursors[m];
                while (at < points.size() && points[at].timeMs < frame.timeMs)
                    ++at;
                if (at < points.size() && points[at].timeMs == frame.timeMs &&
                    !std::isnan(points[at].count))
                    poll.append({members[qsizetype(m)], points[at].count});
            }
            while (totalAt < totals.size() && totals[totalAt].timeMs < frame.timeMs)
                ++totalAt;
            const double total = totalAt < totals.size() && totals[totalAt].timeMs == frame.timeMs
                                     ? totals[totalAt].count
                                     : std::numeric_limits<double>::quiet_NaN();
            history.record(frame.timeMs, poll);
            history.recordBand(frame.timeMs, frame.min, frame.median, frame.max, total);
            lastFrame = frame.timeMs;
            ++loaded.frames;
        }
        from = to + 1;
    }
    addEventsUpTo(history, events, nextEvent, std::numeric_limits<qint64>::max());
    std::sort(poll.begin(), poll.end(), [](const PoolMember &a, const PoolMember &b) {
        return a.count != b.count ? a.count < b.count : a.member < b.member;
    });
    loaded.lastCounts = poll;
    const QList<HistoryPoint> sizes = reader->memberCountSeries(latest, latest, kAllPoints);
    loaded.lastMemberCount = sizes.isEmpty() || std::isnan(sizes.constLast().count)
                                 ? poll.size()
                                 : qint64(sizes.constLast().count);
    return loaded;
}

void loadRecordingInBackground(const QString &path, QObject *context,
                               std::function<void(std::shared_ptr<LoadedRecording>)> done,
                               int overviewPoints) {
    runInBackground(
        context, QStringLiteral("poolscope-recording"),
        [path, overviewPoints] {
            return std::make_shared<LoadedRecording>(loadRecording(path, overviewPoints));
        },
        std::move(done));
}

void appendNewerHistory(PoolHistory &into, const PoolHistory &from, qint64 afterMs) {
    const QList<QByteArray> members = from.trackedMembers();
    QHash<QByteArray, QList<HistoryPoint>> series;
    for (const QByteArray &member : members)
        series.insert(member, from.series(member, afterMs + 1, from.latestTimeMs()));
    const QList<BandPoint> band = from.band(afterMs + 1, from.latestTimeMs());
    const QList<HistoryPoint> totals = from.totalSeries(afterMs + 1, from.latestTimeMs());
    for (const HistoryEvent &event : from.events(afterMs + 1, from.latestTimeMs())) {
        if (event.kind == HistoryEvent::Kind::Gap)
            into.markGap(event.timeMs, event.label);
        else
            into.addEvent(event);
    }
    for (qsizetype i = 0; i < band.size(); ++i) {
        const BandPoint &frame = band[i];
        if (std::isnan(frame.median))
            continue;
        QList<PoolMember> poll;
        for (const QByteArray &member : members)
            for (const HistoryPoint &point : series[member])
                if (point.timeMs == frame.timeMs && !std::isnan(point.count))
                    poll.append({member, point.count});
        into.record(frame.timeMs, poll);
        const double total = i < totals.size() ? totals[i].count : 0;
        into.recordBand(frame.timeMs, frame.min, frame.median, frame.max, total);
    }
}

} // namespace poolscope
