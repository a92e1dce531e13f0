#pragma once

#include <chrono>

#include <QString>

namespace poolscope::transport {

using Clock = std::chrono::steady_clock;

// Owns a file descriptor; closes it unless released.
class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd)
        : m_fd(fd) {}
    ~UniqueFd();
    UniqueFd(UniqueFd &&other) noexcept
        : m_fd(other.release()) {}
    UniqueFd &operator=(UniqueFd &&other) noexcept;
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;

    int get() const { return m_fd; }
    int release() {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }
    explicit operator bool() const { return m_fd >= 0; }

private:
    int m_fd = -1;
};

// The name to hand the resolver: "localhost" and names under ".localhost" are the loopback address
// itself (RFC 6761 6.3), whatever /etc/hosts says or lacks (a minimal chroot has none), so no
// query for them ever leaves the machine. Any other host is returned as it is.
QString resolverHost(const QString &host);

// A non-blocking TCP socket connected to host:port (each resolved address in turn, IPv4 and
// IPv6), TCP_NODELAY set, by `deadline`. Throws RedisError: Kind::Timeout when the deadline
// passed, Kind::Connection otherwise ("Connection refused", unknown host); `display` names the
// server in the message.
UniqueFd dialTcp(const QString &host, int port, Clock::time_point deadline,
                 std::chrono::milliseconds budget, const QString &display);

// Milliseconds left until `deadline`, for poll(): 0 when it has passed.
int millisecondsUntil(Clock::time_point deadline);

} // namespace poolscope::transport
