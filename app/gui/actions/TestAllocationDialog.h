#pragma once

#include "load/LoadRunner.h"

#include <memory>
#include <optional>

#include <QDialog>
#include <QElapsedTimer>

class QPushButton;

namespace Ui {
class TestAllocationDialog;
}

namespace poolscope {

class PoolSession;

// Runs test allocations through LoadRunner (allocate.lua by EVALSHA, or the naive two-command
// version for the race demo): count or duration, workers, pipeline, rate; progress bar with the
// live rate, cancel, and a result summary. Non-modal: the chart keeps moving while it runs.
class TestAllocationDialog : public QDialog {
    Q_OBJECT

public:
    explicit TestAllocationDialog(PoolSession *session, QWidget *parent = nullptr);
    ~TestAllocationDialog() override;

    void setCount(qint64 count);
    void setDuration(double seconds);
    void setWorkers(int workers);
    void setPipeline(int pipeline);
    void setRate(double perSecond);
    void setAtomic(bool atomic);
    LoadSpec spec() const;

    bool start();
    void cancel();
    bool isRunning() const;
    const std::optional<LoadReport> &lastReport() const { return m_lastReport; }
    QString resultText() const;
    QPushButton *startButton() const { return m_startButton; }
    QPushButton *cancelButton() const { return m_cancelButton; }
    // Why the watched key cannot take allocations (not a sorted set), or empty: Start is then
    // disabled with the reason in its tooltip.
    void setKeyProblem(const QString &problem);
    // What the progress bar shows, e.g. "stopped at 3.4 s of 30 s (11%)".
    QString progressText() const;
    int progressValue() const;
    int progressMaximum() const;

protected:
    // A new opening starts in the atomic mode: the naive race demo is never the default.
    void showEvent(QShowEvent *event) override;

Q_SIGNALS:
    void runFinished(const poolscope::LoadReport &report);

private:
    void updateControls();
    void handleProgress(qint64 done, qint64 total, double rate);
    void handleFinished(const LoadReport &report);

    PoolSession *m_session;
    std::unique_ptr<Ui::TestAllocationDialog> m_ui;
    std::unique_ptr<LoadRunner> m_runner;
    QPushButton *m_startButton;
    QPushButton *m_cancelButton;
    std::optional<LoadReport> m_lastReport;
    QString m_keyProblem;
    qint64 m_durationMs = 0; // of the current or last duration run; 0 for count runs
    QElapsedTimer m_runClock;
};

} // namespace poolscope
