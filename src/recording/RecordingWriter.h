// Writes one pool's recording: a SQLite file (Qt SQL, QSQLITE) in WAL mode.
//
// Part of the recording API the dashboard's viewer and the CLI use. Most callers want
// PoolRecorder (PoolRecorder.h), which runs a writer on its own thread and picks the members to
// record from a PoolObservation; the writer itself is for code that already has the data (the
// benchmarks, the tests feeding a simulated month).
//
// The file: a schema version (kRecordingSchemaVersion) and the RecordingInfo in a meta table;
// members by id; one frame per tier and slot (band columns plus the members' counts packed in a
// blob); events. Each appendPoll() is one transaction: it writes the poll into every tier (the
// coarser tiers' current slot is overwritten, so it always holds the slot's last poll) and
// deletes what has aged out of each tier. A recorder killed at any moment leaves a file that
// opens with at most the poll being written missing.
//
// One writer per file: open() locks the database file itself (RecordingLock: every name of the
// file meets the same lock, a killed writer's lock goes with it) and refuses with a message naming
// the holder while another writer lives. Readers (RecordingReader) never take it: any number of
// them may read while the writer writes.
//
// A writer belongs to the thread that opened it (a Qt SQL connection does): use it from one
// thread only, never the GUI thread for appendPoll().
#pragma once

#include "recording/RecordingTypes.h"

#include <memory>

#include <QString>

namespace poolscope {

constexpr int kRecordingSchemaVersion = 1;

class RecordingWriter {
public:
    ~RecordingWriter(); // commits nothing pending, checkpoints, closes, releases the lock
    RecordingWriter(const RecordingWriter &) = delete;
    RecordingWriter &operator=(const RecordingWriter &) = delete;

    // Opens `path` for writing, creating it (and its directory) if missing. A new file gets
    // `info` (its schemaVersion is set here) and `tiers`; an existing one must be a recording of
    // this schema version, the same pool key and the same server and database
    // (recordingServerIdentity; else refused, naming both), and keeps its own tiers.
    // Returns nullptr and sets *error (what and which file) on failure, including when another
    // writer holds the file.
    static std::unique_ptr<RecordingWriter> open(const QString &path, const RecordingInfo &info,
                                                 QString *error);

    // Appends one poll in one transaction. Polls must come in time order: a poll not newer than
    // the last one is ignored (returns true). Returns false and sets *error when the store
    // failed; nothing of that poll is then stored.
    bool appendPoll(const RecordingPoll &poll, QString *error = nullptr);
    // Stores one event (its own transaction). Events older than the coarsest tier's retention
    // (from the newest poll) are deleted as polls arrive.
    bool appendEvent(const RecordingEvent &event, QString *error = nullptr);
    // For an event read from elsewhere that can be read again (a guard event after a reconnect,
    // or in the next session): stored unless an identical one (time, kind, member, label) is.
    bool appendEventOnce(const RecordingEvent &event, QString *error = nullptr);

    const QString &path() const;
    RecordingInfo info() const; // as stored in the file
    qint64 latestTimeMs() const;
    qint64 pollsWritten() const; // by this writer since open()

private:
    struct Data;
    explicit RecordingWriter(std::unique_ptr<Data> data);
    std::unique_ptr<Data> m_data;
};

} // namespace poolscope
