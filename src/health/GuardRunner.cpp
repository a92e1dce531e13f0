#include "health/GuardRunner.h"

#include "base/RedisError.h"
#include "client/BackgroundWorker.h"
#include "client/RedisConnection.h"

#include <QMetaType>
#include <QTimer>

namespace poolscope {

namespace {

void registerGuardTypes() {
    static const bool registered = [] {
        qRegisterMetaType<poolscope::GuardRoundReport>("poolscope::GuardRoundReport");
        qRegisterMetaType<poolscope::GuardRunEnd>("poolscope::GuardRunEnd");
        Failure::registerMetaType();
        return true;
    }();
    Q_UNUSED(registered);
}

} // namespace

// The context of the runner's BackgroundWorker: one run at a time, its connection, its guard
// and the timer of the pause between rounds. The lease goes with it at the latest.
class GuardRunner::Worker : public QObject {
public:
    Worker(GuardRunner *runner, WorkerLink link)
        : m_runner(runner)
        , m_link(std::move(link))
        , m_timer(new QTimer(this)) { // a child: it moves to the thread with its parent
        m_timer->setSingleShot(true);
        connect(m_timer, &QTimer::timeout, this, &Worker::round);
    }
    ~Worker() override { close(); }

    void start(quint64 generation, const GuardRunSettings &settings,
               std::shared_ptr<std::atomic<bool>> stop) {
        close(); // an earlier run's, if its stop has not come yet
        m_generation = generation;
        m_settings = settings;
        m_stop = std::move(stop);
        m_done = 0;
        m_active = true;
        try {
            open();
            QByteArray holder;
            if (m_settings.requireLease && !m_guard->holdLease(&holder)) {
                m_guard.reset(); // not ours to release
                end({GuardRunEnd::Reason::LeaseRefused, {}, holder});
                return;
            }
        } catch (const RedisError &error) {
            m_guard.reset();
            m_connection.reset();
            end({GuardRunEnd::Reason::Failed, failureOf(error), {}});
            return;
        }
        m_link.deliver(m_generation, [runner = m_runner, id = m_settings.guard.guardId] {
            Q_EMIT runner->started(id);
        });
        round();
    }

    void stop(quint64 generation) {
        if (generation == m_generation && m_active)
            end({GuardRunEnd::Reason::Stopped, {}, {}});
    }

private:
    void open() {
        m_connection = RedisConnection::open(m_settings.endpoint, m_settings.connection);
        m_guard =
            std::make_unique<HealthGuard>(*m_connection, m_settings.poolKey, m_settings.guard);
    }

    void round() {
        if (!m_active || m_stop->load())
            return;
        GuardRoundReport report;
        try {
            if (!m_guard)
                open();
            report.round = m_guard->runRound(m_stop.get());
        } catch (const RedisError &error) {
            const bool lost = error.connectionLost() || !m_connection || m_connection->isBroken();
            if (!lost && m_settings.endOnRoundError) {
                end({GuardRunEnd::Reason::Failed, failureOf(error), {}});
                return;
            }
            // Opened again next round: a guard outlives a server restart or a network blip.
            m_guard.reset();
            m_connection.reset();
            m_link.deliver(m_generation, [runner = m_runner, failure = failureOf(error)] {
                Q_EMIT runner->roundFailed(failure);
            });
            m_timer->start(m_settings.interval);
            return;
        }
        if (report.round.stopped)
            return; // the stop that cut it short is queued behind it: it releases and ends
        if (report.round.leaseHeld)
            report.number = ++m_done;
        report.counts = CheckCounts::of(report.round.checks.results);
        m_link.deliver(m_generation, [runner = m_runner, report = std::move(report)] {
            Q_EMIT runner->roundFinished(report);
        });
        if (m_settings.rounds > 0 && m_done >= m_settings.rounds)
            end({GuardRunEnd::Reason::RoundsDone, {}, {}});
        else
            m_timer->start(m_settings.interval);
    }

    // The lease is released if the connection still works; otherwise it lapses on its own.
    void close() {
        m_timer->stop();
        if (m_guard && m_connection && !m_connection->isBroken()) {
            try {
                m_guard->releaseLease();
            } catch (const RedisError &) {
                // it lapses on its own
            }
        }
        m_guard.reset();
        m_connection.reset();
    }

    void end(const GuardRunEnd &how) {
        m_active = false;
        close();
        m_link.deliver(m_generation, [runner = m_runner, how] {
            runner->m_running = false;
            Q_EMIT runner->runEnded(how);
        });
    }

    Failure failureOf(const RedisError &error) const {
        return Failure(error, describe(m_settings.connection, error));
    }

    GuardRunner *m_runner; // only named in deliveries
    WorkerLink m_link;
    QTimer *m_timer;
    quint64 m_generation = 0;
    GuardRunSettings m_settings;
    std::shared_ptr<std::atomic<bool>> m_stop;
    std::unique_ptr<RedisConnection> m_connection;
    std::unique_ptr<HealthGuard> m_guard;
    int m_done = 0;
    bool m_active = false;
};

GuardRunner::GuardRunner(QObject *parent)
    : QObject(parent)
    , m_background(std::make_unique<BackgroundWorker>(QStringLiteral("poolscope-guard"))) {
    registerGuardTypes();
    m_worker = m_background->adopt(new Worker(this, m_background->link()));
}

GuardRunner::~GuardRunner() {
    if (m_stop)
        m_stop->store(true); // a round under way ends between its checks
}

void GuardRunner::start(GuardRunSettings settings) {
    if (m_running)
        stop();
    const quint64 generation = m_background->retarget(); // the old run's reports are dropped
    if (settings.connection.clientName.isEmpty())
        settings.connection.clientName = QStringLiteral("poolscope-guard");
    if (settings.guard.guardId.isEmpty())
        settings.guard.guardId = HealthGuard::makeGuardId();
    settings.guard.leaseTtl = guardLeaseTtl(settings.interval, settings.guard.check.checkTimeout);
    m_stop = std::make_shared<std::atomic<bool>>(false);
    m_running = true;
    m_background->post([worker = m_worker, generation, settings, stop = m_stop] {
        worker->start(generation, settings, stop);
    });
}

void GuardRunner::stop() {
    if (!m_running)
        return;
    m_stop->store(true);
    m_running = false;
    m_background->post(
        [worker = m_worker, generation = m_background->generation()] { worker->stop(generation); });
}

} // namespace poolscope
