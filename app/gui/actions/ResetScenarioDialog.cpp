#include "actions/ResetScenarioDialog.h"

#include "ui_ResetScenarioDialog.h"

#include "base/RedisError.h"
#include "client/BackgroundWorker.h"
#include "i18n/LeftToRight.h"
#include "session/DemoDriver.h"
#include "session/DisplayFormat.h"
#include "session/PoolSession.h"
#include "session/WriteLock.h"

#include <QDateTime>
#include <QLocale>
#include <QPushButton>

namespace poolscope {

ResetScenarioDialog::ResetScenarioDialog(PoolSession *session, DemoDriver *demo, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_demo(demo)
    , m_ui(std::make_unique<Ui::ResetScenarioDialog>()) {
    m_ui->setupUi(this);
    m_startButton = m_ui->buttonBox->addButton(tr("Run scenario"), QDialogButtonBox::ActionRole);
    m_cancelButton = m_ui->buttonBox->addButton(tr("Cancel run"), QDialogButtonBox::ActionRole);
    m_backButton =
        m_ui->buttonBox->addButton(tr("Back to previous pool"), QDialogButtonBox::ActionRole);
    m_startButton->setDefault(true);
    m_cancelButton->setToolTip(tr("Stop the scenario now (a partial report follows)"));
    m_backButton->setToolTip(tr("Watch the pool you watched before the scenario again"));
    for (RestorePolicy policy : allRestorePolicies())
        m_ui->policyBox->addItem(restorePolicyLabel(policy), int(policy));
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    m_ui->resultText->setFont(mono);

    connect(m_ui->policyBox, &QComboBox::currentIndexChanged, this,
            [this] { m_ui->descriptionLabel->setText(restorePolicyDescription(spec().policy)); });
    connect(m_startButton, &QPushButton::clicked, this, &ResetScenarioDialog::start);
    connect(m_cancelButton, &QPushButton::clicked, this, &ResetScenarioDialog::cancel);
    connect(m_backButton, &QPushButton::clicked, this, &ResetScenarioDialog::returnToPreviousPool);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_session, &PoolSession::observationApplied, this,
            &ResetScenarioDialog::handleObservation);
    connect(m_session, &PoolSession::writeAvailabilityChanged, this,
            &ResetScenarioDialog::updateControls);
    // Left by any way (Back, Alt+Left, a URL typed, a saved connection): the demo comes back.
    connect(m_session, &PoolSession::targetChanged, this, &ResetScenarioDialog::resumeDemoIfLeft);
    setPolicy(RestorePolicy::Zero);
    updateControls();
}

ResetScenarioDialog::~ResetScenarioDialog() {
    endRun(); // handleDone never runs now
}

void ResetScenarioDialog::endRun() {
    if (!m_worker)
        return;
    m_cancel->store(true);
    m_worker.reset();
    m_session->endOwnWrites();
}

bool ResetScenarioDialog::watchesScenarioPool() const {
    return m_scenarioEndpoint && m_session->hasTarget() &&
           m_session->endpoint() == *m_scenarioEndpoint && m_session->poolKey() == m_scenarioKey;
}

void ResetScenarioDialog::resumeDemoIfLeft() {
    if (!m_demoWasEnabled || isRunning() || watchesScenarioPool())
        return;
    m_demoWasEnabled = false;
    if (!m_demo)
        return;
    m_demo->setEnabled(true);
    m_session->log(
        LogSeverity::Info, QStringLiteral("demo"),
        tr("the count-reset scenario's pool was left: the demo, paused for the scenario, is "
           "on again"));
}

void ResetScenarioDialog::setPolicy(RestorePolicy policy) {
    m_ui->policyBox->setCurrentIndex(m_ui->policyBox->findData(int(policy)));
    m_ui->descriptionLabel->setText(restorePolicyDescription(policy));
}

void ResetScenarioDialog::setMembers(int members) {
    m_ui->membersSpin->setValue(members);
}

void ResetScenarioDialog::setRate(double perSecond) {
    m_ui->rateSpin->setValue(perSecond);
}

void ResetScenarioDialog::setDurations(double beforeSeconds, double afterSeconds) {
    m_ui->beforeSpin->setValue(beforeSeconds);
    m_ui->afterSpin->setValue(afterSeconds);
}

void ResetScenarioDialog::setKey(const QByteArray &key) {
    m_ui->keyEdit->setText(QString::fromUtf8(key));
}

ResetScenarioSpec ResetScenarioDialog::spec() const {
    ResetScenarioSpec spec;
    spec.endpoint = m_session->endpoint();
    spec.poolKey = m_ui->keyEdit->text().trimmed().toUtf8();
    spec.members = m_ui->membersSpin->value();
    spec.ratePerSecond = m_ui->rateSpin->value();
    spec.policy = RestorePolicy(m_ui->policyBox->currentData().toInt());
    spec.before = std::chrono::milliseconds(qint64(m_ui->beforeSpin->value() * 1000.0));
    spec.after = std::chrono::milliseconds(qint64(m_ui->afterSpin->value() * 1000.0));
    spec.replace = true;
    spec.actor = AuditActor::dashboard();
    return spec;
}

QString ResetScenarioDialog::resultText() const {
    return m_ui->resultText->toPlainText();
}

void ResetScenarioDialog::updateControls() {
    const QString blocked = m_session->writeBlockReason();
    const bool running = isRunning();
    m_startButton->setEnabled(!running && blocked.isEmpty());
    m_startButton->setToolTip(blocked.isEmpty() ? tr("Run the scenario (writes the scenario key)")
                                                : tr("Disabled: %1").arg(blocked));
    m_cancelButton->setEnabled(running);
    m_backButton->setEnabled(!running && m_previousEndpoint.has_value());
    for (QWidget *widget :
         {static_cast<QWidget *>(m_ui->policyBox), static_cast<QWidget *>(m_ui->membersSpin),
          static_cast<QWidget *>(m_ui->rateSpin), static_cast<QWidget *>(m_ui->beforeSpin),
          static_cast<QWidget *>(m_ui->afterSpin), static_cast<QWidget *>(m_ui->keyEdit)})
        widget->setEnabled(!running);
}

bool ResetScenarioDialog::start() {
    const QString blocked = m_session->writeBlockReason();
    if (isRunning() || !blocked.isEmpty()) {
        if (!blocked.isEmpty())
            m_ui->resultText->setPlainText(tr("Cannot run: %1").arg(blocked));
        return false;
    }
    const ResetScenarioSpec run = spec();
    if (run.poolKey.isEmpty()) {
        m_ui->resultText->setPlainText(tr("Name the scenario key first."));
        return false;
    }
    if (m_session->writeLock().needsTypedConfirmation() &&
        (!m_confirmTyped ||
         !m_confirmTyped(tr("Count-reset demo on production"),
                         tr("The count-reset demo replaces pool “%1” with its own members, "
                            "evicts one and restores it. Run it on this production server?")
                             .arg(QString::fromUtf8(run.poolKey)),
                         QString::fromUtf8(run.poolKey)))) {
        m_ui->resultText->setPlainText(tr("Not run: the pool's name was not typed."));
        return false;
    }
    if (!m_previousEndpoint && run.poolKey != m_session->poolKey()) {
        m_previousEndpoint = m_session->endpoint();
        m_previousKey = m_session->poolKey();
    }
    if (m_demo && m_demo->isEnabled()) {
        m_demoWasEnabled = true;
        m_demo->setEnabled(false); // its load would disturb the measurement
    }
    m_report.reset();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_phase = ResetScenarioProgress::Phase::Running;
    m_pendingEvictMs = m_pendingRestoreMs = 0;
    m_evictedMember.clear();
    m_ui->resultText->setPlainText(tr("Running…"));
    m_ui->progressBar->setRange(0, 1000);
    m_ui->progressBar->setValue(0);
    m_session->log(LogSeverity::Info, QStringLiteral("scenario"),
                   tr("count-reset scenario: %n member(s), %1/s, policy %2, pool \"%3\"", nullptr,
                      int(run.members))
                       .arg(formatRate(run.ratePerSecond), restorePolicyName(run.policy),
                            i18n::leftToRight(QString::fromUtf8(run.poolKey))));
    m_scenarioEndpoint = run.endpoint;
    m_scenarioKey = run.poolKey;
    m_session->connectTo(run.endpoint, run.poolKey);
    // Its seed (replacing a pool of an earlier run), eviction and restore are ours, not outside.
    m_session->beginOwnWrites();

    m_worker = std::make_unique<BackgroundWorker>(QStringLiteral("poolscope-scenario"));
    m_worker->post([this, link = m_worker->link(), cancel = m_cancel, run] {
        std::optional<ResetScenarioReport> report;
        Failure failure;
        try {
            report = runResetScenario(
                run,
                [this, link](const ResetScenarioProgress &progress) {
                    link.deliver([this, progress] { handleProgress(progress); });
                },
                cancel.get());
        } catch (const RedisError &e) {
            failure = Failure(e, dashboardErrorText(e));
        } catch (const std::exception &e) {
            failure = Failure(RedisError::Kind::Connection, QString::fromUtf8(e.what()));
        }
        link.deliver([this, report, failure] { handleDone(report, failure); });
    });
    updateControls();
    return true;
}

void ResetScenarioDialog::cancel() {
    if (m_cancel)
        m_cancel->store(true);
    m_ui->phaseLabel->setText(tr("cancelling…"));
}

void ResetScenarioDialog::handleProgress(const ResetScenarioProgress &progress) {
    if (progress.totalSeconds > 0)
        m_ui->progressBar->setValue(int(1000.0 * progress.elapsedSeconds / progress.totalSeconds));
    QString phase;
    switch (progress.phase) {
    case ResetScenarioProgress::Phase::Running:
        phase = tr("steady load");
        break;
    case ResetScenarioProgress::Phase::Evicted:
        phase = tr("one member evicted");
        break;
    case ResetScenarioProgress::Phase::Restored:
        phase = tr("restored: %Ln allocation(s) went to it since", nullptr,
                   int(progress.restoredMemberAllocations));
        break;
    case ResetScenarioProgress::Phase::Finished:
        phase = tr("finished");
        break;
    }
    m_ui->phaseLabel->setText(
        tr("%1 / %2 · %Ln allocation(s) · %3", nullptr, int(progress.allocations))
            .arg(formatSeconds(progress.elapsedSeconds), formatSeconds(progress.totalSeconds),
                 phase));
    if (progress.phase != m_phase) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (progress.phase == ResetScenarioProgress::Phase::Evicted)
            m_pendingEvictMs = now;
        else if (progress.phase == ResetScenarioProgress::Phase::Restored)
            m_pendingRestoreMs = now;
        m_phase = progress.phase;
        m_session->pollNow();
    }
}

