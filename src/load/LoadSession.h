// One load run's shared state (Session) and what every worker thread does alike (ThreadWork):
// tickets, deadline, pacing and per-thread tallies (private to src/load).
#pragma once

#include "base/RedisError.h"
#include "load/FailoverLoss.h"
#include "load/LatencyHistogram.h"
#include "load/LoadConnection.h"
#include "load/LoadRunner.h"
#include "pool/LuaScript.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <latch>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace poolscope::loadrunner_detail {

using Clock = std::chrono::steady_clock;

constexpr int kMaxWorkers = 1000;
constexpr int kMaxPipeline = 4096;
constexpr int kMaxThreads = 256;
constexpr int kMaxAutomaticThreads = 8;
constexpr auto kFirstBackoff = std::chrono::milliseconds(50);
constexpr auto kMaxBackoff = std::chrono::milliseconds(2000);
// Sleepers wake at least this often to look at the cancel flag.
constexpr auto kSleepSlice = std::chrono::milliseconds(50);

struct StringHash {
    using is_transparent = void; // look members up by string_view: no allocation per reply
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};
using MemberCounts = std::unordered_map<std::string, qint64, StringHash, std::equal_to<>>;

// What one thread's workers saw. Only that thread writes it; the runner reads it after join().
struct ThreadTally {
    qint64 allocated = 0;
    qint64 empty = 0;
    qint64 unknown = 0;
    qint64 collisions = 0;
    qint64 connectionLosses = 0;
    qint64 reconnects = 0;
    qint64 moved = 0, ask = 0, tryAgain = 0; // Redis Cluster redirections followed
    QMap<QString, qint64> errorsByKind;
    MemberCounts perMember;
    // Naive mode: member followed by the 8 bytes of the score it was read at.
    QList<QByteArray> picks;
    LatencyHistogram latency;
    Clock::time_point finishedAt{};
    QString connectionError;  // the last connection problem, if any
    QStringList primaries;    // servers connected to ("host:port"), in the order first seen
    qint64 waits = 0;         // WAIT answered
    qint64 waitsShort = 0;    // with fewer replicas than asked for
    int connectedWorkers = 0; // whose first connection worked
    int gaveUpWorkers = 0;    // that could not reconnect within giveUpAfter
    bool failed = false;      // the thread stopped on something other than Redis
    bool arrived = false;     // past the connect latch
};

// Read by the progress timer while the thread runs. One cache line each, so threads publishing
// their counts do not slow each other down.
struct alignas(64) ThreadLive {
    std::atomic<qint64> done{0};
    std::atomic<qint64> allocated{0};
};

inline qint64 micros(Clock::duration duration) {
    return std::chrono::duration_cast<std::chrono::microseconds>(duration).count();
}

// One run: the threads and what they share.
class Session {
public:
    Session(const LoadSpec &spec, const std::atomic<bool> *externalCancel)
        : m_spec(spec)
        , m_externalCancel(externalCancel)
        , m_threadCount(threadsFor(spec))
        , m_connected(m_threadCount) {}
    ~Session() {
        cancel();
        join();
    }
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    // Atomic mode: one event loop drives many connections, as redis-benchmark does; a thread per
    // connection would pay a context switch per reply and take CPU from a local server.
    static int threadsFor(const LoadSpec &spec) {
        if (!spec.atomic)
            return std::max(1, spec.workers); // the naive pair blocks: one thread each
        int threads = spec.threads;
        if (threads <= 0)
            threads = std::clamp(static_cast<int>(std::thread::hardware_concurrency()) / 2, 1,
                                 kMaxAutomaticThreads);
        return std::clamp(threads, 1, std::max(1, spec.workers));
    }

    // onAllFinished runs on the last thread to finish.
    void start(std::function<void()> onAllFinished);
    void cancel() { m_cancelled.store(true); }
    void join() {
        for (std::thread &thread : m_threads)
            if (thread.joinable())
                thread.join();
    }
    LoadReport report() const;

    qint64 done() const {
        qint64 sum = 0;
        for (int i = 0; i < m_threadCount && m_live; ++i)
            sum += m_live[static_cast<size_t>(i)].done.load(std::memory_order_relaxed);
        return sum;
    }
    qint64 allocated() const {
        qint64 sum = 0;
        for (int i = 0; i < m_threadCount && m_live; ++i)
            sum += m_live[static_cast<size_t>(i)].allocated.load(std::memory_order_relaxed);
        return sum;
    }
    const LoadSpec &spec() const { return m_spec; }

private:
    friend class ThreadWork;

    void work(int index);
    // Sentinel endpoints: the pool's counts before the first allocation, and after the last.
    void readBaseline();
    void checkLoss();
    bool stopRequested() const {
        return m_cancelled.load(std::memory_order_relaxed) ||
               (m_externalCancel && m_externalCancel->load(std::memory_order_relaxed));
    }
    // Total-count runs hand out one ticket per attempt.
    bool claimTicket() {
        qint64 left = m_remaining.load(std::memory_order_relaxed);
        while (left > 0 && !m_remaining.compare_exchange_weak(left, left - 1)) {
        }
        return left > 0;
    }
    void returnTicket() { m_remaining.fetch_add(1); }
    bool ticketsLeft() const { return m_remaining.load(std::memory_order_relaxed) > 0; }
    // Set by the first thread past the connect latch, so connecting is not in elapsed time.
    Clock::time_point startTime() {
        Clock::rep expected = 0;
        const Clock::rep now = Clock::now().time_since_epoch().count();
        m_startedAt.compare_exchange_strong(expected, now);
        return Clock::time_point(Clock::duration(m_startedAt.load()));
    }
    // Workers (connections) of thread `index`: index, index + threads, ...
    int workersOf(int index) const {
        return (m_spec.workers - index + m_threadCount - 1) / m_threadCount;
    }

