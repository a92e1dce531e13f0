#include "transport/ssh/SshRelay.h"

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

#include <libssh/libssh.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace poolscope::transport {
namespace {

constexpr std::size_t kChannelBufferSize = 32 * 1024; // one SSH channel packet's worth

// One tunnel: hiredis's bytes (app) <-> the SSH channel.
struct TunnelLink : RelayAppSide<kChannelBufferSize> {
    SshChannelToServer tunnel;

    ssh_session session() const { return tunnel.session.get(); }
    ssh_channel channel() const { return tunnel.channel.get(); }

    short sshEvents() const {
        if (serverDone)
            return 0;
        short events = 0;
        // Reading packets while hiredis has not taken the last ones would only fill libssh's
        // buffer; a write waiting for the window needs the peer's window adjust, though.
        if (downEmpty() || !upEmpty())
            events |= POLLIN;
        if (ssh_get_poll_flags(session()) & SSH_WRITE_PENDING)
            events |= POLLOUT;
        return events;
    }

    // Moves bytes both ways until neither direction can go on without waiting. Every call into
    // libssh may read packets from the socket into the channel's buffer, so the channel is read
    // last in each round, and a round that moved anything is followed by another.
    void service() {
        for (bool progress = true; progress && !clientDone;) {
            progress = false;
            if (!readFromApp(&progress))
                return;
            if (!upEmpty() && !serverDone) {
                // Non-blocking session: writes what the peer's window allows (0 when closed).
                const int sent = ssh_channel_write(channel(), up.data() + upBegin,
                                                   static_cast<uint32_t>(upEnd - upBegin));
                if (sent > 0) {
                    upBegin += static_cast<std::size_t>(sent);
                    progress = true;
                } else if (sent < 0) {
                    serverDone = true;
                }
            }
            if (!serverDone && (ssh_get_poll_flags(session()) & SSH_WRITE_PENDING))
                ssh_blocking_flush(session(), 0); // what the socket takes now, without waiting
            if (downEmpty() && !serverDone) {
                const int got = ssh_channel_read_nonblocking(channel(), down.data(),
                                                             static_cast<uint32_t>(down.size()), 0);
                if (got > 0) {
                    downBegin = 0;
                    downEnd = static_cast<std::size_t>(got);
                    progress = true;
                } else if (got < 0 || ssh_channel_is_eof(channel()) ||
                           ssh_channel_is_closed(channel()) || !ssh_is_connected(session())) {
                    serverDone = true; // SSH_EOF, SSH_ERROR (sshd gone), or the server closed
                }
            }
            if (!writeToApp(&progress))
                return; // hiredis went away
        }
        passOnServerEof();
    }

    ~TunnelLink() {
        if (!serverDone && ssh_is_connected(session())) {
            ssh_channel_send_eof(channel()); // best effort: the session ends right after
            ssh_channel_close(channel());
        }
    }
};

// One tunnel's thread; it ends when hiredis closes its end, or when the process exits.
class RelayThread {
public:
    explicit RelayThread(std::unique_ptr<TunnelLink> link)
        : m_link(std::move(link))
        , m_wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
        if (!m_wake)
            throw RedisError(RedisError::Kind::Connection,
                             QStringLiteral("cannot start the SSH relay: %1")
                                 .arg(QString::fromLocal8Bit(std::strerror(errno))));
        m_thread = std::thread([this] { run(); });
    }
    ~RelayThread() {
        m_stop.store(true);
        const std::uint64_t one = 1;
        [[maybe_unused]] const ssize_t written = ::write(m_wake.get(), &one, sizeof(one));
        m_thread.join();
    }
    RelayThread(const RelayThread &) = delete;
    RelayThread &operator=(const RelayThread &) = delete;
    bool finished() const { return m_finished.load(); }

private:
    void run() {
        blockBrokenPipeOnThisThread(); // libssh writes to its socket with send()/write()
        TunnelLink &link = *m_link;
        link.service(); // the channel may already hold bytes read while it was opened
        bool appHungUp = false;
        while (!link.clientDone && !m_stop.load()) {
            std::array<pollfd, 3> fds{{
                {m_wake.get(), POLLIN, 0},
                {appHungUp ? -1 : link.app.get(), link.appEvents(), 0},
                {link.serverDone ? -1 : ssh_get_fd(link.session()), link.sshEvents(), 0},
            }};
            if (::poll(fds.data(), fds.size(), -1) < 0)
                continue; // EINTR
            // A hang-up stays reported whatever we ask for; what is left is read without
            // polling (service() tries every direction), so poll() does not spin on it.
            appHungUp = appHungUp || (fds[1].revents & (POLLHUP | POLLERR));
            link.service();
        }
        m_link.reset(); // closes the channel and the session on this thread
        m_finished.store(true);
    }

    std::unique_ptr<TunnelLink> m_link;
    UniqueFd m_wake;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_finished{false};
    std::thread m_thread;
};

// Owns the relay threads, so that they are joined (not detached) at exit; finished ones are
// joined whenever a tunnel is added.
class RelayThreads {
public:
    static RelayThreads &instance() {
        static RelayThreads threads;
        return threads;
    }
    void add(std::unique_ptr<TunnelLink> link) {
        const std::lock_guard lock(m_mutex);
        std::erase_if(m_threads, [](const std::unique_ptr<RelayThread> &thread) {
            return thread->finished();
        });
        m_threads.push_back(std::make_unique<RelayThread>(std::move(link)));
    }

private:
    std::mutex m_mutex;
    std::vector<std::unique_ptr<RelayThread>> m_threads;
};

} // namespace

int SshRelay::attach(SshChannelToServer tunnel, const QString &display) {
    int ends[2] = {-1, -1};
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
        throw RedisError(RedisError::Kind::Connection,
                         QStringLiteral("cannot connect to %1: cannot make a socketpair for the "
                                        "SSH tunnel: %2")
                             .arg(display, QString::fromLocal8Bit(std::strerror(errno))));
    UniqueFd hiredisEnd(ends[0]);
    auto link = std::make_unique<TunnelLink>();
    link->app = UniqueFd(ends[1]);
    link->tunnel = std::move(tunnel);
    try {
        RelayThreads::instance().add(std::move(link));
    } catch (const std::system_error &error) { // no thread to be had
        throw RedisError(RedisError::Kind::Connection,
                         QStringLiteral("cannot connect to %1: cannot start an SSH relay thread: "
                                        "%2")
                             .arg(display, QString::fromLocal8Bit(error.what())));
    }
    return hiredisEnd.release();
}

} // namespace poolscope::transport
