// One health check in flight: a libcurl easy handle that fetches the target through one proxy,
// driven by the round's multi handle (HealthChecker.cpp).
#pragma once

#include "health/HealthTypes.h"
#include "proxylist/ProxyListParser.h"

#include <atomic>
#include <chrono>

namespace poolscope::health {

using Clock = std::chrono::steady_clock;

class ProxyCheck {
public:
    // opened counts the sockets this check opens (none for an address refused after DNS).
    ProxyCheck(QByteArray member, const ProxyEntry &proxy, const CheckOptions &options,
               std::atomic<qint64> &opened);
    ~ProxyCheck();
    ProxyCheck(const ProxyCheck &) = delete;
    ProxyCheck &operator=(const ProxyCheck &) = delete;

    void *easyHandle() const { return m_easy; } // a CURL *, for curl_multi_add/remove_handle
    // Ends the check as a timeout of its phase once its deadline has passed.
    void checkDeadline(Clock::time_point now);
    Clock::time_point deadline() const;
    // libcurl ended the transfer with this CURLcode.
    void finish(int code);
    void interrupt();
    bool finished() const { return m_done; }
    const CheckResult &result() const { return m_result; }

private:
    // What a timeout in each phase means: no TCP connection, the proxy's part (its TLS, SOCKS,
    // CONNECT, or the answer it relays to an absolute-URI GET), the target's part in the tunnel.
    enum class Phase { Connecting, Proxy, Target };
    void enter(Phase phase, Clock::time_point at);
    void noteConnected(Clock::time_point now);
    bool headLine(const QByteArray &line);
    bool headEnded();
    void end(CheckOutcome outcome, const QString &detail = {});
    qint64 elapsedMs() const;
    void requestSent();
    void tlsStarted();
    CheckOutcome timeoutOutcome(QString *detail) const;

    void *m_easy = nullptr;
    QByteArray m_member;
    ProxyEntry m_proxy;
    const CheckOptions &m_options;
    std::atomic<qint64> &m_opened;
    bool m_tunnel = false; // CONNECT or SOCKS; else an absolute-URI GET the proxy answers
    bool m_socks = false;
    bool m_requestSent = false;
    int m_socket = -1; // the socket libcurl connects with
    qint64 m_connectedMs = -1;
    Phase m_phase = Phase::Connecting;
    Clock::time_point m_started;
    Clock::time_point m_phaseStarted;
    QByteArray m_statusLine; // of the head being read; empty between heads
    qsizetype m_headBytes = 0;
    QString m_refusedAddress; // a resolved address the never-probed rule refused
    QString m_tlsAlert;       // a fatal TLS alert the proxy or the target sent
    char m_error[256] = {};   // CURLOPT_ERRORBUFFER (CURL_ERROR_SIZE)
    bool m_done = false;
    CheckResult m_result;

    friend struct CheckCallbacks; // libcurl's and OpenSSL's callbacks, in ProxyCheck.cpp
};

} // namespace poolscope::health
