#include "ErrorRewritingRelay.h"

#include <cerrno>
#include <cstring>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace poolscope::testing {

namespace {

bool sendAll(int fd, const char *data, qsizetype size) {
    while (size > 0) {
        const ssize_t sent = ::send(fd, data, size_t(size), MSG_NOSIGNAL);
        if (sent <= 0)
            return false;
        data += sent;
        size -= sent;
    }
    return true;
}

int connectLoopback(quint16 port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace

ErrorRewritingRelay::ErrorRewritingRelay(quint16 serverPort)
    : m_serverPort(serverPort) {}

ErrorRewritingRelay::~ErrorRewritingRelay() {
    stop();
}

bool ErrorRewritingRelay::start() {
    m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK); // loopback only, a free port
    socklen_t length = sizeof address;
    if (m_listener < 0 ||
        ::bind(m_listener, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        ::listen(m_listener, 16) != 0 ||
        ::getsockname(m_listener, reinterpret_cast<sockaddr *>(&address), &length) != 0 ||
        ::pipe(m_wakePipe) != 0) {
        m_error = QStringLiteral("relay: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    m_port = ntohs(address.sin_port);
    m_acceptThread = std::thread([this] { acceptLoop(); });
    return true;
}

void ErrorRewritingRelay::stop() {
    if (m_stopping.exchange(true) || m_listener < 0)
        return;
    const char wake = 'x';
    (void)::write(m_wakePipe[1], &wake, 1);
    if (m_acceptThread.joinable())
        m_acceptThread.join();
    {
        const std::lock_guard lock(m_mutex);
        for (int fd : m_sockets)
            ::shutdown(fd, SHUT_RDWR);
    }
    for (std::thread &thread : m_threads)
        thread.join();
    for (int fd : m_sockets)
        ::close(fd);
    ::close(m_listener);
    ::close(m_wakePipe[0]);
    ::close(m_wakePipe[1]);
}

void ErrorRewritingRelay::acceptLoop() {
    while (!m_stopping.load()) {
        pollfd fds[2] = {{m_listener, POLLIN, 0}, {m_wakePipe[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) <= 0 || (fds[1].revents & POLLIN))
            return;
        const int client = ::accept(m_listener, nullptr, nullptr);
        if (client < 0)
            continue;
        const std::lock_guard lock(m_mutex);
        m_sockets.push_back(client);
        m_threads.emplace_back([this, client] { relay(client); });
    }
}

void ErrorRewritingRelay::relay(int client) {
    const int server = connectLoopback(m_serverPort);
    if (server < 0) {
        ::close(client);
        return;
    }
    {
        const std::lock_guard lock(m_mutex);
        m_sockets.push_back(server);
    }
    QByteArray pending; // the server's bytes not yet a complete reply
    char buffer[65536];
    while (true) {
        pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
        if (::poll(fds, 2, -1) <= 0)
            break;
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t got = ::recv(client, buffer, sizeof buffer, 0);
            if (got <= 0 || !sendAll(server, buffer, got))
                break;
        }
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t got = ::recv(server, buffer, sizeof buffer, 0);
            if (got <= 0)
                break;
            pending.append(buffer, got);
            QByteArray out;
            qsizetype at = 0;
            int errors = 0;
            for (qsizetype end; (end = rewriteReply(pending, at, out, &errors)) > 0;)
                at = end;
            pending.remove(0, at);
            m_rewritten += errors;
            if (!sendAll(client, out.constData(), out.size()))
                break;
        }
    }
    ::shutdown(client, SHUT_RDWR);
    ::shutdown(server, SHUT_RDWR);
}

qsizetype ErrorRewritingRelay::rewriteReply(const QByteArray &in, qsizetype at, QByteArray &out,
                                            int *errors) {
    if (at >= in.size())
        return -1;
    const qsizetype lineEnd = in.indexOf("\r\n", at);
    if (lineEnd < 0)
        return -1;
    const QByteArray line = in.mid(at + 1, lineEnd - at - 1);
    switch (in[at]) {
    case '-': {
        const qsizetype space = line.indexOf(' ');
        const QByteArray code = space < 0 ? line : line.left(space);
        if (kCodes.contains(code)) {
            out += '-' + code + ' ' + kText + "\r\n";
            ++*errors;
        } else {
            out += in.mid(at, lineEnd + 2 - at);
        }
        return lineEnd + 2;
    }
    case '$': {
        const qsizetype size = line.toLongLong();
        const qsizetype end = size < 0 ? lineEnd + 2 : lineEnd + 2 + size + 2;
        if (end > in.size())
            return -1;
        out += in.mid(at, end - at);
        return end;
    }
    case '*': {
        const qsizetype count = line.toLongLong();
        QByteArray elements;
        int nested = 0;
        qsizetype next = lineEnd + 2;
        for (qsizetype i = 0; i < count; ++i)
            if ((next = rewriteReply(in, next, elements, &nested)) < 0)
                return -1;
        out += in.mid(at, lineEnd + 2 - at) + elements;
        *errors += nested;
        return next;
    }
    default: // + and :
        out += in.mid(at, lineEnd + 2 - at);
        return lineEnd + 2;
    }
}

} // namespace poolscope::testing
