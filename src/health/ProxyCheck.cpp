#include "health/ProxyCheck.h"

#include "health/Checkability.h"
#include "pool/CredentialMask.h"

#include <curl/curl.h>
#include <openssl/ssl.h>

#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace poolscope::health {
namespace {

constexpr qsizetype kMaxHead = 16384;
static_assert(CURL_ERROR_SIZE == 256);

// The status of "HTTP/1.x NNN ...", or -1 when the line is no HTTP status line.
int statusOfLine(const QByteArray &line) {
    if (!line.startsWith("HTTP/1.") || line.size() < 12 || line[8] != ' ')
        return -1;
    bool ok = false;
    const int status = line.mid(9, 3).toInt(&ok);
    if (!ok || status < 100 || status > 599 || (line.size() > 12 && line[12] != ' '))
        return -1;
    return status;
}

QString printable(const QByteArray &bytes) {
    QString text;
    for (const char c : bytes.left(40))
        text += (c >= 0x20 && c < 0x7f) ? QChar::fromLatin1(c) : QChar(u'.');
    return text;
}

// What a SOCKS failure libcurl names (CURLINFO_PROXY_ERROR) means for the check.
struct SocksFailure {
    CURLproxycode code;
    CheckOutcome outcome;
    const char *text;
};
constexpr SocksFailure kSocksFailures[] = {
    {CURLPX_NO_AUTH, CheckOutcome::ProxyAuthRequired,
     "the SOCKS5 proxy accepts none of our authentication methods"},
    {CURLPX_USER_REJECTED, CheckOutcome::ProxyAuthRequired,
     "the SOCKS5 proxy refused the credentials"},
    {CURLPX_IDENTD, CheckOutcome::ProxyAuthRequired,
     "the SOCKS4 proxy could not confirm the user id (identd)"},
    {CURLPX_IDENTD_DIFFER, CheckOutcome::ProxyAuthRequired,
     "the SOCKS4 proxy could not confirm the user id (identd)"},
    {CURLPX_REQUEST_FAILED, CheckOutcome::ProxyRefusedTarget, "SOCKS4: request rejected or failed"},
    {CURLPX_REPLY_GENERAL_SERVER_FAILURE, CheckOutcome::ProxyRefusedTarget,
     "SOCKS5: general failure"},
    {CURLPX_REPLY_NOT_ALLOWED, CheckOutcome::ProxyRefusedTarget,
     "SOCKS5: not allowed by its rules"},
    {CURLPX_REPLY_NETWORK_UNREACHABLE, CheckOutcome::ProxyRefusedTarget,
     "SOCKS5: network unreachable"},
    {CURLPX_REPLY_HOST_UNREACHABLE, CheckOutcome::ProxyRefusedTarget, "SOCKS5: host unreachable"},
    {CURLPX_REPLY_CONNECTION_REFUSED, CheckOutcome::ProxyRefusedTarget,
     "SOCKS5: connection refused by the target"},
    {CURLPX_REPLY_TTL_EXPIRED, CheckOutcome::ProxyRefusedTarget, "SOCKS5: TTL expired"},
    {CURLPX_REPLY_COMMAND_NOT_SUPPORTED, CheckOutcome::ProxyRefusedTarget,
     "SOCKS5: command not supported"},
    {CURLPX_REPLY_ADDRESS_TYPE_NOT_SUPPORTED, CheckOutcome::ProxyRefusedTarget,
     "SOCKS5: address type not supported"},
    {CURLPX_BAD_VERSION, CheckOutcome::Garbage, "the proxy's answer is no SOCKS reply"},
    {CURLPX_BAD_ADDRESS_TYPE, CheckOutcome::Garbage, "SOCKS5 reply with an unknown address type"},
    {CURLPX_REPLY_UNASSIGNED, CheckOutcome::Garbage, "SOCKS5 reply with an unknown code"},
    // A SOCKS proxy that closes or resets the connection before its reply speaks no protocol we
    // know, as an HTTP proxy that closes without a status line.
    {CURLPX_CLOSED, CheckOutcome::Garbage, "the proxy closed the connection without an answer"},
    {CURLPX_RECV_CONNECT, CheckOutcome::Garbage,
     "the proxy closed the connection without an answer"},
    {CURLPX_RECV_AUTH, CheckOutcome::Garbage, "the proxy closed the connection without an answer"},
    {CURLPX_RECV_REQACK, CheckOutcome::Garbage,
     "the proxy closed the connection without an answer"},
    {CURLPX_RECV_ADDRESS, CheckOutcome::Garbage,
     "the proxy closed the connection without an answer"},
};

int tlsIndex() {
    static const int index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
    return index;
}

} // namespace

