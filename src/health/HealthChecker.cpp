#include "health/HealthChecker.h"

#include "health/Checkability.h"
#include "text/CredentialMask.h"
#include "text/MemberText.h"
#include "transport/TlsHandshake.h"

#include <curl/curl.h>
#include <cstdio>
#include <openssl/ssl.h>

#include <QElapsedTimer>

#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <thread>
#include <vector>

namespace poolscope {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr qsizetype kMaxHead = 16384;

// The status of "HTTP/1.x NNN ...", or -1 when the line is no HTTP status line.
int statusOfLine(const QByteArray &line) {
    bool ok = false;
    const int status = line.mid(9, 3).toInt(&ok);
    const bool shaped = line.startsWith("HTTP/1.") && line.size() >= 12 && line[8] == ' ' &&
                        (line.size() == 12 || line[12] == ' ');
    return shaped && ok && status >= 100 && status <= 599 ? status : -1;
}

// What the SOCKS failures libcurl names (CURLINFO_PROXY_ERROR) mean. A SOCKS proxy that closes
// before its reply is garbage, as an HTTP proxy that closes without a status line.
constexpr auto kAuth = CheckOutcome::ProxyAuthRequired;
constexpr auto kRefused = CheckOutcome::ProxyRefusedTarget;
constexpr auto kGarbage = CheckOutcome::Garbage;
constexpr const char *kClosed = "the proxy closed the connection without an answer";
constexpr struct {
    CURLproxycode code;
    CheckOutcome outcome;
    const char *text;
} kSocksFailures[] = {
    {CURLPX_NO_AUTH, kAuth, "the SOCKS5 proxy accepts none of our authentication methods"},
    {CURLPX_USER_REJECTED, kAuth, "the SOCKS5 proxy refused the credentials"},
    {CURLPX_IDENTD, kAuth, "the SOCKS4 proxy could not confirm the user id (identd)"},
    {CURLPX_IDENTD_DIFFER, kAuth, "the SOCKS4 proxy could not confirm the user id (identd)"},
    {CURLPX_REQUEST_FAILED, kRefused, "SOCKS4: request rejected or failed"},
    {CURLPX_REPLY_GENERAL_SERVER_FAILURE, kRefused, "SOCKS5: general failure"},
    {CURLPX_REPLY_NOT_ALLOWED, kRefused, "SOCKS5: not allowed by its rules"},
    {CURLPX_REPLY_NETWORK_UNREACHABLE, kRefused, "SOCKS5: network unreachable"},
    {CURLPX_REPLY_HOST_UNREACHABLE, kRefused, "SOCKS5: host unreachable"},
    {CURLPX_REPLY_CONNECTION_REFUSED, kRefused, "SOCKS5: connection refused by the target"},
    {CURLPX_REPLY_TTL_EXPIRED, kRefused, "SOCKS5: TTL expired"},
    {CURLPX_REPLY_COMMAND_NOT_SUPPORTED, kRefused, "SOCKS5: command not supported"},
    {CURLPX_REPLY_ADDRESS_TYPE_NOT_SUPPORTED, kRefused, "SOCKS5: address type not supported"},
    {CURLPX_BAD_VERSION, kGarbage, "the proxy's answer is no SOCKS reply"},
    {CURLPX_BAD_ADDRESS_TYPE, kGarbage, "SOCKS5 reply with an unknown address type"},
    {CURLPX_REPLY_UNASSIGNED, kGarbage, "SOCKS5 reply with an unknown code"},
    {CURLPX_CLOSED, kGarbage, kClosed},
    {CURLPX_RECV_CONNECT, kGarbage, kClosed},
    {CURLPX_RECV_AUTH, kGarbage, kClosed},
    {CURLPX_RECV_REQACK, kGarbage, kClosed},
    {CURLPX_RECV_ADDRESS, kGarbage, kClosed},
};

// One check in flight: an easy handle that fetches the target through one proxy. Its phase says
// what a timeout means: no TCP connection; the proxy's part (its TLS, SOCKS, CONNECT, or the
// answer it fetches for an absolute-URI GET); the target's part, through the tunnel.
class ProxyCheck {
public:
    // Writes into result (its member set) when it ends.
    ProxyCheck(CheckResult &result, const ProxyEntry &proxy, const CheckOptions &options);
    ~ProxyCheck() { curl_easy_cleanup(m_easy); }
    ProxyCheck(const ProxyCheck &) = delete;
    ProxyCheck &operator=(const ProxyCheck &) = delete;

