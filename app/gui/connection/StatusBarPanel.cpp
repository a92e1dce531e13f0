#include "connection/StatusBarPanel.h"

#include "LayoutBoundary.h"

#include "session/DisplayFormat.h"
#include "session/PoolSession.h"
#include "i18n/LeftToRight.h"
#include "transport/Transport.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>

namespace poolscope {

namespace {

QString stateColor(ConnectionState state) {
    switch (state) {
    case ConnectionState::Connected:
        return QStringLiteral("#2e7d32");
    case ConnectionState::Connecting:
    case ConnectionState::Reconnecting:
        return QStringLiteral("#ef6c00");
    case ConnectionState::Disconnected:
        break;
    }
    return QStringLiteral("#9e9e9e");
}

// connectionStateName() below the widgets stays English for the CLI; the window says it in its
// language.
QString connectionStateText(ConnectionState state) {
    switch (state) {
    case ConnectionState::Disconnected:
        return StatusBarPanel::tr("disconnected");
    case ConnectionState::Connecting:
        return StatusBarPanel::tr("connecting");
    case ConnectionState::Connected:
        return StatusBarPanel::tr("connected");
    case ConnectionState::Reconnecting:
        return StatusBarPanel::tr("reconnecting");
    }
    return {};
}

} // namespace

StatusBarPanel::StatusBarPanel(PoolSession *session, QWidget *parent)
    : QStatusBar(parent)
    , m_session(session)
    , m_state(new QLabel(this))
    , m_version(new QLabel(this))
    , m_roundTrip(new QLabel(this))
    , m_since(new QLabel(this))
    , m_size(new QLabel(this))
    , m_readings(nullptr) {
    m_state->setToolTip(tr("Connection to the Redis server"));
    m_version->setToolTip(tr("Server and version"));
    m_roundTrip->setToolTip(tr("Round-trip time of the last poll (all its commands)"));
    m_since->setToolTip(tr("Time since the last successful poll"));
    m_size->setToolTip(tr("Members in the pool"));
    auto *strip = new QWidget;
    auto *layout = new QHBoxLayout(strip);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    for (QLabel *label : {m_state, m_version, m_roundTrip, m_since, m_size}) {
        label->setContentsMargins(6, 0, 6, 0);
        layout->addWidget(label);
    }
    m_readings = new LayoutBoundary(strip, this);
    addPermanentWidget(m_readings);
    connect(m_session, &PoolSession::stateChanged, this, &StatusBarPanel::updateState);
    connect(m_session, &PoolSession::targetChanged, this, [this] {
        clearError(); // a new target, a new login: old errors are about something else
        m_havePoll = false;
        m_version->clear(); // until this target's first poll: it may be another server
        if (!m_authMessage.isEmpty() && currentMessage() == m_authMessage)
            clearMessage();
        m_authMessage.clear();
        m_size->clear();
        m_roundTrip->clear();
        updateState();
        m_readings->shrinkToContent();
    });
    connect(m_session, &PoolSession::observationApplied, this,
            [this](const PoolObservation &observation) {
                m_havePoll = true;
                m_sinceLastPoll.start();
                clearError(QStringLiteral("poll"));
                m_version->setText(i18n::leftToRight(observation.serverVersion.isEmpty()
                                                         ? m_session->serverVersion()
                                                         : observation.serverVersion));
                // A recording has no round trip of its own to show.
                if (m_session->isShowingRecording())
                    m_roundTrip->clear();
                else
                    m_roundTrip->setText(
                        tr("rtt %1").arg(formatMilliseconds(observation.roundTripMs)));
                m_size->setText(tr("%Ln member(s)", nullptr, int(observation.stats.size)));

                updateSince();
                if (!observation.primary.isEmpty())
                    updateState(); // names the primary and its sentinel (after a failover too)
            });
    // The events panel has the server's whole answer; the bar says what to do.
    connect(m_session, &PoolSession::authenticationFailed, this, [this] {
        m_version->clear();
        updateState();
        m_authMessage = tr("Authentication failed, not retrying: enter the password "
                           "in the Redis URL field");
        showMessage(m_authMessage);
    });
    connect(m_session, &PoolSession::pollFailed, this, [this](const Failure &failure) {
        showError(QStringLiteral("poll"),
                  m_session->displayText(tr("poll failed: %1").arg(failure.text)), 0);
    });
    connect(m_session, &PoolSession::commandFailed, this,
            [this](const QString &operation, const Failure &failure) {
                showError(operation,
                          m_session->displayText(tr("%1 failed: %2").arg(operation, failure.text)),
                          15000);
            });
    // A command that succeeds clears its own earlier error.
    connect(m_session, &PoolSession::poolKeysFound, this,
            [this] { clearError(QStringLiteral("scan")); });
    connect(m_session, &PoolSession::seedFinished, this,
            [this] { clearError(QStringLiteral("seed")); });
    connect(m_session, &PoolSession::membersEvicted, this,
            [this] { clearError(QStringLiteral("evict")); });
    connect(m_session, &PoolSession::membersRestored, this,
            [this] { clearError(QStringLiteral("restore")); });
    connect(m_session, &PoolSession::stateChanged, this, [this](ConnectionState state) {
        if (state == ConnectionState::Disconnected)
            clearError(); // the user left: nothing is failing any more
        else if (state == ConnectionState::Connected && m_errorCause != QStringLiteral("poll"))
            clearError(); // connected again: a command's connection error is over too
    });
    connect(m_session, &PoolSession::modeChanged, this, [this] {
        updateSince();
        m_readings->shrinkToContent(); // "stale: last good poll …" is long; "polled …" is not
    });
    connect(m_session, &PoolSession::messageLogged, this, [this](const LogEntry &entry) {
        if (entry.severity == LogSeverity::Warning && m_errorCause.isEmpty())
            showMessage(m_session->displayText(entry.text), 8000);
    });
    connect(this, &QStatusBar::messageChanged, this, [this](const QString &text) {
        if (text.isEmpty())
            m_errorCause.clear(); // timed out
    });
    // Twice a second: the age reads in tenths below ten seconds, and each change is a repaint.
    m_ticker.setInterval(500);
    connect(&m_ticker, &QTimer::timeout, this, &StatusBarPanel::updateSince);
    m_ticker.start();
    updateState();
}

StatusBarPanel::~StatusBarPanel() = default;

void StatusBarPanel::updateState() {
    const ConnectionState state =
        m_session->hasTarget() ? m_session->state() : ConnectionState::Disconnected;
    // The state, then facts about the connection, each a whole phrase, between dots.
    QStringList parts{state == ConnectionState::Connected && m_session->isPaused()
                          ? tr("%1 (paused)", "%1: the connection's state; polling is paused")
                                .arg(connectionStateText(state))
                          : connectionStateText(state)};
    if (m_session->isReadOnly())
        parts << tr("read-only", "the connection: nothing is written through it");
    if (const std::optional<PoolObservation> &latest = m_session->latestObservation();
        latest && !latest->primary.isEmpty() && m_session->hasTarget()) // Sentinel
        parts << tr("primary %1 (from sentinel %2)").arg(latest->primary, latest->primaryNamedBy);
    if (m_session->hasTarget() && (m_session->endpoint().tls.enabled ||
                                   m_session->endpoint().ssh.enabled())) // "via ssh bastion"
        // A poll answered through this connection means its handshake verified the server.
        parts << transport::describeTransport(m_session->endpoint(),
                                              state == ConnectionState::Connected);
    const QString text = parts.join(QStringLiteral(" · "));
    m_state->setText(QStringLiteral("<span style=\"color:%1\">●</span> %2")
                         .arg(stateColor(state), text.toHtmlEscaped()));
    if (m_session->hasTarget())
        m_state->setToolTip(tr("%1, pool \"%2\"")
                                .arg(m_session->endpoint().toDisplayString(),
                                     QString::fromUtf8(m_session->poolKey())));
}

void StatusBarPanel::showError(const QString &cause, const QString &text, int timeoutMs) {
    m_errorCause.clear(); // showMessage() below emits messageChanged
    showMessage(text, timeoutMs);
    m_errorCause = cause;
}

void StatusBarPanel::clearError(const QString &cause) {
    if (m_errorCause.isEmpty() || (!cause.isEmpty() && cause != m_errorCause))
        return;
    m_errorCause.clear();
    clearMessage();
}

QString StatusBarPanel::errorText() const {
    return m_errorCause.isEmpty() ? QString() : currentMessage();
}

void StatusBarPanel::updateSince() {
    if (m_session->isShowingRecording()) {
        // Nothing is polled: the time of the recording's last poll, not a live age.
        const QString text =
            m_havePoll ? tr("recording: last poll %1")
                             .arg(QLocale().toString(
                                 QDateTime::fromMSecsSinceEpoch(m_session->lastGoodPollMs()),
                                 QLocale::ShortFormat))
                       : tr("recording");
        if (m_since->text() != text)
            m_since->setText(text);
        if (!m_since->styleSheet().isEmpty())
            m_since->setStyleSheet(QString());
        return;
    }
    if (!m_havePoll) {
        m_since->setText(tr("no poll yet"));
        m_since->setStyleSheet(QString());
        return;
    }
    const qint64 elapsed = m_sinceLastPoll.elapsed();
    const bool stale = m_session->isStale();
    m_since->setText(stale ? tr("stale: last good poll %1 (%2)")
                                 .arg(QDateTime::fromMSecsSinceEpoch(m_session->lastGoodPollMs())
                                          .toString(QStringLiteral("HH:mm:ss")),
                                      formatAgo(elapsed))
                           : tr("polled %1").arg(formatAgo(elapsed)));
    // A poll that is overdue by several intervals means trouble: make it visible.
    const qint64 interval = qint64(m_session->pollInterval().count());
    const bool late = stale || (!m_session->isPaused() && elapsed > 3 * interval + 2000);
    const QString style = late ? QStringLiteral("color: #c62828;") : QString();
    if (m_since->styleSheet() != style)
        m_since->setStyleSheet(style);
    updateState();
}

QString StatusBarPanel::stateText() const {
    return m_state->text();
}

QString StatusBarPanel::versionText() const {
    return m_version->text();
}

QString StatusBarPanel::roundTripText() const {
    return m_roundTrip->text();
}

QString StatusBarPanel::sinceText() const {
    return m_since->text();
}

QString StatusBarPanel::sizeText() const {
    return m_size->text();
}

} // namespace poolscope