void ResetScenarioDialog::handleObservation(const PoolObservation &observation) {
    if (m_pendingEvictMs > 0 && !observation.snapshot.evicted.isEmpty()) {
        m_evictedMember = observation.snapshot.evicted.constFirst().member;
        m_session->addHistoryEvent(
            HistoryEvent::Kind::Evict, m_evictedMember,
            tr("evict %1 (scenario)").arg(QString::fromUtf8(m_evictedMember)), m_pendingEvictMs);
        m_pendingEvictMs = 0;
    }
    if (m_pendingRestoreMs > 0 && !m_evictedMember.isEmpty()) {
        const bool stillEvicted =
            std::any_of(observation.snapshot.evicted.cbegin(), observation.snapshot.evicted.cend(),
                        [this](const EvictedMember &m) { return m.member == m_evictedMember; });
        if (!stillEvicted) {
            m_session->addHistoryEvent(
                HistoryEvent::Kind::Restore, m_evictedMember,
                tr("restore %1 (%2)")
                    .arg(QString::fromUtf8(m_evictedMember), restorePolicyName(spec().policy)),
                m_pendingRestoreMs);
            m_pendingRestoreMs = 0;
        }
    }
}

void ResetScenarioDialog::handleDone(const std::optional<ResetScenarioReport> &report,
                                     const Failure &failure) {
    endRun();
    resumeDemoIfLeft(); // left while it ran
    m_ui->progressBar->setValue(m_ui->progressBar->maximum());
    if (!report) {
        m_ui->resultText->setPlainText(tr("The scenario failed: %1").arg(failure.text));
        m_session->log(LogSeverity::Error, QStringLiteral("scenario"), failure.text);
        updateControls();
        Q_EMIT scenarioFailed(failure);
        return;
    }
    m_report = report;
    const ResetScenarioReport &r = *report;
    QStringList lines;
    lines << (r.cancelled ? tr("pool \"%1\": %n member(s), %2/s asked, %3/s achieved (cancelled)",
                               nullptr, int(r.members))
                          : tr("pool \"%1\": %n member(s), %2/s asked, %3/s achieved", nullptr,
                               int(r.members)))
                 .arg(i18n::leftToRight(QString::fromUtf8(r.poolKey)), formatRate(r.ratePerSecond),
                      formatRate(r.achievedRatePerSecond));
    lines << tr("%1: evicted at %2 with count %3, restored at %4 by \"%5\" at %6")
                 .arg(QString::fromUtf8(r.member), formatSeconds(r.evictedAtSeconds),
                      formatCount(r.savedCount), formatSeconds(r.restoredAtSeconds),
                      restorePolicyName(r.policy), formatCount(r.restoredCount));
    lines << tr("forecast: the next ~%1 allocations go to it (pool minimum %2 - "
                "restored count %3)")
                 .arg(formatCount(r.forecastRun), formatCount(r.poolMinimumAtRestore),
                      formatCount(r.restoredCount));
    lines << tr("observed: longest run %Ln consecutive allocation(s)", nullptr, int(r.longestRun));
    lines << tr("share in the first %1 after the restore: %2 (fair share %3)")
                 .arg(formatSeconds(r.shareWindowSeconds), formatShare(r.shareInWindow),
                      formatShare(r.fairShare));
    lines << (r.catchUpSeconds ? tr("caught up with the pool minimum after %1")
                                     .arg(formatSeconds(*r.catchUpSeconds))
                               : tr("did not catch up within the run"));
    m_ui->resultText->setPlainText(lines.join(QLatin1Char('\n')));
    m_session->log(LogSeverity::Info, QStringLiteral("scenario"),
                   tr("%1 by %2: forecast run ~%3, observed %4, share %5")
                       .arg(QString::fromUtf8(r.member), restorePolicyName(r.policy),
                            formatCount(r.forecastRun))
                       .arg(QLocale().toString(r.longestRun))

                       .arg(formatShare(r.shareInWindow)));
    updateControls();
    Q_EMIT scenarioFinished(r);
}

void ResetScenarioDialog::returnToPreviousPool() {
    if (!m_previousEndpoint || isRunning())
        return;
    const Endpoint previous = *m_previousEndpoint;
    m_previousEndpoint.reset();
    m_session->connectTo(previous, m_previousKey); // resumes the demo (resumeDemoIfLeft)
    updateControls();
}

} // namespace poolscope
