#pragma once

#include "endpoint/Endpoint.h"
#include "session/CsvExport.h"

#include <functional>
#include <optional>

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

namespace poolscope {

class ChartPanel;
class DemoDriver;
class MembersPanel;
class PoolSession;
class ResetScenarioDialog;
class RestoreDialog;
class SeedDialog;
class TestAllocationDialog;

// The dashboard's commands as QActions (menus, toolbar, context menu and shortcuts share them),
// and what they do: open the dialogs, evict and restore the selection, pin to the chart, export.
// Every write goes through the session; every write action is disabled, with a tooltip saying
// why, in read-only mode, while disconnected, or without a fitting selection.
class PoolActions : public QObject {
    Q_OBJECT

public:
    using ConfirmFunction = std::function<bool(const QString &title, const QString &question)>;
    // Yes with the reason typed (maybe empty), or nullopt for cancel.
    using ReasonConfirmFunction =
        std::function<std::optional<QString>(const QString &title, const QString &question)>;
    // On production: a question answered by typing `expected` (the pool's name).
    using TypedConfirmFunction =
        std::function<bool(const QString &title, const QString &question, const QString &expected)>;

    PoolActions(PoolSession *session, MembersPanel *members, ChartPanel *chart,
                QWidget *dialogParent);
    ~PoolActions() override;

    QAction *refreshAction() const { return m_refresh; }
    QAction *seedAction() const { return m_seed; }
    QAction *evictAction() const { return m_evict; }
    QAction *restoreAction() const { return m_restore; }
    QAction *testAllocationsAction() const { return m_testAllocations; }
    QAction *demoResetAction() const { return m_demoReset; }
    QAction *pinAction() const { return m_pin; }
    QAction *findAction() const { return m_find; }
    QAction *exportChartAction() const { return m_exportChart; }
    QAction *exportHistoryAction() const { return m_exportHistory; }
    QAction *exportTableAction() const { return m_exportTable; }
    // Watch the pool watched before the current one again (Alt+Left); again to come back.
    QAction *backAction() const { return m_back; }
    // Check selected (Ctrl+K): one health check round of the selected members.
    QAction *checkSelectedAction() const { return m_checkSelected; }
    // Checkable, off at every start: proxy passwords shown on screen / written into CSV exports.
    QAction *showCredentialsAction() const { return m_showCredentials; }
    QAction *exportCredentialsAction() const { return m_exportCredentials; }
    // Every action that writes to Redis.
    QList<QAction *> writeActions() const;

    // Replace the modal question (tests, scripted use).
    // A ConfirmFunction gives no reason.
    void setConfirmFunction(ConfirmFunction confirm);
    void setReasonConfirmFunction(ReasonConfirmFunction confirm) { m_confirm = std::move(confirm); }
    void setTypedConfirmFunction(TypedConfirmFunction confirm) {
        m_confirmTyped = std::move(confirm);
    }
    // The demo's background load pauses while the count-reset scenario runs.
    void setDemoDriver(DemoDriver *demo) { m_demo = demo; }
    // Runs Check selected; the target URL is asked once (askTarget) and kept in QSettings.
    using AskTargetFunction = std::function<QString(const QString &current)>;
    void setAskTargetFunction(AskTargetFunction ask) { m_askTarget = std::move(ask); }
    bool checkSelected();

    bool evictSelected();
    RestoreDialog *openRestoreDialog();
    SeedDialog *openSeedDialog();
    TestAllocationDialog *openTestAllocationDialog();
    TestAllocationDialog *testAllocationDialog() const;
    ResetScenarioDialog *openResetScenarioDialog();
    bool exportChartPng(const QString &path);
    bool exportHistoryCsv(const QString &path);
    bool exportTableCsv(const QString &path);

    void updateActions();

private:
    QAction *makeAction(const QString &text, const QKeySequence &shortcut, const QString &tip);
    void setWriteEnabled(QAction *action, bool selectionOk, const QString &selectionHint,
                         const QString &enabledTip);
    void trackTarget();
    bool refuseCheck(); // the health hash is written: not in read-only mode
    void goBack();
    void exportWithChooser(const QString &caption, const QString &suggested, const QString &filter,
                           bool (PoolActions::*exporter)(const QString &));

    CsvCredentials csvCredentials() const;

    PoolSession *m_session;
    MembersPanel *m_members;
    ChartPanel *m_chart;
    QWidget *m_dialogParent;
    QAction *m_refresh;
    QAction *m_seed;
    QAction *m_evict;
    QAction *m_restore;
    QAction *m_testAllocations;
    QAction *m_demoReset;
    QAction *m_pin;
    QAction *m_find;
    QAction *m_exportChart;
    QAction *m_exportHistory;
    QAction *m_exportTable;
    QAction *m_back;
    QAction *m_checkSelected;
    AskTargetFunction m_askTarget;
    struct Target {
        Endpoint endpoint;
        QByteArray key;
    };
    std::optional<Target> m_current;
    std::optional<Target> m_previous;
    QAction *m_showCredentials;
    QAction *m_exportCredentials;
    QPointer<SeedDialog> m_seedDialog;
    QPointer<TestAllocationDialog> m_testDialog;
    QPointer<ResetScenarioDialog> m_scenarioDialog;
    DemoDriver *m_demo = nullptr;
    ReasonConfirmFunction m_confirm;
    TypedConfirmFunction m_confirmTyped;
};

} // namespace poolscope
