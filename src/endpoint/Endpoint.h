#pragma once

#include "endpoint/SshOptions.h"
#include "endpoint/TlsOptions.h"

#include <QList>

#include <QString>

#include <optional>

namespace poolscope {

// A Redis server address. Parsed from (and printed back to) a URL so that the same string can be
// typed by the user, stored in settings and handed to child processes.
//
// Keep all URL parsing in parseEndpoint() so that there is exactly one place to extend.
struct NodeAddress {
    QString host;
    int port = 0;
    bool operator==(const NodeAddress &) const = default;
};

struct Endpoint {
    enum class Transport { Tcp, UnixSocket };
    // Direct: host/port (or socketPath) is the server. Sentinel: `seeds` are the sentinels, asked
    // for `masterName`'s primary. Cluster: `seeds` are cluster nodes to learn the slot map from.
    enum class Topology { Direct, Sentinel, Cluster };

    Transport transport = Transport::Tcp;
    // host/port are only meaningful for Tcp; for UnixSocket they keep their defaults.
    QString host = QStringLiteral("127.0.0.1");
    int port = 6379;
    // Only meaningful for UnixSocket.
    QString socketPath;
    int database = 0;
    QString username; // ACL user; empty = default user
    QString password; // empty = no AUTH
    // rediss:// sets tls.enabled (Tcp only); the files and checks come from options, not the URL.
    TlsOptions tls;
    // --ssh: reach host:port (or socketPath) from an SSH host. Not part of the URL.
    SshOptions ssh;

    Topology topology = Topology::Direct;
    QList<NodeAddress> seeds; // Sentinel / Cluster only; host/port then hold the node in use
    QString masterName;       // Sentinel only
    QString sentinelPassword; // Sentinel only: AUTH for the sentinels (never in URLs shown)

    // Full URL including the (percent-encoded) password. Only for handing the endpoint to child
    // processes; never log it, never store it, never show it.
    QString toUrl() const;
    // For UI and logs: the password (if any) is replaced by "****", e.g.
    // redis://alice:****@host:6379/2. Not meant to be parsed back.
    QString toDisplayString() const;
    // URL without any password (username kept), for QSettings / recent connections.
    QString toSafeUrl() const;

    bool operator==(const Endpoint &) const = default;
};

struct EndpointParseResult {
    std::optional<Endpoint> endpoint;
    QString error; // human-readable, names the offending part; empty on success
    bool ok() const { return endpoint.has_value(); }
};

// Accepted forms (surrounding whitespace is ignored, the scheme is case-insensitive):
//   redis://[user[:password]@]host[:port][/db]     host may be an IPv6 address in brackets
//   rediss://...                                   the same over TLS (tls.enabled = true)
//   unix://[user[:password]@]/path/to/socket[?db=N]
//   redis+sentinel://[user[:password]@]s1[:port][,s2[:port]...]/MASTER_NAME[/db]
//                                                  (rediss+sentinel:// over TLS; sentinel port
//                                                  26379 by default; user info is the primary's,
//                                                  sentinelPassword comes from an option)
//   redis+cluster://[user[:password]@]host1[:port][,host2[:port]...]   Redis Cluster seeds
//   rediss+cluster://...                           the same over TLS
// (a cluster has database 0 only: "/N" or "?db=N" other than 0 is refused).
// Both also accept a "?db=N" query. Defaults: port 6379, database 0. User, password and the socket
// path are percent-decoded (e.g. %40 for '@'). Error messages never repeat the password.
EndpointParseResult parseEndpoint(const QString &url);

// REDIS_URL from the environment if set and not blank, else "redis://127.0.0.1:6379/0".
QString defaultRedisUrl();

} // namespace poolscope
