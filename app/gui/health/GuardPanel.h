#pragma once

#include <memory>

#include <QThread>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace poolscope {

class PoolSession;

// The guard in the dashboard (#16): the same HealthGuard as `poolscope-cli guard`, run in rounds
// on a worker thread of its own with its own Redis connection. Settings: target URL, fall, rise,
// evicted-share cap, restore policy and interval; an on/off button. It takes the pool's lease
// before its first round and refuses to start, saying who holds it, when another guard (a CLI
// guard, another dashboard) does. Shows its state and its last round; its actions reach the
// Events panel and the chart through the guard-events stream (HealthMonitor).
class GuardPanel : public QWidget {
    Q_OBJECT

public:
    explicit GuardPanel(PoolSession *session, QWidget *parent = nullptr);
    ~GuardPanel() override;

    // Starts the guard on the watched pool; false with the reason in *error for bad settings or
    // no pool. The lease is taken on the worker thread: guardRefused tells when it is another's.
    bool start(QString *error = nullptr);
    void stop();
    bool isRunning() const { return m_running; }

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
    struct Run;
    void setRunning(bool running);
    void showState(const QString &text, bool problem);
    void roundDone(const QString &summary);
    void stopRun(bool wait);

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
    QThread m_thread;
    QObject *m_context; // lives on m_thread
    std::shared_ptr<Run> m_current;
    bool m_running = false;
};

} // namespace poolscope
