#pragma once

#include "base/Failure.h"
#include "endpoint/Endpoint.h"
#include "load/ResetScenario.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include <QDialog>

class QPushButton;

namespace Ui {
class ResetScenarioDialog;
}

namespace poolscope {

class BackgroundWorker;
class DemoDriver;
class PoolSession;
struct PoolObservation;

// "Demo: count reset": runs runResetScenario (seed a fresh pool, steady load, evict one member,
// restore it with a policy, more load) on a thread of its own (a BackgroundWorker), switches the
// dashboard to watch the scenario pool so the chart shows the restore and the flood live, marks the
// evict and restore on the chart, and finally puts the forecast next to what happened. The demo's
// background load is paused meanwhile and switched on again when the dashboard leaves the scenario
// pool, however it leaves (the "Back" button returns to the previous pool). Its writes are the
// session's own (PoolSession::beginOwnWrites), never reported as outside changes.
class ResetScenarioDialog : public QDialog {
    Q_OBJECT

public:
    ResetScenarioDialog(PoolSession *session, DemoDriver *demo, QWidget *parent = nullptr);
    ~ResetScenarioDialog() override; // cancels a running scenario (a bounded wait for its end)

    void setPolicy(RestorePolicy policy);
    void setMembers(int members);
    void setRate(double perSecond);
    void setDurations(double beforeSeconds, double afterSeconds);
    void setKey(const QByteArray &key);
    ResetScenarioSpec spec() const;

    // On production, start() asks for the scenario pool's name typed (PoolActions gives it).
    using TypedConfirmFunction =
        std::function<bool(const QString &title, const QString &question, const QString &expected)>;
    void setTypedConfirmFunction(TypedConfirmFunction confirm) {
        m_confirmTyped = std::move(confirm);
    }
    bool start();
    void cancel();
    bool isRunning() const { return m_worker != nullptr; }
    const std::optional<ResetScenarioReport> &lastReport() const { return m_report; }
    QString resultText() const;
    QPushButton *startButton() const { return m_startButton; }
    QPushButton *cancelButton() const { return m_cancelButton; }
    QPushButton *backButton() const { return m_backButton; }

Q_SIGNALS:
    void scenarioFinished(const poolscope::ResetScenarioReport &report);
    void scenarioFailed(const poolscope::Failure &failure);

private:
    void handleProgress(const ResetScenarioProgress &progress);
    void handleObservation(const PoolObservation &observation);
    void handleDone(const std::optional<ResetScenarioReport> &report, const Failure &failure);
    // The run's thread, once its report came (or the dialog goes).
    void endRun();
    void returnToPreviousPool();
    void updateControls();
    bool watchesScenarioPool() const;
    // The session watches another pool than the scenario's, and it does not run: the demo's
    // background load, paused for the scenario, is switched on again.
    void resumeDemoIfLeft();

    PoolSession *m_session;
    DemoDriver *m_demo;
    std::unique_ptr<Ui::ResetScenarioDialog> m_ui;
    QPushButton *m_startButton;
    QPushButton *m_cancelButton;
    QPushButton *m_backButton;
    std::unique_ptr<BackgroundWorker> m_worker; // while a run lasts
    // The run's, shared with its thread: it may outlive the dialog by a little.
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::optional<ResetScenarioReport> m_report;
    ResetScenarioProgress::Phase m_phase = ResetScenarioProgress::Phase::Running;
    // Evict/restore markers wait for the next poll, which names the member.
    qint64 m_pendingEvictMs = 0;
    qint64 m_pendingRestoreMs = 0;
    QByteArray m_evictedMember;
    std::optional<Endpoint> m_previousEndpoint;
    QByteArray m_previousKey;
    bool m_demoWasEnabled = false;
    std::optional<Endpoint> m_scenarioEndpoint; // the pool the scenario writes
    QByteArray m_scenarioKey;
    TypedConfirmFunction m_confirmTyped;
};

} // namespace poolscope