    CURL *easy() const { return m_easy; }
    bool finished() const { return m_done; }
    Clock::time_point deadline() const {
        const milliseconds limit = m_phase == Phase::Connecting ? m_options.connectTimeout
                                   : m_phase == Phase::Proxy    ? m_options.proxyTimeout
                                                                : m_options.targetTimeout;
        return std::min(m_phaseStarted + limit, m_started + m_options.checkTimeout);
    }
    // libcurl reports the TCP connect only once its SOCKS or proxy TLS part is done too: a
    // socket with a peer is connected, whatever libcurl says.
    void checkDeadline(Clock::time_point now) {
        sockaddr_storage peer{};
        socklen_t length = sizeof peer;
        if (m_phase == Phase::Connecting && m_socket >= 0 &&
            ::getpeername(m_socket, reinterpret_cast<sockaddr *>(&peer), &length) == 0)
            connected();
        if (now >= deadline())
            endAsTimeout();
    }
    void interrupt() {
        end(CheckOutcome::NotCheckable, QStringLiteral("interrupted while checking"));
    }
    void finish(CURLcode code);

private:
    enum class Phase { Connecting, Proxy, Target };
    void enter(Phase phase) {
        m_phase = phase;
        m_phaseStarted = Clock::now();
    }
    QString whose() const { return QLatin1String(m_phase == Phase::Target ? "target" : "proxy"); }
    qint64 elapsedMs() const {
        return std::chrono::duration_cast<milliseconds>(Clock::now() - m_started).count();
    }
    void connected() {
        if (m_phase == Phase::Connecting) {
            m_result.connectMs = elapsedMs(); // libcurl's own figure replaces it (end)
            enter(Phase::Proxy);
        }
    }
    void tunnelOpened() {
        if (m_phase != Phase::Target) {
            m_result.proxyMs = elapsedMs();
            enter(Phase::Target);
        }
    }
    bool headLine(const QByteArray &line);
    bool headEnded();
    void end(CheckOutcome outcome, const QString &detail = {});
    void endAsTimeout();
    bool endAsHeadTooLong() {
        end(kGarbage, QStringLiteral("the %1's answer has no end of its head within %2 bytes")
                          .arg(whose())
                          .arg(kMaxHead));
        return false;
    }

