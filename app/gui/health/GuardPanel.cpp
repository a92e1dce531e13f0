#include "health/GuardPanel.h"

#include "base/BrokenPipe.h"
#include "base/RedisError.h"
#include "client/RedisConnection.h"
#include "health/HealthGuard.h"
#include "health/HealthMonitor.h"
#include "session/DisplayFormat.h"
#include "session/PoolSession.h"
#include "text/CredentialMask.h"

#include <algorithm>
#include <atomic>

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

// One run of the guard, from start to stop. Everything but `stop` is touched on the worker
// thread only.
struct GuardPanel::Run {
    std::atomic<bool> stop{false};
    Endpoint endpoint;
    QByteArray poolKey;
    GuardOptions options;
    std::chrono::milliseconds interval{10000};
    std::unique_ptr<RedisConnection> connection;
    std::unique_ptr<HealthGuard> guard;
    std::unique_ptr<QTimer> timer;

    void close() {
        timer.reset();
        if (guard && connection && !connection->isBroken()) {
            try {
                guard->releaseLease();
            } catch (const RedisError &) {
                // the lease runs out by itself
            }
        }
        guard.reset();
        connection.reset();
    }
    void open() {
        ConnectionOptions connectionOptions;
        connectionOptions.clientName = QStringLiteral("poolscope-guard");
        connection = RedisConnection::open(endpoint, connectionOptions);
        guard = std::make_unique<HealthGuard>(*connection, poolKey, options);
    }
};

