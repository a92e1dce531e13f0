#pragma once

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace poolscope {

class PoolSession;
struct GuardRoundReport;
struct GuardRunEnd;
struct Failure;

// The guard in the dashboard: its settings (target URL, fall, rise, evicted-share cap, restore
// policy and interval), an on/off button, its state and its last round. The run is the session's
// (PoolHealth::startGuard: the same GuardRunner as `poolscope-cli guard`), which takes the pool's
// lease before its first round and refuses to start, saying who holds it, when another guard (a
// CLI guard, another dashboard) does. Its actions reach the Events panel and the chart through
// the pool's audit trail (PoolHealth).
class GuardPanel : public QWidget {
    Q_OBJECT

public:
    explicit GuardPanel(PoolSession *session, QWidget *parent = nullptr);
    ~GuardPanel() override;

    // Starts the guard on the watched pool; false with the reason in *error for bad settings or
    // no pool. The lease is taken on the guard's thread: guardRefused tells when it is another's.
    bool start(QString *error = nullptr);
    void stop();
    bool isRunning() const;

    QLineEdit *targetEdit() const { return m_target; }
    QSpinBox *fallBox() const { return m_fall; }
    QSpinBox *riseBox() const { return m_rise; }
    QDoubleSpinBox *capBox() const { return m_cap; }
    QDoubleSpinBox *intervalBox() const { return m_interval; }
    QComboBox *policyBox() const { return m_policy; }
    QPushButton *runButton() const { return m_run; }
    QString stateText() const;
    QString lastRoundText() const;

Q_SIGNALS:
    void guardStarted();
    // Another guard holds the lease (or Redis failed): the guard did not start.
    void guardRefused(const QString &message);
    void guardStopped();
    void roundFinished();

private:
    void setRunning(bool running);
    void showState(const QString &text, bool problem);
    void showRound(const QString &summary);
    void showReport(const GuardRoundReport &report);
    void runEnded(const GuardRunEnd &end);

    PoolSession *m_session;
    QLineEdit *m_target;
    QSpinBox *m_fall;
    QSpinBox *m_rise;
    QDoubleSpinBox *m_cap;
    QDoubleSpinBox *m_interval;
    QComboBox *m_policy;
    QPushButton *m_run;
    QLabel *m_state;
    QLabel *m_lastRound;
};

} // namespace poolscope
