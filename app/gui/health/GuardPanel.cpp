#include "health/GuardPanel.h"

#include "health/GuardRunner.h"
#include "health/HealthTarget.h"
#include "session/PoolHealth.h"
#include "session/PoolSession.h"
#include "text/CredentialMask.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTime>
#include <QTimer>
#include <QVBoxLayout>

namespace poolscope {

GuardPanel::GuardPanel(PoolSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_target(new QLineEdit(this))
    , m_fall(new QSpinBox(this))
    , m_rise(new QSpinBox(this))
    , m_cap(new QDoubleSpinBox(this))
    , m_interval(new QDoubleSpinBox(this))
    , m_policy(new QComboBox(this))
    , m_run(new QPushButton(tr("Start guard"), this))
    , m_state(new QLabel(this))
    , m_lastRound(new QLabel(this)) {
    setObjectName(QStringLiteral("guardPanel"));
    m_target->setPlaceholderText(tr("http://host/path fetched through each proxy"));
    m_target->setText(savedHealthTargetUrl());
    // Saved elsewhere (Check selected): shown here too, unless the person is typing another one.
    connect(HealthTargetNotifier::instance(), &HealthTargetNotifier::targetUrlSaved, this,
            [this](const QString &url) {
                if (!m_target->isModified() || m_target->text().trimmed().isEmpty()) {
                    m_target->setText(url);
                    m_target->setModified(false);
                }
            });
    m_fall->setRange(1, 1000);
    m_fall->setValue(3);
    m_fall->setToolTip(tr("Consecutive failed checks before a member is evicted"));
    m_rise->setRange(1, 1000);
    m_rise->setValue(2);
    m_rise->setToolTip(tr("Consecutive good checks before an evicted member comes back"));
    m_cap->setRange(0, 100);
    m_cap->setValue(30);
    m_cap->setSuffix(tr(" %"));
    m_cap->setToolTip(tr("The evicted share never goes above this: when more fail "
                         "at once, the target or the network looks down"));
    m_interval->setRange(0.1, 86400);
    m_interval->setValue(10);
    m_interval->setSuffix(tr(" s"));
    m_policy->addItem(tr("min (no flood)"), int(RestorePolicy::Min));
    m_policy->addItem(tr("keep (saved count)"), int(RestorePolicy::Keep));
    m_policy->addItem(tr("start"), int(RestorePolicy::Start));
    m_policy->setToolTip(tr("The count a restored member comes back with"));
    m_run->setCheckable(true);
    m_state->setWordWrap(true);
    m_lastRound->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lastRound->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QFormLayout;
    form->addRow(tr("Target"), m_target);
    form->addRow(tr("Fall"), m_fall);
    form->addRow(tr("Rise"), m_rise);
    form->addRow(tr("Max evicted"), m_cap);
    form->addRow(tr("Restore"), m_policy);
    form->addRow(tr("Interval"), m_interval);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addWidget(m_run);
    layout->addWidget(m_state);
    layout->addWidget(m_lastRound);
    layout->addStretch(1);
    showState(tr("Guard off"), false);
    m_lastRound->setText(tr("No round yet"));

    connect(m_run, &QPushButton::clicked, this, [this](bool on) {
        if (!on) {
            stop();
            return;
        }
        QString error;
        if (!start(&error)) {
            m_run->setChecked(false);
            showState(error, true);
        }
    });
    GuardRunner *guard = session->health().guard();
    connect(guard, &GuardRunner::started, this, [this](const QByteArray &id) {
        showState(tr("Guard on, holding the lease as %1").arg(QString::fromUtf8(id)), false);
        Q_EMIT guardStarted();
    });
    connect(guard, &GuardRunner::roundFinished, this, &GuardPanel::showReport);
    connect(guard, &GuardRunner::roundFailed, this, [this](const Failure &failure) {
        showRound(tr("round failed: %1; trying again next round").arg(failure.text));
    });
    connect(guard, &GuardRunner::runEnded, this, &GuardPanel::runEnded);
    // The session stops the guard when it watches another pool.
    connect(session, &PoolSession::targetChanged, this, [this] {
        if (m_run->isChecked()) {
            setRunning(false);
            showState(tr("Guard stopped: the dashboard watches another pool now"), false);
        }
    });
}

GuardPanel::~GuardPanel() {
    stop(); // the lease is released on the guard's thread
}

QString GuardPanel::stateText() const {
    return m_state->text();
}

QString GuardPanel::lastRoundText() const {
    return m_lastRound->text();
}

bool GuardPanel::isRunning() const {
    return m_session->health().guard()->isRunning();
}

void GuardPanel::showState(const QString &text, bool problem) {
    m_state->setText(text);
    m_state->setStyleSheet(problem ? QStringLiteral("color: #c62828;") : QString());
}

void GuardPanel::setRunning(bool running) {
    m_run->setChecked(running);
    m_run->setText(running ? tr("Stop guard") : tr("Start guard"));
    for (QWidget *field :
         std::initializer_list<QWidget *>{m_target, m_fall, m_rise, m_cap, m_interval, m_policy})
        field->setEnabled(!running);
}

bool GuardPanel::start(QString *error) {
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    PoolHealth &health = m_session->health();
    if (const QString refused = health.guardStartProblem(); !refused.isEmpty())
        return fail(refused);
    QString problem;
    const auto target = CheckTarget::parse(m_target->text().trimmed(), &problem);
    if (!target)
        return fail(tr("Guard not started: target URL: %1").arg(problem));
    GuardOptions options;
    options.check.target = *target;
    options.fall = m_fall->value();
    options.rise = m_rise->value();
    options.maxEvictedPercent = m_cap->value();
    options.restorePolicy = RestorePolicy(m_policy->currentData().toInt());
    options.startCount = 0;
    QString refused;
    if (!health.startGuard(options, std::chrono::milliseconds(qint64(m_interval->value() * 1000)),
                           &refused))
        return fail(refused);
    saveHealthTargetUrl(m_target->text().trimmed());
    setRunning(true);
    showState(tr("Taking the lease on %1…").arg(QString::fromUtf8(m_session->poolKey())), false);
    return true;
}

void GuardPanel::showReport(const GuardRoundReport &report) {
    const GuardRound &result = report.round;
    if (!result.leaseHeld) {
        showRound(tr("another guard (%1) holds the lease: waiting")
                      .arg(QString::fromUtf8(result.leaseHolder)));
        return;
    }
    QString summary = tr("%1 checked in %2 ms: %3 up, %4 down; %5 action(s); %6 of %7 evicted")
                          .arg(result.checks.results.size())
                          .arg(result.checks.elapsedMs)
                          .arg(report.counts.ok)
                          .arg(report.counts.failed)
                          .arg(result.actions.size())
                          .arg(result.evicted)
                          .arg(result.members);
    for (const GuardAction &action : result.actions)
        summary += QStringLiteral("\n· %1").arg(maskCredentialsInText(action.reason));
    showRound(summary);
}

void GuardPanel::showRound(const QString &summary) {
    m_lastRound->setText(tr("Last round (%1): %2").arg(QTime::currentTime().toString(), summary));
    Q_EMIT roundFinished();
}

void GuardPanel::runEnded(const GuardRunEnd &end) {
    if (end.reason != GuardRunEnd::Reason::LeaseRefused &&
        end.reason != GuardRunEnd::Reason::Failed)
        return; // stopped here, or by the session
    const QString message = PoolHealth::guardRefusalText(end);
    setRunning(false);
    showState(message, true);
    Q_EMIT guardRefused(message);
}

void GuardPanel::stop() {
    if (!isRunning())
        return;
    m_session->health().stopGuard();
    setRunning(false);
    showState(tr("Guard off (lease released)"), false);
    Q_EMIT guardStopped();
}

} // namespace poolscope
