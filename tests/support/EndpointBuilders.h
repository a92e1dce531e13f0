#pragma once

// Endpoints built field by field, for the endpoint tests' expected values.
#include "endpoint/Endpoint.h"

#include <QStringList>
#include <QTest>

namespace poolscope {
// Readable QCOMPARE failures. Test data only ever contains fake passwords, so printing the full
// URL is fine here.
inline char *toString(const Endpoint &endpoint) {
    return QTest::toString(endpoint.toUrl());
}

namespace testing {

inline Endpoint tcpEndpoint(const QString &host, int port = 6379, int database = 0,
                            const QString &username = {}, const QString &password = {}) {
    Endpoint endpoint;
    endpoint.host = host;
    endpoint.port = port;
    endpoint.database = database;
    endpoint.username = username;
    endpoint.password = password;
    return endpoint;
}

inline Endpoint tlsEndpoint(const QString &host, int port = 6379, int database = 0,
                            const QString &username = {}, const QString &password = {}) {
    Endpoint endpoint = tcpEndpoint(host, port, database, username, password);
    endpoint.tls.enabled = true;
    return endpoint;
}

inline Endpoint unixEndpoint(const QString &socketPath, int database = 0,
                             const QString &username = {}, const QString &password = {}) {
    Endpoint endpoint;
    endpoint.transport = Endpoint::Transport::UnixSocket;
    endpoint.socketPath = socketPath;
    endpoint.database = database;
    endpoint.username = username;
    endpoint.password = password;
    return endpoint;
}

// Sentinels "host:port" each; host/port of the endpoint start at the first sentinel.
inline Endpoint sentinelEndpoint(const QStringList &sentinels, const QString &masterName,
                                 int database = 0, const QString &username = {},
                                 const QString &password = {}) {
    Endpoint endpoint = tcpEndpoint({}, 0, database, username, password);
    endpoint.topology = Endpoint::Topology::Sentinel;
    endpoint.masterName = masterName;
    for (const QString &sentinel : sentinels) {
        const qsizetype colon = sentinel.lastIndexOf(u':');
        endpoint.seeds.append({sentinel.left(colon), sentinel.mid(colon + 1).toInt()});
    }
    endpoint.host = endpoint.seeds.first().host;
    endpoint.port = endpoint.seeds.first().port;
    return endpoint;
}

} // namespace testing
} // namespace poolscope
