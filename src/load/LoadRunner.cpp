#include "load/LoadRunner.h"

#include "load/LatencyHistogram.h"
#include "pool/LuaScript.h"
#include "pool/MemberText.h"
#include "redis/BrokenPipe.h"
#include "redis/RedisConnection.h"
#include "redis/RedisError.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <latch>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <vector>

#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <poll.h>

#include <QJsonObject>
#include <QSet>
#include <QTimer>

namespace poolscope {

namespace loadrunner_detail {

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
    QMap<QString, qint64> errorsByKind;
    MemberCounts perMember;
    // Naive mode: member followed by the 8 bytes of the score it was read at.
    QList<QByteArray> picks;
    LatencyHistogram latency;
    Clock::time_point finishedAt{};
    QString connectionError;  // the last connection problem, if any
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

qint64 micros(Clock::duration duration) {
    return std::chrono::duration_cast<std::chrono::microseconds>(duration).count();
}

struct ContextDeleter {
    void operator()(redisContext *context) const { redisFree(context); }
};
struct ReplyDeleter {
    void operator()(redisReply *reply) const { freeReplyObject(reply); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

std::string_view textOf(const redisReply &reply) {
    return {reply.str, reply.len};
}

bool isNoScript(const redisReply &reply) {
    return reply.type == REDIS_REPLY_ERROR && textOf(reply).starts_with("NOSCRIPT");
}

// A command in RESP, formatted once and sent many times: the hot loop only copies bytes into
// hiredis's output buffer (redis-benchmark does the same).
class FormattedCommand {
public:
    explicit FormattedCommand(const RedisCommand &argv) {
        std::vector<const char *> args;
        std::vector<size_t> lengths;
        for (const QByteArray &arg : argv) {
            args.push_back(arg.constData());
            lengths.push_back(static_cast<size_t>(arg.size()));
        }
        char *raw = nullptr;
        const int length = redisFormatCommandArgv(&raw, static_cast<int>(args.size()), args.data(),
                                                  lengths.data());
        if (length < 0 || !raw)
            throw std::bad_alloc();
        m_bytes.assign(raw, static_cast<size_t>(length));
        redisFreeCommand(raw);
    }
    const std::string &bytes() const { return m_bytes; }

private:
    std::string m_bytes;
};

// The load workers' connection: raw hiredis, so a reply is read where hiredis put it instead of
// being copied. Opened and handshaken by RedisConnection, which then hands its context over; plus
// SCRIPT LOAD. Broken for good after any I/O error or timeout (a late reply would be misread).
class LoadConnection {
public:
    static std::unique_ptr<LoadConnection> open(const Endpoint &endpoint,
                                                const ConnectionOptions &options);

    void append(const FormattedCommand &command) {
        if (redisAppendFormattedCommand(m_context.get(), command.bytes().data(),
                                        command.bytes().size()) != REDIS_OK)
            fail("sending a command");
        m_unflushed = true;
    }
    void append(const RedisCommand &argv) {
        std::vector<const char *> args;
        std::vector<size_t> lengths;
        for (const QByteArray &arg : argv) {
            args.push_back(arg.constData());
            lengths.push_back(static_cast<size_t>(arg.size()));
        }
        // *Argv so member names with spaces, quotes or NUL bytes travel intact.
        if (redisAppendCommandArgv(m_context.get(), static_cast<int>(args.size()), args.data(),
                                   lengths.data()) != REDIS_OK)
            fail("sending a command");
    }
    // Throws RedisError (Timeout or Connection) when no reply comes.
    ReplyPtr read() {
        void *raw = nullptr;
        if (redisGetReply(m_context.get(), &raw) != REDIS_OK || !raw)
            fail("waiting for a reply");
        return ReplyPtr(static_cast<redisReply *>(raw));
    }
    template <typename Command> ReplyPtr command(const Command &command) {
        append(command);
        return read();
    }

    // After the handshake, for the event loop: nothing below blocks.
    void makeNonBlocking() {
        const int flags = fcntl(m_context->fd, F_GETFL);
        if (flags < 0 || fcntl(m_context->fd, F_SETFL, flags | O_NONBLOCK) < 0)
            throw RedisError(RedisError::Kind::Connection,
                             QStringLiteral("cannot make the connection to %1 non-blocking")
                                 .arg(m_endpoint.toDisplayString()));
        m_context->flags &= ~REDIS_BLOCK;
    }
    int fd() const { return m_context->fd; }
    // Writes what fits of the buffered commands.
    void flush() {
        int done = 0;
        if (redisBufferWrite(m_context.get(), &done) != REDIS_OK)
            fail("sending commands");
        m_unflushed = done == 0;
    }
    bool hasUnflushed() const { return m_unflushed; }
    // Reads what has arrived into hiredis's reader.
    void readAvailable() {
        if (redisBufferRead(m_context.get()) != REDIS_OK)
            fail("reading replies");
    }
    // The next complete reply already read, or null.
    ReplyPtr nextReply() {
        void *raw = nullptr;
        if (redisGetReplyFromReader(m_context.get(), &raw) != REDIS_OK)
            fail("parsing a reply");
        return ReplyPtr(static_cast<redisReply *>(raw));
    }
    [[noreturn]] void timedOut() const {
        throw RedisError(RedisError::Kind::Timeout, QStringLiteral("no reply from %1 within %2 ms")
                                                        .arg(m_endpoint.toDisplayString())
                                                        .arg(m_commandTimeout.count()));
    }

private:
    explicit LoadConnection(const Endpoint &endpoint)
        : m_endpoint(endpoint) {}
    [[noreturn]] void fail(const char *during);

    std::unique_ptr<redisContext, ContextDeleter> m_context;
    Endpoint m_endpoint;
    std::chrono::milliseconds m_commandTimeout{0};
    bool m_unflushed = false;
};

std::unique_ptr<LoadConnection> LoadConnection::open(const Endpoint &endpoint,
                                                     const ConnectionOptions &options) {
    // Connected and handshaken (timeouts, AUTH, SELECT, CLIENT SETNAME) the way every poolscope
    // connection is; from then on the raw context is driven here.
    std::unique_ptr<RedisConnection> handshaken = RedisConnection::open(endpoint, options);
    std::unique_ptr<LoadConnection> connection(new LoadConnection(endpoint));
    connection->m_context.reset(handshaken->releaseContext());
    connection->m_commandTimeout = options.commandTimeout;
    // Once per connection: after a restart or failover the script cache is empty. A refusal
    // (ACL) is not fatal: EVALSHA answers NOSCRIPT and the allocation goes out as EVAL.
    connection->command(RedisCommand{"SCRIPT", "LOAD", LuaScript::allocate().source()});
    return connection;
}

void LoadConnection::fail(const char *during) {
    const int error = errno; // before anything else can change it
    redisContext *context = m_context.get();
    if (context->err == REDIS_ERR_IO && (error == EAGAIN || error == EWOULDBLOCK))
        throw RedisError(RedisError::Kind::Timeout,
                         QStringLiteral("no reply from %1 within %2 ms while %3")
                             .arg(m_endpoint.toDisplayString())
                             .arg(m_commandTimeout.count())
                             .arg(QLatin1String(during)));
    const QString reason = context->err == REDIS_ERR_EOF
                               ? QStringLiteral("the server closed the connection")
                               : QString::fromLocal8Bit(context->errstr);
    throw RedisError(RedisError::Kind::Connection,
                     QStringLiteral("connection to %1 lost while %2: %3")
                         .arg(m_endpoint.toDisplayString(), QLatin1String(during), reason));
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
        return LoadConnection::open(m_spec.endpoint, options);
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
    void countError(const redisReply &reply) {
        std::string_view code = "UNEXPECTED";
        if (reply.type == REDIS_REPLY_ERROR) {
            code = textOf(reply);
            code = code.substr(0, code.find(' '));
            if (code.empty())
                code = "ERR";
        }
        ++m_tally.errorsByKind[QString::fromUtf8(code.data(), qsizetype(code.size()))];
    }
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

// Atomic mode: the workers (connections) of one thread, driven by poll() on non-blocking
// hiredis contexts. Each keeps a window of up to `pipeline` EVALSHAs in flight; commands are
// only buffered when sent and written out together before the thread waits.
class Multiplexer : public ThreadWork {
public:
    Multiplexer(Session &session, int index, int workers)
        : ThreadWork(session, index)
        , m_lanes(static_cast<size_t>(workers)) {
        for (Lane &lane : m_lanes)
            lane.ring.resize(static_cast<size_t>(m_spec.pipeline));
    }
    void run();

private:
    struct Pending {
        Clock::time_point sent;
        bool isEval = false;
    };
    struct Lane {
        std::unique_ptr<LoadConnection> connection; // null while reconnecting
        std::vector<Pending> ring;                  // in flight, oldest at `head`
        size_t head = 0;
        size_t inFlight = 0;
        Clock::time_point nextSend{};     // rate token
        Clock::time_point waitingSince{}; // for the command timeout
        Clock::time_point lostAt{};
        Clock::time_point retryAt{};
        Clock::duration backoff{};
        bool finished = false;
    };

    void send(Lane &lane, Clock::time_point sent, bool eval) {
        lane.connection->append(eval ? m_eval : m_evalSha);
        if (lane.inFlight == 0)
            lane.waitingSince = Clock::now();
        lane.ring[(lane.head + lane.inFlight) % lane.ring.size()] = {sent, eval};
        ++lane.inFlight;
    }
    void fill(Lane &lane, Clock::time_point now);
    void drain(Lane &lane, Clock::time_point now);
    void lose(Lane &lane, const RedisError &error, Clock::time_point now);
    void reconnect(Lane &lane);

    std::vector<Lane> m_lanes;
};

void Multiplexer::fill(Lane &lane, Clock::time_point now) {
    while (lane.inFlight < lane.ring.size() && !stopRequested() && paced(lane.nextSend, now) &&
           moreToDo(now) && claim()) {
        try {
            send(lane, now, false);
        } catch (const RedisError &) {
            returnClaim(); // never left this process
            throw;
        }
        spendToken(lane.nextSend, now);
    }
}

void Multiplexer::drain(Lane &lane, Clock::time_point now) {
    while (ReplyPtr reply = lane.connection->nextReply()) {
        if (lane.inFlight == 0)
            throw RedisError(RedisError::Kind::Connection,
                             QStringLiteral("a reply came that no command asked for"));
        const Pending oldest = lane.ring[lane.head];
        lane.head = (lane.head + 1) % lane.ring.size();
        --lane.inFlight;
        lane.waitingSince = now;
        if (!oldest.isEval && isNoScript(*reply)) {
            // The script cache was emptied (restart, failover, SCRIPT FLUSH): this allocation
            // did not run, so sending it again as EVAL is safe. EVAL also caches the script.
            try {
                send(lane, oldest.sent, true);
            } catch (const RedisError &) {
                returnClaim(); // it never ran and was not sent again
                throw;
            }
            continue;
        }
        if (reply->type == REDIS_REPLY_STRING)
            countAllocated(textOf(*reply));
        else if (reply->type == REDIS_REPLY_NIL)
            ++m_tally.empty;
        else
            countError(*reply);
        finishAttempt(oldest.sent, now);
    }
}

void Multiplexer::lose(Lane &lane, const RedisError &error, Clock::time_point now) {
    loseInFlight(lane.inFlight, error);
    lane.inFlight = 0;
    lane.head = 0;
    lane.connection.reset();
    lane.lostAt = now;
    lane.backoff = kFirstBackoff;
    lane.retryAt = now + lane.backoff;
}

void Multiplexer::reconnect(Lane &lane) {
    // Blocking, bounded by the connect and command timeouts; this thread's other connections
    // wait meanwhile (they usually lost the same server).
    try {
        lane.connection = connect();
        lane.connection->makeNonBlocking();
        ++m_tally.reconnects;
        return;
    } catch (const RedisError &error) {
        m_tally.connectionError = error.message();
    }
    const Clock::time_point now = Clock::now();
    if (m_spec.giveUpAfter.count() > 0 && now - lane.lostAt >= m_spec.giveUpAfter) {
        ++m_tally.gaveUpWorkers;
        lane.finished = true;
        return;
    }
    lane.backoff = std::min<Clock::duration>(lane.backoff * 2, kMaxBackoff);
    lane.retryAt = now + lane.backoff;
}

void Multiplexer::run() {
    for (Lane &lane : m_lanes) {
        try {
            lane.connection = connect();
            lane.connection->makeNonBlocking();
            ++m_tally.connectedWorkers;
        } catch (const RedisError &error) {
            // A first connection that fails is a wrong address or credential: no retries.
            m_tally.connectionError = error.message();
            lane.finished = true;
        }
    }
    const Clock::time_point start = waitForOthers();
    for (Lane &lane : m_lanes)
        lane.nextSend = start;

    std::vector<pollfd> fds;
    std::vector<Lane *> polled;
    fds.reserve(m_lanes.size());
    polled.reserve(m_lanes.size());
    for (;;) {
        Clock::time_point now = Clock::now();
        Clock::time_point wake = now + kSleepSlice;
        bool active = false;
        fds.clear();
        polled.clear();
        for (Lane &lane : m_lanes) {
            if (lane.finished)
                continue;
            if (!lane.connection) {
                if (stopRequested() || !moreToDo(now)) {
                    lane.finished = true;
                    continue;
                }
                if (now >= lane.retryAt) {
                    reconnect(lane);
                    now = Clock::now();
                }
                if (!lane.connection) {
                    active = active || !lane.finished;
                    wake = std::min(wake, lane.retryAt);
                    continue;
                }
            }
            try {
                fill(lane, now);
                lane.connection->flush();
            } catch (const RedisError &error) {
                lose(lane, error, now);
                active = true;
                continue;
            }
            if (lane.inFlight == 0) {
                if (stopRequested() || !moreToDo(now)) {
                    lane.finished = true;
                    continue;
                }
                active = true; // waiting for a rate token
                wake = std::min(wake, lane.nextSend);
                continue;
            }
            active = true;
            wake = std::min(wake, lane.waitingSince + m_spec.connection.commandTimeout);
            const short events = POLLIN | (lane.connection->hasUnflushed() ? POLLOUT : 0);
            fds.push_back({lane.connection->fd(), events, 0});
            polled.push_back(&lane);
        }
        if (!active)
            return;
        if (m_deadline && *m_deadline > now)
            wake = std::min(wake, *m_deadline);
        const auto waitMs = std::chrono::ceil<std::chrono::milliseconds>(wake - now).count();
        if (::poll(fds.data(), fds.size(), static_cast<int>(std::max<qint64>(0, waitMs))) < 0 &&
            errno != EINTR)
            throw std::system_error(errno, std::generic_category(), "poll");
        now = Clock::now();
        for (size_t i = 0; i < fds.size(); ++i) {
            Lane &lane = *polled[i];
            try {
                if (fds[i].revents & POLLOUT)
                    lane.connection->flush();
                if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                    lane.connection->readAvailable();
                    drain(lane, now);
                }
                if (lane.inFlight > 0 &&
                    now - lane.waitingSince >= m_spec.connection.commandTimeout)
                    lane.connection->timedOut();
            } catch (const RedisError &error) {
                lose(lane, error, now);
            }
        }
    }
}

// Naive mode (the race demo): ZRANGE key 0 0 WITHSCORES, then ZINCRBY, as separate commands on
// one blocking connection per thread. One allocation at a time: the point is the gap between
// the two commands, not speed.
class NaiveWorker : public ThreadWork {
public:
    NaiveWorker(Session &session, int index)
        : ThreadWork(session, index)
        , m_zrange(RedisCommand{"ZRANGE", session.spec().poolKey, "0", "0", "WITHSCORES"}) {}
    void run();

private:
    void allocateOneByOne(LoadConnection &connection);
    bool reconnect(std::unique_ptr<LoadConnection> &connection);
    // Sleeps until `until` (or the deadline), waking to look at the cancel flag.
    void sleepUntil(Clock::time_point until) const {
        if (m_deadline)
            until = std::min(until, *m_deadline);
        while (!stopRequested()) {
            const Clock::time_point now = Clock::now();
            if (now >= until)
                return;
            std::this_thread::sleep_until(std::min(until, now + kSleepSlice));
        }
    }

    const FormattedCommand m_zrange;
    Clock::time_point m_nextSend{};
    size_t m_inFlight = 0; // 1 while a ZINCRBY is unanswered
};

void NaiveWorker::run() {
    std::unique_ptr<LoadConnection> connection;
    try {
        connection = connect();
        ++m_tally.connectedWorkers;
    } catch (const RedisError &error) {
        m_tally.connectionError = error.message();
    }
    m_nextSend = waitForOthers();
    if (!connection)
        return;
    for (;;) {
        try {
            allocateOneByOne(*connection);
            return;
        } catch (const RedisError &error) {
            loseInFlight(m_inFlight, error);
            m_inFlight = 0;
        }
        connection.reset();
        if (!reconnect(connection))
            return;
    }
}

bool NaiveWorker::reconnect(std::unique_ptr<LoadConnection> &connection) {
    const Clock::time_point lostAt = Clock::now();
    auto delay = std::chrono::duration_cast<Clock::duration>(kFirstBackoff);
    for (;;) {
        if (stopRequested() || !moreToDo(Clock::now()))
            return false;
        sleepUntil(Clock::now() + delay);
        if (stopRequested() || !moreToDo(Clock::now()))
            return false;
        try {
            connection = connect();
            ++m_tally.reconnects;
            return true;
        } catch (const RedisError &error) {
            m_tally.connectionError = error.message();
        }
        if (m_spec.giveUpAfter.count() > 0 && Clock::now() - lostAt >= m_spec.giveUpAfter) {
            ++m_tally.gaveUpWorkers;
            return false;
        }
        delay = std::min<Clock::duration>(delay * 2, kMaxBackoff);
    }
}

void NaiveWorker::allocateOneByOne(LoadConnection &connection) {
    for (;;) {
        const Clock::time_point now = Clock::now();
        if (stopRequested() || !moreToDo(now))
            return;
        if (!paced(m_nextSend, now)) {
            sleepUntil(m_nextSend);
            continue;
        }
        if (!claim())
            return;
        spendToken(m_nextSend, now);
        ReplyPtr read;
        try {
            read = connection.command(m_zrange);
        } catch (const RedisError &) {
            returnClaim(); // only a read was lost: nothing was allocated
            throw;
        }
        const bool picked = read->type == REDIS_REPLY_ARRAY && read->elements == 2 &&
                            read->element[0]->type == REDIS_REPLY_STRING &&
                            read->element[1]->type == REDIS_REPLY_STRING;
        if (!picked) {
            if (read->type == REDIS_REPLY_ARRAY && read->elements == 0)
                ++m_tally.empty;
            else
                countError(*read);
            finishAttempt(now, Clock::now());
            continue;
        }
        const QByteArray member(read->element[0]->str, qsizetype(read->element[0]->len));
        const double score = std::strtod(read->element[1]->str, nullptr);
        m_inFlight = 1; // a lost ZINCRBY reply makes this allocation unknown
        const ReplyPtr incremented =
            connection.command(RedisCommand{"ZINCRBY", m_spec.poolKey, "1", member});
        m_inFlight = 0;
        finishAttempt(now, Clock::now());
        if (incremented->type != REDIS_REPLY_STRING) {
            countError(*incremented);
            continue;
        }
        countAllocated(std::string_view(member.constData(), size_t(member.size())));
        // Anything but score + 1 means another worker incremented this member in between.
        if (std::strtod(incremented->str, nullptr) != score + 1)
            ++m_tally.collisions;
        QByteArray pick = member;
        pick.append(reinterpret_cast<const char *>(&score), sizeof score);
        m_tally.picks.append(pick);
    }
}

void Session::work(int index) {
    ThreadTally &tally = m_tallies[static_cast<size_t>(index)];
    const BrokenPipeGuard brokenPipeGuard;
    try {
        if (m_spec.atomic) {
            Multiplexer multiplexer(*this, index, workersOf(index));
            multiplexer.run();
        } else {
            NaiveWorker worker(*this, index);
            worker.run();
        }
    } catch (const std::exception &error) {
        // Not a Redis problem (out of memory, ...): report it rather than take the process down.
        tally.connectionError = QString::fromLocal8Bit(error.what());
        tally.failed = true;
        cancel(); // the others stop too: the run is broken
        if (!tally.arrived)
            m_connected.count_down(); // the others must not wait for this thread
    }
    tally.finishedAt = Clock::now();
}

void Session::start(std::function<void()> onAllFinished) {
    m_onAllFinished = std::move(onAllFinished);
    m_tallies.resize(static_cast<size_t>(m_threadCount));
    m_live = std::make_unique<ThreadLive[]>(static_cast<size_t>(m_threadCount));
    m_remaining.store(m_spec.total);
    m_running.store(m_threadCount);
    (void)LuaScript::allocate(); // load the resource once, before the threads race for it
    m_threads.reserve(static_cast<size_t>(m_threadCount));
    for (int i = 0; i < m_threadCount; ++i) {
        try {
            m_threads.emplace_back([this, i] {
                work(i);
                if (m_running.fetch_sub(1) == 1 && m_onAllFinished)
                    m_onAllFinished();
            });
        } catch (const std::system_error &error) {
            // Out of threads: stop the ones already started and account for the rest.
            m_startError = QStringLiteral("cannot start thread %1 of %2: %3")
                               .arg(i + 1)
                               .arg(m_threadCount)
                               .arg(QString::fromLocal8Bit(error.what()));
            cancel();
            const int missing = m_threadCount - i;
            m_connected.count_down(missing);
            if (m_running.fetch_sub(missing) == missing && m_onAllFinished)
                m_onAllFinished();
            return;
        }
    }
}

LoadReport Session::report() const {
    LoadReport report;
    report.requested = m_spec.total;
    report.atomic = m_spec.atomic;
    report.workers = m_spec.workers;
    report.pipeline = m_spec.atomic ? m_spec.pipeline : 1;
    report.threads = m_threadCount;
    report.cancelled = m_cancelled.load() || (m_externalCancel && m_externalCancel->load());
    LatencyHistogram latency;
    Clock::time_point finishedAt{};
    QSet<QByteArray> picked;
    int connected = 0;
    int gaveUp = 0;
    bool failed = false;
    QString lastConnectionError;
    for (const ThreadTally &tally : m_tallies) {
        report.allocated += tally.allocated;
        report.empty += tally.empty;
        report.unknown += tally.unknown;
        report.collisions += tally.collisions;
        report.connectionLosses += tally.connectionLosses;
        report.reconnects += tally.reconnects;
        for (auto it = tally.errorsByKind.cbegin(); it != tally.errorsByKind.cend(); ++it)
            report.errorsByKind[it.key()] += it.value();
        for (const auto &[member, count] : tally.perMember)
            report.perMember[QByteArray(member.data(), qsizetype(member.size()))] += count;
        for (const QByteArray &pick : tally.picks) {
            if (picked.contains(pick))
                ++report.duplicatePicks;
            else
                picked.insert(pick);
        }
        latency.merge(tally.latency);
        finishedAt = std::max(finishedAt, tally.finishedAt);
        connected += tally.connectedWorkers;
        gaveUp += tally.gaveUpWorkers;
        failed = failed || tally.failed;
        if (!tally.connectionError.isEmpty())
            lastConnectionError = tally.connectionError;
    }
    const Clock::rep startedAt = m_startedAt.load();
    if (startedAt != 0 && finishedAt.time_since_epoch().count() > startedAt)
        report.elapsedSeconds = std::chrono::duration<double>(
                                    finishedAt - Clock::time_point(Clock::duration(startedAt)))
                                    .count();
    report.latencyP50Ms = latency.quantileMicros(0.50) / 1000.0;
    report.latencyP99Ms = latency.quantileMicros(0.99) / 1000.0;
    report.latencyMaxMs = latency.maxMicros() / 1000.0;

    if (!m_startError.isEmpty())
        report.error = m_startError;
    else if (failed)
        report.error = QStringLiteral("the run stopped: %1").arg(lastConnectionError);
    else if (connected == 0)
        report.error = lastConnectionError;
    else if (connected < m_spec.workers)
        report.error = QStringLiteral("%1 of %2 workers could not connect: %3")
                           .arg(m_spec.workers - connected)
                           .arg(m_spec.workers)
                           .arg(lastConnectionError);
    else if (gaveUp > 0)
        report.error = QStringLiteral("%1 of %2 workers gave up reconnecting: %3")
                           .arg(gaveUp)
                           .arg(m_spec.workers)
                           .arg(lastConnectionError);
    return report;
}

LoadReport failedReport(const LoadSpec &spec, const QString &error) {
    LoadReport report;
    report.requested = spec.total;
    report.atomic = spec.atomic;
    report.workers = spec.workers;
    report.pipeline = spec.pipeline;
    report.error = error;
    return report;
}

} // namespace loadrunner_detail

using loadrunner_detail::Clock;
using loadrunner_detail::Session;

QString validateLoadSpec(const LoadSpec &spec) {
    if (spec.poolKey.isEmpty())
        return QStringLiteral("the pool key is empty: name the sorted set to use");
    if (spec.workers < 1 || spec.workers > loadrunner_detail::kMaxWorkers)
        return QStringLiteral("workers must be 1-%1, not %2")
            .arg(loadrunner_detail::kMaxWorkers)
            .arg(spec.workers);
    if (spec.threads < 0 || spec.threads > loadrunner_detail::kMaxThreads)
        return QStringLiteral("threads must be 0 (automatic) to %1, not %2")
            .arg(loadrunner_detail::kMaxThreads)
            .arg(spec.threads);
    if (spec.connection.commandTimeout.count() <= 0 || spec.connection.connectTimeout.count() <= 0)
        return QStringLiteral("the connect and command timeouts must be positive");
    if (spec.pipeline < 1 || spec.pipeline > loadrunner_detail::kMaxPipeline)
        return QStringLiteral("pipeline must be 1-%1, not %2")
            .arg(loadrunner_detail::kMaxPipeline)
            .arg(spec.pipeline);
    if (spec.total < 0)
        return QStringLiteral("the number of allocations is negative");
    if (spec.duration.count() < 0)
        return QStringLiteral("the duration is negative");
    if (spec.total == 0 && spec.duration.count() == 0)
        return QStringLiteral("give a number of allocations or a duration");
    if (!std::isfinite(spec.ratePerSecond) || spec.ratePerSecond < 0)
        return QStringLiteral("the rate must be a positive number of allocations per second");
    return {};
}

qint64 LoadReport::errors() const {
    qint64 sum = 0;
    for (const qint64 count : errorsByKind)
        sum += count;
    return sum;
}

QJsonObject LoadReport::toJson() const {
    QJsonObject errorKinds;
    for (auto it = errorsByKind.cbegin(); it != errorsByKind.cend(); ++it)
        errorKinds.insert(it.key(), it.value());
    QJsonObject members;
    for (auto it = perMember.cbegin(); it != perMember.cend(); ++it)
        members.insert(memberText(it.key()), it.value()); // escaped: keys stay distinct
    QJsonObject object{
        {QStringLiteral("requested"), requested},
        {QStringLiteral("allocated"), allocated},
        {QStringLiteral("empty"), empty},
        {QStringLiteral("errors"), errors()},
        {QStringLiteral("errors_by_kind"), errorKinds},
        {QStringLiteral("unknown"), unknown},
        {QStringLiteral("elapsed_s"), elapsedSeconds},
        {QStringLiteral("rate_per_s"), ratePerSecond()},
        {QStringLiteral("latency_ms"), QJsonObject{{QStringLiteral("p50"), latencyP50Ms},
                                                   {QStringLiteral("p99"), latencyP99Ms},
                                                   {QStringLiteral("max"), latencyMaxMs}}},
        {QStringLiteral("per_member"), members},
        {QStringLiteral("collisions"), collisions},
        {QStringLiteral("duplicate_picks"), duplicatePicks},
        {QStringLiteral("atomic"), atomic},
        {QStringLiteral("workers"), workers},
        {QStringLiteral("pipeline"), pipeline},
        {QStringLiteral("threads"), threads},
        {QStringLiteral("cancelled"), cancelled},
        {QStringLiteral("connection_losses"), connectionLosses},
        {QStringLiteral("reconnects"), reconnects},
    };
    if (!error.isEmpty())
        object.insert(QStringLiteral("error"), error);
    return object;
}

struct LoadRunner::Run {
    std::unique_ptr<Session> session;
    QTimer progressTimer;
    qint64 lastAllocated = 0;
    Clock::time_point lastTick;
};

LoadRunner::LoadRunner(QObject *parent)
    : QObject(parent) {}

LoadRunner::~LoadRunner() {
    // Session's destructor cancels and joins; a queued "all finished" call dies with this object.
    m_run.reset();
}

bool LoadRunner::start(const LoadSpec &spec) {
    if (m_run || !validateLoadSpec(spec).isEmpty())
        return false;
    m_run = std::make_unique<Run>();
    m_run->session = std::make_unique<Session>(spec, nullptr);
    m_run->lastTick = Clock::now();

    const auto emitProgress = [this] {
        Session &session = *m_run->session;
        const Clock::time_point now = Clock::now();
        const qint64 allocated = session.allocated();
        const double seconds = std::chrono::duration<double>(now - m_run->lastTick).count();
        const double rate = seconds > 0 ? (allocated - m_run->lastAllocated) / seconds : 0;
        m_run->lastAllocated = allocated;
        m_run->lastTick = now;
        Q_EMIT progressed(session.done(), session.spec().total, rate);
    };
    const auto finish = [this, emitProgress] {
        if (!m_run)
            return;
        m_run->progressTimer.stop();
        m_run->session->join();
        emitProgress();
        const LoadReport report = m_run->session->report();
        m_run.reset();
        Q_EMIT finished(report);
    };
    m_run->progressTimer.setInterval(std::chrono::milliseconds(100));
    connect(&m_run->progressTimer, &QTimer::timeout, this, emitProgress);
    m_run->progressTimer.start();
    // The last worker out asks this thread to collect the report.
    m_run->session->start(
        [this, finish] { QMetaObject::invokeMethod(this, finish, Qt::QueuedConnection); });
    return true;
}

void LoadRunner::cancel() {
    if (m_run)
        m_run->session->cancel();
}

bool LoadRunner::isRunning() const {
    return m_run != nullptr;
}

LoadReport LoadRunner::run(const LoadSpec &spec, const std::atomic<bool> *cancelFlag) {
    if (const QString problem = validateLoadSpec(spec); !problem.isEmpty())
        return loadrunner_detail::failedReport(spec, problem);
    Session session(spec, cancelFlag);
    session.start({});
    session.join();
    return session.report();
}

} // namespace poolscope