    static ProxyCheck &of(void *self) { return *static_cast<ProxyCheck *>(self); }
    // Every socket libcurl opens comes here with its address resolved: the never-probed rule is
    // applied before any packet, to names as well as literals.
    static curl_socket_t openSocket(void *self, curlsocktype, curl_sockaddr *address) {
        if (const QString problem = notCheckableAddress(&address->addr); !problem.isEmpty()) {
            of(self).m_refusedAddress = problem;
            return CURL_SOCKET_BAD;
        }
        const int fd =
            ::socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
        if (fd >= 0) {
            of(self).m_result.probed = true;
            of(self).m_socket = fd;
        }
        return fd;
    }
    static int closeSocket(void *self, curl_socket_t fd) {
        if (of(self).m_socket == fd)
            of(self).m_socket = -1;
        return ::close(fd);
    }
    static size_t header(char *data, size_t size, size_t count, void *self) {
        const QByteArray line = QByteArray::fromRawData(data, qsizetype(size * count));
        return of(self).headLine(line) ? size * count : 0;
    }
    static size_t body(char *, size_t size, size_t count, void *) { return size * count; }
    static int requestReady(void *self, char *, char *, int, int) {
        ProxyCheck &check = of(self);
        check.connected();
        check.m_requestSent = true;
        if (check.m_tunnel)
            check.tunnelOpened(); // SOCKS: for an http:// target, now
        // The answer: from the target in a tunnel, else from the proxy that fetches it.
        check.enter(check.m_tunnel ? Phase::Target : Phase::Proxy);
        return CURL_PREREQFUNC_OK;
    }
    static CURLcode tlsStarting(CURL *, void *context, void *self) {
        of(self).connected();
        // A SOCKS proxy has no TLS of its own: TLS with the target means the tunnel is open.
        if (of(self).m_proxy.scheme.startsWith(u"socks"))
            of(self).tunnelOpened();
        SSL_CTX_set_app_data(static_cast<SSL_CTX *>(context), self); // libcurl uses SSL's own
        SSL_CTX_set_info_callback(static_cast<SSL_CTX *>(context), tlsInfo);
        return CURLE_OK;
    }
    // A fatal alert from the peer. A TLS 1.3 server that wants a client certificate sends one
    // after the client's side of the handshake is done: libcurl then only sees a failed read.
    static void tlsInfo(const SSL *ssl, int where, int value) {
        void *self = SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));
        if ((where & SSL_CB_READ_ALERT) && (value >> 8) == SSL3_AL_FATAL && self)
            of(self).m_tlsAlert = true;
    }

    CURL *m_easy = curl_easy_init();
    ProxyEntry m_proxy;
    const CheckOptions &m_options;
    bool m_tunnel = false; // SOCKS or CONNECT; else an absolute-URI GET the proxy answers
    bool m_requestSent = false;
    bool m_tlsAlert = false; // the proxy or the target sent a fatal TLS alert
    int m_socket = -1;       // the socket libcurl connects with
    Phase m_phase = Phase::Connecting;
    Clock::time_point m_started = Clock::now();
    Clock::time_point m_phaseStarted = m_started;
    QByteArray m_statusLine; // of the head being read; empty between heads
    qsizetype m_headBytes = 0;
    QString m_refusedAddress; // why the never-probed rule refused a resolved address
    char m_error[CURL_ERROR_SIZE] = {};
    bool m_done = false;
    CheckResult &m_result;
};

ProxyCheck::ProxyCheck(CheckResult &result, const ProxyEntry &proxy, const CheckOptions &options)
    : m_proxy(proxy)
    , m_options(options)
    , m_result(result) {
    const CheckTarget &target = options.target;
    m_tunnel = proxy.scheme.startsWith(u"socks") || target.https;
    // The proxy resolves a target name (socks5h, socks4a), never this machine.
    QByteArray scheme = proxy.scheme == u"https" ? "https" : "http";
    in_addr ipv4{};
    if (proxy.scheme.startsWith(u"socks5"))
        scheme = "socks5h";
    else if (proxy.scheme.startsWith(u"socks4"))
        scheme = inet_pton(AF_INET, target.host.constData(), &ipv4) == 1 ? "socks4" : "socks4a";
    const QByteArray host =
        proxy.host.contains(u':') ? '[' + proxy.host.toUtf8() + ']' : proxy.host.toUtf8();
    CURL *easy = m_easy;
    const auto set = [easy](CURLoption option, auto value) {
        curl_easy_setopt(easy, option, value);
    };
    const QByteArray url =
        (target.https ? "https://" : "http://") + target.authority() + target.path;
    set(CURLOPT_URL, url.constData());
    set(CURLOPT_PROXY,
        QByteArray(scheme + "://" + host + ':' + QByteArray::number(proxy.port)).constData());
    // An empty list overrides no_proxy/NO_PROXY, so the environment never sends a check straight
    // to the target; CURLOPT_PROXY overrides http_proxy, https_proxy and all_proxy.
    set(CURLOPT_NOPROXY, "");
    if (!proxy.username.isEmpty()) {
        set(CURLOPT_PROXYUSERNAME, proxy.username.toUtf8().constData());
        set(CURLOPT_PROXYPASSWORD, proxy.password.toUtf8().constData());
    }
    set(CURLOPT_PROXYAUTH, long(CURLAUTH_BASIC));
    set(CURLOPT_SOCKS5_AUTH, long(CURLAUTH_BASIC));
    set(CURLOPT_PROTOCOLS_STR, "http,https");
    set(CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_1_1));
    set(CURLOPT_USERAGENT, "poolscope-health");
    set(CURLOPT_FRESH_CONNECT, 1L); // each check opens its own connection
    set(CURLOPT_FORBID_REUSE, 1L);
    set(CURLOPT_NOSIGNAL, 1L);
    for (const auto &[version, verifyPeer, verifyHost, caInfo] :
         {std::tuple{CURLOPT_SSLVERSION, CURLOPT_SSL_VERIFYPEER, CURLOPT_SSL_VERIFYHOST,
                     CURLOPT_CAINFO},
          std::tuple{CURLOPT_PROXY_SSLVERSION, CURLOPT_PROXY_SSL_VERIFYPEER,
                     CURLOPT_PROXY_SSL_VERIFYHOST, CURLOPT_PROXY_CAINFO}}) {
        set(version, long(CURL_SSLVERSION_TLSv1_2));
        set(verifyPeer, options.tlsInsecure ? 0L : 1L);
        set(verifyHost, options.tlsInsecure ? 0L : 2L);
        if (!options.caFile.isEmpty())
            set(caInfo, options.caFile.toLocal8Bit().constData());
    }
    set(CURLOPT_OPENSOCKETFUNCTION, &ProxyCheck::openSocket);
    set(CURLOPT_CLOSESOCKETFUNCTION, &ProxyCheck::closeSocket);
    set(CURLOPT_HEADERFUNCTION, &ProxyCheck::header);
    set(CURLOPT_WRITEFUNCTION, &ProxyCheck::body);
    set(CURLOPT_PREREQFUNCTION, &ProxyCheck::requestReady);
    set(CURLOPT_SSL_CTX_FUNCTION, &ProxyCheck::tlsStarting);
    for (const CURLoption data :
         {CURLOPT_OPENSOCKETDATA, CURLOPT_CLOSESOCKETDATA, CURLOPT_HEADERDATA, CURLOPT_PREREQDATA,
          CURLOPT_SSL_CTX_DATA, CURLOPT_PRIVATE})
        set(data, static_cast<void *>(this));
    set(CURLOPT_ERRORBUFFER, m_error);
}

