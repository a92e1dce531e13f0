#include "session/DemoDriver.h"

#include "session/PoolAlerts.h"
#include "session/PoolSession.h"
#include "proxylist/Eligibility.h"
#include "redis/ServerIdentity.h"

#include <QFile>

// Static libraries need their resources registered by hand (outside any namespace).
static void initCoreResources() {
    Q_INIT_RESOURCE(poolscope);
}

namespace poolscope {

DemoDriver::DemoDriver(PoolSession *session, const Endpoint &demoServer, QObject *parent)
    : DemoDriver(session, demoServer, Settings{}, parent) {}

DemoDriver::DemoDriver(PoolSession *session, const Endpoint &demoServer, Settings settings,
                       QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_demoServer(demoServer)
    , m_settings(settings)
    , m_runner(std::make_unique<LoadRunner>()) {
    m_restartTimer.setSingleShot(true);
    m_restartTimer.setInterval(m_settings.restartDelay);
    connect(&m_restartTimer, &QTimer::timeout, this, &DemoDriver::startLoad);
    connect(m_runner.get(), &LoadRunner::finished, this, &DemoDriver::handleLoadFinished);
    connect(m_session, &PoolSession::observationApplied, this, &DemoDriver::handleObservation);
    connect(m_session, &PoolSession::seedFinished, this, &DemoDriver::handleSeedFinished);
    connect(m_session, &PoolSession::commandFailed, this, [this](const QString &operation) {
        if (m_seeding && operation == QLatin1String("seed")) {
            m_seeding = false;
            releaseAlerts(); // the pool stays empty: that is news now
        }
    });
    connect(m_session, &PoolSession::targetChanged, this, [this] {
        m_checkedThisConnection = false;
        m_seeding = false; // a seed of the old target ends with it
        stopLoad();
        holdAlertsUntilSeeded();
    });
    connect(m_session, &PoolSession::stateChanged, this, [this](ConnectionState state) {
        if (state != ConnectionState::Connected)
            releaseAlerts(); // a lost server is news, seeded or not
        if (state == ConnectionState::Disconnected)
            stopLoad();
        else if (state == ConnectionState::Connected && m_enabled && m_checkedThisConnection &&
                 !m_seeding && !m_runner->isRunning() && isOnDemoServer())
            m_restartTimer.start(); // back after a lost connection
    });
}

DemoDriver::~DemoDriver() {
    m_stopping = true;
    m_restartTimer.stop();
    m_runner.reset();
}

QList<QByteArray> DemoDriver::demoMembers(QString *error) {
    initCoreResources();
    QFile file(QStringLiteral(":/demo/demo-proxies.txt"));
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("the demo list is missing from the resources");
        return {};
    }
    const EligibilityReport report = readProxyList(file.readAll(), EligibilityRules{});
    const QList<QByteArray> members = report.accepted.memberIds();
    if (members.isEmpty() && error)
        *error = report.fatalError.isEmpty() ? tr("the demo list has no usable entry")
                                             : report.fatalError;
    return members;
}

void DemoDriver::setEnabled(bool enabled) {
    if (enabled == m_enabled)
        return;
    m_enabled = enabled;
    if (!enabled) {
        releaseAlerts();
        stopLoad();
        return;
    }
    holdAlertsUntilSeeded();
    if (const auto &observation = m_session->latestObservation())
        handleObservation(*observation);
}

void DemoDriver::setLoadSuspended(bool suspended) {
    m_suspended = suspended;
    if (suspended)
        stopLoad();
    else if (m_enabled && m_checkedThisConnection && !m_seeding)
        startLoad();
}

bool DemoDriver::isOnDemoServer() const {
    return m_session->hasTarget() && !m_session->isShowingRecording() &&
           isSameServer(m_session->endpoint(), m_demoServer);
}

bool DemoDriver::isLoadRunning() const {
    return m_runner->isRunning();
}

void DemoDriver::holdAlertsUntilSeeded() {
    if (m_enabled && !m_checkedThisConnection && isOnDemoServer()) {
        m_holdingAlerts = true;
        m_session->alerts().setPreparing(true);
    }
}

void DemoDriver::releaseAlerts() {
    if (!m_holdingAlerts)
        return;
    m_holdingAlerts = false;
    m_session->alerts().setPreparing(false);
}

void DemoDriver::handleObservation(const PoolObservation &observation) {
    const bool empty =
        observation.snapshot.members.isEmpty() && observation.snapshot.evicted.isEmpty();
    // Ready once a poll sees members: a poll read before the seed landed may still come after
    // the seed's answer.
    if (!empty)
        releaseAlerts();
    if (!m_enabled || m_checkedThisConnection || !isOnDemoServer())
        return;
    if (!m_session->canWrite()) {
        releaseAlerts(); // nothing will be seeded: the pool is what it is
        return;
    }
    m_checkedThisConnection = true;
    if (empty) {
        QString error;
        const QList<QByteArray> members = demoMembers(&error);
        if (members.isEmpty()) {
            m_session->log(LogSeverity::Error, QStringLiteral("demo"), error);
            releaseAlerts();
            return;
        }
        m_session->log(LogSeverity::Info, QStringLiteral("demo"),
                       tr("empty pool: seeding %L1 demo proxies (documentation "
                          "address ranges)")
                           .arg(members.size()));
        SeedOptions options;
        options.startCount = 0;
        m_seeding = m_session->seed(members, options);
        if (!m_seeding)
            releaseAlerts();
        return;
    }
    startLoad();
}

void DemoDriver::handleSeedFinished(const SeedResult &result) {
    if (!m_seeding)
        return;
    m_seeding = false;
    if (!isOnDemoServer())
        return; // the session left the demo's server while the seed ran
    if (result.added.isEmpty())
        releaseAlerts(); // no poll will bring members
    Q_EMIT demoSeeded(int(result.added.size()));
    startLoad();
}

void DemoDriver::startLoad() {
    if (!m_enabled || m_suspended || m_stopping || m_runner->isRunning() ||
        !m_session->canWrite() || !isOnDemoServer())
        return;
    LoadSpec spec;
    spec.endpoint = m_session->endpoint();
    spec.poolKey = m_session->poolKey();
    spec.workers = m_settings.workers;
    spec.pipeline = 1;
    spec.duration = m_settings.runDuration;
    spec.ratePerSecond = m_settings.ratePerSecond;
    spec.atomic = true;
    spec.connection.clientName = QStringLiteral("poolscope-demo-load");
    if (m_runner->start(spec)) {
        m_session->log(LogSeverity::Info, QStringLiteral("demo"),
                       tr("background load: %L1 workers, about %L2 allocations/s")
                           .arg(spec.workers)
                           .arg(spec.ratePerSecond));
    }
}

void DemoDriver::stopLoad() {
    m_restartTimer.stop();
    if (m_runner->isRunning())
        m_runner->cancel();
}

void DemoDriver::handleLoadFinished(const LoadReport &report) {
    if (m_stopping)
        return;
    if (report.errors() > 0 || report.unknown > 0)
        m_session->log(LogSeverity::Warning, QStringLiteral("demo"),
                       tr("background load ended with %L1 errors, %L2 unknown")
                           .arg(report.errors())
                           .arg(report.unknown));
    if (m_enabled && !m_suspended && !report.cancelled)
        m_restartTimer.start();
}

} // namespace poolscope
