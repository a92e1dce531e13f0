#include "transport/TlsRelay.h"

#include "base/BrokenPipe.h"
#include "base/RedisError.h"
#include "transport/RelayAppSide.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace poolscope::transport {
namespace {

// One relay thread for the whole process (poll() over every TLS connection), a few, or one per
// connection? Measured on this project's 2-core machine (shared with other builds, load average
// ~10), 50 load workers with 32 allocations in flight each against one TLS redis-server,
// 200,000 allocations a run, allocations/s (two runs each, same server, same minute):
//   1 shared thread: 49k, 50k     2 threads: 58k, 45k     4: 92k, 80k     8: 43k, 72k
//   a thread per connection: 190k, 134k (redis-benchmark --tls: 38k-51k; see bench/README.md)
// The server's CPU time per allocation was the same in every mode (~4.5 us): a shared thread
// did not cost CPU, it cost waiting. Our reading: every connection's bytes queue behind one thread,
// and when the scheduler takes that thread off the CPU for a slice, all connections stall at once;
// with a thread per connection a stall holds up one connection, and the others keep the server
// busy (and on a busy machine 50 threads get more of the contended CPUs than one does). So: a
// thread per connection. Each sleeps in poll() when its connection is idle (the
// dashboard has two; a load run one per worker). POOLSCOPE_TLS_RELAY=N (1-256) runs N shared
// threads instead, only so that bench/tls_throughput.sh can measure the alternative.
constexpr std::size_t kSharedThreadsWhenAsked = 1;

constexpr std::size_t kBufferSize = 16 * 1024; // one TLS record's worth of plaintext

// One TLS connection: hiredis's bytes (app) <-> the TLS session on the TCP socket.
struct Link : RelayAppSide<kBufferSize> {
    UniqueFd tcp;
    TlsSession session;
    bool writeWantsRead = false;  // SSL_write needs to read first (TLS 1.3 key update)
    bool writeWantsWrite = false; // the TCP send buffer is full
    bool readWantsWrite = false;
    bool tcpHungUp = false; // poll() reported POLLHUP/POLLERR: stop polling, read what is left
    bool appHungUp = false;

    bool finished() const { return clientDone; }

    short tcpEvents() const {
        short events = 0;
        if (serverDone)
            return 0;
        if ((downEmpty() && !readWantsWrite) || writeWantsRead)
            events |= POLLIN;
        if (writeWantsWrite || readWantsWrite)
            events |= POLLOUT;
        return events;
    }

    // Moves bytes both ways until neither direction can go on without waiting.
    void service() {
        SSL *ssl = session.get();
        for (bool progress = true; progress && !finished();) {
            progress = false;
            if (!readFromApp(&progress))
                return;
            if (!upEmpty() && !serverDone) {
                ERR_clear_error();
                const int sent = SSL_write(ssl, up.data() + upBegin, int(upEnd - upBegin));
                writeWantsRead = writeWantsWrite = false;
                if (sent > 0) {
                    upBegin += static_cast<std::size_t>(sent);
                    progress = true;
                } else {
                    const int error = SSL_get_error(ssl, sent);
                    writeWantsRead = error == SSL_ERROR_WANT_READ;
                    writeWantsWrite = error == SSL_ERROR_WANT_WRITE;
                    serverDone = !writeWantsRead && !writeWantsWrite;
                }
            }
            if (downEmpty() && !serverDone) {
                ERR_clear_error();
                const int got = SSL_read(ssl, down.data(), int(down.size()));
                readWantsWrite = false;
                if (got > 0) {
                    downBegin = 0;
                    downEnd = static_cast<std::size_t>(got);
                    progress = true;
                } else {
                    const int error = SSL_get_error(ssl, got);
                    readWantsWrite = error == SSL_ERROR_WANT_WRITE;
                    // Anything else than "wait": close_notify, EOF, reset, a fatal alert.
                    serverDone = error != SSL_ERROR_WANT_READ && !readWantsWrite;
                }
            }
            if (!writeToApp(&progress))
                return; // hiredis went away
        }
        passOnServerEof();
    }

    ~Link() {
        if (clientDone && !serverDone) {
            ERR_clear_error();
            SSL_shutdown(session.get()); // close_notify, best effort: the socket is closing
        }
    }
};

// A thread that relays a set of links with poll().
class RelayLoop {
public:
    RelayLoop(std::unique_ptr<Link> first, bool exitWhenIdle)
        : m_wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
        , m_exitWhenIdle(exitWhenIdle) {
        if (!m_wake)
            throw RedisError(RedisError::Kind::Connection,
                             QStringLiteral("cannot start the TLS relay: %1")
                                 .arg(QString::fromLocal8Bit(std::strerror(errno))));
        m_incoming.push_back(std::move(first));
        m_linkCount.store(1);
        m_thread = std::thread([this] { run(); });
    }
    ~RelayLoop() {
        m_stop.store(true);
        wake();
        m_thread.join();
    }
    RelayLoop(const RelayLoop &) = delete;
    RelayLoop &operator=(const RelayLoop &) = delete;

