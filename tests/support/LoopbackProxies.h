#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <QByteArray>
#include <QString>

namespace poolscope::testing {

// Proxies, targets and dead ends for health-check tests, all on 127.0.0.1 and all started and
// stopped by the test. Each server listens on a free port of 127.0.0.1, accepts on a thread of
// its own and serves each connection on a thread (blocking I/O: simple, and enough for tests).
// The proxies only ever connect onward to 127.0.0.0/8 (or "localhost"): any other target is
// refused (403 / SOCKS "not allowed"), so no test can make them reach off this machine.
class LoopbackServer {
public:
    enum class Kind {
        HttpProxy,  // CONNECT host:port and absolute-URI GET http://host:port/path
        Socks5,     // RFC 1928, user/password (RFC 1929) when credentials are set
        Socks4,     // SOCKS4 and SOCKS4a (host name after the user id)
        Silent,     // accepts, reads, never answers
        Garbage,    // answers whatever it is sent with bytes that are no protocol
        HttpTarget, // answers every request with `status`
        // Answer "HTTP/1.1 200 OK" and then never end the head: a header line every 20 ms until
        // the client goes, or one header of 10 MB.
        EndlessHeaders,
        HugeHeader,
    };
    struct Options {
        Kind kind = Kind::HttpProxy;
        bool tls = false;    // TLS on the accepted connections (https:// proxy, https target)
        QString certificate; // PEM files, for tls
        QString privateKey;
        bool requireClientCertificate = false; // tls: refuse clients that send none
        QByteArray user;                       // proxies: credentials required when not empty
        QByteArray password;
        int status = 200; // HttpTarget
        quint16 port = 0; // 0: a free port
    };

    explicit LoopbackServer(Options options);
    ~LoopbackServer();
    LoopbackServer(const LoopbackServer &) = delete;
    LoopbackServer &operator=(const LoopbackServer &) = delete;

    // QVERIFY-friendly: false with the reason in error().
    bool start();
    // Closes the listener and every connection, and waits for their threads.
    void stop();
    const QString &error() const { return m_error; }
    quint16 port() const { return m_port; }
    // Connections accepted so far.
    int accepted() const { return m_accepted.load(); }
    // A failing proxy: while true, it refuses every target (502 / SOCKS "connection refused").
    void setFailing(bool failing) { m_failing.store(failing); }
    void setStatus(int status) { m_status.store(status); }

private:
    struct Stream;
    void acceptLoop();
    void serve(int fd);
    void serveHttpProxy(Stream &client);
    void serveSocks5(Stream &client);
    void serveSocks4(Stream &client);
    void serveTarget(Stream &client);
    // Connects to a loopback target; -1 when refused or not loopback.
    int connectOnward(const QByteArray &host, quint16 port, bool &notAllowed);

    Options m_options;
    QString m_error;
    quint16 m_port = 0;
    int m_listener = -1;
    int m_wakePipe[2] = {-1, -1};
    void *m_tlsContext = nullptr; // SSL_CTX
    std::atomic<bool> m_stopping{false};
    std::atomic<bool> m_failing{false};
    std::atomic<int> m_status{200};
    std::atomic<int> m_accepted{0};
    std::thread m_acceptThread;
    std::mutex m_mutex; // guards the two below
    std::vector<std::thread> m_connectionThreads;
    std::vector<int> m_openFds;
};

// A port on 127.0.0.1 where nothing listens (bound once, then closed).
quint16 closedLoopbackPort();

} // namespace poolscope::testing
