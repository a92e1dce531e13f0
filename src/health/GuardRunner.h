#pragma once

#include "base/Failure.h"
#include "endpoint/Endpoint.h"
#include "health/HealthGuard.h"

#include <chrono>
#include <memory>

#include <QByteArray>
#include <QObject>

namespace poolscope {

class BackgroundWorker;

struct GuardRunSettings {
    Endpoint endpoint;
    QByteArray poolKey;
    ConnectionOptions connection; // clientName defaults to "poolscope-guard"
    // guardId is made when empty; leaseTtl is guardLeaseTtl(interval, check timeout).
    GuardOptions guard;
    std::chrono::milliseconds interval{10000}; // the pause between two rounds
    int rounds = 0; // rounds with the lease held, then the run ends; 0: until stop()
    // Take the lease before the first round, and end the run when another guard holds it (the
    // dashboard's panel); otherwise wait for it round after round (the CLI).
    bool requireLease = false;
    // A round that fails with anything but a lost connection ends the run (the CLI); otherwise
    // the next round tries again (the dashboard).
    bool endOnRoundError = false;
};

// One round, as the runner reports it.
struct GuardRoundReport {
    int number = 0; // rounds done with the lease held, this one included; 0 when not held
    GuardRound round;
    CheckCounts counts; // round.checks counted
};

// How a run ended.
struct GuardRunEnd {
    enum class Reason {
        Stopped,      // stop(), or a new start()
        RoundsDone,   // GuardRunSettings::rounds were done
        LeaseRefused, // requireLease, and another guard (holder) holds it
        Failed,       // failure: the first connection, or a round with endOnRoundError
    };
    Reason reason = Reason::Stopped;
    Failure failure;
    QByteArray holder;
};

// The guard's loop, once, for `poolscope-cli guard` and the dashboard's Guard panel: rounds of
// HealthGuard on a thread of its own (a BackgroundWorker) with its own connection, a pause of
// `interval` between them, the lease held and renewed by every round and released at the end
// (stop, the last round, a failure or the runner's destruction). A lost connection is opened
// again at the next round. Reports arrive as values on the owner's thread.
class GuardRunner : public QObject {
    Q_OBJECT

public:
    explicit GuardRunner(QObject *parent = nullptr);
    // Stops a run; the lease is released on the runner's thread (a bounded wait).
    ~GuardRunner() override;

    // Starts a run; one under way is stopped first and its reports are dropped.
    void start(GuardRunSettings settings);
    // The round under way stops between its checks; the lease is released, then runEnded.
    void stop();
    // Started, and neither stopped nor ended since.
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    // Connected, and the lease held when the settings require it: the first round follows.
    void started(const QByteArray &guardId);
    void roundFinished(const poolscope::GuardRoundReport &report);
    // A round failed and the run goes on: the next one (reconnected) after the pause.
    void roundFailed(const poolscope::Failure &failure);
    // The run is over, the lease released when it was held.
    void runEnded(const poolscope::GuardRunEnd &end);

private:
    class Worker;

    bool m_running = false;
    std::shared_ptr<std::atomic<bool>> m_stop;      // the run's, read by its round's checks
    std::unique_ptr<BackgroundWorker> m_background; // last: stopped first
    Worker *m_worker = nullptr;                     // its context, on its thread
};

} // namespace poolscope
