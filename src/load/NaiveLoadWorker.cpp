// Naive mode of the load runner (the race demo): ZRANGE then ZINCRBY as two commands on one
// blocking connection per thread, counting collisions and duplicate picks.
#include "load/LoadSession.h"

#include <cstdlib>

#include <hiredis/hiredis.h>

namespace poolscope::loadrunner_detail {

namespace {

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

} // namespace

void runNaive(Session &session, int index) {
    NaiveWorker worker(session, index);
    worker.run();
}

} // namespace poolscope::loadrunner_detail
