// What a recording holds and where it lives: tiers, the file's description, one poll, events.
// Part of the recording API the dashboard's viewer and the CLI use: see RecordingWriter.h,
// RecordingReader.h and PoolRecorder.h.
#pragma once

#include "endpoint/Endpoint.h"
#include "history/PoolHistory.h"
#include "pool/PoolTypes.h"

#include <array>
#include <optional>

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {

// The resolutions a recording keeps, finest first. Each tier holds one frame per slot of its
// resolution (the last poll that fell in the slot, as the in-memory history keeps the last
// count of a bucket) for `retentionMs` back from the newest poll; older frames are deleted as
// polls arrive, so the file stays bounded however long it records.
struct RecordingTier {
    qint64 resolutionMs = 1000;
    qint64 retentionMs = 3'600'000;
    bool operator==(const RecordingTier &) const = default;
};

constexpr int kRecordingTierCount = 3;
using RecordingTiers = std::array<RecordingTier, kRecordingTierCount>;
// 1 s for an hour, 10 s for a day, 5 min for 30 days.
RecordingTiers defaultRecordingTiers();

// Describes a recording: stored in the file when it is created, read back by the reader.
// `server` is a display form without any password (Endpoint::toSafeUrl()).
struct RecordingInfo {
    QString server;
    QByteArray poolKey;
    qint64 createdMs = 0;
    int schemaVersion = 0;
    RecordingTiers tiers = defaultRecordingTiers();
};

// One poll as stored: the members that have a series in this poll (all of them for pools up to
// the whole-pool limit, else the ends, pinned and charted ones, see PoolRecorder), and the
// pool-wide band computed from every member.
struct RecordingPoll {
    qint64 timeMs = 0; // ms since the epoch
    QList<PoolMember> members;
    double min = 0;
    double median = 0;
    double max = 0;
    double total = 0;
    qint64 memberCount = 0;  // members in the pool (may exceed members.size())
    qint64 evictedCount = 0; // evicted members
};

// Something that happened to the pool or the connection; the chart marks it with a line.
enum class RecordingEventKind { Seed, Evict, Restore, Forecast, Failover, Reconnect, Gap, Note };
QString recordingEventKindName(RecordingEventKind kind); // "seed", "evict", ...
std::optional<RecordingEventKind> parseRecordingEventKind(const QString &name);

struct RecordingEvent {
    qint64 timeMs = 0;
    RecordingEventKind kind = RecordingEventKind::Note;
    QByteArray member; // empty for pool-wide events
    QString label;     // e.g. "restore 10.0.0.1:8080 (zero)"
    bool operator==(const RecordingEvent &) const = default;

    // Whether chart lines must not be joined across this event (gap, reconnect, failover).
    bool breaksLines() const;
    // The in-memory history's form; kinds it lacks (forecast, failover, reconnect) become a Gap
    // (for those that break lines) or a Note, with the kind in the label.
    HistoryEvent toHistoryEvent() const;
    static RecordingEvent fromHistoryEvent(const HistoryEvent &event);
};

struct RecordingTimeRange {
    qint64 fromMs = 0;
    qint64 toMs = 0;
    bool isEmpty() const { return toMs < fromMs; }
};

// The dashboard's QStandardPaths::AppDataLocation + "/recordings" (~/.local/share/poolscope/
// poolscope/recordings), for poolscope-cli as well.
QString defaultRecordingDirectory();
// Where a recording of this server and pool lives by default: defaultRecordingDirectory(), a
// file named from a safe form of the server
// (no user name, no password) and the key, with a short hash of both so that different servers
// and keys never share a file.
QString defaultRecordingPath(const Endpoint &endpoint, const QByteArray &poolKey);
// What makes two RecordingInfo::server strings the same recorded server: the address (host
// case-folded; sentinels and cluster seeds as a sorted set), the master name and the database,
// without user name, password or TLS. A string that is no URL is compared as it is.
QString recordingServerIdentity(const QString &server);
// The file name only (what defaultRecordingPath puts in the directory).
QString recordingFileName(const Endpoint &endpoint, const QByteArray &poolKey);

} // namespace poolscope
