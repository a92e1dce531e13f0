// Reading a recording (src/recording) into an in-memory history, for the dashboard.
#pragma once

#include "history/PoolHistory.h"
#include "pool/PoolTypes.h"
#include "recording/RecordingTypes.h"

#include <functional>
#include <memory>

#include <QList>
#include <QString>

class QObject;

namespace poolscope {

// A recording as the dashboard shows it: its whole history (every tier, at the finest resolution
// the file holds for each part of its time range) in a PoolHistory sized by the file's tiers,
// and the counts of its last poll.
struct LoadedRecording {
    QString path;
    RecordingInfo info;
    RecordingTimeRange range;
    std::unique_ptr<PoolHistory> history;
    QList<PoolMember> lastCounts; // ascending by count, ties by member (as a snapshot)
    qint64 lastMemberCount = 0;   // members in the pool at the last poll (may exceed lastCounts)
    qint64 frames = 0;            // polls read
    QString error;                // empty when it loaded
    bool ok() const { return error.isEmpty() && history != nullptr; }
};

// The history's sizes for a recording's tiers: the same resolutions and as many points as each
// tier keeps, and room for every member the recording has.
PoolHistory::Limits historyLimitsFor(const RecordingInfo &info, qsizetype members);

// Reads the recording at `path` (read-only; also while a recorder writes it). Blocking: disk
// reads and decoding; call it off the GUI thread (loadRecordingInBackground). overviewPoints 0
// reads every frame the file holds (seconds for a day of 1,000 members); above 0 only the tier
// that gives about that many points over the whole range (an overview that opens at once, to be
// followed by the whole). On failure the result's error names the file and the cause.
constexpr int kRecordingOverviewPoints = 1500;
LoadedRecording loadRecording(const QString &path, int overviewPoints = 0);

// Runs loadRecording on a thread of its own (runInBackground) and hands the result to `done` on
// `context`'s thread (dropped if `context` is gone by then).
void loadRecordingInBackground(const QString &path, QObject *context,
                               std::function<void(std::shared_ptr<LoadedRecording>)> done,
                               int overviewPoints = 0);

// Appends to `into` what `from` holds after afterMs: the polls and events that arrived while a
// recording loaded, so nothing polled meanwhile is lost when the loaded history takes over.
void appendNewerHistory(PoolHistory &into, const PoolHistory &from, qint64 afterMs);

} // namespace poolscope
