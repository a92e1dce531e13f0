#pragma once

#include <csignal>
#include <ctime>

#include <pthread.h>

namespace poolscope {

// hiredis writes with write(): a server that went away (a unix socket at once, TCP on the second
// write) raises SIGPIPE, which would kill the whole process. With SIGPIPE blocked on the writing
// thread, such a write fails with EPIPE instead and becomes an ordinary lost connection.

// For threads that only talk to Redis (the poller's and the writer's): blocked for good.
inline void blockBrokenPipeOnThisThread() {
    sigset_t pipeOnly;
    sigemptyset(&pipeOnly);
    sigaddset(&pipeOnly, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeOnly, nullptr);
}

// For a stretch of work on a thread that has other business (the load runner, the CLI): while a
// guard lives, SIGPIPE is blocked on the current thread. On the way out a SIGPIPE left pending by
// a failed write is consumed before the previous mask comes back.
class BrokenPipeGuard {
public:
    BrokenPipeGuard() {
        const sigset_t pipeOnly = brokenPipe();
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &m_previous);
    }
    ~BrokenPipeGuard() {
        if (sigismember(&m_previous, SIGPIPE) == 1)
            return; // blocked before us: not ours to undo
        const sigset_t pipeOnly = brokenPipe();
        const timespec noWait{0, 0};
        while (sigtimedwait(&pipeOnly, nullptr, &noWait) == SIGPIPE) {
        }
        pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
    }
    BrokenPipeGuard(const BrokenPipeGuard &) = delete;
    BrokenPipeGuard &operator=(const BrokenPipeGuard &) = delete;

private:
    static sigset_t brokenPipe() {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGPIPE);
        return set;
    }
    sigset_t m_previous{};
};

} // namespace poolscope
