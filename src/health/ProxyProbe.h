// One health check in flight: a non-blocking socket through one proxy, driven by a poll loop.
#pragma once

#include "health/HealthTypes.h"
#include "health/TlsStack.h"
#include "proxylist/ProxyListParser.h"

#include <chrono>

struct sockaddr;

namespace poolscope::health {

using Clock = std::chrono::steady_clock;

class ProxyProbe {
public:
    ProxyProbe(QByteArray member, ProxyEntry proxy, const CheckOptions &options,
               SSL_CTX *tlsContext);
    ~ProxyProbe();
    ProxyProbe(const ProxyProbe &) = delete;
    ProxyProbe &operator=(const ProxyProbe &) = delete;

    // Opens the socket and starts connecting; finished() at once when that fails.
    void start(const sockaddr *address, unsigned addressLength, Clock::time_point now);
    int fd() const { return m_fd; }
    short pollEvents() const;
    void handle(short revents, Clock::time_point now);
    // Ends the check as a timeout when its deadline has passed.
    void checkDeadline(Clock::time_point now);
    Clock::time_point deadline() const;
    bool finished() const { return m_phase == Phase::Done; }
    const CheckResult &result() const { return m_result; }

private:
    enum class Phase {
        Connecting,
        ProxyTls,
        ProxyConnectAnswer, // HTTP CONNECT
        ProxyGetAnswer,     // absolute-URI GET: the proxy relays the target's answer
        Socks5Method,
        Socks5Auth,
        Socks5Reply,
        Socks4Reply,
        TargetTls,
        TargetAnswer,
        Done,
    };
    void enter(Phase phase, Clock::time_point now);
    void finish(CheckOutcome outcome, const QString &detail = {});
    void onConnected(Clock::time_point now);
    void startProxyProtocol(Clock::time_point now);
    void tunnelOpened(Clock::time_point now);
    void sendTargetRequest(Clock::time_point now);
    // Consumes m_in as far as the phase allows; false when it needs more bytes.
    bool advance(Clock::time_point now);
    bool readSocket();
    void flush();
    void send(const QByteArray &data);
    qint64 since(Clock::time_point now) const;
    void finishWithStatus(int status, Clock::time_point now);

    QByteArray m_member;
    ProxyEntry m_proxy;
    const CheckOptions &m_options;
    SSL_CTX *m_tlsContext;
    int m_fd = -1;
    Phase m_phase = Phase::Connecting;
    Clock::time_point m_started;
    Clock::time_point m_phaseDeadline;
    TlsStack m_tls;
    QByteArray m_in;     // plaintext read, not yet consumed
    QByteArray m_rawOut; // bytes for the socket not yet written
    bool m_eof = false;
    CheckResult m_result;
};

} // namespace poolscope::health
