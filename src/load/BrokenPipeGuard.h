#pragma once

#include <csignal>
#include <ctime>

#include <pthread.h>

namespace poolscope {

// hiredis writes with write(): a server that went away raises SIGPIPE, which would kill the
// whole process. While a guard lives, SIGPIPE is blocked on the current thread, so such a write
// fails with EPIPE and becomes an ordinary lost connection. On the way out a SIGPIPE left
// pending by such a write is consumed before the previous mask comes back.
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
