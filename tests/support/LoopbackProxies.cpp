#include "LoopbackProxies.h"

#include <QList>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <thread>

namespace poolscope::testing {

// One accepted connection, plain or TLS, blocking.
struct LoopbackServer::Stream {
    int fd = -1;
    SSL *ssl = nullptr;
    QByteArray buffered; // read past what a parser consumed

    ~Stream() {
        if (ssl)
            SSL_free(ssl);
    }
    // Some bytes (appended to buffered); false at EOF or error.
    bool readMore() {
        char chunk[4096];
        const int n = ssl ? SSL_read(ssl, chunk, sizeof chunk)
                          : static_cast<int>(::recv(fd, chunk, sizeof chunk, 0));
        if (n <= 0)
            return false;
        buffered.append(chunk, n);
        return true;
    }
    bool readExactly(int count, QByteArray &out) {
        while (buffered.size() < count)
            if (!readMore())
                return false;
        out = buffered.left(count);
        buffered.remove(0, count);
        return true;
    }
    // Up to and including the first terminator; false when it does not come within 16 KB.
    bool readUntil(const QByteArray &terminator, QByteArray &out) {
        while (!buffered.contains(terminator)) {
            if (buffered.size() > 16384 || !readMore())
                return false;
        }
        const qsizetype end = buffered.indexOf(terminator) + terminator.size();
        out = buffered.left(end);
        buffered.remove(0, end);
        return true;
    }
    bool write(const QByteArray &data) {
        qsizetype sent = 0;
        while (sent < data.size()) {
            const int n = ssl ? SSL_write(ssl, data.constData() + sent, int(data.size() - sent))
                              : static_cast<int>(::send(fd, data.constData() + sent,
                                                        size_t(data.size() - sent), MSG_NOSIGNAL));
            if (n <= 0)
                return false;
            sent += n;
        }
        return true;
    }
};

namespace {

bool writeAll(int fd, const char *data, size_t size) {
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

} // namespace

LoopbackServer::LoopbackServer(Options options)
    : m_options(std::move(options))
    , m_status(m_options.status) {}

LoopbackServer::~LoopbackServer() {
    stop();
    if (m_tlsContext)
        SSL_CTX_free(static_cast<SSL_CTX *>(m_tlsContext));
}

bool LoopbackServer::start() {
    // TLS writes go through OpenSSL's socket BIO, which sends without MSG_NOSIGNAL: a client that
    // hangs up first (as libcurl does once it has what it needs) must not end the test process.
    ::signal(SIGPIPE, SIG_IGN);
    if (m_options.tls && !m_tlsContext) {
        SSL_CTX *context = SSL_CTX_new(TLS_server_method());
        if (SSL_CTX_use_certificate_chain_file(context, m_options.certificate.toLocal8Bit()) != 1 ||
            SSL_CTX_use_PrivateKey_file(context, m_options.privateKey.toLocal8Bit(),
                                        SSL_FILETYPE_PEM) != 1) {
            SSL_CTX_free(context);
            m_error = QStringLiteral("cannot load %1").arg(m_options.certificate);
            return false;
        }
        if (m_options.requireClientCertificate)
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
        m_tlsContext = context;
    }
    m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int yes = 1;
    ::setsockopt(m_listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(m_options.port);
    socklen_t length = sizeof address;
    if (::bind(m_listener, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        ::listen(m_listener, 1024) != 0 ||
        ::getsockname(m_listener, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        m_error = QStringLiteral("cannot listen on 127.0.0.1:%1: %2")
                      .arg(m_options.port)
                      .arg(QString::fromLocal8Bit(strerror(errno)));
        ::close(m_listener);
        m_listener = -1;
        return false;
    }
    m_port = ntohs(address.sin_port);
    m_options.port = m_port; // a restart after stop() takes the same port
    if (::pipe2(m_wakePipe, O_CLOEXEC) != 0) {
        m_error = QStringLiteral("pipe failed");
        return false;
    }
    m_stopping.store(false);
    m_acceptThread = std::thread([this] { acceptLoop(); });
    return true;
}

void LoopbackServer::stop() {
    if (m_listener < 0)
        return;
    m_stopping.store(true);
    const char wake = 1;
    [[maybe_unused]] const ssize_t written = ::write(m_wakePipe[1], &wake, 1);
    m_acceptThread.join();
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(m_mutex);
        for (const int fd : m_openFds)
            ::shutdown(fd, SHUT_RDWR);
        threads.swap(m_connectionThreads);
    }
    for (std::thread &thread : threads)
        thread.join();
    ::close(m_listener);
    ::close(m_wakePipe[0]);
    ::close(m_wakePipe[1]);
    m_listener = -1;
}

void LoopbackServer::acceptLoop() {
    while (!m_stopping.load()) {
        pollfd fds[2] = {{m_listener, POLLIN, 0}, {m_wakePipe[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0 && errno != EINTR)
            return;
        if (fds[1].revents)
            return;
        if (!(fds[0].revents & POLLIN))
            continue;
        const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        m_accepted.fetch_add(1);
        std::lock_guard lock(m_mutex);
        m_openFds.push_back(fd);
        m_connectionThreads.emplace_back([this, fd] {
            serve(fd);
            std::lock_guard inner(m_mutex);
            m_openFds.erase(std::find(m_openFds.begin(), m_openFds.end(), fd));
            ::close(fd);
        });
    }
}

void LoopbackServer::serve(int fd) {
    Stream client;
    client.fd = fd;
    if (m_options.tls) {
        client.ssl = SSL_new(static_cast<SSL_CTX *>(m_tlsContext));
        SSL_set_fd(client.ssl, fd);
        if (SSL_accept(client.ssl) != 1) {
            ERR_clear_error();
            return;
        }
    }
    switch (m_options.kind) {
    case Kind::HttpProxy:
        serveHttpProxy(client);
        break;
    case Kind::Socks5:
        serveSocks5(client);
        break;
    case Kind::Socks4:
        serveSocks4(client);
        break;
    case Kind::Silent:
        while (client.readMore() && !m_stopping.load())
            client.buffered.clear();
        break;
    case Kind::Garbage:
        if (client.readMore())
            client.write(QByteArray("\x01\xfe garbage, no protocol at all\r\n\r\n\x05\xff", 37));
        break;
    case Kind::HttpTarget:
        serveTarget(client);
        break;
    case Kind::EndlessHeaders:
        if (client.readMore() && client.write("HTTP/1.1 200 OK\r\n")) {
            for (int i = 0;
                 !m_stopping.load() && client.write("X-More: " + QByteArray::number(i) + "\r\n");
                 ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        break;
    case Kind::HugeHeader:
        if (client.readMore())
            client.write("HTTP/1.1 200 OK\r\nX-Huge: " + QByteArray(10 << 20, 'a') + "\r\n\r\n");
        break;
    }
    if (client.ssl)
        SSL_shutdown(client.ssl);
}

int LoopbackServer::connectOnward(const QByteArray &host, quint16 port, bool &notAllowed) {
    in_addr address{};
    notAllowed = false;
    if (host == "localhost") {
        address.s_addr = htonl(INADDR_LOOPBACK);
    } else if (inet_pton(AF_INET, host.constData(), &address) != 1 ||
               (ntohl(address.s_addr) >> 24) != 127) {
        notAllowed = true; // the harness never leaves the loopback network
        return -1;
    }
    if (m_failing.load())
        return -1;
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in target{};
    target.sin_family = AF_INET;
    target.sin_addr = address;
    target.sin_port = htons(port);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&target), sizeof target) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

namespace {

// Copies both ways until either side closes.
void relay(int clientFd, SSL *clientSsl, QByteArray pending, int targetFd) {
    if (!pending.isEmpty() && !writeAll(targetFd, pending.constData(), size_t(pending.size())))
        return;
    char chunk[16384];
    for (;;) {
        if (!(clientSsl && SSL_pending(clientSsl) > 0)) {
            pollfd fds[2] = {{clientFd, POLLIN, 0}, {targetFd, POLLIN, 0}};
            if (::poll(fds, 2, -1) < 0) {
                if (errno == EINTR)
                    continue;
                return;
            }
            if (fds[1].revents) {
                const ssize_t n = ::recv(targetFd, chunk, sizeof chunk, 0);
                if (n <= 0)
                    return;
                const bool ok = clientSsl ? SSL_write(clientSsl, chunk, int(n)) == int(n)
                                          : writeAll(clientFd, chunk, size_t(n));
                if (!ok)
                    return;
                continue;
            }
            if (!fds[0].revents)
                continue;
        }
        const int n = clientSsl ? SSL_read(clientSsl, chunk, sizeof chunk)
                                : int(::recv(clientFd, chunk, sizeof chunk, 0));
        if (n <= 0 || !writeAll(targetFd, chunk, size_t(n)))
            return;
    }
}

QByteArray headerValue(const QByteArray &head, const QByteArray &name) {
    for (const QByteArray &line : head.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed().toLower() == name)
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

bool splitHostPort(const QByteArray &text, QByteArray &host, quint16 &port) {
    const qsizetype colon = text.lastIndexOf(':');
    if (colon <= 0)
        return false;
    bool ok = false;
    port = text.mid(colon + 1).toUShort(&ok);
    host = text.left(colon);
    return ok;
}

} // namespace

void LoopbackServer::serveHttpProxy(Stream &client) {
    QByteArray head;
    if (!client.readUntil("\r\n\r\n", head))
        return;
    const QList<QByteArray> requestLine = head.left(head.indexOf("\r\n")).split(' ');
    if (requestLine.size() != 3) {
        client.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        return;
    }
    if (!m_options.user.isEmpty()) {
        const QByteArray expected =
            "Basic " + (m_options.user + ':' + m_options.password).toBase64();
        if (headerValue(head, "proxy-authorization") != expected) {
            client.write("HTTP/1.1 407 Proxy Authentication Required\r\n"
                         "Proxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\n\r\n");
            return;
        }
    }
    const QByteArray method = requestLine[0];
    QByteArray host;
    quint16 port = 0;
    QByteArray path = "/";
    if (method == "CONNECT") {
        if (!splitHostPort(requestLine[1], host, port)) {
            client.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
            return;
        }
    } else if (requestLine[1].startsWith("http://")) {
        QByteArray authority = requestLine[1].mid(7);
        const qsizetype slash = authority.indexOf('/');
        if (slash >= 0) {
            path = authority.mid(slash);
            authority.truncate(slash);
        }
        if (!splitHostPort(authority, host, port)) {
            host = authority;
            port = 80;
        }
    } else {
        client.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        return;
    }
    bool notAllowed = false;
    const int target = connectOnward(host, port, notAllowed);
    if (target < 0) {
        client.write(notAllowed ? "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"
                                : "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
        return;
    }
    if (method == "CONNECT") {
        if (client.write("HTTP/1.1 200 Connection established\r\n\r\n"))
            relay(client.fd, client.ssl, client.buffered, target);
    } else {
        const QByteArray request = method + ' ' + path + " HTTP/1.1\r\nHost: " + host + ':' +
                                   QByteArray::number(port) + "\r\nConnection: close\r\n\r\n";
        relay(client.fd, client.ssl, request, target);
    }
    ::close(target);
}

void LoopbackServer::serveSocks5(Stream &client) {
    QByteArray greeting;
    QByteArray methods;
    if (!client.readExactly(2, greeting) || greeting[0] != 5 ||
        !client.readExactly(quint8(greeting[1]), methods))
        return;
    const bool needAuth = !m_options.user.isEmpty();
    const char wanted = needAuth ? 2 : 0;
    if (!methods.contains(wanted)) {
        client.write(QByteArray("\x05\xff", 2));
        return;
    }
    client.write(QByteArray("\x05", 1) + wanted);
    if (needAuth) {
        QByteArray version, length, user, password;
        if (!client.readExactly(2, version) || version[0] != 1 ||
            !client.readExactly(quint8(version[1]), user) || !client.readExactly(1, length) ||
            !client.readExactly(quint8(length[0]), password))
            return;
        const bool ok = user == m_options.user && password == m_options.password;
        client.write(QByteArray(ok ? "\x01\x00" : "\x01\x01", 2));
        if (!ok)
            return;
    }
    QByteArray request, host, portBytes;
    if (!client.readExactly(4, request) || request[0] != 5 || request[1] != 1)
        return;
    if (request[3] == 1) {
        QByteArray raw;
        if (!client.readExactly(4, raw))
            return;
        char text[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, raw.constData(), text, sizeof text);
        host = text;
    } else if (request[3] == 3) {
        QByteArray length;
        if (!client.readExactly(1, length) || !client.readExactly(quint8(length[0]), host))
            return;
    } else {
        client.write(QByteArray("\x05\x08\x00\x01\0\0\0\0\0\0", 10)); // address type not supported
        return;
    }
    if (!client.readExactly(2, portBytes))
        return;
    const quint16 port = quint16(quint8(portBytes[0]) << 8 | quint8(portBytes[1]));
    bool notAllowed = false;
    const int target = connectOnward(host, port, notAllowed);
    if (target < 0) {
        client.write(QByteArray(notAllowed ? "\x05\x02" : "\x05\x05", 2) +
                     QByteArray("\x00\x01\0\0\0\0\0\0", 8));
        return;
    }
    if (client.write(QByteArray("\x05\x00\x00\x01\x7f\x00\x00\x01\x00\x00", 10)))
        relay(client.fd, client.ssl, client.buffered, target);
    ::close(target);
}

void LoopbackServer::serveSocks4(Stream &client) {
    QByteArray request, user, host;
    if (!client.readExactly(8, request) || request[0] != 4 || request[1] != 1 ||
        !client.readUntil(QByteArray(1, '\0'), user))
        return;
    const quint16 port = quint16(quint8(request[2]) << 8 | quint8(request[3]));
    if (request[4] == 0 && request[5] == 0 && request[6] == 0 && request[7] != 0) {
        if (!client.readUntil(QByteArray(1, '\0'), host))
            return;
        host.chop(1); // SOCKS4a
    } else {
        char text[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, request.constData() + 4, text, sizeof text);
        host = text;
    }
    bool notAllowed = false;
    const int target = connectOnward(host, port, notAllowed);
    if (target < 0) {
        client.write(QByteArray("\x00\x5b\0\0\0\0\0\0", 8));
        return;
    }
    if (client.write(QByteArray("\x00\x5a\0\0\0\0\0\0", 8)))
        relay(client.fd, client.ssl, client.buffered, target);
    ::close(target);
}

void LoopbackServer::serveTarget(Stream &client) {
    QByteArray head;
    if (!client.readUntil("\r\n\r\n", head))
        return;
    const int status = m_status.load();
    client.write("HTTP/1.1 " + QByteArray::number(status) +
                 " Test\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
}

quint16 closedLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address);
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

} // namespace poolscope::testing
