// Records a watched pool to a file, off the caller's thread.
//
// Part of the recording API that the dashboard's viewer uses: the dashboard (and
// `poolscope-cli record`) hands it every PoolObservation and event; it picks what to record the
// way the in-memory history does (PoolSession::recordHistory): every member of a pool up to
// wholePoolLimit() members read in full, else the ends of the pool (10 members at each end), the
// pinned and the charted members, with the band from the poll's statistics. The writing
// (RecordingWriter) happens on the recorder's own thread (a BackgroundWorker); the caller's thread
// only copies the data and queues it.
#pragma once

#include "monitor/PoolMonitor.h"
#include "recording/RecordingTypes.h"

#include <memory>

#include <QObject>
#include <QSet>
#include <QString>

namespace poolscope {

class BackgroundWorker;
class RecordingWriter;

class PoolRecorder : public QObject {
    Q_OBJECT

public:
    explicit PoolRecorder(QObject *parent = nullptr);
    ~PoolRecorder() override; // close()

    // Opens (or creates) the recording on the recorder's thread and waits for the outcome (a
    // few ms: the file's lock and schema). False with *error set when refused (another writer
    // holds the file: its pid and host are named) or failed. Closes any open recording first.
    bool open(const QString &path, const RecordingInfo &info, QString *error);
    // Writes what is queued, closes the file and releases it for another writer. Every
    // pollWritten / writeFailed of the queued polls has been emitted when it returns.
    void close();
    bool isOpen() const { return m_open; }
    const QString &path() const { return m_path; }

    // Pools with at most this many members (read in full) are recorded whole; default 2,000,
    // the in-memory history's tracked-member limit.
    void setWholePoolLimit(int members);
    int wholePoolLimit() const { return m_wholePoolLimit; }
    void setPinnedMembers(const QList<QByteArray> &members);
    void setChartedMembers(const QList<QByteArray> &members);

    // Queues one poll (see the class comment for what is kept of it).
    void recordObservation(const poolscope::PoolObservation &observation);
    // Queues a poll built by the caller.
    void recordPoll(const poolscope::RecordingPoll &poll);
    void recordEvent(const poolscope::RecordingEvent &event);
    // The same unless the file holds that event already (RecordingWriter::appendEventOnce).
    void recordEventOnce(const poolscope::RecordingEvent &event);
    // A hole in the data (a disconnect): lines are not joined across it.
    void markGap(qint64 timeMs, const QString &reason);

    // What recordObservation() stores of an observation (public for tests and benchmarks).
    static RecordingPoll pollFrom(const PoolObservation &observation, int wholePoolLimit,
                                  const QSet<QByteArray> &pinned, const QSet<QByteArray> &charted);

Q_SIGNALS:
    // A poll was committed to the file.
    void pollWritten(qint64 timeMs);
    // Writing failed (disk full, file removed...): the message names the file and the cause.
    void writeFailed(const QString &message);

private:
    class Worker;
    bool m_open = false;
    QString m_path;
    int m_wholePoolLimit = 2000;
    QSet<QByteArray> m_pinned;
    QSet<QByteArray> m_charted;
    std::unique_ptr<BackgroundWorker> m_background; // last: stopped first
    Worker *m_worker = nullptr;                     // its context, on its thread
};

} // namespace poolscope
