#include "health/ProxyProbe.h"

#include "text/CredentialMask.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace poolscope::health {
namespace {

constexpr qsizetype kMaxHead = 16384;

// Where the head ends (its blank line), looked for only within kMaxHead bytes; -1 if not there.
qsizetype headEndOf(const QByteArray &in) {
    return QByteArrayView(in).first(std::min(in.size(), kMaxHead + 4)).indexOf("\r\n\r\n");
}

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
    return maskCredentialsInText(text);
}

QString socks5ReplyText(quint8 code) {
    switch (code) {
    case 1:
        return QStringLiteral("general failure");
    case 2:
        return QStringLiteral("not allowed by its rules");
    case 3:
        return QStringLiteral("network unreachable");
    case 4:
        return QStringLiteral("host unreachable");
    case 5:
        return QStringLiteral("connection refused by the target");
    case 6:
        return QStringLiteral("TTL expired");
    case 7:
        return QStringLiteral("command not supported");
    case 8:
        return QStringLiteral("address type not supported");
    default:
        return QStringLiteral("reply code %1").arg(code);
    }
}

bool isIpv4(const QByteArray &host, in_addr &address) {
    return inet_pton(AF_INET, host.constData(), &address) == 1;
}

} // namespace

ProxyProbe::ProxyProbe(QByteArray member, ProxyEntry proxy, const CheckOptions &options,
                       SSL_CTX *tlsContext)
    : m_member(std::move(member))
    , m_proxy(std::move(proxy))
    , m_options(options)
    , m_tlsContext(tlsContext) {
    m_result.member = m_member;
}

ProxyProbe::~ProxyProbe() {
    if (m_fd >= 0)
        ::close(m_fd);
}

qint64 ProxyProbe::since(Clock::time_point now) const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(now - m_started).count();
}

