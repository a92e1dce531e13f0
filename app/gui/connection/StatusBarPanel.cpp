#include "connection/StatusBarPanel.h"

#include "session/DisplayFormat.h"
#include "session/PoolSession.h"

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

} // namespace

StatusBarPanel::StatusBarPanel(PoolSession *session, QWidget *parent)
    : QStatusBar(parent)
    , m_session(session)
    , m_state(new QLabel(this))
    , m_version(new QLabel(this))
    , m_roundTrip(new QLabel(this))
    , m_since(new QLabel(this))
    , m_size(new QLabel(this)) {
    m_state->setToolTip(QStringLiteral("Connection to the Redis server"));
    m_version->setToolTip(QStringLiteral("Redis server version"));
    m_roundTrip->setToolTip(QStringLiteral("Round-trip time of the last poll (all its commands)"));
    m_since->setToolTip(QStringLiteral("Time since the last successful poll"));
    m_size->setToolTip(QStringLiteral("Members in the pool"));
    for (QLabel *label : {m_state, m_version, m_roundTrip, m_since, m_size}) {
        label->setContentsMargins(6, 0, 6, 0);
        addPermanentWidget(label);
    }
    connect(m_session, &PoolSession::stateChanged, this, &StatusBarPanel::updateState);
    connect(m_session, &PoolSession::targetChanged, this, [this] {
        m_havePoll = false;
        m_version->clear(); // until this target's first poll: it may be another server
        if (!m_authMessage.isEmpty() && currentMessage() == m_authMessage)
            clearMessage();
        m_authMessage.clear();
        m_size->clear();
        m_roundTrip->clear();
        updateState();
    });
    connect(m_session, &PoolSession::observationApplied, this,
            [this](const PoolObservation &observation) {
                m_havePoll = true;
                m_sinceLastPoll.start();
                m_version->setText(QStringLiteral("Redis %1")
                                       .arg(observation.serverVersion.isEmpty()
                                                ? m_session->serverVersion()
                                                : observation.serverVersion));
                m_roundTrip->setText(
                    QStringLiteral("rtt %1").arg(formatMilliseconds(observation.roundTripMs)));
                m_size->setText(
                    QStringLiteral("%1 members").arg(QLocale().toString(observation.stats.size)));
                updateSince();
            });
    // The events panel has the server's whole answer; the bar says what to do.
    connect(m_session, &PoolSession::authenticationFailed, this, [this] {
        m_version->clear();
        updateState();
        m_authMessage = QStringLiteral("Authentication failed, not retrying: enter the password "
                                       "in the Redis URL field");
        showMessage(m_authMessage);
    });
    connect(m_session, &PoolSession::pollFailed, this, [this](const QString &message) {
        showMessage(QStringLiteral("poll failed: %1").arg(message), 10000);
    });
    connect(m_session, &PoolSession::commandFailed, this,
            [this](const QString &operation, const QString &message) {
                showMessage(QStringLiteral("%1 failed: %2").arg(operation, message), 15000);
            });
    connect(m_session, &PoolSession::messageLogged, this, [this](const LogEntry &entry) {
        if (entry.severity == LogSeverity::Warning)
            showMessage(entry.text, 8000);
    });
    m_ticker.setInterval(250);
    connect(&m_ticker, &QTimer::timeout, this, &StatusBarPanel::updateSince);
    m_ticker.start();
    updateState();
}

StatusBarPanel::~StatusBarPanel() = default;

void StatusBarPanel::updateState() {
    const ConnectionState state =
        m_session->hasTarget() ? m_session->state() : ConnectionState::Disconnected;
    QString text = connectionStateName(state);
    if (state == ConnectionState::Connected && m_session->isPaused())
        text += QStringLiteral(" (paused)");
    if (m_session->isReadOnly())
        text += QStringLiteral(" · read-only");
    m_state->setText(QStringLiteral("<span style=\"color:%1\">●</span> %2")
                         .arg(stateColor(state), text.toHtmlEscaped()));
    if (m_session->hasTarget())
        m_state->setToolTip(QStringLiteral("%1, pool \"%2\"")
                                .arg(m_session->endpoint().toDisplayString(),
                                     QString::fromUtf8(m_session->poolKey())));
}

void StatusBarPanel::updateSince() {
    if (!m_havePoll) {
        m_since->setText(QStringLiteral("no poll yet"));
        return;
    }
    const qint64 elapsed = m_sinceLastPoll.elapsed();
    m_since->setText(QStringLiteral("polled %1").arg(formatAgo(elapsed)));
    // A poll that is overdue by several intervals means trouble: make it visible.
    const qint64 interval = qint64(m_session->pollInterval().count());
    const bool late = !m_session->isPaused() && elapsed > 3 * interval + 2000;
    m_since->setStyleSheet(late ? QStringLiteral("color: #c62828;") : QString());
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
