#pragma once

#include "client/RedisConnection.h"
#include "endpoint/Endpoint.h"

#include <atomic>
#include <chrono>
#include <memory>

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QStringList>

namespace poolscope {

struct LoadSpec {
    Endpoint endpoint;
    QByteArray poolKey;
    int workers = 1;  // connections, each with its own window and share of the rate
    int pipeline = 1; // allocations in flight per worker
    // Threads driving the workers' connections (atomic mode; the naive mode uses one thread per
    // worker). 0 = automatic: half the CPU cores, 1 to 8, at most `workers`.
    int threads = 0;
    qint64 total = 0; // allocations in all; 0 = run for `duration`
    std::chrono::milliseconds duration{0};
    double ratePerSecond = 0; // overall cap; 0 = as fast as the server allows
    // false: the naive two-command version (ZRANGE key 0 0 WITHSCORES, then ZINCRBY) for the
    // race demo; collisions are counted from ZINCRBY's returned score.
    bool atomic = true;
    ConnectionOptions connection; // the client name is always "poolscope-load"
    // A worker whose connection broke retries with backoff (50 ms doubling to 2 s) and stops
    // when it could not reconnect for this long (0 = keep trying until cancelled).
    std::chrono::milliseconds giveUpAfter{30000};
    // --wait-replicas N --wait-timeout MS: after each window of `pipeline` allocations a worker
    // sends WAIT N MS and sends no more until it answers (atomic mode only). 0 = no WAIT.
    int waitReplicas = 0;
    std::chrono::milliseconds waitTimeout{1000};
};

struct LoadReport {
    qint64 requested = 0; // total asked for (0 for duration runs)
    qint64 allocated = 0; // replies naming a member
    qint64 empty = 0;     // nil replies: the pool was empty
    qint64 unknown = 0;   // sent, but no reply came (timeout, connection lost): never retried
    // Error replies by code, e.g. "OOM", "WRONGTYPE", "NOPERM", "BUSY": one per allocation
    // refused. Lost connections are not in here: their allocations are `unknown`.
    QMap<QString, qint64> errorsByKind;
    qint64 collisions = 0;     // naive mode: ZINCRBY showed another worker incremented in between
    qint64 duplicatePicks = 0; // naive mode: picks of a (member, count) pair already handed out
    double elapsedSeconds = 0;
    double latencyP50Ms = 0;
    double latencyP99Ms = 0;
    double latencyMaxMs = 0;
    QHash<QByteArray, qint64> perMember;
    bool cancelled = false;
    bool atomic = true;
    int workers = 1;
    int pipeline = 1;
    int threads = 1;
    qint64 connectionLosses = 0; // connections that broke or timed out mid-run
    qint64 reconnects = 0;       // new connections made after such a loss
    // Sentinel endpoints: the primaries the workers were connected to, in the order first seen
    // (more than one: the run went through a failover).
    QStringList primaries;
    // Of `allocated`, the acknowledged allocations the pool does not have after the run: the
    // pool's counts read before and after it, compared with what the workers saw acknowledged
    // per member (Sentinel endpoints; see lossCheck for why it may not have been checked).
    qint64 lostInFailover = 0;
    qint64 lostMembers = 0;
    bool lossChecked = false;
    QString lossCheck;      // why the loss was not checked; empty when it was
    double baselineSum = 0; // the pool's sum of counts before the run (when checked)
    double finalSum = 0;    // and after it
    qint64 waits = 0;       // WAIT commands answered
    qint64 waitsShort = 0;  // of them, answered with fewer replicas than asked for
    // Redis Cluster: allocations redirected (each then sent again, so still counted once above).
    // MOVED also moves the worker to the slot's new owner.
    qint64 movedRedirects = 0;
    qint64 askRedirects = 0;
    qint64 tryAgainRetries = 0;
    // Why the run could not do (all of) its work: bad spec, no connection at all, a worker that
    // gave up reconnecting. Empty when every worker ran to the end.
    QString error;

    qint64 errors() const;
    // Every attempt has exactly one outcome.
    qint64 attempts() const { return allocated + empty + errors() + unknown; }
    double ratePerSecond() const { return elapsedSeconds > 0 ? allocated / elapsedSeconds : 0; }
    // {"requested", "allocated", "empty", "errors", "errors_by_kind": {...}, "unknown",
    //  "elapsed_s", "rate_per_s", "latency_ms": {"p50","p99","max"}, "per_member": {...},
    //  "collisions", "duplicate_picks", "atomic", "workers", "pipeline", "cancelled",
    //  "connection_losses", "reconnects", "primaries", "failovers", "lost_in_failover",
    //  "lost_members", "loss_checked", "baseline_sum", "final_sum", "waits", "waits_short",
    //  "cluster_redirects": {"moved","ask","tryagain"}} and "error" when there is one
    //  ("loss_check" says why the loss was not checked).
    QJsonObject toJson() const;
};

// Empty when the spec can run, else what is wrong with it ("workers must be 1-1000, not 0").
QString validateLoadSpec(const LoadSpec &spec);

// Runs test allocations the way real workers do: W workers, each with its own connection,
// running allocate.lua by EVALSHA (NOSCRIPT: EVAL) with up to P commands in flight. In atomic
// mode a few threads drive all connections with poll(), like redis-benchmark: a thread per
// connection would pay a context switch per reply, CPU a local server needs (see bench/).
// Every allocation is accounted for: allocated + empty + errors + unknown = attempts.
//
// A total-count run hands out `total` attempts: empty-pool answers, errors and unknowns use one
// up too, so a run on an empty pool ends. A cancelled or timed-out worker stops sending and waits
// (up to the command timeout) for the replies still in flight, so a cancelled run is still exact.
// Latency is from queueing a command to reading its reply, for every answered attempt.
class LoadRunner : public QObject {
    Q_OBJECT

public:
    explicit LoadRunner(QObject *parent = nullptr);
    ~LoadRunner() override; // cancels and joins every worker thread

    // Starts in the background; false if a run is already going or the spec is invalid (see
    // validateLoadSpec). finished() comes exactly once for every start() that returned true.
    bool start(const LoadSpec &spec);
    // Stops as soon as possible; finished() still comes, with cancelled = true.
    void cancel();
    bool isRunning() const;

    // For the CLI and benchmarks: runs on the calling thread's behalf and waits. Setting
    // *cancelFlag (also from a signal handler) cancels. An invalid spec gives a report with
    // `error` set and nothing done.
    static LoadReport run(const LoadSpec &spec, const std::atomic<bool> *cancelFlag = nullptr);

Q_SIGNALS:
    // About every 100 ms while running.
    void progressed(qint64 done, qint64 total, double currentRatePerSecond);
    void finished(const poolscope::LoadReport &report);

private:
    struct Run;
    std::unique_ptr<Run> m_run;
};

} // namespace poolscope
