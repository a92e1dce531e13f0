// Atomic mode of the load runner: one thread drives many connections with poll(), each keeping
// a window of EVALSHAs in flight, reconnecting with backoff after a loss.
#include "load/LoadSession.h"
#include "topology/ClusterRouter.h"

#include <cerrno>
#include <system_error>

#include <hiredis/hiredis.h>
#include <poll.h>

namespace poolscope::loadrunner_detail {

namespace {

// Atomic mode: the workers (connections) of one thread, driven by poll() on non-blocking
// hiredis contexts. Each keeps a window of up to `pipeline` EVALSHAs in flight; commands are
// only buffered when sent and written out together before the thread waits.
class Multiplexer : public ThreadWork {
public:
    Multiplexer(Session &session, int index, int workers)
        : ThreadWork(session, index)
        , m_lanes(static_cast<size_t>(workers)) {
        // One more slot for the WAIT that follows each window.
        for (Lane &lane : m_lanes)
            lane.ring.resize(static_cast<size_t>(m_spec.pipeline) + 1);
        if (m_spec.waitReplicas > 0)
            m_wait.emplace(RedisCommand{"WAIT", QByteArray::number(m_spec.waitReplicas),
                                        QByteArray::number(m_spec.waitTimeout.count())});
    }
    void run();

private:
    enum class Sent { EvalSha, Eval, Wait };
    struct Pending {
        Clock::time_point sent;
        Sent what = Sent::EvalSha;
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
        size_t sinceWait = 0;     // allocations sent since the last WAIT
        bool waitPending = false; // a WAIT is in flight: nothing more is sent until it answers
        bool finished = false;
        // Redis Cluster: a routed connection for allocations answered with a redirection, and
        // whether the slot moved (the lane then reconnects to the new owner once drained).
        std::unique_ptr<RedisConnection> redirects;
        bool moving = false;
    };

    void send(Lane &lane, Clock::time_point sent, Sent what) {
        lane.connection->append(what == Sent::Wait   ? *m_wait
                                : what == Sent::Eval ? m_eval
                                                     : m_evalSha);
        if (lane.inFlight == 0)
            lane.waitingSince = Clock::now();
        lane.ring[(lane.head + lane.inFlight) % lane.ring.size()] = {sent, what};
        ++lane.inFlight;
        if (what == Sent::Wait) {
            lane.waitPending = true;
            lane.sinceWait = 0;
        } else {
            ++lane.sinceWait;
        }
    }
    // Allocations in flight (a WAIT is not one).
    static size_t allocationsInFlight(const Lane &lane) {
        return lane.inFlight - (lane.waitPending ? 1 : 0);
    }
    // How long the oldest command in flight may take: a WAIT blocks for up to its timeout.
    Clock::duration replyTimeout(const Lane &lane) const {
        return m_spec.connection.commandTimeout +
               (lane.waitPending ? m_spec.waitTimeout : Clock::duration::zero());
    }
    void fill(Lane &lane, Clock::time_point now);
    void drain(Lane &lane, Clock::time_point now);
    void lose(Lane &lane, const RedisError &error, Clock::time_point now);
    void reconnect(Lane &lane);
    void redirected(Lane &lane, const Pending &pending, std::string_view redirection);

