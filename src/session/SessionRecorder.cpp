#include "session/SessionRecorder.h"

#include "session/PoolSession.h"
#include "session/RecordingLoader.h"
#include "recording/PoolRecorder.h"
#include "redis/ServerIdentity.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

namespace poolscope {

SessionRecorder::SessionRecorder(PoolSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_recorder(std::make_unique<PoolRecorder>()) {
    connect(m_session, &PoolSession::targetChanged, this, &SessionRecorder::followTarget);
    // A pool too big to record whole keeps its ends, pinned and charted members, as the history.
    connect(m_session, &PoolSession::chartedMembersChanged, this,
            [this](const QList<QByteArray> &members) { m_recorder->setChartedMembers(members); });
    connect(m_session, &PoolSession::pinsChanged, this,
            [this](const QList<QByteArray> &pins) { m_recorder->setPinnedMembers(pins); });
    m_recorder->setPinnedMembers(m_session->pins());
    connect(m_session, &PoolSession::observationApplied, this,
            [this](const PoolObservation &observation) {
                if (m_recorder->isOpen() && !m_session->isShowingRecording())
                    m_recorder->recordObservation(observation);
            });
    connect(m_session, &PoolSession::historyEventAdded, this, [this](const HistoryEvent &event) {
        if (!m_recorder->isOpen() || m_session->isShowingRecording())
            return;
        if (event.kind == HistoryEvent::Kind::Gap)
            m_recorder->markGap(event.timeMs, event.label);
        else if (!event.sourceId.isEmpty()) // read again after a reconnect or a restart
            m_recorder->recordEventOnce(RecordingEvent::fromHistoryEvent(event));
        else
            m_recorder->recordEvent(RecordingEvent::fromHistoryEvent(event));
    });
    connect(m_recorder.get(), &PoolRecorder::writeFailed, this, [this](const QString &message) {
        m_session->log(LogSeverity::Error, QStringLiteral("recording"),
                       tr("recording stopped: %1").arg(message));
        m_recorder->close();
        Q_EMIT recordingChanged(QString());
    });
    if (m_session->hasTarget())
        followTarget();
}

SessionRecorder::~SessionRecorder() = default; // the recorder writes what is queued and closes

void SessionRecorder::setEnabled(bool enabled) {
    if (enabled == m_enabled)
        return;
    m_enabled = enabled;
    if (!enabled && m_recorder->isOpen()) {
        m_recorder->close();
        m_session->log(LogSeverity::Info, QStringLiteral("recording"),
                       tr("recording switched off"));
        Q_EMIT recordingChanged(QString());
    } else if (enabled) {
        openRecorder();
    }
}

void SessionRecorder::setDirectory(const QString &directory) {
    m_directory = directory;
}

bool SessionRecorder::isRecording() const {
    return m_recorder->isOpen();
}

QString SessionRecorder::recordingPath() const {
    return m_recorder->isOpen() ? m_recorder->path() : QString();
}

QString SessionRecorder::pathForTarget() const {
    if (m_directory.isEmpty())
        return defaultRecordingPath(m_session->endpoint(), m_session->poolKey());
    return QDir(m_directory)
        .filePath(recordingFileName(m_session->endpoint(), m_session->poolKey()));
}

void SessionRecorder::setWholePoolLimit(int members) {
    m_recorder->setWholePoolLimit(members);
}

void SessionRecorder::followTarget() {
    const QString target =
        m_session->isShowingRecording() || !m_session->hasTarget() ? QString() : pathForTarget();
    if (target == m_target && !target.isEmpty())
        return; // a reconnect to the same pool: its file stays open
    m_target = target;
    ++m_targetGeneration;
    if (m_recorder->isOpen()) {
        m_recorder->close();
        Q_EMIT recordingChanged(QString());
    }
    if (m_session->isShowingRecording() || !m_session->hasTarget() ||
        m_session->poolKey().isEmpty())
        return;
    const QString path = pathForTarget();
    // The past first (read-only, in the background), then this dashboard's own polls.
    if (QFileInfo::exists(path)) {
        // An overview at once, then every frame the file holds.
        const quint64 generation = m_targetGeneration;
        const auto adopt = [this, generation](std::shared_ptr<LoadedRecording> loaded) {
            if (generation != m_targetGeneration)
                return false; // another pool by now
            if (!loaded->ok()) {
                m_session->log(LogSeverity::Warning, QStringLiteral("recording"),
                               tr("cannot read the past of this pool: %1").arg(loaded->error));
                return false;
            }
            const qint64 frames = loaded->frames;
            m_session->adoptRecordedPast(std::move(loaded->history));
            Q_EMIT pastLoaded(frames);
            return true;
        };
        loadRecordingInBackground(
            path, this,
            [this, path, adopt](std::shared_ptr<LoadedRecording> loaded) {
                if (adopt(std::move(loaded)))
                    loadRecordingInBackground(path, this, [adopt](auto whole) { adopt(whole); });
            },
            kRecordingOverviewPoints);
    }
    openRecorder();
}

void SessionRecorder::openRecorder() {
    if (!m_enabled || m_recorder->isOpen() || m_session->isShowingRecording() ||
        !m_session->hasTarget() || m_session->poolKey().isEmpty())
        return;
    if (m_unrecorded && isSameServer(m_session->endpoint(), *m_unrecorded))
        return;
    RecordingInfo info;
    info.server = m_session->endpoint().toSafeUrl();
    info.poolKey = m_session->poolKey();
    info.createdMs = QDateTime::currentMSecsSinceEpoch();
    QString error;
    const QString path = pathForTarget();
    if (!m_recorder->open(path, info, &error)) {
        m_session->log(LogSeverity::Warning, QStringLiteral("recording"),
                       tr("not recording: %1").arg(error));
        return;
    }
    m_session->log(LogSeverity::Info, QStringLiteral("recording"), tr("recording to %1").arg(path));
    Q_EMIT recordingChanged(path);
}

} // namespace poolscope