// Each line of each head libcurl reads: the proxy's answer to CONNECT, interim 1xx heads, and
// the answer to the request. Not ok before the whole head is there, within kMaxHead and the
// phase's time: a status line alone may come from something that is no working proxy.
bool ProxyCheck::headLine(const QByteArray &line) {
    connected();
    if (m_statusLine.isEmpty()) {
        m_statusLine = line.trimmed();
        m_headBytes = 0;
        if (statusOfLine(m_statusLine) < 0) {
            end(kGarbage, QStringLiteral("the %1 answered \"%2\"")
                              .arg(whose(), memberText(m_statusLine.left(40))));
            return false;
        }
        if (!m_tunnel && m_result.proxyMs < 0)
            m_result.proxyMs = elapsedMs();
    }
    m_headBytes += line.size();
    if (m_headBytes > kMaxHead)
        return endAsHeadTooLong();
    return (line != "\r\n" && line != "\n") || headEnded();
}

bool ProxyCheck::headEnded() {
    const QByteArray statusLine = std::exchange(m_statusLine, {});
    const int status = statusOfLine(statusLine);
    const bool connectAnswer = m_tunnel && !m_requestSent;
    if (status == 407 && (connectAnswer || !m_tunnel)) {
        end(kAuth, m_proxy.username.isEmpty()
                       ? QStringLiteral("the proxy wants credentials (407)")
                       : QStringLiteral("the proxy refused the credentials (407)"));
        return false;
    }
    if (connectAnswer && (status < 200 || status > 299)) {
        end(kRefused,
            QStringLiteral("CONNECT answered \"%1\"").arg(memberText(statusLine.left(40))));
        return false;
    }
    if (connectAnswer)
        tunnelOpened();
    if (connectAnswer || status < 200)
        return true; // the tunnel is open, or an interim answer: the final one follows
    m_result.status = status;
    m_result.totalMs = elapsedMs();
    if (m_options.expectStatus.contains(status))
        end(CheckOutcome::Ok);
    else
        end(CheckOutcome::UnexpectedStatus, QStringLiteral("the target answered %1 (expected %2)")
                                                .arg(status)
                                                .arg(m_options.expectStatus.text()));
    return false; // the body is of no interest: libcurl stops here
}

