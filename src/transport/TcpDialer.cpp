#include "transport/TcpDialer.h"

#include "base/RedisError.h"

#include <cerrno>
#include <cstring>
#include <memory>

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace poolscope::transport {

UniqueFd::~UniqueFd() {
    if (m_fd >= 0)
        ::close(m_fd);
}

UniqueFd &UniqueFd::operator=(UniqueFd &&other) noexcept {
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = other.release();
    }
    return *this;
}

int millisecondsUntil(Clock::time_point deadline) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<int>(left) : 0;
}

namespace {

struct AddressListDeleter {
    void operator()(addrinfo *list) const { freeaddrinfo(list); }
};

[[noreturn]] void timedOut(const QString &display, std::chrono::milliseconds budget) {
    throw RedisError(RedisError::Kind::Timeout, QStringLiteral("cannot connect to %1: connect "
                                                               "timed out after %2 ms")
                                                    .arg(display)
                                                    .arg(budget.count()));
}

// One address: 0 and a connected socket, or the errno that stopped it.
int connectOne(const addrinfo &address, Clock::time_point deadline, UniqueFd &connected) {
    UniqueFd fd(::socket(address.ai_family, address.ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                         address.ai_protocol));
    if (!fd)
        return errno;
    if (::connect(fd.get(), address.ai_addr, address.ai_addrlen) != 0) {
        if (errno != EINPROGRESS)
            return errno;
        pollfd waiting{fd.get(), POLLOUT, 0};
        int ready = 0;
        do {
            ready = ::poll(&waiting, 1, millisecondsUntil(deadline));
        } while (ready < 0 && errno == EINTR);
        if (ready == 0)
            return ETIMEDOUT;
        int error = 0;
        socklen_t length = sizeof(error);
        if (::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &length) != 0)
            return errno;
        if (error != 0)
            return error;
    }
    // Commands and replies are small and latency-bound, as hiredis sets for its own sockets.
    const int on = 1;
    ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
    connected = std::move(fd);
    return 0;
}

} // namespace

QString resolverHost(const QString &host) {
    const QString name = host.endsWith(QLatin1Char('.')) ? host.chopped(1) : host;
    if (name.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0 ||
        name.endsWith(QLatin1String(".localhost"), Qt::CaseInsensitive))
        return QStringLiteral("127.0.0.1");
    return host;
}

UniqueFd dialTcp(const QString &host, int port, Clock::time_point deadline,
                 std::chrono::milliseconds budget, const QString &display) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *raw = nullptr;
    const QByteArray service = QByteArray::number(port);
    if (const int failed = ::getaddrinfo(resolverHost(host).toUtf8().constData(),
                                         service.constData(), &hints, &raw);
        failed != 0)
        throw RedisError(RedisError::Kind::Connection,
                         QStringLiteral("cannot connect to %1: cannot resolve host \"%2\": %3")
                             .arg(display, host, QString::fromLocal8Bit(gai_strerror(failed))));
    const std::unique_ptr<addrinfo, AddressListDeleter> addresses(raw);
    int lastError = ECONNREFUSED;
    for (const addrinfo *address = addresses.get(); address; address = address->ai_next) {
        if (Clock::now() >= deadline)
            timedOut(display, budget);
        UniqueFd connected;
        lastError = connectOne(*address, deadline, connected);
        if (lastError == 0)
            return connected;
        if (lastError == ETIMEDOUT)
            timedOut(display, budget);
    }
    throw RedisError(RedisError::Kind::Connection,
                     QStringLiteral("cannot connect to %1: %2")
                         .arg(display, QString::fromLocal8Bit(std::strerror(lastError))));
}

} // namespace poolscope::transport
