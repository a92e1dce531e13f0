// The one-writer lock of a recording: flock() on the database file itself, so every name of the
// file (a symlink, a hard link, a relative path) meets the same lock, and a crashed writer's lock
// goes with its process. A side file next to the file's real path (REALPATH.lock) only says who
// holds the lock (pid and host) for the refusal message; it never decides anything, so an empty
// or stale one refuses no one.
#pragma once

#include <memory>

#include <QString>

namespace poolscope::recordingdetail {

class RecordingLock {
public:
    ~RecordingLock(); // releases the lock and removes the side file
    RecordingLock(const RecordingLock &) = delete;
    RecordingLock &operator=(const RecordingLock &) = delete;

    // Locks `path` (created empty if missing). Returns nullptr with *error when another writer
    // holds it (naming it when its side file says who) or the file cannot be opened or locked
    // (with the system's reason).
    static std::unique_ptr<RecordingLock> acquire(const QString &path, QString *error);

private:
    RecordingLock() = default;
    quint64 m_device = 0;
    quint64 m_inode = 0;
    QString m_infoPath;
};

} // namespace poolscope::recordingdetail