void ProxyProbe::start(const sockaddr *address, unsigned addressLength, Clock::time_point now) {
    m_started = now;
    m_result.probed = true;
    m_fd = ::socket(address->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (m_fd < 0) {
        finish(CheckOutcome::NetworkError,
               QStringLiteral("socket: %1").arg(QString::fromLocal8Bit(strerror(errno))));
        return;
    }
    const int yes = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    enter(Phase::Connecting, now);
    if (::connect(m_fd, address, addressLength) == 0) {
        onConnected(now);
        return;
    }
    if (errno == EINPROGRESS)
        return;
    if (errno == ECONNREFUSED)
        finish(CheckOutcome::Refused, QStringLiteral("connection refused"));
    else
        finish(CheckOutcome::NetworkError,
               QStringLiteral("connect: %1").arg(QString::fromLocal8Bit(strerror(errno))));
}

void ProxyProbe::enter(Phase phase, Clock::time_point now) {
    m_phase = phase;
    std::chrono::milliseconds limit = m_options.proxyTimeout;
    if (phase == Phase::Connecting)
        limit = m_options.connectTimeout;
    else if (phase == Phase::TargetTls || phase == Phase::TargetAnswer)
        limit = m_options.targetTimeout;
    m_phaseDeadline = now + limit;
}

Clock::time_point ProxyProbe::deadline() const {
    return std::min(m_phaseDeadline, m_started + m_options.checkTimeout);
}

short ProxyProbe::pollEvents() const {
    if (m_phase == Phase::Connecting)
        return POLLOUT;
    return short(POLLIN | (m_rawOut.isEmpty() ? 0 : POLLOUT));
}

void ProxyProbe::finish(CheckOutcome outcome, const QString &detail) {
    m_result.outcome = outcome;
    m_result.detail = maskCredentialsInText(detail);
    m_phase = Phase::Done;
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

void ProxyProbe::checkDeadline(Clock::time_point now) {
    if (finished() || now < deadline())
        return;
    switch (m_phase) {
    case Phase::Connecting:
        finish(CheckOutcome::TimeoutConnect,
               QStringLiteral("no connection within %1 ms").arg(since(now)));
        break;
    case Phase::TargetTls:
    case Phase::TargetAnswer:
        finish(CheckOutcome::TimeoutTarget,
               QStringLiteral("the target did not answer within %1 ms").arg(since(now)));
        break;
    default:
        finish(CheckOutcome::TimeoutProxy,
               QStringLiteral("the proxy did not answer within %1 ms").arg(since(now)));
        break;
    }
}

void ProxyProbe::handle(short revents, Clock::time_point now) {
    if (finished())
        return;
    if (m_phase == Phase::Connecting) {
        int error = 0;
        socklen_t length = sizeof error;
        ::getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &error, &length);
        if (error == ECONNREFUSED) {
            finish(CheckOutcome::Refused, QStringLiteral("connection refused"));
        } else if (error != 0) {
            finish(CheckOutcome::NetworkError,
                   QStringLiteral("connect: %1").arg(QString::fromLocal8Bit(strerror(error))));
        } else if (revents & (POLLOUT | POLLERR | POLLHUP)) {
            onConnected(now);
        }
        return;
    }
    if (revents & POLLOUT)
        flush();
    if (finished())
        return;
    if (revents & (POLLIN | POLLHUP | POLLERR)) {
        if (!readSocket())
            return;
    }
    while (!finished() && advance(now)) {
    }
    if (!finished() && m_eof) {
        if (m_phase == Phase::TargetTls || m_phase == Phase::TargetAnswer)
            finish(CheckOutcome::NetworkError,
                   QStringLiteral("the connection closed before the target answered"));
        else
            finish(CheckOutcome::Garbage,
                   QStringLiteral("the proxy closed the connection without an answer"));
        return;
    }
    flush();
}

bool ProxyProbe::readSocket() {
    char chunk[16384];
    for (;;) {
        const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n > 0) {
            m_tls.feedRaw(chunk, size_t(n));
            continue;
        }
        if (n == 0) {
            m_eof = true;
            break;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            break;
        if (errno == EINTR)
            continue;
        const bool proxyPhase = m_phase != Phase::TargetTls && m_phase != Phase::TargetAnswer;
        finish(errno == ECONNRESET && proxyPhase ? CheckOutcome::Garbage
                                                 : CheckOutcome::NetworkError,
               QStringLiteral("%1: %2").arg(proxyPhase
                                                ? QStringLiteral("the proxy reset the connection")
                                                : QStringLiteral("connection lost"),
                                            QString::fromLocal8Bit(strerror(errno))));
        return false;
    }
    if (!m_tls.pump()) {
        const bool withTarget = m_phase == Phase::TargetTls || m_phase == Phase::TargetAnswer;
        finish(CheckOutcome::TlsError,
               QStringLiteral("TLS with the %1: %2")
                   .arg(withTarget ? QStringLiteral("target") : QStringLiteral("proxy"),
                        m_tls.error()));
        return false;
    }
    m_in += m_tls.takeAppIn();
    return true;
}

void ProxyProbe::send(const QByteArray &data) {
    m_tls.writeApp(data);
}

void ProxyProbe::flush() {
    if (m_fd < 0)
        return;
    if (!m_tls.pump()) {
        finish(CheckOutcome::TlsError, QStringLiteral("TLS: %1").arg(m_tls.error()));
        return;
    }
    m_rawOut += m_tls.takeRawOut();
    while (!m_rawOut.isEmpty()) {
        const ssize_t n = ::send(m_fd, m_rawOut.constData(), size_t(m_rawOut.size()), MSG_NOSIGNAL);
        if (n > 0) {
            m_rawOut.remove(0, qsizetype(n));
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n < 0 && errno == EINTR)
            continue;
        finish(CheckOutcome::NetworkError,
               QStringLiteral("send: %1").arg(QString::fromLocal8Bit(strerror(errno))));
        return;
    }
}

void ProxyProbe::onConnected(Clock::time_point now) {
    m_result.connectMs = since(now);
    if (m_proxy.scheme == u"https") {
        m_tls.push(m_tlsContext, m_proxy.host.toLatin1(), !m_options.tlsInsecure);
        enter(Phase::ProxyTls, now);
        flush();
        return;
    }
    startProxyProtocol(now);
}

void ProxyProbe::startProxyProtocol(Clock::time_point now) {
    const CheckTarget &target = m_options.target;
    const QString &scheme = m_proxy.scheme;
    if (scheme == u"socks5") {
        const bool withCredentials = !m_proxy.username.isEmpty();
        send(withCredentials ? QByteArray("\x05\x02\x00\x02", 4) : QByteArray("\x05\x01\x00", 3));
        enter(Phase::Socks5Method, now);
    } else if (scheme == u"socks4") {
        QByteArray request("\x04\x01", 2);
        request += char(target.port >> 8);
        request += char(target.port & 0xff);
        in_addr address{};
        const bool literal = isIpv4(target.host, address);
        if (literal)
            request.append(reinterpret_cast<const char *>(&address.s_addr), 4);
        else
            request.append("\x00\x00\x00\x01", 4); // SOCKS4a: the name follows the user id
        request += m_proxy.username.toUtf8();
        request += '\0';
        if (!literal) {
            request += target.host;
            request += '\0';
        }
        send(request);
        enter(Phase::Socks4Reply, now);
    } else {
        QByteArray auth;
        if (!m_proxy.username.isEmpty())
            auth = "Proxy-Authorization: Basic " +
                   (m_proxy.username + u':' + m_proxy.password).toUtf8().toBase64() + "\r\n";
        if (target.https) {
            send("CONNECT " + target.authority() + " HTTP/1.1\r\nHost: " + target.authority() +
                 "\r\n" + auth + "\r\n");
            enter(Phase::ProxyConnectAnswer, now);
        } else {
            send("GET http://" + target.authority() + target.path +
                 " HTTP/1.1\r\nHost: " + target.authority() + "\r\n" + auth +
                 "User-Agent: poolscope-health\r\nConnection: close\r\n\r\n");
            enter(Phase::ProxyGetAnswer, now);
        }
    }
    flush();
}

void ProxyProbe::tunnelOpened(Clock::time_point now) {
    m_result.proxyMs = since(now);
    if (m_options.target.https) {
        m_tls.push(m_tlsContext, m_options.target.host, !m_options.tlsInsecure);
        enter(Phase::TargetTls, now);
        flush();
        return;
    }
    sendTargetRequest(now);
}

void ProxyProbe::sendTargetRequest(Clock::time_point now) {
    const CheckTarget &target = m_options.target;
    send("GET " + target.path + " HTTP/1.1\r\nHost: " + target.authority() +
         "\r\nUser-Agent: poolscope-health\r\nConnection: close\r\n\r\n");
    enter(Phase::TargetAnswer, now);
    flush();
}

void ProxyProbe::finishWithStatus(int status, Clock::time_point now) {
    m_result.status = status;
    m_result.totalMs = since(now);
    if (m_options.expectStatus.contains(status))
        finish(CheckOutcome::Ok);
    else
        finish(CheckOutcome::UnexpectedStatus,
               QStringLiteral("the target answered %1 (expected %2)")
                   .arg(status)
                   .arg(m_options.expectStatus.text()));
}

bool ProxyProbe::advance(Clock::time_point now) {
    switch (m_phase) {
    case Phase::ProxyTls:
        if (!m_tls.topHandshakeDone())
            return false;
        startProxyProtocol(now);
        return true;
    case Phase::ProxyConnectAnswer:
    case Phase::ProxyGetAnswer: {
        const qsizetype lineEnd = m_in.indexOf("\r\n");
        if (lineEnd < 0) {
            if (m_in.size() > kMaxHead || (m_in.size() >= 8 && !m_in.startsWith("HTTP/1.")))
                finish(CheckOutcome::Garbage,
                       QStringLiteral("the proxy answered \"%1\"").arg(printable(m_in)));
            return false;
        }
        const QByteArray line = m_in.left(lineEnd);
        const int status = statusOfLine(line);
        if (status < 0) {
            finish(CheckOutcome::Garbage,
                   QStringLiteral("the proxy answered \"%1\"").arg(printable(line)));
            return false;
        }
        if (status == 407) {
            finish(CheckOutcome::ProxyAuthRequired,
                   m_proxy.username.isEmpty()
                       ? QStringLiteral("the proxy wants credentials (407)")
                       : QStringLiteral("the proxy refused the credentials (407)"));
            return false;
        }
        if (m_phase == Phase::ProxyGetAnswer && m_result.proxyMs < 0)
            m_result.proxyMs = since(now);
        // The whole head, within kMaxHead and the phase's time: a status line alone may come
        // from something that is no working proxy (it then sends headers forever).
        const qsizetype headEnd = headEndOf(m_in);
        if (headEnd < 0) {
            if (m_in.size() > kMaxHead)
                finish(CheckOutcome::Garbage,
                       QStringLiteral("the proxy's answer has no end of its head within %1 bytes")
                           .arg(kMaxHead));
            return false;
        }
        if (m_phase == Phase::ProxyGetAnswer) {
            finishWithStatus(status, now);
            return false;
        }
        if (status < 200 || status > 299) {
            finish(CheckOutcome::ProxyRefusedTarget,
                   QStringLiteral("CONNECT answered \"%1\"").arg(printable(line)));
            return false;
        }
        m_in.remove(0, headEnd + 4);
        tunnelOpened(now);
        return true;
    }
    case Phase::Socks5Method: {
        if (m_in.size() < 2)
            return false;
        const quint8 version = quint8(m_in[0]);
        const quint8 method = quint8(m_in[1]);
        m_in.remove(0, 2);
        if (version != 5) {
            finish(CheckOutcome::Garbage,
                   QStringLiteral("not a SOCKS5 answer (version byte %1)").arg(version));
        } else if (method == 0xff) {
            finish(CheckOutcome::ProxyAuthRequired,
                   m_proxy.username.isEmpty()
                       ? QStringLiteral("the SOCKS5 proxy wants credentials")
                       : QStringLiteral("the SOCKS5 proxy accepts none of our methods"));
        } else if (method == 2 && !m_proxy.username.isEmpty()) {
            const QByteArray user = m_proxy.username.toUtf8().left(255);
            const QByteArray password = m_proxy.password.toUtf8().left(255);
            send(QByteArray(1, '\x01') + char(user.size()) + user + char(password.size()) +
                 password);
            enter(Phase::Socks5Auth, now);
            flush();
            return true;
        } else if (method == 0) {
            const CheckTarget &target = m_options.target;
            QByteArray request("\x05\x01\x00", 3);
            in_addr address{};
            if (isIpv4(target.host, address)) {
                request += '\x01';
                request.append(reinterpret_cast<const char *>(&address.s_addr), 4);
            } else {
                request += '\x03';
                request += char(target.host.left(255).size());
                request += target.host.left(255);
            }
            request += char(target.port >> 8);
            request += char(target.port & 0xff);
            send(request);
            enter(Phase::Socks5Reply, now);
            flush();
            return true;
        } else {
            finish(CheckOutcome::Garbage,
                   QStringLiteral("the SOCKS5 proxy chose method %1, which we did not offer")
                       .arg(method));
        }
        return false;
    }
    case Phase::Socks5Auth: {
        if (m_in.size() < 2)
            return false;
        const quint8 status = quint8(m_in[1]);
        m_in.remove(0, 2);
        if (status != 0) {
            finish(CheckOutcome::ProxyAuthRequired,
                   QStringLiteral("the SOCKS5 proxy refused the credentials"));
            return false;
        }
        enter(Phase::Socks5Method, now);
        m_in.prepend(QByteArray("\x05\x00", 2)); // continue as if no authentication was needed
        return true;
    }
    case Phase::Socks5Reply: {
        if (m_in.size() < 5)
            return false;
        if (quint8(m_in[0]) != 5) {
            finish(CheckOutcome::Garbage, QStringLiteral("not a SOCKS5 reply"));
            return false;
        }
        const quint8 code = quint8(m_in[1]);
        if (code != 0) {
            finish(CheckOutcome::ProxyRefusedTarget,
                   QStringLiteral("SOCKS5: %1").arg(socks5ReplyText(code)));
            return false;
        }
        const quint8 type = quint8(m_in[3]);
        qsizetype length = 0;
        if (type == 1)
            length = 4 + 4 + 2;
        else if (type == 4)
            length = 4 + 16 + 2;
        else if (type == 3)
            length = 4 + 1 + quint8(m_in[4]) + 2;
        else {
            finish(CheckOutcome::Garbage,
                   QStringLiteral("SOCKS5 reply with address type %1").arg(type));
            return false;
        }
        if (m_in.size() < length)
            return false;
        m_in.remove(0, length);
        tunnelOpened(now);
        return true;
    }
    case Phase::Socks4Reply: {
        if (m_in.size() < 8)
            return false;
        const quint8 version = quint8(m_in[0]);
        const quint8 code = quint8(m_in[1]);
        m_in.remove(0, 8);
        if (version != 0 && version != 4) {
            finish(CheckOutcome::Garbage, QStringLiteral("not a SOCKS4 reply"));
        } else if (code == 0x5a) {
            tunnelOpened(now);
            return true;
        } else if (code == 0x5c || code == 0x5d) {
            finish(CheckOutcome::ProxyAuthRequired,
                   QStringLiteral("the SOCKS4 proxy could not confirm the user id (identd)"));
        } else if (code == 0x5b) {
            finish(CheckOutcome::ProxyRefusedTarget,
                   QStringLiteral("SOCKS4: request rejected or failed"));
        } else {
            finish(CheckOutcome::Garbage, QStringLiteral("SOCKS4 reply code %1").arg(code));
        }
        return false;
    }
    case Phase::TargetTls:
        if (!m_tls.topHandshakeDone())
            return false;
        sendTargetRequest(now);
        return true;
    case Phase::TargetAnswer: {
        const qsizetype lineEnd = m_in.indexOf("\r\n");
        if (lineEnd < 0) {
            if (m_in.size() > kMaxHead || (m_in.size() >= 8 && !m_in.startsWith("HTTP/1.")))
                finish(CheckOutcome::Garbage,
                       QStringLiteral("the target answered \"%1\"").arg(printable(m_in)));
            return false;
        }
        const int status = statusOfLine(m_in.left(lineEnd));
        if (status < 0) {
            finish(CheckOutcome::Garbage,
                   QStringLiteral("the target answered \"%1\"").arg(printable(m_in.left(lineEnd))));
            return false;
        }
        // Not ok on the status line alone: the head must end, within kMaxHead and in time.
        if (headEndOf(m_in) < 0) {
            if (m_in.size() > kMaxHead)
                finish(CheckOutcome::Garbage,
                       QStringLiteral("the target's answer has no end of its head within %1 bytes")
                           .arg(kMaxHead));
            return false;
        }
        finishWithStatus(status, now);
        return false;
    }
    case Phase::Connecting:
    case Phase::Done:
        return false;
    }
    return false;
}

} // namespace poolscope::health
