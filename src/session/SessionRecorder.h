// The dashboard's recorder: records the watched pool while it is watched, and brings back its past.
#pragma once

#include "endpoint/Endpoint.h"

#include <memory>
#include <optional>

#include <QList>
#include <QObject>
#include <QString>

namespace poolscope {

class PoolRecorder;
class PoolSession;

// Records what a PoolSession watches into the pool's recording (defaultRecordingPath(): one file
// per server and pool in the user's data directory), through a PoolRecorder whose writing runs on
// its own thread: the GUI thread only copies each poll. On every new target it reads the pool's
// recording in the background and hands its past to the session (PoolSession::adoptRecordedPast),
// so a pool opened again shows its history at once; that happens whether or not recording is on.
// Another process recording the same pool (a second dashboard, `poolscope-cli record`) keeps the
// file: this one then records nothing and says so in the events. Never records a recording that
// is being shown.
class SessionRecorder : public QObject {
    Q_OBJECT

public:
    explicit SessionRecorder(PoolSession *session, QObject *parent = nullptr);
    ~SessionRecorder() override;

    // On by default. Off closes the file; on opens it for the current pool.
    void setEnabled(bool enabled);
    bool isEnabled() const { return m_enabled; }
    // A server never recorded, whatever setEnabled says: the embedded demo server, which lives as
    // long as this process (a recording of it would be a new file at every start that nothing
    // ever opens again). Every other server the session goes on to is recorded as usual.
    void setUnrecordedServer(const Endpoint &server) { m_unrecorded = server; }
    // Where recordings go (default: the data directory's recordings/, see defaultRecordingPath);
    // for tests. Empty: the default.
    void setDirectory(const QString &directory);
    const QString &directory() const { return m_directory; }
    bool isRecording() const;
    // Pools with more members are recorded as the history keeps them (ends, pinned, charted).
    void setWholePoolLimit(int members);
    QString recordingPath() const;

Q_SIGNALS:
    // Recording started or stopped (the path, or empty).
    void recordingChanged(const QString &path);
    // The pool's past was read from its recording and handed to the session: first an overview
    // (the tier that fits a chart), then every frame the file holds.
    void pastLoaded(qint64 polls);

private:
    void followTarget();
    void openRecorder();
    QString pathForTarget() const;

    PoolSession *m_session;
    std::unique_ptr<PoolRecorder> m_recorder;
    QString m_directory;
    std::optional<Endpoint> m_unrecorded;
    QString m_target; // the file of the pool followed; empty while none
    bool m_enabled = true;
    quint64 m_targetGeneration = 0; // drops a past read for a target no longer watched
};

} // namespace poolscope