GuardPanel::GuardPanel(PoolSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_target(new QLineEdit(this))
    , m_fall(new QSpinBox(this))
    , m_rise(new QSpinBox(this))
    , m_cap(new QDoubleSpinBox(this))
    , m_interval(new QDoubleSpinBox(this))
    , m_policy(new QComboBox(this))
    , m_run(new QPushButton(QStringLiteral("Start guard"), this))
    , m_state(new QLabel(this))
    , m_lastRound(new QLabel(this))
    , m_context(new QObject) {
    setObjectName(QStringLiteral("guardPanel"));
    m_target->setPlaceholderText(QStringLiteral("http://host/path fetched through each proxy"));
    m_target->setText(HealthMonitor::savedTargetUrl());
    // Saved elsewhere (Check selected): shown here too, unless the person is typing another one.
    connect(HealthMonitor::targetUrlNotifier(), &HealthTargetNotifier::targetUrlSaved, this,
            [this](const QString &url) {
                if (!m_target->isModified() || m_target->text().trimmed().isEmpty()) {
                    m_target->setText(url);
                    m_target->setModified(false);
                }
            });
    m_fall->setRange(1, 1000);
    m_fall->setValue(3);
    m_fall->setToolTip(QStringLiteral("Consecutive failed checks before a member is evicted"));
    m_rise->setRange(1, 1000);
    m_rise->setValue(2);
    m_rise->setToolTip(QStringLiteral("Consecutive good checks before an evicted member comes "
                                      "back"));
    m_cap->setRange(0, 100);
    m_cap->setValue(30);
    m_cap->setSuffix(QStringLiteral(" %"));
    m_cap->setToolTip(QStringLiteral("The evicted share never goes above this: when more fail "
                                     "at once, the target or the network looks down"));
    m_interval->setRange(0.1, 86400);
    m_interval->setValue(10);
    m_interval->setSuffix(QStringLiteral(" s"));
    m_policy->addItem(QStringLiteral("min (no flood)"), int(RestorePolicy::Min));
    m_policy->addItem(QStringLiteral("keep (saved count)"), int(RestorePolicy::Keep));
    m_policy->addItem(QStringLiteral("start"), int(RestorePolicy::Start));
    m_policy->setToolTip(QStringLiteral("The count a restored member comes back with"));
    m_run->setCheckable(true);
    m_state->setWordWrap(true);
    m_lastRound->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lastRound->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QFormLayout;
    form->addRow(QStringLiteral("Target"), m_target);
    form->addRow(QStringLiteral("Fall"), m_fall);
    form->addRow(QStringLiteral("Rise"), m_rise);
    form->addRow(QStringLiteral("Max evicted"), m_cap);
    form->addRow(QStringLiteral("Restore"), m_policy);
    form->addRow(QStringLiteral("Interval"), m_interval);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addWidget(m_run);
    layout->addWidget(m_state);
    layout->addWidget(m_lastRound);
    layout->addStretch(1);
    showState(QStringLiteral("Guard off"), false);
    m_lastRound->setText(QStringLiteral("No round yet"));

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
    connect(session, &PoolSession::targetChanged, this, [this] {
        if (m_running) {
            stop();
            showState(QStringLiteral("Guard stopped: the dashboard watches another pool now"),
                      false);
        }
    });

    m_thread.setObjectName(QStringLiteral("poolscope-guard"));
    m_context->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread.start();
    // A server that went away must not kill the dashboard with SIGPIPE on this thread's writes.
    QMetaObject::invokeMethod(m_context, [] { blockBrokenPipeOnThisThread(); });
}

GuardPanel::~GuardPanel() {
    stopRun(true);
    // A stop queued earlier may still wait behind a round; quit() alone would drop it, and with
    // it the lease release. A blocking no-op lets everything queued before it run first.
    QMetaObject::invokeMethod(
        m_context, [] {}, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

QString GuardPanel::stateText() const {
    return m_state->text();
}

QString GuardPanel::lastRoundText() const {
    return m_lastRound->text();
}

void GuardPanel::showState(const QString &text, bool problem) {
    m_state->setText(text);
    m_state->setStyleSheet(problem ? QStringLiteral("color: #c62828;") : QString());
}

void GuardPanel::setRunning(bool running) {
    m_running = running;
    m_run->setChecked(running);
    m_run->setText(running ? QStringLiteral("Stop guard") : QStringLiteral("Start guard"));
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
    if (m_running)
        return fail(QStringLiteral("the guard is already running"));
    if (!m_session->hasTarget() || m_session->isShowingRecording())
        return fail(QStringLiteral("Guard not started: no live pool is watched"));
    if (!m_session->canWrite())
        return fail(QStringLiteral("Guard not started: %1").arg(m_session->writeBlockReason()));
    QString problem;
    const auto target = CheckTarget::parse(m_target->text().trimmed(), &problem);
    if (!target)
        return fail(QStringLiteral("Guard not started: target URL: %1").arg(problem));
    HealthMonitor::saveTargetUrl(m_target->text().trimmed());

    auto run = std::make_shared<Run>();
    run->endpoint = m_session->endpoint();
    run->poolKey = m_session->poolKey();
    run->options.check.target = *target;
    run->options.fall = m_fall->value();
    run->options.rise = m_rise->value();
    run->options.maxEvictedPercent = m_cap->value();
    run->options.restorePolicy = RestorePolicy(m_policy->currentData().toInt());
    run->options.startCount = 0;
    run->interval = std::chrono::milliseconds(qint64(m_interval->value() * 1000));
    run->options.leaseTtl = std::max(std::chrono::milliseconds(3000),
                                     3 * run->interval + 2 * run->options.check.checkTimeout);
    run->options.guardId = HealthGuard::makeGuardId();
    run->options.actor = AuditActor::dashboard(); // its audit entries name the dashboard
    m_current = run;
    setRunning(true);
    showState(QStringLiteral("Taking the lease on %1…").arg(QString::fromUtf8(run->poolKey)),
              false);

    // The timer's slot and the posts hold the run weakly: the run owns the timer, and a strong
    // capture there would keep a stopped run (its connection and guard) alive for good.
    const std::weak_ptr<Run> weakRun = run;
    QMetaObject::invokeMethod(m_context, [this, run, weakRun] {
        const auto post = [this, weakRun](auto &&function) {
            QMetaObject::invokeMethod(this, [this, weakRun, function] {
                const std::shared_ptr<Run> current = weakRun.lock();
                if (current && current == m_current)
                    function();
            });
        };
        QByteArray holder;
        try {
            run->open();
            if (!run->guard->holdLease(&holder)) {
                run->close();
                post([this, holder] {
                    const QString message =
                        QStringLiteral("Guard not started: another guard (%1) holds the lease "
                                       "on this pool")
                            .arg(QString::fromUtf8(holder));
                    m_current.reset();
                    setRunning(false);
                    showState(message, true);
                    m_session->log(LogSeverity::Warning, QStringLiteral("guard"), message);
                    Q_EMIT guardRefused(message);
                });
                return;
            }
        } catch (const RedisError &e) {
            run->close();
            post([this, message = dashboardErrorText(e)] {
                const QString text = QStringLiteral("Guard not started: %1").arg(message);
                m_current.reset();
                setRunning(false);
                showState(text, true);
                Q_EMIT guardRefused(text);
            });
            return;
        }
        post([this, id = run->options.guardId] {
            showState(
                QStringLiteral("Guard on, holding the lease as %1").arg(QString::fromUtf8(id)),
                false);
            Q_EMIT guardStarted();
        });
        const auto round = [weakRun, post, this] {
            const std::shared_ptr<Run> run = weakRun.lock();
            if (!run || run->stop.load())
                return;
            QString summary;
            try {
                if (!run->guard)
                    run->open();
                const GuardRound result = run->guard->runRound(&run->stop);
                if (!result.leaseHeld) {
                    summary = QStringLiteral("another guard (%1) holds the lease: waiting")
                                  .arg(QString::fromUtf8(result.leaseHolder));
                } else {
                    qint64 ok = 0, failed = 0;
                    for (const CheckResult &check : result.checks.results) {
                        if (check.outcome == CheckOutcome::Ok)
                            ++ok;
                        else if (isFailure(check.outcome))
                            ++failed;
                    }
                    summary = QStringLiteral("%1 checked in %2 ms: %3 up, %4 down; %5 action(s); "
                                             "%6 of %7 evicted")
                                  .arg(result.checks.results.size())
                                  .arg(result.checks.elapsedMs)
                                  .arg(ok)
                                  .arg(failed)
                                  .arg(result.actions.size())
                                  .arg(result.evicted)
                                  .arg(result.members);
                    for (const GuardAction &action : result.actions)
                        summary +=
                            QStringLiteral("\n· %1").arg(maskCredentialsInText(action.reason));
                }
            } catch (const RedisError &e) {
                run->guard.reset();
                run->connection.reset();
                summary = GuardPanel::tr("round failed: %1; trying again next round")
                              .arg(dashboardErrorText(e));
            }
            post([this, summary] { roundDone(summary); });
        };
        run->timer = std::make_unique<QTimer>();
        run->timer->setInterval(run->interval);
        QObject::connect(run->timer.get(), &QTimer::timeout, run->timer.get(), round);
        run->timer->start();
        round();
    });
    return true;
}

void GuardPanel::roundDone(const QString &summary) {
    m_lastRound->setText(
        QStringLiteral("Last round (%1): %2").arg(QTime::currentTime().toString(), summary));
    Q_EMIT roundFinished();
}

void GuardPanel::stopRun(bool wait) {
    std::shared_ptr<Run> run = std::move(m_current);
    m_current.reset();
    if (!run)
        return;
    run->stop.store(true);
    QMetaObject::invokeMethod(
        m_context, [run] { run->close(); },
        wait ? Qt::BlockingQueuedConnection : Qt::QueuedConnection);
}

void GuardPanel::stop() {
    if (!m_running)
        return;
    stopRun(false);
    setRunning(false);
    showState(QStringLiteral("Guard off (lease released)"), false);
    Q_EMIT guardStopped();
}

} // namespace poolscope