void ProxyCheck::end(CheckOutcome outcome, const QString &detail) {
    if (m_done)
        return;
    m_done = true;
    m_result.outcome = outcome;
    m_result.detail = maskCredentialsInText(detail);
    // libcurl notes when the socket connected, but reports it once SOCKS or proxy TLS are done.
    curl_off_t us = 0;
    curl_easy_getinfo(m_easy, CURLINFO_CONNECT_TIME_T, &us);
    if (us > 0)
        m_result.connectMs = us / 1000;
}

void ProxyCheck::endAsTimeout() {
    static const char *texts[] = {"no connection within %1 ms",
                                  "the proxy did not answer within %1 ms",
                                  "the target did not answer within %1 ms"};
    constexpr CheckOutcome outcomes[] = {CheckOutcome::TimeoutConnect, CheckOutcome::TimeoutProxy,
                                         CheckOutcome::TimeoutTarget};
    end(outcomes[int(m_phase)], QString::fromLatin1(texts[int(m_phase)]).arg(elapsedMs()));
}

void ProxyCheck::finish(CURLcode code) {
    if (m_done)
        return;
    const QString why = QString::fromUtf8(m_error[0] ? m_error : curl_easy_strerror(code));
    long value = 0;
    if (!m_result.probed && !m_refusedAddress.isEmpty())
        return end(CheckOutcome::NotCheckable, m_proxy.host + u' ' + m_refusedAddress);
    // libcurl says "host" for a SOCKS proxy's name: the target's is resolved by the proxy.
    if (code == CURLE_COULDNT_RESOLVE_PROXY || code == CURLE_COULDNT_RESOLVE_HOST)
        return end(CheckOutcome::NotCheckable,
                   QStringLiteral("cannot resolve %1: %2").arg(m_proxy.host, why));
    switch (code) {
    case CURLE_COULDNT_CONNECT:
        curl_easy_getinfo(m_easy, CURLINFO_OS_ERRNO, &value);
        if (value == ECONNREFUSED)
            return end(CheckOutcome::Refused, QStringLiteral("connection refused"));
        return end(CheckOutcome::NetworkError, QStringLiteral("connect: %1").arg(why));
    case CURLE_PROXY:
        curl_easy_getinfo(m_easy, CURLINFO_PROXY_ERROR, &value);
        for (const auto &failure : kSocksFailures)
            if (failure.code == value)
                return end(failure.outcome, QLatin1String(failure.text));
        break;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
        return end(CheckOutcome::TlsError, QStringLiteral("TLS with the %1: %2").arg(whose(), why));
    case CURLE_UNSUPPORTED_PROTOCOL: // "Received HTTP/0.9": no status line at all
    case CURLE_WEIRD_SERVER_REPLY:
        return end(kGarbage, QStringLiteral("the %1's answer is no HTTP: %2").arg(whose(), why));
    case CURLE_OUT_OF_MEMORY: // libcurl 7.88's answer to a header line over 100 KB
        if (!m_statusLine.isEmpty())
            return void(endAsHeadTooLong());
        break;
    default:
        break;
    }
    if (m_tlsAlert)
        return end(CheckOutcome::TlsError, QStringLiteral("TLS with the %1: %2").arg(whose(), why));
    // Closed or reset before the answer: by the proxy, no protocol we know; through the tunnel,
    // the connection was lost.
    const bool closed = code == CURLE_GOT_NOTHING || code == CURLE_RECV_ERROR ||
                        code == CURLE_SEND_ERROR || code == CURLE_PARTIAL_FILE;
    if (closed && m_phase == Phase::Proxy)
        return end(kGarbage, QStringLiteral("%1: %2").arg(QLatin1String(kClosed), why));
    if (closed && m_phase == Phase::Target)
        return end(CheckOutcome::NetworkError,
                   QStringLiteral("the connection closed before the target answered: %1").arg(why));
    end(CheckOutcome::NetworkError, why);
}

} // namespace

