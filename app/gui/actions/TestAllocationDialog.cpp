#include "actions/TestAllocationDialog.h"

#include "ui_TestAllocationDialog.h"

#include "session/DisplayFormat.h"
#include "session/PoolSession.h"

#include <QLocale>
#include <QPushButton>
#include <QShowEvent>

namespace poolscope {

TestAllocationDialog::TestAllocationDialog(PoolSession *session, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_ui(std::make_unique<Ui::TestAllocationDialog>())
    , m_runner(std::make_unique<LoadRunner>()) {
    m_ui->setupUi(this);
    m_startButton = m_ui->buttonBox->addButton(tr("Start"), QDialogButtonBox::ActionRole);
    m_cancelButton = m_ui->buttonBox->addButton(tr("Cancel run"), QDialogButtonBox::ActionRole);
    m_startButton->setDefault(true);
    m_cancelButton->setToolTip(tr("Stop the run now; the summary still accounts for "
                                  "every allocation"));
    m_ui->modeBox->addItem(tr("atomic script (allocate.lua)"), true);
    m_ui->modeBox->addItem(tr("naive ZRANGE + ZINCRBY (race demo)"), false);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    m_ui->resultText->setFont(mono);

    connect(m_startButton, &QPushButton::clicked, this, &TestAllocationDialog::start);
    connect(m_cancelButton, &QPushButton::clicked, this, &TestAllocationDialog::cancel);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_ui->countRadio, &QRadioButton::toggled, this, &TestAllocationDialog::updateControls);
    connect(m_runner.get(), &LoadRunner::progressed, this, &TestAllocationDialog::handleProgress);
    connect(m_runner.get(), &LoadRunner::finished, this, &TestAllocationDialog::handleFinished);
    connect(m_session, &PoolSession::writeAvailabilityChanged, this,
            &TestAllocationDialog::updateControls);
    updateControls();
}

TestAllocationDialog::~TestAllocationDialog() = default; // the runner cancels and joins

void TestAllocationDialog::setCount(qint64 count) {
    m_ui->countRadio->setChecked(true);
    m_ui->countSpin->setValue(int(std::clamp<qint64>(count, 1, m_ui->countSpin->maximum())));
}

void TestAllocationDialog::setDuration(double seconds) {
    m_ui->durationRadio->setChecked(true);
    m_ui->durationSpin->setValue(seconds);
}

void TestAllocationDialog::setWorkers(int workers) {
    m_ui->workersSpin->setValue(workers);
}

void TestAllocationDialog::setPipeline(int pipeline) {
    m_ui->pipelineSpin->setValue(pipeline);
}

void TestAllocationDialog::setRate(double perSecond) {
    m_ui->rateSpin->setValue(perSecond);
}

void TestAllocationDialog::setAtomic(bool atomic) {
    m_ui->modeBox->setCurrentIndex(atomic ? 0 : 1);
}

LoadSpec TestAllocationDialog::spec() const {
    LoadSpec spec;
    spec.endpoint = m_session->endpoint();
    spec.poolKey = m_session->poolKey();
    spec.workers = m_ui->workersSpin->value();
    spec.pipeline = m_ui->pipelineSpin->value();
    if (m_ui->countRadio->isChecked())
        spec.total = m_ui->countSpin->value();
    else
        spec.duration = std::chrono::milliseconds(qint64(m_ui->durationSpin->value() * 1000.0));
    spec.ratePerSecond = m_ui->rateSpin->value();
    spec.atomic = m_ui->modeBox->currentData().toBool();
    spec.connection.clientName = QStringLiteral("poolscope-test-allocations");
    return spec;
}

bool TestAllocationDialog::start() {
    const QString writeBlocked = m_session->writeBlockReason();
    const QString blocked = writeBlocked.isEmpty() ? m_keyProblem : writeBlocked;
    if (!blocked.isEmpty()) {
        m_ui->resultText->setPlainText(tr("Cannot run: %1").arg(blocked));
        return false;
    }
    const LoadSpec run = spec();
    if (!m_runner->start(run))
        return false;
    m_lastReport.reset();
    // Count runs show allocations done; duration runs the time gone, in ms.
    m_durationMs = run.total > 0 ? 0 : qint64(run.duration.count());
    m_runClock.start();
    m_ui->progressBar->setRange(0, run.total > 0 ? int(std::min<qint64>(run.total, INT_MAX))
                                                 : int(std::min<qint64>(m_durationMs, INT_MAX)));
    m_ui->progressBar->setValue(0);
    m_ui->progressBar->setFormat(QStringLiteral("%p%"));
    m_ui->rateLabel->setText(tr("starting %n worker(s)…", nullptr, run.workers));
    m_ui->resultText->clear();
    m_session->log(
        LogSeverity::Info, QStringLiteral("load"),
        tr("test allocations started: %1, %n worker(s), pipeline %2%3, %4", nullptr, run.workers)
            .arg(run.total > 0
                     ? tr("%Ln allocation(s)", nullptr, int(std::min<qint64>(run.total, INT_MAX)))
                     : formatSeconds(double(run.duration.count()) / 1000.0))
            .arg(QLocale().toString(run.pipeline))

            .arg(run.ratePerSecond > 0 ? tr(", max %1/s").arg(formatRate(run.ratePerSecond))
                                       : QString())
            .arg(run.atomic ? tr("atomic") : tr("naive")));
    updateControls();
    return true;
}

void TestAllocationDialog::cancel() {
    if (m_runner->isRunning()) {
        m_runner->cancel();
        m_ui->rateLabel->setText(tr("cancelling…"));
    }
}

bool TestAllocationDialog::isRunning() const {
    return m_runner->isRunning();
}

QString TestAllocationDialog::resultText() const {
    return m_ui->resultText->toPlainText();
}

void TestAllocationDialog::updateControls() {
    const bool running = m_runner->isRunning();
    const QString writeBlocked = m_session->writeBlockReason();
    const QString blocked = writeBlocked.isEmpty() ? m_keyProblem : writeBlocked;
    m_startButton->setEnabled(!running && blocked.isEmpty());
    m_startButton->setToolTip(blocked.isEmpty() ? tr("Start the test allocations")
                                                : tr("Disabled: %1").arg(blocked));
    m_cancelButton->setEnabled(running);
    m_ui->countSpin->setEnabled(!running && m_ui->countRadio->isChecked());
    m_ui->durationSpin->setEnabled(!running && m_ui->durationRadio->isChecked());
    for (QWidget *widget :
         {static_cast<QWidget *>(m_ui->countRadio), static_cast<QWidget *>(m_ui->durationRadio),
          static_cast<QWidget *>(m_ui->workersSpin), static_cast<QWidget *>(m_ui->pipelineSpin),
          static_cast<QWidget *>(m_ui->rateSpin), static_cast<QWidget *>(m_ui->modeBox)})
        widget->setEnabled(!running);
}

void TestAllocationDialog::handleProgress(qint64 done, qint64 total, double rate) {
    if (total > 0) {
        m_ui->progressBar->setMaximum(int(std::min<qint64>(total, INT_MAX)));
        m_ui->progressBar->setValue(int(std::min<qint64>(done, INT_MAX)));
    } else if (m_durationMs > 0 && m_runner->isRunning()) {
        m_ui->progressBar->setValue(int(std::min(m_runClock.elapsed(), m_durationMs)));
    }
    m_ui->rateLabel->setText(
        tr("%1 done · %2 allocations/s").arg(QLocale().toString(done), formatRate(rate)));
}

void TestAllocationDialog::handleFinished(const LoadReport &report) {
    m_lastReport = report;
    const QString summary = describeLoadReport(report);
    m_ui->resultText->setPlainText(summary);
    if (m_ui->progressBar->maximum() == 0)
        m_ui->progressBar->setRange(0, 1);
    if (!report.cancelled) {
        m_ui->progressBar->setValue(m_ui->progressBar->maximum());
    } else if (m_durationMs > 0) {
        // Where it stopped, not a full bar: 3.4 s of a 30 s run is 11%.
        const qint64 stoppedMs = std::min(qint64(report.elapsedSeconds * 1000.0), m_durationMs);
        m_ui->progressBar->setValue(int(stoppedMs));
        m_ui->progressBar->setFormat(tr("stopped at %1 of %2 (%p%)")
                                         .arg(formatSeconds(double(stoppedMs) / 1000.0),
                                              formatSeconds(double(m_durationMs) / 1000.0)));
    } else {
        const qint64 done = report.attempts();
        m_ui->progressBar->setValue(int(std::min<qint64>(done, m_ui->progressBar->maximum())));
        m_ui->progressBar->setFormat(
            tr("stopped at %1 of %2 (%p%)")
                .arg(QLocale().toString(done), QLocale().toString(report.requested)));
    }
    m_ui->rateLabel->setText(report.cancelled ? tr("cancelled") : tr("finished"));
    const LogSeverity severity =
        report.errors() > 0 || report.unknown > 0 ? LogSeverity::Warning : LogSeverity::Info;
    m_session->log(severity, QStringLiteral("load"), summary.section(QLatin1Char('\n'), 0, 0));
    m_session->pollNow();
    updateControls();
    Q_EMIT runFinished(report);
}

void TestAllocationDialog::setKeyProblem(const QString &problem) {
    if (problem == m_keyProblem)
        return;
    m_keyProblem = problem;
    updateControls();
}

QString TestAllocationDialog::progressText() const {
    return m_ui->progressBar->text();
}

int TestAllocationDialog::progressValue() const {
    return m_ui->progressBar->value();
}

int TestAllocationDialog::progressMaximum() const {
    return m_ui->progressBar->maximum();
}

void TestAllocationDialog::showEvent(QShowEvent *event) {
    if (!event->spontaneous() && !m_runner->isRunning())
        setAtomic(true);
    QDialog::showEvent(event);
}

} // namespace poolscope
