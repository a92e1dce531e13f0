#include "health/Checkability.h"

#include "proxylist/Eligibility.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace poolscope {
namespace {

bool isLoopbackLiteral(const QString &host) {
    if (host == u"localhost")
        return true;
    const QByteArray ascii = host.toLatin1();
    in_addr v4{};
    if (inet_pton(AF_INET, ascii.constData(), &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127;
    in6_addr v6{};
    return inet_pton(AF_INET6, ascii.constData(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

} // namespace

std::optional<ProxyEntry> proxyOfMember(const QByteArray &member, QString *error) {
    const ParsedProxyList parsed = parseProxyList(member, ProxyListFormat::Lines);
    if (parsed.entries.size() != 1 || !parsed.fatalError.isEmpty()) {
        *error = parsed.problems.isEmpty() ? QStringLiteral("not a proxy address")
                                           : parsed.problems.first().reason;
        return std::nullopt;
    }
    return parsed.entries.first();
}

QString notCheckableReason(const ProxyEntry &proxy) {
    if (isLoopbackLiteral(proxy.host)) {
        if (proxy.port < 1 || proxy.port > 65535)
            return QStringLiteral("port %1 is out of range 1-65535").arg(proxy.port);
        return {};
    }
    EligibilityRules rules;
    rules.rejectNonPublicAddresses = true;
    return eligibilityViolation(proxy, rules);
}

QString notCheckableAddress(const sockaddr *address) {
    char text[INET6_ADDRSTRLEN] = {};
    if (address->sa_family == AF_INET)
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in *>(address)->sin_addr, text,
                  sizeof text);
    else if (address->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6 *>(address)->sin6_addr, text,
                  sizeof text);
    else
        return QStringLiteral("not an IP address");
    ProxyEntry resolved;
    resolved.scheme = QStringLiteral("http");
    resolved.host = QString::fromLatin1(text);
    resolved.port = 1;
    const QString reason = notCheckableReason(resolved);
    return reason.isEmpty() ? QString() : QStringLiteral("resolves to %1").arg(reason);
}

} // namespace poolscope