struct CheckCallbacks {
    // Every socket libcurl opens (to the proxy, or to anything else it might ever be asked to
    // reach) comes here with its address resolved: the never-probed rule is applied before any
    // packet, to names as well as literals.
    static curl_socket_t openSocket(void *self, curlsocktype, curl_sockaddr *address) {
        auto *check = static_cast<ProxyCheck *>(self);
        if (const QString problem = notCheckableAddress(&address->addr); !problem.isEmpty()) {
            check->m_refusedAddress = problem;
            return CURL_SOCKET_BAD;
        }
        const int fd =
            ::socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
        if (fd >= 0) {
            check->m_result.probed = true;
            check->m_opened.fetch_add(1);
            check->m_socket = fd;
        }
        return fd;
    }
    static int closeSocket(void *self, curl_socket_t fd) {
        auto *check = static_cast<ProxyCheck *>(self);
        if (check->m_socket == fd)
            check->m_socket = -1;
        return ::close(fd);
    }
    static size_t header(char *data, size_t size, size_t count, void *self) {
        const QByteArray line = QByteArray::fromRawData(data, qsizetype(size * count));
        return static_cast<ProxyCheck *>(self)->headLine(line) ? size * count : 0;
    }
    static size_t body(char *, size_t size, size_t count, void *) { return size * count; }
    static int request(void *self, char *, char *, int, int) {
        static_cast<ProxyCheck *>(self)->requestSent();
        return CURL_PREREQFUNC_OK;
    }
    static CURLcode tlsContext(CURL *, void *context, void *self) {
        static_cast<ProxyCheck *>(self)->tlsStarted();
        SSL_CTX_set_ex_data(static_cast<SSL_CTX *>(context), tlsIndex(), self);
        SSL_CTX_set_info_callback(static_cast<SSL_CTX *>(context), tlsInfo);
        return CURLE_OK;
    }
    // A fatal alert from the peer (a TLS 1.3 server refusing to go on without a client
    // certificate sends one after the handshake, when libcurl only sees a failed read).
    static void tlsInfo(const SSL *ssl, int where, int value) {
        if (!(where & SSL_CB_READ_ALERT) || (value >> 8) != SSL3_AL_FATAL)
            return;
        auto *check =
            static_cast<ProxyCheck *>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), tlsIndex()));
        if (check)
            check->m_tlsAlert = QString::fromLatin1(SSL_alert_desc_string_long(value));
    }
};

ProxyCheck::ProxyCheck(QByteArray member, const ProxyEntry &proxy, const CheckOptions &options,
                       std::atomic<qint64> &opened)
    : m_easy(curl_easy_init())
    , m_member(std::move(member))
    , m_proxy(proxy)
    , m_options(options)
    , m_opened(opened)
    , m_started(Clock::now())
    , m_phaseStarted(m_started) {
    m_result.member = m_member;
    const CheckTarget &target = options.target;
    m_socks = proxy.scheme.startsWith(u"socks");
    m_tunnel = m_socks || target.https;
    // socks5 and socks4 as before: the proxy resolves a target name (5h, 4a), never this machine.
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
    set(CURLOPT_URL,
        QByteArray((target.https ? "https://" : "http://") + target.authority() + target.path)
            .constData());
    set(CURLOPT_PROXY,
        QByteArray(scheme + "://" + host + ':' + QByteArray::number(proxy.port)).constData());
    // An empty list overrides no_proxy/NO_PROXY: the environment can never send a check straight
    // to the target. CURLOPT_PROXY itself overrides http_proxy, https_proxy and all_proxy.
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
    set(CURLOPT_TIMEOUT_MS, long(options.checkTimeout.count()) + 1000); // ours come first
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
    set(CURLOPT_OPENSOCKETFUNCTION, &CheckCallbacks::openSocket);
    set(CURLOPT_OPENSOCKETDATA, this);
    set(CURLOPT_CLOSESOCKETFUNCTION, &CheckCallbacks::closeSocket);
    set(CURLOPT_CLOSESOCKETDATA, this);
    set(CURLOPT_HEADERFUNCTION, &CheckCallbacks::header);
    set(CURLOPT_HEADERDATA, this);
    set(CURLOPT_WRITEFUNCTION, &CheckCallbacks::body);
    set(CURLOPT_PREREQFUNCTION, &CheckCallbacks::request);
    set(CURLOPT_PREREQDATA, this);
    set(CURLOPT_SSL_CTX_FUNCTION, &CheckCallbacks::tlsContext);
    set(CURLOPT_SSL_CTX_DATA, this);
    set(CURLOPT_ERRORBUFFER, m_error);
    set(CURLOPT_PRIVATE, this);
}

