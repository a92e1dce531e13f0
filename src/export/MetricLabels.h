// Label values for exported metrics: the CLI's member escaping, proxy credentials masked.
#pragma once

#include <string>

#include <QByteArray>

namespace poolscope {

// memberText() of the bytes (valid UTF-8, one line, distinct names stay distinct), as UTF-8.
std::string metricLabelValue(const QByteArray &bytes);
// metricLabelValue() of the member with its proxy password masked (maskCredentials):
// "socks5://alice:****@203.0.113.5:1080". Passwords never reach Prometheus.
std::string metricMemberLabel(const QByteArray &member);

} // namespace poolscope
