#include "actions/PoolActions.h"

#include "chart/ChartPanel.h"
#include "health/HealthTarget.h"
#include "session/CsvExport.h"
#include "members/MembersPanel.h"
#include "session/PoolHealth.h"
#include "session/PoolSession.h"
#include "members/PoolTableModel.h"
#include "actions/ReasonField.h"
#include "actions/ResetScenarioDialog.h"
#include "actions/RestoreDialog.h"
#include "actions/SeedDialog.h"
#include "actions/TestAllocationDialog.h"
#include "actions/TypedConfirmDialog.h"
#include "session/WriteLock.h"

#include <algorithm>

#include <QAction>
#include <QStringList>
#include <QDateTime>
#include <QFileDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QTextStream>

namespace poolscope {

PoolActions::PoolActions(PoolSession *session, MembersPanel *members, ChartPanel *chart,
                         QWidget *dialogParent)
    : QObject(dialogParent)
    , m_session(session)
    , m_members(members)
    , m_chart(chart)
    , m_dialogParent(dialogParent) {
    m_refresh = makeAction(tr("Refresh"), QKeySequence(Qt::Key_F5), tr("Poll the pool now (F5)"));
    m_seed = makeAction(tr("Seed…"), QKeySequence(Qt::CTRL | Qt::Key_N),
                        tr("Import a proxy list into the pool (Ctrl+N)"));
    //: Evict: take the member out of rotation, keeping its allocation count.
    m_evict = makeAction(tr("Evict"), QKeySequence(Qt::Key_Delete),

                         tr("Take the selected members out of the pool, keeping "
                            "their counts (Delete)"));
    m_restore = makeAction(tr("Restore…"), QKeySequence(Qt::CTRL | Qt::Key_R),
                           tr("Bring the selected evicted members back, choosing "
                              "their count (Ctrl+R)"));
    m_testAllocations = makeAction(tr("Test allocations…"), QKeySequence(Qt::CTRL | Qt::Key_T),
                                   tr("Run allocations through allocate.lua "
                                      "(Ctrl+T)"));
    m_demoReset = makeAction(tr("Demo: count reset…"), {},
                             tr("Run the count-reset scenario on its own pool: evict a "
                                "member, restore it, and compare the flood with the "
                                "forecast"));
    m_pin = makeAction(tr("Pin to chart"), QKeySequence(Qt::CTRL | Qt::Key_P),
                       tr("Always chart the selected members, however big the pool "
                          "(Ctrl+P); again to unpin"));
    m_find =
        makeAction(tr("Find member"), QKeySequence::Find, tr("Filter the members table (Ctrl+F)"));
    m_exportChart = makeAction(tr("Export chart as PNG…"), {}, tr("Save the chart as an image"));
    m_exportHistory = makeAction(tr("Export history as CSV…"), {},
                                 tr("Save every member's count over time: time, "
                                    "member, count"));
    m_exportTable = makeAction(tr("Export table as CSV…"), {},
                               tr("Save the members table as shown (sorted and "
                                  "filtered)"));
    m_back = makeAction(tr("Back to previous pool"), QKeySequence(Qt::ALT | Qt::Key_Left),
                        tr("Watch the pool watched before this one again "
                           "(Alt+Left)"));
    m_checkSelected = makeAction(tr("Check selected"), QKeySequence(Qt::CTRL | Qt::Key_K),
                                 tr("Check the selected members through their proxies against the "
                                    "health target; results into the health hash (Ctrl+K)"));
    m_askTarget = [this](const QString &current) {
        return QInputDialog::getText(m_dialogParent, tr("Health check target"),
                                     tr("URL fetched through each proxy (http:// or "
                                        "https://):"),
                                     QLineEdit::Normal, current);
    };
    connect(m_checkSelected, &QAction::triggered, this, &PoolActions::checkSelected);
    m_pin->setCheckable(true);
    // Credentials: masked on screen and in exports unless asked, for this run only (never saved).
    m_showCredentials = makeAction(tr("Show credentials"), {},
                                   tr("Show proxy passwords in member ids "
                                      "(user:pass@host) in the table, chart, events "
                                      "and dialogs; off: user:****@host"));
    m_showCredentials->setCheckable(true);
    m_exportCredentials = makeAction(tr("Include credentials in CSV exports"), {},
                                     tr("Write proxy passwords into exported CSV "
                                        "files; off: user:****@host"));
    m_exportCredentials->setCheckable(true);
    // Space pauses and Delete evicts: keep them out of the way of text fields.
    m_evict->setShortcutContext(Qt::WindowShortcut);

    m_confirm = [this](const QString &title, const QString &question) {
        return askWithReason(m_dialogParent, title, question);
    };
    m_confirmTyped = [this](const QString &title, const QString &question,
                            const QString &expected) {
        return TypedConfirmDialog::ask(m_dialogParent, title, question, expected);
    };

    connect(m_refresh, &QAction::triggered, m_session, &PoolSession::pollNow);
    connect(m_seed, &QAction::triggered, this, &PoolActions::openSeedDialog);
    connect(m_evict, &QAction::triggered, this, &PoolActions::evictSelected);
    connect(m_restore, &QAction::triggered, this, &PoolActions::openRestoreDialog);
    connect(m_testAllocations, &QAction::triggered, this, &PoolActions::openTestAllocationDialog);
    connect(m_demoReset, &QAction::triggered, this, &PoolActions::openResetScenarioDialog);
    connect(m_pin, &QAction::triggered, this,
            [this] { m_session->togglePins(m_members->selectedMembers()); });
    connect(m_session, &PoolSession::pinsChanged, this, &PoolActions::updateActions);
    connect(m_back, &QAction::triggered, this, &PoolActions::goBack);
    connect(m_session, &PoolSession::targetChanged, this, &PoolActions::trackTarget);
    // A key that is not a sorted set (or whose evicted-members hash is no hash) fails every pool
    // command: Seed and Test allocations say why they are off.
    connect(m_session, &PoolSession::keyProblemChanged, this, &PoolActions::updateActions);
    connect(m_find, &QAction::triggered, m_members, &MembersPanel::focusFilter);
    connect(m_showCredentials, &QAction::toggled, m_session, &PoolSession::setCredentialsShown);
    connect(m_session, &PoolSession::credentialsShownChanged, m_showCredentials,
            &QAction::setChecked);
    connect(m_session, &PoolSession::credentialsShownChanged, this, &PoolActions::updateActions);
    connect(m_exportChart, &QAction::triggered, this, [this] {
        exportWithChooser(tr("Export chart"), QStringLiteral("poolscope-chart.png"),
                          tr("PNG images (*.png)"), &PoolActions::exportChartPng);
    });
    connect(m_exportHistory, &QAction::triggered, this, [this] {
        exportWithChooser(tr("Export history"), QStringLiteral("poolscope-history.csv"),
                          tr("CSV files (*.csv)"), &PoolActions::exportHistoryCsv);
    });
    connect(m_exportTable, &QAction::triggered, this, [this] {
        exportWithChooser(tr("Export table"), QStringLiteral("poolscope-table.csv"),
                          tr("CSV files (*.csv)"), &PoolActions::exportTableCsv);
    });

    connect(m_session, &PoolSession::writeAvailabilityChanged, this, &PoolActions::updateActions);
    connect(m_session, &PoolSession::stateChanged, this, &PoolActions::updateActions);
    // After the table took a poll (not on the poll itself): a selected row may have changed state.
    connect(m_members, &MembersPanel::refreshed, this, &PoolActions::updateActions);
    connect(m_members, &MembersPanel::selectionChanged, this, &PoolActions::updateActions);
    m_members->setContextActions({m_evict, m_restore, m_checkSelected, m_pin});
    updateActions();
}

PoolActions::~PoolActions() = default;

QAction *PoolActions::makeAction(const QString &text, const QKeySequence &shortcut,
                                 const QString &tip) {
    auto *action = new QAction(text, this);
    if (!shortcut.isEmpty())
        action->setShortcut(shortcut);
    action->setToolTip(tip);
    action->setStatusTip(tip);
    action->setData(tip); // the tooltip to show when enabled
    return action;
}

QList<QAction *> PoolActions::writeActions() const {
    return {m_seed, m_evict, m_restore, m_testAllocations, m_demoReset};
}

void PoolActions::setWriteEnabled(QAction *action, bool selectionOk, const QString &selectionHint,
                                  const QString &enabledTip) {
    const QString blocked = m_session->writeBlockReason();
    action->setEnabled(blocked.isEmpty() && selectionOk);
    action->setToolTip(!blocked.isEmpty() ? tr("Disabled: %1").arg(blocked)
                       : !selectionOk     ? tr("Disabled: %1").arg(selectionHint)
                                          : enabledTip);
}

bool PoolActions::checkSelected() {
    const QList<QByteArray> members = m_members->selectedMembers();
    if (members.isEmpty() || refuseCheck())
        return false;
    QString target = savedHealthTargetUrl();
    if (target.isEmpty()) {
        target = m_askTarget(QStringLiteral("http://")).trimmed();
        if (target.isEmpty())
            return false;
    }
    QString error;
    if (!m_session->health().check(members, target, &error)) {
        m_session->log(LogSeverity::Error, QStringLiteral("health"),
                       tr("Check selected: %1").arg(error));
        return false;
    }
    saveHealthTargetUrl(target);
    return true;
}

bool PoolActions::refuseCheck() {
    const QString blocked = m_session->writeBlockReason();
    if (blocked.isEmpty())
        return false;
    m_session->log(LogSeverity::Error, QStringLiteral("health"),
                   tr("Check selected refused: %1").arg(blocked));
    return true;
}

void PoolActions::updateActions() {
    const QList<QByteArray> inPool = m_members->selectedPoolMembers();
    const QList<QByteArray> evicted = m_members->selectedEvictedMembers();
    setWriteEnabled(m_checkSelected, !inPool.isEmpty() || !evicted.isEmpty(),
                    tr("select members to check first"), m_checkSelected->data().toString());
    const KeyProblem &problem = m_session->keyProblem();
    const QString blockingProblem = problem.blocksPoolCommands() ? problem.text : QString();
    setWriteEnabled(m_seed, blockingProblem.isEmpty(), blockingProblem, m_seed->data().toString());
    setWriteEnabled(m_testAllocations, blockingProblem.isEmpty(), blockingProblem,
                    m_testAllocations->data().toString());
    if (m_testDialog)
        m_testDialog->setKeyProblem(blockingProblem);
    setWriteEnabled(m_demoReset, true, {}, m_demoReset->data().toString());
    setWriteEnabled(
        m_evict, !inPool.isEmpty(), tr("select one or more members in the pool first"),
        inPool.size() == 1
            ? tr("Evict %1 (Delete)").arg(m_session->displayMember(inPool.constFirst()))
            : tr("Evict the %n selected member(s) (Delete)", nullptr, int(inPool.size())));
    setWriteEnabled(
        m_restore, !evicted.isEmpty(), tr("select one or more evicted (grey) members first"),
        evicted.size() == 1
            ? tr("Restore %1 (Ctrl+R)").arg(m_session->displayMember(evicted.constFirst()))
            : tr("Restore the %n selected member(s) (Ctrl+R)", nullptr, int(evicted.size())));
    const bool connected = m_session->hasTarget();
    m_refresh->setEnabled(connected);
    m_refresh->setToolTip(connected ? m_refresh->data().toString() : tr("Disabled: not connected"));
    const bool anySelected = !inPool.isEmpty() || !evicted.isEmpty();
    m_pin->setEnabled(anySelected);
    // What triggering does now: unpin when every selected member is pinned (as togglePins).
    const QList<QByteArray> selected = m_members->selectedMembers();
    const bool allPinned = !selected.isEmpty() && std::all_of(selected.cbegin(), selected.cend(),
                                                              [this](const QByteArray &m) {
                                                                  return m_session->isPinned(m);
                                                              });
    m_pin->setChecked(allPinned);
    m_pin->setText(allPinned ? tr("Unpin from chart") : tr("Pin to chart"));
    m_pin->setToolTip(!anySelected ? tr("Disabled: select members in the table first")
                      : allPinned  ? tr("Stop always charting the selected members "
                                         "(Ctrl+P)")
                                   : m_pin->data().toString());
    m_back->setEnabled(m_previous.has_value());
    m_back->setToolTip(m_previous ? tr("Watch \"%1\" on %2 again (Alt+Left)")
                                        .arg(QString::fromUtf8(m_previous->key),
                                             m_previous->endpoint.toDisplayString())
                                  : tr("Disabled: no other pool watched in this window yet"));
}

void PoolActions::trackTarget() {
    Target now{m_session->endpoint(), m_session->poolKey()};
    if (m_current && (m_current->endpoint != now.endpoint || m_current->key != now.key))
        m_previous = m_current;
    m_current = std::move(now);
    updateActions();
}

void PoolActions::goBack() {
    if (!m_previous)
        return;
    const Target target = *m_previous;
    m_session->connectTo(target.endpoint, target.key);
}

bool PoolActions::evictSelected() {
    const QList<QByteArray> members = m_members->selectedPoolMembers();
    if (members.isEmpty() || !m_session->canWrite())
        return false;
    // Always asked, naming the members: the rows under the pointer are not proof enough.
    QString question;
    if (members.size() == 1) {
        question = tr("Evict %1?\n\nIt gets no allocations until restored; its "
                      "count is saved.")
                       .arg(m_session->displayMember(members.constFirst()));
    } else {
        constexpr qsizetype kListed = 12;
        QStringList lines;
        for (qsizetype i = 0; i < std::min(kListed, members.size()); ++i)
            lines << tr("  • %1").arg(m_session->displayMember(members[i]));
        if (members.size() > kListed)
            lines << tr("  … and %n more", nullptr, int(members.size() - kListed));
        //: Evict: take out of rotation; the member's allocation count is kept.
        question = tr("Evict these %n member(s)?\n\n%1\n\nThey get no allocations "
                      "until restored; their counts are saved.",
                      nullptr, int(members.size()))
                       .arg(lines.join(QLatin1Char('\n')));
    }
    const QString title = members.size() == 1 ? tr("Evict member") : tr("Evict members");
    // On production, several members at once need the pool's name typed, not one click.
    const bool typed = members.size() > 1 && m_session->writeLock().needsTypedConfirmation();
    std::optional<QString> reason;
    if (!typed)
        reason = m_confirm(title, question);
    else if (m_confirmTyped(title, question, QString::fromUtf8(m_session->poolKey())))
        reason = QString();
    if (!reason)
        return false;
    return m_session->evict(members, *reason);
}

void PoolActions::setConfirmFunction(ConfirmFunction confirm) {
    m_confirm = [confirm = std::move(confirm)](const QString &title,
                                               const QString &question) -> std::optional<QString> {
        if (!confirm(title, question))
            return std::nullopt;
        return QString();
    };
}

RestoreDialog *PoolActions::openRestoreDialog() {
    const QList<QByteArray> members = m_members->selectedEvictedMembers();
    if (members.isEmpty() || !m_session->canWrite())
        return nullptr;
    auto *dialog = new RestoreDialog(m_session, members, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        // A restore at zero floods the pool: on production, the pool's name typed first.
        if (dialog->policy() == RestorePolicy::Zero &&
            m_session->writeLock().needsTypedConfirmation() &&
            !m_confirmTyped(tr("Restore at zero"),
                            tr("Restore %n member(s) at count zero? Each gets every allocation "
                               "until it catches up with the pool.",
                               nullptr, int(dialog->members().size())),
                            QString::fromUtf8(m_session->poolKey()))) {
            m_session->log(LogSeverity::Info, QStringLiteral("restore"),
                           tr("restore at zero not confirmed: nothing written"));
            return;
        }
        m_session->restore(dialog->members(), dialog->policy(), dialog->startCount(),
                           dialog->reason());
    });
    dialog->open();
    return dialog;
}