    std::vector<Lane> m_lanes;
    std::optional<FormattedCommand> m_wait; // --wait-replicas
};

void Multiplexer::fill(Lane &lane, Clock::time_point now) {
    const size_t window = static_cast<size_t>(m_spec.pipeline);
    while (!lane.moving && !lane.waitPending && lane.inFlight < window &&
           (!m_wait || lane.sinceWait < window) && !stopRequested() && paced(lane.nextSend, now) &&
           moreToDo(now) && claim()) {
        try {
            send(lane, now, Sent::EvalSha);
        } catch (const RedisError &) {
            returnClaim(); // never left this process
            throw;
        }
        spendToken(lane.nextSend, now);
    }
    // After each window (and after the last allocations of the run): WAIT for the replicas.
    if (m_wait && !lane.waitPending && lane.sinceWait > 0 &&
        (lane.sinceWait >= window || !moreToDo(now)))
        send(lane, now, Sent::Wait);
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
        if (oldest.what == Sent::Wait) {
            lane.waitPending = false;
            ++m_tally.waits;
            if (reply->type != REDIS_REPLY_INTEGER || reply->integer < m_spec.waitReplicas)
                ++m_tally.waitsShort;
            continue;
        }
        if (oldest.what == Sent::EvalSha && isNoScript(*reply)) {
            // The script cache was emptied (restart, failover, SCRIPT FLUSH): this allocation
            // did not run, so sending it again as EVAL is safe. EVAL also caches the script.
            try {
                send(lane, oldest.sent, Sent::Eval);
            } catch (const RedisError &) {
                returnClaim(); // it never ran and was not sent again
                throw;
            }
            continue;
        }
        if (reply->type == REDIS_REPLY_ERROR) {
            const std::string_view text = textOf(*reply);
            if (text.starts_with("MOVED ") || text.starts_with("ASK ") ||
                text.starts_with("TRYAGAIN")) {
                redirected(lane, oldest, text);
                continue;
            }
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

// Redis Cluster: the allocation did not run (a redirection is an answer instead of running it),
// so it is sent again, once, through a cluster router that follows MOVED / ASK / TRYAGAIN. That
// path blocks this thread's lanes for a round trip or two; it is taken only while a slot moves.
void Multiplexer::redirected(Lane &lane, const Pending &pending, std::string_view redirection) {
    if (redirection.starts_with("MOVED")) {
        ++m_tally.moved;
        lane.moving = true; // stop sending here; reconnect to the new owner when drained
    } else if (redirection.starts_with("ASK")) {
        ++m_tally.ask;
    } else {
        ++m_tally.tryAgain;
    }
    try {
        if (!lane.redirects) {
            ConnectionOptions options = m_spec.connection;
            options.clientName = QStringLiteral("poolscope-load");
            lane.redirects = RedisConnection::open(m_spec.endpoint, options);
        }
        topology::ClusterRouter *router = lane.redirects->cluster();
        if (!router)
            throw RedisError(
                RedisError::Kind::Server,
                QStringLiteral("a server that is not a cluster node answered %1")
                    .arg(QString::fromUtf8(redirection.data(), qsizetype(redirection.size()))),
                "UNEXPECTED");
        const topology::ClusterCounters before = router->counters();
        const RedisReply answer = LuaScript::allocate().run(*lane.redirects, {m_spec.poolKey});
        m_tally.moved += router->counters().moved - before.moved;
        m_tally.ask += router->counters().ask - before.ask;
        m_tally.tryAgain += router->counters().tryAgain - before.tryAgain;
        if (answer.type == RedisReply::Type::String)
            countAllocated(std::string_view(answer.text.constData(), size_t(answer.text.size())));
        else if (answer.isNil())
            ++m_tally.empty;
        else
            ++m_tally.errorsByKind[answer.isError() ? QString::fromUtf8(answer.errorCode())
                                                    : QStringLiteral("UNEXPECTED")];
    } catch (const RedisError &error) {
        lane.redirects.reset();
        if (error.connectionLost()) { // sent, no answer: it may or may not have run
            ++m_tally.unknown;
            m_tally.connectionError = error.message();
        } else {
            const QByteArray code = error.serverCode();
            ++m_tally
                  .errorsByKind[code.isEmpty() ? QStringLiteral("ERR") : QString::fromUtf8(code)];
        }
    }
    finishAttempt(pending.sent, Clock::now());
}

void Multiplexer::lose(Lane &lane, const RedisError &error, Clock::time_point now) {
    loseInFlight(allocationsInFlight(lane), error);
    lane.inFlight = 0;
    lane.head = 0;
    lane.sinceWait = 0;
    lane.waitPending = false;
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
            if (lane.moving && lane.inFlight == 0) {
                // The pool's slot has a new owner: follow it (connect() asks the slot map).
                lane.connection.reset();
                lane.moving = false;
                lane.lostAt = now;
                lane.backoff = kFirstBackoff;
                reconnect(lane);
                now = Clock::now();
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
            wake = std::min(wake, lane.waitingSince + replyTimeout(lane));
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
                if (lane.inFlight > 0 && now - lane.waitingSince >= replyTimeout(lane))
                    lane.connection->timedOut();
            } catch (const RedisError &error) {
                lose(lane, error, now);
            }
        }
    }
}

} // namespace

void runMultiplexed(Session &session, int index, int workers) {
    Multiplexer multiplexer(session, index, workers);
    multiplexer.run();
}

} // namespace poolscope::loadrunner_detail
