#pragma once

#include "endpoint/Endpoint.h"
#include "load/LoadRunner.h"

#include <chrono>
#include <memory>

#include <QObject>
#include <QTimer>

namespace poolscope {

class PoolSession;
struct PoolObservation;
struct SeedResult;

// The --demo mode: when the first poll finds the pool empty (the session's alerts wait for it),
// seeds it from the sample list
// shipped in the resources (documentation address ranges only), then keeps a gentle background
// load of test allocations running through LoadRunner so the chart moves. Runs are restarted
// when they end; everything stops on disconnect or when the driver is destroyed.
// The demo belongs to one server, the one it was started for (the embedded redis-server): it
// never seeds or loads any other, and it ends the moment the session watches another server.
class DemoDriver : public QObject {
    Q_OBJECT

public:
    struct Settings {
        int workers = 2;
        double ratePerSecond = 40;
        std::chrono::milliseconds runDuration{10 * 60 * 1000};
        std::chrono::milliseconds restartDelay{1000};
    };

    DemoDriver(PoolSession *session, const Endpoint &demoServer, QObject *parent = nullptr);
    DemoDriver(PoolSession *session, const Endpoint &demoServer, Settings settings,
               QObject *parent = nullptr);
    ~DemoDriver() override; // cancels the load and joins its threads

    void setEnabled(bool enabled);
    bool isEnabled() const { return m_enabled; }
    bool isLoadRunning() const;
    // Pauses the background load (e.g. while the reset scenario runs) without turning off.
    void setLoadSuspended(bool suspended);
    const Settings &settings() const { return m_settings; }
    // True while the session watches the demo's own server (any pool on it, not a recording).
    bool isOnDemoServer() const;

    // The members of the sample list (parsed and judged like any list).
    static QList<QByteArray> demoMembers(QString *error = nullptr);

Q_SIGNALS:
    void demoSeeded(int members);

private:
    void handleObservation(const PoolObservation &observation);
    void handleSeedFinished(const SeedResult &result);
    void handleLoadFinished(const LoadReport &report);
    void startLoad();
    void stopLoad();
    // The session's alerts wait for the seed of an empty demo pool (an empty pool about to be
    // seeded is no alert), and judge again once a poll sees members or the demo gives up.
    void holdAlertsUntilSeeded();
    void releaseAlerts();

    PoolSession *m_session;
    Endpoint m_demoServer;
    Settings m_settings;
    std::unique_ptr<LoadRunner> m_runner;
    QTimer m_restartTimer;
    bool m_enabled = false;
    bool m_suspended = false;
    bool m_checkedThisConnection = false;
    bool m_seeding = false;
    bool m_stopping = false;
    bool m_holdingAlerts = false;
};

} // namespace poolscope