SeedDialog *PoolActions::openSeedDialog() {
    if (!m_session->canWrite())
        return nullptr;
    if (!m_seedDialog) {
        m_seedDialog = new SeedDialog(m_session, m_dialogParent);
        m_seedDialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_seedDialog->show();
    m_seedDialog->raise();
    m_seedDialog->activateWindow();
    return m_seedDialog;
}

TestAllocationDialog *PoolActions::testAllocationDialog() const {
    return m_testDialog;
}

TestAllocationDialog *PoolActions::openTestAllocationDialog() {
    const KeyProblem &problem = m_session->keyProblem();
    if (!m_session->canWrite() || problem.blocksPoolCommands())
        return nullptr;
    if (!m_testDialog)
        m_testDialog = new TestAllocationDialog(m_session, m_dialogParent);
    m_testDialog->setKeyProblem(problem.blocksPoolCommands() ? problem.text : QString());
    m_testDialog->show();
    m_testDialog->raise();
    m_testDialog->activateWindow();
    return m_testDialog;
}

ResetScenarioDialog *PoolActions::openResetScenarioDialog() {
    if (!m_session->canWrite())
        return nullptr;
    if (!m_scenarioDialog) {
        m_scenarioDialog = new ResetScenarioDialog(m_session, m_demo, m_dialogParent);
        m_scenarioDialog->setTypedConfirmFunction(
            [this](const QString &title, const QString &question, const QString &expected) {
                return m_confirmTyped(title, question, expected);
            });
    }
    m_scenarioDialog->show();
    m_scenarioDialog->raise();
    m_scenarioDialog->activateWindow();
    return m_scenarioDialog;
}

void PoolActions::exportWithChooser(const QString &caption, const QString &suggested,
                                    const QString &filter,
                                    bool (PoolActions::*exporter)(const QString &)) {
    const QString path = QFileDialog::getSaveFileName(m_dialogParent, caption, suggested, filter);
    if (!path.isEmpty())
        (this->*exporter)(path);
}

bool PoolActions::exportChartPng(const QString &path) {
    const bool ok = m_chart->saveImage(path);
    m_session->log(ok ? LogSeverity::Info : LogSeverity::Error, QStringLiteral("export"),
                   ok ? tr("chart saved to %1").arg(path)
                      : tr("cannot save the chart to %1").arg(path));
    return ok;
}

namespace {

bool writeText(const QString &path, const std::function<void(QTextStream &)> &write,
               QString *error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        *error = file.errorString();
        return false;
    }
    QTextStream out(&file);
    write(out);
    out.flush();
    if (!file.commit()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace

CsvCredentials PoolActions::csvCredentials() const {
    return m_exportCredentials->isChecked() ? CsvCredentials::Shown : CsvCredentials::Masked;
}

bool PoolActions::exportHistoryCsv(const QString &path) {
    QString error;
    const bool ok = writeText(
        path,
        [this](QTextStream &out) {
            writeHistoryCsv(out, m_session->history(), m_session->knownMembers(), 0,
                            QDateTime::currentMSecsSinceEpoch(), csvCredentials());
        },
        &error);
    m_session->log(ok ? LogSeverity::Info : LogSeverity::Error, QStringLiteral("export"),
                   ok ? tr("history saved to %1").arg(path)
                      : tr("cannot save the history to %1: %2").arg(path, error));
    return ok;
}

bool PoolActions::exportTableCsv(const QString &path) {
    QString error;
    const bool ok = writeText(
        path,
        [this](QTextStream &out) {
            writeModelCsv(out, *m_members->proxyModel(), PoolTableModel::RawRole, csvCredentials());
        },
        &error);
    m_session->log(ok ? LogSeverity::Info : LogSeverity::Error, QStringLiteral("export"),
                   ok ? tr("table saved to %1").arg(path)
                      : tr("cannot save the table to %1: %2").arg(path, error));
    return ok;
}

} // namespace poolscope
