#pragma once

#include <optional>

#include <QElapsedTimer>
#include <QStatusBar>
#include <QTimer>

class QLabel;

namespace poolscope {

class LayoutBoundary;
class PoolSession;

// Connection state, Redis version, round-trip time of the last poll, time since the last
// successful poll and pool size; errors as messages (never modal boxes) that go away when their
// cause does: a poll error with the next good poll, a command's error when that command next
// succeeds or the connection is made again, any error when the target changes. While polls fail
// the "polled" label says the figures are stale since the last good poll.
class StatusBarPanel : public QStatusBar {
    Q_OBJECT

public:
    explicit StatusBarPanel(PoolSession *session, QWidget *parent = nullptr);
    ~StatusBarPanel() override;

    QString stateText() const;
    QString versionText() const;
    QString roundTripText() const;
    QString sinceText() const;
    QString sizeText() const;
    // The error shown now ("poll failed: …", "scan failed: …"); empty when none.
    QString errorText() const;

private:
    void updateState();
    void updateSince();
    // Shows an error until its cause clears (or timeoutMs passes, 0 = until cleared).
    void showError(const QString &cause, const QString &text, int timeoutMs);
    // Clears the error shown if it has this cause ("poll", an operation), or any cause if empty.
    void clearError(const QString &cause = {});

    PoolSession *m_session;
    QLabel *m_state;
    QLabel *m_version;
    QLabel *m_roundTrip;
    QLabel *m_since;
    QLabel *m_size;
    // The readings above, which change every poll, kept from laying out the window each time.
    LayoutBoundary *m_readings;
    QTimer m_ticker;
    QElapsedTimer m_sinceLastPoll;
    bool m_havePoll = false;
    QString m_authMessage; // shown until the next connect attempt
    QString m_errorCause;  // what the message shown now is about; empty: not an error
};

} // namespace poolscope
