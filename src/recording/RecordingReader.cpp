#include "recording/RecordingReader.h"

#include "history/HistoryStorage.h"
#include "recording/RecordingStore.h"

#include <algorithm>
#include <deque>
#include <functional>

#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>

namespace poolscope {

using namespace recordingdetail;

namespace {

constexpr int kDefaultWantedPoints = 2000;

struct FrameRow {
    qint64 timeMs = 0;
    double min = 0;
    double median = 0;
    double max = 0;
    double total = 0;
    qint64 memberCount = 0;
};

} // namespace

struct RecordingReader::Data {
    QString path;
    QSqlDatabase database;
    RecordingInfo info;
    QHash<QByteArray, qint64> memberIds;
    mutable QString lastError;

    ~Data() {
        if (database.isValid())
            closeConnection(database);
    }

    void noteError(const QSqlQuery &query) const {
        lastError = QStringLiteral("recording %1: %2").arg(path, query.lastError().text());
    }

    QList<QByteArray> loadMembers() {
        QList<QByteArray> names;
        QSqlQuery query(database);
        query.setForwardOnly(true);
        if (!query.exec(QStringLiteral("SELECT id, name FROM members ORDER BY id"))) {
            noteError(query);
            return names;
        }
        memberIds.clear();
        while (query.next()) {
            names.append(query.value(1).toByteArray());
            memberIds.insert(names.back(), query.value(0).toLongLong());
        }
        return names;
    }

    // The time of the oldest (or newest) frame of a tier; nullopt when it has none.
    std::optional<qint64> edgeOfTier(int tier, bool newest) const {
        QSqlQuery query(database);
        query.prepare(newest ? QStringLiteral("SELECT time_ms FROM frames WHERE tier = ? "
                                              "ORDER BY start_ms DESC LIMIT 1")
                             : QStringLiteral("SELECT time_ms FROM frames WHERE tier = ? "
                                              "ORDER BY start_ms LIMIT 1"));
        query.addBindValue(tier);
        if (!query.exec()) {
            noteError(query);
            return std::nullopt;
        }
        if (!query.next())
            return std::nullopt;
        return query.value(0).toLongLong();
    }

    std::deque<qint64> breakTimes(qint64 fromMs, qint64 toMs) const {
        std::deque<qint64> times;
        QSqlQuery query(database);
        query.setForwardOnly(true);
        query.prepare(QStringLiteral("SELECT time_ms, kind FROM events WHERE time_ms BETWEEN ? "
                                     "AND ? ORDER BY time_ms"));
        query.addBindValue(fromMs);
        query.addBindValue(toMs);
        if (!query.exec()) {
            noteError(query);
            return times;
        }
        while (query.next()) {
            RecordingEvent event;
            event.kind = parseRecordingEventKind(query.value(1).toString())
                             .value_or(RecordingEventKind::Note);
            if (event.breaksLines())
                times.push_back(query.value(0).toLongLong());
        }
        return times;
    }

    // Calls visit for each frame of [fromMs, toMs], oldest first: from the tier that fits
    // wantedPoints, and for the part of the range older than that tier's oldest frame, from the
    // coarser tiers that reach back further. withData: also hand over the members' blob.
    void
    forEachFrame(qint64 fromMs, qint64 toMs, int tier, bool withData,
                 const std::function<void(const FrameRow &, const QByteArray &)> &visit) const {
        struct Segment {
            int tier;
            qint64 fromMs;
            qint64 toMs;
        };
        std::vector<Segment> segments; // newest first
        qint64 upper = toMs;
        for (int t = tier; t < kRecordingTierCount && upper >= fromMs; ++t) {
            const auto oldest = edgeOfTier(t, false);
            if (!oldest)
                continue;
            const bool last = t == kRecordingTierCount - 1;
            const qint64 lower = last ? fromMs : std::max(fromMs, *oldest);
            if (lower <= upper)
                segments.push_back({t, lower, upper});
            upper = std::min(upper, *oldest - 1);
        }
        QSqlQuery query(database);
        query.setForwardOnly(true);
        query.prepare(
            withData ? QStringLiteral("SELECT time_ms, min, median, max, total, member_count, data "
                                      "FROM frames WHERE tier = ? AND start_ms BETWEEN ? AND ? AND "
                                      "time_ms BETWEEN ? AND ? ORDER BY start_ms")
                     : QStringLiteral("SELECT time_ms, min, median, max, total, member_count "
                                      "FROM frames WHERE tier = ? AND start_ms BETWEEN ? AND ? AND "
                                      "time_ms BETWEEN ? AND ? ORDER BY start_ms"));
        FrameRow row;
        const QByteArray none;
        for (auto segment = segments.rbegin(); segment != segments.rend(); ++segment) {
            const qint64 resolution = info.tiers[size_t(segment->tier)].resolutionMs;
            query.addBindValue(segment->tier);
            // A slot starts at most one resolution before its last poll.
            query.addBindValue(segment->fromMs - resolution);
            query.addBindValue(segment->toMs);
            query.addBindValue(segment->fromMs);
            query.addBindValue(segment->toMs);
            if (!query.exec()) {
                noteError(query);
                return;
            }
            while (query.next()) {
                row.timeMs = query.value(0).toLongLong();
                row.min = query.value(1).toDouble();
                row.median = query.value(2).toDouble();
                row.max = query.value(3).toDouble();
                row.total = query.value(4).toDouble();
                row.memberCount = query.value(5).toLongLong();
                if (withData)
                    visit(row, query.value(6).toByteArray());
                else
                    visit(row, none);
            }
        }
    }

