#pragma once

#include <optional>

#include <QElapsedTimer>
#include <QStatusBar>
#include <QTimer>

class QLabel;

namespace poolscope {

class PoolSession;

// Connection state, Redis version, round-trip time of the last poll, time since the last
// successful poll and pool size; errors as temporary messages (never modal boxes).
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

private:
    void updateState();
    void updateSince();

    PoolSession *m_session;
    QLabel *m_state;
    QLabel *m_version;
    QLabel *m_roundTrip;
    QLabel *m_since;
    QLabel *m_size;
    QTimer m_ticker;
    QElapsedTimer m_sinceLastPoll;
    bool m_havePoll = false;
    QString m_authMessage; // shown until the next connect attempt
};

} // namespace poolscope
