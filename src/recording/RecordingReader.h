// Reads a recording written by RecordingWriter / PoolRecorder, read-only.
//
// Part of the recording API the dashboard's viewer and the CLI use: open a file (also one
// that a recorder is writing right now, or one left by a killed recorder), list its members and
// time range, and read series, the band and events for a time range at the tier that fits the
// number of points wanted (a chart's pixel width, say). Every query reads the file afresh, so a
// reader of a live recording sees new polls as they are committed.
//
// Series follow PoolHistory's conventions: HistoryPoint / BandPoint, oldest first, and a point
// whose value is NaN where a line must break (a gap, reconnect or failover event, and where the
// member was missing from the polls between two points it has).
//
// A reader belongs to the thread that opened it (a Qt SQL connection does): use it from one
// thread only. Opening and reading a day are quick (see docs/benchmarks.md), but they are
// disk reads: the viewer may want them off the GUI thread.
#pragma once

#include "recording/RecordingTypes.h"

#include <memory>

#include <QHash>
#include <QList>
#include <QString>

namespace poolscope {

class RecordingReader {
public:
    ~RecordingReader();
    RecordingReader(const RecordingReader &) = delete;
    RecordingReader &operator=(const RecordingReader &) = delete;

    // Opens an existing recording read-only. Returns nullptr and sets *error (naming the file
    // and what is wrong: missing, not a recording, a newer schema) on failure.
    static std::unique_ptr<RecordingReader> open(const QString &path, QString *error);

    const QString &path() const;
    RecordingInfo info() const;
    // Every member that ever had a series in the recording, in the order first recorded.
    QList<QByteArray> members() const;
    // First and last poll stored (any tier); isEmpty() when no poll is stored.
    RecordingTimeRange timeRange() const;
    // The tier series() etc. use for this range: the finest whose resolution gives at most
    // about wantedPoints points over the range (the coarsest if none does). Parts of the range
    // older than that tier's oldest frame come from the next coarser tier that has them.
    int tierFor(qint64 fromMs, qint64 toMs, int wantedPoints) const;

    // Counts of each asked member between fromMs and toMs (inclusive). Members never recorded
    // get an empty list. Reads each frame once for all of them.
    QHash<QByteArray, QList<HistoryPoint>> series(const QList<QByteArray> &members, qint64 fromMs,
                                                  qint64 toMs, int wantedPoints) const;
    QList<HistoryPoint> series(const QByteArray &member, qint64 fromMs, qint64 toMs,
                               int wantedPoints) const;
    // Pool-wide min / median / max, and the total, over the same frames.
    QList<BandPoint> band(qint64 fromMs, qint64 toMs, int wantedPoints) const;
    QList<HistoryPoint> totalSeries(qint64 fromMs, qint64 toMs, int wantedPoints) const;
    // Members in the pool (memberCount of each poll), e.g. for a "pool size" line.
    QList<HistoryPoint> memberCountSeries(qint64 fromMs, qint64 toMs, int wantedPoints) const;
    // Events between fromMs and toMs (inclusive), oldest first.
    QList<RecordingEvent> events(qint64 fromMs, qint64 toMs) const;
    // The same as the in-memory history's events (RecordingEvent::toHistoryEvent).
    QList<HistoryEvent> historyEvents(qint64 fromMs, qint64 toMs) const;

    // The last error of a query (a damaged or vanished file); empty when all went well.
    QString lastError() const;

private:
    struct Data;
    explicit RecordingReader(std::unique_ptr<Data> data);
    std::unique_ptr<Data> m_data;
};

} // namespace poolscope