    void add(std::unique_ptr<Link> link) {
        m_linkCount.fetch_add(1);
        {
            const std::lock_guard lock(m_mutex);
            m_incoming.push_back(std::move(link));
        }
        wake();
    }
    bool idleAndDone() const { return m_done.load(); }
    std::size_t linkCount() const { return m_linkCount.load(); }

private:
    void wake() {
        const std::uint64_t one = 1;
        [[maybe_unused]] const ssize_t written = ::write(m_wake.get(), &one, sizeof(one));
    }

    void run() {
        blockBrokenPipeOnThisThread(); // OpenSSL writes to the TCP socket with write()
        std::vector<std::unique_ptr<Link>> links;
        std::vector<pollfd> fds;
        while (!m_stop.load()) {
            {
                const std::lock_guard lock(m_mutex);
                for (std::unique_ptr<Link> &link : m_incoming) {
                    link->service(); // the handshake may have left records in OpenSSL's buffer
                    links.push_back(std::move(link));
                }
                m_incoming.clear();
            }
            m_linkCount.fetch_sub(std::erase_if(
                links, [](const std::unique_ptr<Link> &link) { return link->finished(); }));
            if (m_exitWhenIdle && links.empty()) {
                m_done.store(true);
                return;
            }
            fds.clear();
            fds.push_back({m_wake.get(), POLLIN, 0});
            for (const std::unique_ptr<Link> &link : links) {
                fds.push_back({link->appHungUp ? -1 : link->app.get(), link->appEvents(), 0});
                fds.push_back({link->tcpHungUp || link->serverDone ? -1 : link->tcp.get(),
                               link->tcpEvents(), 0});
            }
            if (::poll(fds.data(), fds.size(), -1) < 0)
                continue; // EINTR
            if (fds[0].revents != 0) {
                std::uint64_t count = 0;
                [[maybe_unused]] const ssize_t got = ::read(m_wake.get(), &count, sizeof(count));
            }
            for (std::size_t i = 0; i < links.size(); ++i) {
                const short appEvents = fds[1 + 2 * i].revents;
                const short tcpEvents = fds[2 + 2 * i].revents;
                if (appEvents == 0 && tcpEvents == 0)
                    continue;
                Link &link = *links[i];
                // A hang-up stays reported whatever we ask for; what is left is read without
                // polling (service() tries every direction), so poll() does not spin on it.
                link.appHungUp = link.appHungUp || (appEvents & (POLLHUP | POLLERR));
                link.tcpHungUp = link.tcpHungUp || (tcpEvents & (POLLHUP | POLLERR));
                link.service();
            }
        }
    }

    UniqueFd m_wake;
    const bool m_exitWhenIdle;
    std::mutex m_mutex;
    std::vector<std::unique_ptr<Link>> m_incoming;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_done{false};
    std::atomic<std::size_t> m_linkCount{0};
    std::thread m_thread;
};

class RelayHub {
public:
    static RelayHub &instance() {
        static RelayHub hub;
        return hub;
    }
    void add(std::unique_ptr<Link> link) {
        const std::lock_guard lock(m_mutex);
        if (m_perConnection) {
            std::erase_if(m_loops, [](const std::unique_ptr<RelayLoop> &loop) {
                return loop->idleAndDone();
            });
            m_loops.push_back(std::make_unique<RelayLoop>(std::move(link), true));
            return;
        }
        // The loop with the fewest links, or a new one while there are fewer than m_threads.
        RelayLoop *least = nullptr;
        for (const std::unique_ptr<RelayLoop> &loop : m_loops)
            if (!least || loop->linkCount() < least->linkCount())
                least = loop.get();
        if (!least || (least->linkCount() > 0 && m_loops.size() < m_threads))
            m_loops.push_back(std::make_unique<RelayLoop>(std::move(link), false));
        else
            least->add(std::move(link));
    }

private:
    RelayHub() {
        bool isNumber = false;
        const int threads = qEnvironmentVariableIntValue("POOLSCOPE_TLS_RELAY", &isNumber);
        m_perConnection = !isNumber || threads < 1 || threads > 256;
        m_threads = m_perConnection ? kSharedThreadsWhenAsked : std::size_t(threads);
    }
    bool m_perConnection = true;
    std::size_t m_threads = kSharedThreadsWhenAsked;
    std::mutex m_mutex;
    std::vector<std::unique_ptr<RelayLoop>> m_loops;
};

} // namespace

int TlsRelay::attach(UniqueFd tcp, TlsSession session, const QString &display) {
    int ends[2] = {-1, -1};
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
        throw RedisError(RedisError::Kind::Connection,
                         QStringLiteral("cannot connect to %1: cannot make a socketpair for the "
                                        "TLS relay: %2")
                             .arg(display, QString::fromLocal8Bit(std::strerror(errno))));
    UniqueFd hiredisEnd(ends[0]);
    auto link = std::make_unique<Link>();
    link->app = UniqueFd(ends[1]);
    link->tcp = std::move(tcp);
    link->session = std::move(session);
    try {
        RelayHub::instance().add(std::move(link));
    } catch (const std::system_error &error) { // no thread to be had
        throw RedisError(RedisError::Kind::Connection,
                         QStringLiteral("cannot connect to %1: cannot start a TLS relay thread: %2")
                             .arg(display, QString::fromLocal8Bit(error.what())));
    }
    return hiredisEnd.release();
}

} // namespace poolscope::transport