    // One value per frame (band, total, member count), with breaks at gap events.
    template <typename Point, typename Make>
    QList<Point> frameSeries(const RecordingReader &reader, qint64 fromMs, qint64 toMs,
                             int wantedPoints, Make make, Point breakPoint) const {
        lastError.clear();
        QList<Point> points;
        const std::deque<qint64> gaps = breakTimes(fromMs, toMs);
        historydetail::LineBreaks breaks(gaps, fromMs);
        forEachFrame(fromMs, toMs, reader.tierFor(fromMs, toMs, wantedPoints), false,
                     [&](const FrameRow &row, const QByteArray &) {
                         if (const auto at = breaks.before(row.timeMs, true)) {
                             breakPoint.timeMs = *at;
                             points.append(breakPoint);
                         }
                         points.append(make(row));
                     });
        return points;
    }
};

RecordingReader::RecordingReader(std::unique_ptr<Data> data)
    : m_data(std::move(data)) {}

RecordingReader::~RecordingReader() = default;

std::unique_ptr<RecordingReader> RecordingReader::open(const QString &path, QString *error) {
    if (!QFileInfo(path).isFile()) {
        if (error)
            *error = QStringLiteral("recording %1 does not exist").arg(path);
        return nullptr;
    }
    auto data = std::make_unique<Data>();
    data->path = path;
    data->database = openConnection(path, true, error);
    if (!data->database.isValid())
        return nullptr;
    const auto info = readInfo(data->database, path, error);
    if (!info)
        return nullptr;
    data->info = *info;
    data->loadMembers();
    return std::unique_ptr<RecordingReader>(new RecordingReader(std::move(data)));
}

const QString &RecordingReader::path() const {
    return m_data->path;
}

RecordingInfo RecordingReader::info() const {
    return m_data->info;
}

QList<QByteArray> RecordingReader::members() const {
    return m_data->loadMembers();
}

RecordingTimeRange RecordingReader::timeRange() const {
    std::optional<qint64> first;
    std::optional<qint64> last;
    for (int tier = 0; tier < kRecordingTierCount; ++tier) {
        if (const auto oldest = m_data->edgeOfTier(tier, false))
            first = first ? std::min(*first, *oldest) : *oldest;
        if (const auto newest = m_data->edgeOfTier(tier, true))
            last = last ? std::max(*last, *newest) : *newest;
    }
    if (!first || !last)
        return {0, -1};
    return {*first, *last};
}

int RecordingReader::tierFor(qint64 fromMs, qint64 toMs, int wantedPoints) const {
    const qint64 span = std::max<qint64>(0, toMs - fromMs);
    const qint64 wanted = wantedPoints > 0 ? wantedPoints : kDefaultWantedPoints;
    for (int tier = 0; tier < kRecordingTierCount; ++tier)
        if (span / m_data->info.tiers[size_t(tier)].resolutionMs <= wanted)
            return tier;
    return kRecordingTierCount - 1;
}

QHash<QByteArray, QList<HistoryPoint>> RecordingReader::series(const QList<QByteArray> &members,
                                                               qint64 fromMs, qint64 toMs,
                                                               int wantedPoints) const {
    Data &d = *m_data;
    d.lastError.clear();
    QHash<QByteArray, QList<HistoryPoint>> result;
    for (const QByteArray &member : members)
        if (!d.memberIds.contains(member)) {
            d.loadMembers(); // recorded since this reader opened
            break;
        }
    struct Wanted {
        qint64 id;
        QList<HistoryPoint> *points;
        historydetail::LineBreaks breaks;
    };
    const std::deque<qint64> gaps = d.breakTimes(fromMs, toMs);
    for (const QByteArray &member : members)
        result.insert(member, {}); // every list first: inserting moves the hash's entries
    std::vector<Wanted> wanted;
    for (auto it = result.begin(); it != result.end(); ++it) {
        const auto id = d.memberIds.constFind(it.key());
        if (id != d.memberIds.constEnd())
            wanted.push_back({id.value(), &it.value(), historydetail::LineBreaks(gaps, fromMs)});
    }
    if (wanted.empty())
        return result;
    std::vector<FrameEntry> entries;
    d.forEachFrame(fromMs, toMs, tierFor(fromMs, toMs, wantedPoints), true,
                   [&](const FrameRow &row, const QByteArray &blob) {
                       if (!decodeFrame(blob, entries)) {
                           d.lastError = QStringLiteral("recording %1: the frame at %2 is damaged")
                                             .arg(d.path)
                                             .arg(row.timeMs);
                           entries.clear();
                       }
                       for (Wanted &member : wanted) {
                           const auto found = std::lower_bound(
                               entries.begin(), entries.end(), member.id,
                               [](const FrameEntry &entry, qint64 id) { return entry.id < id; });
                           const bool present = found != entries.end() && found->id == member.id;
                           const auto at = member.breaks.before(row.timeMs, present);
                           if (at)
                               member.points->append({*at, historydetail::kNaN});
                           if (present)
                               member.points->append({row.timeMs, found->count});
                       }
                   });
    return result;
}

QList<HistoryPoint> RecordingReader::series(const QByteArray &member, qint64 fromMs, qint64 toMs,
                                            int wantedPoints) const {
    return series(QList<QByteArray>{member}, fromMs, toMs, wantedPoints).value(member);
}

QList<BandPoint> RecordingReader::band(qint64 fromMs, qint64 toMs, int wantedPoints) const {
    using historydetail::kNaN;
    return m_data->frameSeries<BandPoint>(
        *this, fromMs, toMs, wantedPoints,
        [](const FrameRow &row) {
            return BandPoint{row.timeMs, row.min, row.median, row.max};
        },
        BandPoint{0, kNaN, kNaN, kNaN});
}

QList<HistoryPoint> RecordingReader::totalSeries(qint64 fromMs, qint64 toMs,
                                                 int wantedPoints) const {
    return m_data->frameSeries<HistoryPoint>(
        *this, fromMs, toMs, wantedPoints,
        [](const FrameRow &row) {
            return HistoryPoint{row.timeMs, row.total};
        },
        HistoryPoint{0, historydetail::kNaN});
}

QList<HistoryPoint> RecordingReader::memberCountSeries(qint64 fromMs, qint64 toMs,
                                                       int wantedPoints) const {
    return m_data->frameSeries<HistoryPoint>(
        *this, fromMs, toMs, wantedPoints,
        [](const FrameRow &row) {
            return HistoryPoint{row.timeMs, double(row.memberCount)};
        },
        HistoryPoint{0, historydetail::kNaN});
}

QList<RecordingEvent> RecordingReader::events(qint64 fromMs, qint64 toMs) const {
    Data &d = *m_data;
    d.lastError.clear();
    QList<RecordingEvent> events;
    QSqlQuery query(d.database);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT time_ms, kind, member, label FROM events WHERE time_ms "
                                 "BETWEEN ? AND ? ORDER BY time_ms, id"));
    query.addBindValue(fromMs);
    query.addBindValue(toMs);
    if (!query.exec()) {
        d.noteError(query);
        return events;
    }
    while (query.next()) {
        RecordingEvent event;
        event.timeMs = query.value(0).toLongLong();
        event.kind =
            parseRecordingEventKind(query.value(1).toString()).value_or(RecordingEventKind::Note);
        event.member = query.value(2).toByteArray();
        event.label = query.value(3).toString();
        events.append(event);
    }
    return events;
}

QList<HistoryEvent> RecordingReader::historyEvents(qint64 fromMs, qint64 toMs) const {
    QList<HistoryEvent> events;
    for (const RecordingEvent &event : this->events(fromMs, toMs))
        events.append(event.toHistoryEvent());
    return events;
}

QString RecordingReader::lastError() const {
    return m_data->lastError;
}

} // namespace poolscope