ProxyCheck::~ProxyCheck() {
    curl_easy_cleanup(m_easy);
}

qint64 ProxyCheck::elapsedMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - m_started).count();
}

void ProxyCheck::enter(Phase phase, Clock::time_point at) {
    m_phase = phase;
    m_phaseStarted = at;
}

void ProxyCheck::noteConnected(Clock::time_point now) {
    if (m_phase != Phase::Connecting)
        return;
    m_connectedMs = std::chrono::duration_cast<std::chrono::milliseconds>(now - m_started).count();
    enter(Phase::Proxy, now);
}

void ProxyCheck::tlsStarted() {
    noteConnected(Clock::now());
    // A SOCKS proxy has no TLS of its own: TLS starting means its tunnel to the target is open.
    if (m_socks && m_phase != Phase::Target) {
        m_result.proxyMs = elapsedMs();
        enter(Phase::Target, Clock::now());
    }
}

void ProxyCheck::requestSent() {
    noteConnected(Clock::now());
    m_requestSent = true;
    if (m_tunnel && m_phase != Phase::Target)
        m_result.proxyMs = elapsedMs();
    // The request's answer: from the target in a tunnel, else from the proxy that fetches it.
    enter(m_tunnel ? Phase::Target : Phase::Proxy, Clock::now());
}

// Called for each line of each head libcurl reads: the proxy's answer to CONNECT, interim 1xx
// heads, and the answer to the request. Not ok before the whole head is there, within kMaxHead
// and the phase's time: a status line alone may come from something that is no working proxy.
bool ProxyCheck::headLine(const QByteArray &line) {
    noteConnected(Clock::now());
    const QString whose =
        m_tunnel && m_requestSent ? QStringLiteral("target") : QStringLiteral("proxy");
    if (m_statusLine.isEmpty()) {
        m_statusLine = line.trimmed();
        m_headBytes = 0;
        if (statusOfLine(m_statusLine) < 0) {
            end(CheckOutcome::Garbage,
                QStringLiteral("the %1 answered \"%2\"").arg(whose, printable(m_statusLine)));
            return false;
        }
        if (!m_tunnel && m_result.proxyMs < 0)
            m_result.proxyMs = elapsedMs();
    }
    m_headBytes += line.size();
    if (m_headBytes > kMaxHead) {
        end(CheckOutcome::Garbage,
            QStringLiteral("the %1's answer has no end of its head within %2 bytes")
                .arg(whose)
                .arg(kMaxHead));
        return false;
    }
    return (line != "\r\n" && line != "\n") || headEnded();
}

bool ProxyCheck::headEnded() {
    const QByteArray statusLine = std::exchange(m_statusLine, {});
    const int status = statusOfLine(statusLine);
    const bool connectAnswer = m_tunnel && !m_requestSent;
    if ((connectAnswer || !m_tunnel) && status == 407) {
        end(CheckOutcome::ProxyAuthRequired,
            m_proxy.username.isEmpty() ? QStringLiteral("the proxy wants credentials (407)")
                                       : QStringLiteral("the proxy refused the credentials (407)"));
        return false;
    }
    if (connectAnswer) {
        if (status < 200 || status > 299) {
            end(CheckOutcome::ProxyRefusedTarget,
                QStringLiteral("CONNECT answered \"%1\"").arg(printable(statusLine)));
            return false;
        }
        m_result.proxyMs = elapsedMs();
        enter(Phase::Target, Clock::now());
        return true;
    }
    if (status < 200)
        return true; // an interim answer: the final one follows
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
    // libcurl's own figure when it has one (it notes the moment the socket connected).
    curl_off_t us = 0;
    curl_easy_getinfo(m_easy, CURLINFO_CONNECT_TIME_T, &us);
    m_result.connectMs = us > 0 ? us / 1000 : m_connectedMs;
}

Clock::time_point ProxyCheck::deadline() const {
    std::chrono::milliseconds limit = m_options.proxyTimeout;
    if (m_phase == Phase::Connecting)
        limit = m_options.connectTimeout;
    else if (m_phase == Phase::Target)
        limit = m_options.targetTimeout;
    return std::min(m_phaseStarted + limit, m_started + m_options.checkTimeout);
}

