#pragma once

// What the cluster tests share: three primaries on loopback (started once per test file) and
// short ways to reach them.
#include "ClusterFixture.h"

#include "load/LoadRunner.h"
#include "client/RedisConnection.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QList>

namespace poolscope::testing {

inline QList<QByteArray> names(int count) {
    QList<QByteArray> list;
    for (int i = 0; i < count; ++i)
        list << "m" + QByteArray::number(i);
    return list;
}

inline QString describe(const LoadReport &report) {
    QJsonObject json = report.toJson();
    json.remove(QStringLiteral("per_member"));
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact));
}

class ClusterCase {
protected:
    ClusterFixture m_cluster;

    Endpoint clusterEndpoint() const { return m_cluster.endpoint(); }
    std::unique_ptr<RedisConnection> openCluster() {
        ConnectionOptions options;
        options.commandTimeout = std::chrono::milliseconds(10000);
        return RedisConnection::open(clusterEndpoint(), options);
    }
    QByteArray keyOn(int node, const QByteArray &prefix, bool hashTag) {
        return m_cluster.keyOn(node, prefix, hashTag);
    }
    RedisFixture &primary(int index) { return m_cluster.node(index); }
    QByteArray nodeId(int node) { return primary(node).run({"CLUSTER", "MYID"}).text; }
    qint64 errorStat(int node, const QByteArray &code) {
        const QByteArray info = primary(node).run({"INFO", "errorstats"}).text;
        const qsizetype at = info.indexOf("errorstat_" + code + ":count=");
        if (at < 0)
            return 0;
        const qsizetype start = at + code.size() + 17;
        return info.mid(start, info.indexOf('\r', start) - start).toLongLong();
    }
};

} // namespace poolscope::testing
