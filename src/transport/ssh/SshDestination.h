#pragma once

#include <QString>

namespace poolscope::transport {

// --ssh [user@]host[:port], or a Host alias of ~/.ssh/config. An IPv6 address takes brackets when
// a port follows ([::1]:2222). Empty user / port 0: whatever ~/.ssh/config (or the defaults: the
// local user, port 22) says.
struct SshDestination {
    QString user;
    QString host;
    int port = 0;
};

struct SshDestinationParseResult {
    SshDestination destination;
    QString error; // names the offending part; empty on success
    bool ok() const { return error.isEmpty(); }
};

SshDestinationParseResult parseSshDestination(const QString &text);

} // namespace poolscope::transport