CheckOutcome ProxyCheck::timeoutOutcome(QString *detail) const {
    const qint64 ms = elapsedMs();
    switch (m_phase) {
    case Phase::Connecting:
        *detail = QStringLiteral("no connection within %1 ms").arg(ms);
        return CheckOutcome::TimeoutConnect;
    case Phase::Proxy:
        *detail = QStringLiteral("the proxy did not answer within %1 ms").arg(ms);
        return CheckOutcome::TimeoutProxy;
    case Phase::Target:
        break;
    }
    *detail = QStringLiteral("the target did not answer within %1 ms").arg(ms);
    return CheckOutcome::TimeoutTarget;
}

void ProxyCheck::checkDeadline(Clock::time_point now) {
    if (m_done)
        return;
    // libcurl reports the TCP connect only once its SOCKS or proxy TLS part is done too: ask the
    // socket (connected when it has a peer).
    sockaddr_storage peer{};
    socklen_t length = sizeof peer;
    if (m_phase == Phase::Connecting && m_socket >= 0 &&
        ::getpeername(m_socket, reinterpret_cast<sockaddr *>(&peer), &length) == 0)
        noteConnected(now);
    if (now < deadline())
        return;
    QString detail;
    const CheckOutcome outcome = timeoutOutcome(&detail);
    end(outcome, detail);
}

void ProxyCheck::interrupt() {
    end(CheckOutcome::NotCheckable, QStringLiteral("interrupted while checking"));
}

void ProxyCheck::finish(int result) {
    if (m_done)
        return;
    const auto code = CURLcode(result);
    const QString why =
        QString::fromUtf8(m_error[0] ? m_error : curl_easy_strerror(code)).trimmed();
    const QString whose =
        m_phase == Phase::Target ? QStringLiteral("target") : QStringLiteral("proxy");
    long osError = 0;
    curl_easy_getinfo(m_easy, CURLINFO_OS_ERRNO, &osError);
    if (!m_result.probed && !m_refusedAddress.isEmpty())
        return end(CheckOutcome::NotCheckable, m_proxy.host + u' ' + m_refusedAddress);
    if (code == CURLE_COULDNT_RESOLVE_PROXY)
        return end(CheckOutcome::NotCheckable,
                   QStringLiteral("cannot resolve %1: %2").arg(m_proxy.host, why));
    if (!m_tlsAlert.isEmpty())
        return end(
            CheckOutcome::TlsError,
            QStringLiteral("TLS with the %1: it sent the alert \"%2\"").arg(whose, m_tlsAlert));
    switch (code) {
    case CURLE_COULDNT_CONNECT:
        if (osError == ECONNREFUSED)
            return end(CheckOutcome::Refused, QStringLiteral("connection refused"));
        return end(CheckOutcome::NetworkError, QStringLiteral("connect: %1").arg(why));
    case CURLE_OPERATION_TIMEDOUT: {
        QString detail;
        const CheckOutcome outcome = timeoutOutcome(&detail);
        return end(outcome, detail);
    }
    case CURLE_PROXY: {
        long proxyError = CURLPX_OK;
        curl_easy_getinfo(m_easy, CURLINFO_PROXY_ERROR, &proxyError);
        for (const SocksFailure &failure : kSocksFailures)
            if (failure.code == proxyError)
                return end(failure.outcome, QLatin1String(failure.text));
        return end(CheckOutcome::NetworkError, why);
    }
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_USE_SSL_FAILED:
        return end(CheckOutcome::TlsError, QStringLiteral("TLS with the %1: %2").arg(whose, why));
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_WEIRD_SERVER_REPLY:
        return end(CheckOutcome::Garbage,
                   QStringLiteral("the %1's answer is no HTTP: %2").arg(whose, why));
    case CURLE_OUT_OF_MEMORY: // what libcurl 7.88 reports for a header line over 100 KB
        if (!m_statusLine.isEmpty())
            return end(CheckOutcome::Garbage,
                       QStringLiteral("the %1's answer has no end of its head within %2 bytes")
                           .arg(whose)
                           .arg(kMaxHead));
        break;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
        if (m_phase == Phase::Target)
            return end(
                CheckOutcome::NetworkError,
                QStringLiteral("the connection closed before the target answered: %1").arg(why));
        if (m_phase == Phase::Proxy)
            return end(
                CheckOutcome::Garbage,
                QStringLiteral("the proxy closed the connection without an answer: %1").arg(why));
        break;
    default:
        break;
    }
    end(CheckOutcome::NetworkError, why);
}

} // namespace poolscope::health
