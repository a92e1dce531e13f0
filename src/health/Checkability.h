#pragma once

#include "proxylist/ProxyListParser.h"

#include <optional>

#include <QByteArray>
#include <QString>

struct sockaddr;

namespace poolscope {

// A member id read as a proxy: its scheme, credentials, host and port. nullopt with the reason in
// *error when the id is no proxy address.
std::optional<ProxyEntry> proxyOfMember(const QByteArray &member, QString *error);

// Why this proxy must never be probed, or an empty string when it may be. Loopback (127.0.0.0/8,
// ::1, "localhost") may be: that is where tests run their proxies. Public addresses may be. Every
// other range the seed's eligibility rules know (documentation 192.0.2.0/24, 198.51.100.0/24,
// 203.0.113.0/24, private, link-local, CGNAT, multicast, reserved, ...) may not: nothing is sent
// there, so the demo pool never sends a packet off this machine. DNS names pass here and are
// judged again by the address they resolve to (notCheckableAddress).
QString notCheckableReason(const ProxyEntry &proxy);
QString notCheckableAddress(const sockaddr *address);

} // namespace poolscope