bool initialiseNetworkLibraries() {
    static const bool initialised = [] {
        // OpenSSL first: libcurl's would initialise it with its clean-up at exit.
        const bool done =
            transport::initialiseOpenSsl() && curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
        if (!done)
            std::fputs("poolscope: libcurl or OpenSSL could not be initialised\n", stderr);
        return done;
    }();
    return initialised;
}

CheckRound runCheckRound(const QList<QByteArray> &members, const CheckOptions &options,
                         const std::atomic<bool> *stop) {
    QElapsedTimer timer;
    timer.start();
    // Already done by main() in the programs; the first call does it for tests and benchmarks.
    const bool started = initialiseNetworkLibraries();
    std::vector<CheckResult> results(size_t(members.size()));
    const auto stopping = [stop] { return stop && stop->load(); };
    const qsizetype concurrency = std::max(1, options.concurrency);
    const auto step = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(options.ratePerSecond > 0 ? 1.0 / options.ratePerSecond : 0));
    Clock::time_point nextStart = Clock::now();
    CURLM *multi = curl_multi_init();
    std::vector<std::unique_ptr<ProxyCheck>> active;
    qsizetype next = 0;
    while (started) {
        Clock::time_point now = Clock::now();
        // Start what the concurrency and the rate allow.
        while (!stopping() && next < members.size() && qsizetype(active.size()) < concurrency &&
               now >= nextStart) {
            nextStart = std::max(nextStart + step, now - step * 10); // small bursts after idling
            const qsizetype index = next++;
            CheckResult &result = results[size_t(index)];
            result.member = members[index];
            QString reason;
            const std::optional<ProxyEntry> proxy = proxyOfMember(members[index], &reason);
            if (!proxy || !(reason = notCheckableReason(*proxy)).isEmpty()) {
                result.outcome = CheckOutcome::NotCheckable; // no packet sent
                result.detail = reason;
                continue;
            }
            active.push_back(std::make_unique<ProxyCheck>(result, *proxy, options));
            curl_multi_add_handle(multi, active.back()->easy());
        }
        if (active.empty() && (stopping() || next >= members.size()))
            break;
        int running = 0;
        curl_multi_perform(multi, &running);
        int queued = 0;
        while (CURLMsg *message = curl_multi_info_read(multi, &queued)) {
            ProxyCheck *check = nullptr;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &check);
            if (message->msg == CURLMSG_DONE && check)
                check->finish(message->data.result);
        }
        now = Clock::now();
        Clock::time_point wake = now + std::chrono::seconds(1);
        for (size_t i = active.size(); i-- > 0;) {
            ProxyCheck &check = *active[i];
            if (stopping())
                check.interrupt();
            else if (!check.finished())
                check.checkDeadline(now);
            if (!check.finished()) {
                wake = std::min(wake, check.deadline());
                continue;
            }
            curl_multi_remove_handle(multi, check.easy());
            active.erase(active.begin() + qsizetype(i));
        }
        // Until the first deadline or the next start, and often enough to see a stop.
        const bool canStart =
            !stopping() && next < members.size() && qsizetype(active.size()) < concurrency;
        if (canStart)
            wake = std::min(wake, std::max(nextStart, now));
        auto timeout = std::chrono::ceil<milliseconds>(wake - now);
        if (stop)
            timeout = std::min(timeout, milliseconds(50));
        if (!active.empty())
            curl_multi_poll(multi, nullptr, 0, int(timeout.count()), nullptr);
        else if (canStart)
            std::this_thread::sleep_for(timeout);
    }
    curl_multi_cleanup(multi);
    for (qsizetype i = 0; i < members.size(); ++i) {
        CheckResult &result = results[size_t(i)];
        if (!started)
            result = {members[i], CheckOutcome::NetworkError,
                      QStringLiteral("libcurl did not start")};
        else if (result.member.isEmpty()) // never started: the round was stopped
            result = {members[i], CheckOutcome::NotCheckable,
                      QStringLiteral("interrupted before this check started")};
    }
    CheckRound round;
    round.results = QList<CheckResult>(results.begin(), results.end());
    round.elapsedMs = timer.elapsed();
    round.connectionsOpened = std::count_if(
        results.begin(), results.end(), [](const CheckResult &result) { return result.probed; });
    return round;
}

} // namespace poolscope