    LoadSpec m_spec;
    const std::atomic<bool> *m_externalCancel;
    const int m_threadCount;
    std::atomic<bool> m_cancelled{false};
    std::atomic<qint64> m_remaining{0};
    std::atomic<Clock::rep> m_startedAt{0};
    std::atomic<int> m_running{0};
    std::latch m_connected;
    std::function<void()> m_onAllFinished;
    std::vector<ThreadTally> m_tallies;
    std::unique_ptr<ThreadLive[]> m_live;
    std::vector<std::thread> m_threads;
    QString m_startError;
    PoolCountsRead m_baseline;
    PoolCountsRead m_final;
    bool m_lossCheckWanted = false;
};

// What every thread does the same way: tickets, deadline, pacing, counting.
class ThreadWork {
protected:
    ThreadWork(Session &session, int index)
        : m_session(session)
        , m_spec(session.m_spec)
        , m_tally(session.m_tallies[static_cast<size_t>(index)])
        , m_live(session.m_live[static_cast<size_t>(index)])
        , m_evalSha(LuaScript::allocate().evalShaCommand({session.m_spec.poolKey}))
        , m_eval(LuaScript::allocate().evalCommand({session.m_spec.poolKey})) {
        if (m_spec.ratePerSecond > 0) {
            // The overall cap split evenly: each worker (connection) has its own token bucket.
            const double seconds = m_spec.workers / m_spec.ratePerSecond;
            m_interval =
                std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
        }
    }

    std::unique_ptr<LoadConnection> connect() {
        ConnectionOptions options = m_spec.connection;
        options.clientName = QStringLiteral("poolscope-load");
        std::unique_ptr<LoadConnection> connection =
            LoadConnection::open(m_spec.endpoint, options, m_spec.poolKey);
        if (m_spec.endpoint.topology == Endpoint::Topology::Sentinel) { // the primary reached
            const QString server =
                connection->endpoint().host + u':' + QString::number(connection->endpoint().port);
            if (!m_tally.primaries.contains(server))
                m_tally.primaries.append(server);
        }
        return connection;
    }
    // After every thread connected (or failed to): the run's clock starts.
    Clock::time_point waitForOthers() {
        m_tally.arrived = true;
        m_session.m_connected.arrive_and_wait();
        const Clock::time_point start = m_session.startTime();
        if (m_spec.duration.count() > 0)
            m_deadline = start + m_spec.duration;
        return start;
    }
    bool stopRequested() const { return m_session.stopRequested(); }
    bool moreToDo(Clock::time_point now) const {
        if (m_deadline && now >= *m_deadline)
            return false;
        return m_spec.total <= 0 || m_session.ticketsLeft();
    }
    bool claim() { return m_spec.total <= 0 || m_session.claimTicket(); }
    void returnClaim() {
        if (m_spec.total > 0)
            m_session.returnTicket();
    }
    bool paced(Clock::time_point nextSend, Clock::time_point now) const {
        return m_interval.count() == 0 || now >= nextSend;
    }
    void spendToken(Clock::time_point &nextSend, Clock::time_point now) const {
        // A bucket of one token: a worker that fell behind does not make up with a burst.
        if (m_interval.count() > 0)
            nextSend = std::max(nextSend, now - m_interval) + m_interval;
    }
    void countAllocated(std::string_view member) {
        ++m_tally.allocated;
        const auto found = m_tally.perMember.find(member);
        if (found != m_tally.perMember.end())
            ++found->second;
        else
            m_tally.perMember.emplace(std::string(member), 1);
        m_live.allocated.store(m_tally.allocated, std::memory_order_relaxed);
    }
    // Error replies by their first word ("WRONGTYPE", "OOM", ...).
    void countError(const redisReply &reply);
    void finishAttempt(Clock::time_point sent, Clock::time_point answered) {
        m_tally.latency.record(micros(answered - sent));
        m_live.done.store(++m_done, std::memory_order_relaxed);
    }
    // Sent, never answered: they may or may not have run. Counted, never retried.
    void loseInFlight(size_t inFlight, const RedisError &error) {
        m_tally.unknown += static_cast<qint64>(inFlight);
        m_done += static_cast<qint64>(inFlight);
        m_live.done.store(m_done, std::memory_order_relaxed);
        ++m_tally.connectionLosses;
        m_tally.connectionError = error.message();
    }

    Session &m_session;
    const LoadSpec &m_spec;
    ThreadTally &m_tally;
    ThreadLive &m_live;
    const FormattedCommand m_evalSha;
    const FormattedCommand m_eval;
    Clock::duration m_interval{0};
    std::optional<Clock::time_point> m_deadline;
    qint64 m_done = 0;
};

// Atomic mode (LoadMultiplexer.cpp): thread `index` drives its `workers` connections.
void runMultiplexed(Session &session, int index, int workers);
// Naive mode (NaiveLoadWorker.cpp): thread `index` runs one worker, ZRANGE then ZINCRBY.
void runNaive(Session &session, int index);

LoadReport failedReport(const LoadSpec &spec, const QString &error);

} // namespace poolscope::loadrunner_detail
