// Label values for exported metrics: always valid UTF-8, proxy credentials masked.
#pragma once

#include <string>

#include <QByteArray>

namespace poolscope {

// The bytes as they are when they are valid UTF-8 without control characters; otherwise each
// offending byte becomes \xNN (and a backslash \\), so distinct members keep distinct labels.
std::string metricLabelValue(const QByteArray &bytes);
// metricLabelValue() of the member with the password of a proxy URL or user:password@host
// replaced by ****: "socks5://alice:****@203.0.113.5:1080". Passwords never reach Prometheus.
std::string metricMemberLabel(const QByteArray &member);
// The member with its password masked, bytes otherwise unchanged.
QByteArray maskMemberPassword(const QByteArray &member);

} // namespace poolscope
