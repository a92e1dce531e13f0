#include "SentinelTopology.h"

#include "base/RedisError.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QHash>
#include <QThread>

#include <csignal>
#include <sys/prctl.h>

namespace poolscope::testing {

namespace {

Endpoint tcp(int port) {
    Endpoint endpoint;
    endpoint.host = QStringLiteral("127.0.0.1");
    endpoint.port = port;
    return endpoint;
}

// Start-up readiness, not a test wait: the processes give no other signal that they are ready.
template <typename Ready> bool pollUntil(int timeoutMs, Ready ready) {
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        try {
            if (ready())
                return true;
        } catch (const RedisError &) {
        }
        QThread::msleep(50);
    }
    return false;
}

} // namespace

SentinelTopology::~SentinelTopology() {
    stopSentinels();
    m_servers.clear(); // each stops its redis-server by PID
}

void SentinelTopology::stopSentinels() {
    for (const std::unique_ptr<QProcess> &process : m_sentinels) {
        if (process->state() == QProcess::NotRunning)
            continue;
        ::kill(static_cast<pid_t>(process->processId()), SIGKILL);
        process->waitForFinished(3000);
    }
    m_sentinels.clear();
}

int SentinelTopology::serverPort(int index) const {
    return m_servers.at(static_cast<size_t>(index))->endpoint().port;
}

Endpoint SentinelTopology::endpoint(const QString &masterName) const {
    Endpoint endpoint;
    endpoint.topology = Endpoint::Topology::Sentinel;
    endpoint.masterName = masterName;
    for (const int port : m_sentinelPorts)
        endpoint.seeds.append({QStringLiteral("127.0.0.1"), port});
    endpoint.host = endpoint.seeds.first().host;
    endpoint.port = endpoint.seeds.first().port;
    return endpoint;
}

std::unique_ptr<RedisConnection> SentinelTopology::sentinel(int index) const {
    return RedisConnection::open(tcp(sentinelPort(index)));
}

QString SentinelTopology::primaryNamed() const {
    const RedisReply reply =
        sentinel(0)->command({"SENTINEL", "get-master-addr-by-name", kMasterName});
    if (reply.elements.size() != 2)
        return {};
    return QString::fromUtf8(reply.elements.at(0).text + ':' + reply.elements.at(1).text);
}

bool SentinelTopology::replicaHealthy(int index) const {
    try {
        if (!RedisConnection::open(tcp(serverPort(index)))
                 ->command({"INFO", "replication"})
                 .text.contains("master_link_status:up"))
            return false;
        const QByteArray name = "127.0.0.1:" + QByteArray::number(serverPort(index));
        for (int i = 0; i < 3; ++i) {
            bool healthy = false;
            for (const RedisReply &replica :
                 sentinel(i)->command({"SENTINEL", "replicas", kMasterName}).elements) {
                QHash<QByteArray, QByteArray> fields;
                for (qsizetype f = 0; f + 1 < replica.elements.size(); f += 2)
                    fields.insert(replica.elements[f].text, replica.elements[f + 1].text);
                healthy =
                    healthy || (fields.value("name") == name && fields.value("flags") == "slave");
            }
            if (!healthy)
                return false;
        }
        return true;
    } catch (const RedisError &) {
        return false;
    }
}

bool SentinelTopology::startSentinel(int index, int primaryPort) {
    const int port = RedisServerProcess::pickFreeTcpPort();
    const QString dir = m_directory->path() + QStringLiteral("/sentinel%1").arg(index);
    QDir().mkpath(dir);
    const QString config = dir + QStringLiteral("/sentinel.conf");
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly)) {
        m_error = QStringLiteral("cannot write %1").arg(config);
        return false;
    }
    file.write(QStringLiteral("port %1\n"
                              "bind 127.0.0.1\n"
                              "dir %2\n"
                              "logfile %2/sentinel.log\n"
                              "sentinel monitor %3 127.0.0.1 %4 2\n"
                              "sentinel down-after-milliseconds %3 1000\n"
                              "sentinel failover-timeout %3 2000\n"
                              "sentinel parallel-syncs %3 1\n")
                   .arg(port)
                   .arg(dir, QLatin1String(kMasterName))
                   .arg(primaryPort)
                   .toUtf8());
    file.close();
    auto process = std::make_unique<QProcess>();
    process->setProgram(RedisServerProcess::findExecutable());
    process->setArguments({config, QStringLiteral("--sentinel")});
    process->setStandardOutputFile(QProcess::nullDevice());
    process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    process->start();
    if (!process->waitForStarted(5000)) {
        m_error =
            QStringLiteral("cannot start sentinel %1: %2").arg(index).arg(process->errorString());
        return false;
    }
    m_sentinels.push_back(std::move(process));
    m_sentinelPorts.push_back(port);
    if (!pollUntil(10000, [&] { return sentinel(index)->command({"PING"}).text == "PONG"; })) {
        m_error = QStringLiteral("sentinel %1 did not answer PING").arg(index);
        return false;
    }
    return true;
}

bool SentinelTopology::start() {
    m_directory = std::make_unique<QTemporaryDir>();
    RedisServerOptions primaryOptions;
    primaryOptions.useTcp = true;
    m_servers.push_back(std::make_unique<RedisServerProcess>(primaryOptions));
    if (!m_servers[0]->start(&m_error))
        return false;
    const int primaryPort = serverPort(0);
    RedisServerOptions replicaOptions;
    replicaOptions.useTcp = true;
    replicaOptions.extraArguments = {QStringLiteral("--replicaof"), QStringLiteral("127.0.0.1"),
                                     QString::number(primaryPort)};
    m_servers.push_back(std::make_unique<RedisServerProcess>(replicaOptions));
    if (!m_servers[1]->start(&m_error))
        return false;
    // The sentinels find the replica in the primary's INFO: let it be connected first.
    if (!pollUntil(15000, [&] {
            return RedisConnection::open(tcp(serverPort(1)))
                ->command({"INFO", "replication"})
                .text.contains("master_link_status:up");
        })) {
        m_error = QStringLiteral("the replica did not connect to the primary");
        return false;
    }
    for (int i = 0; i < 3; ++i)
        if (!startSentinel(i, primaryPort))
            return false;
    // Each sentinel must know the replica (a failover candidate) and the other two (a quorum
    // that can authorise a failover).
    for (int i = 0; i < 3; ++i) {
        const bool ready = pollUntil(20000, [&] {
            const std::unique_ptr<RedisConnection> connection = sentinel(i);
            const RedisReply replicas = connection->command({"SENTINEL", "replicas", kMasterName});
            const RedisReply quorum = connection->command({"SENTINEL", "ckquorum", kMasterName});
            const RedisReply others = connection->command({"SENTINEL", "sentinels", kMasterName});
            return !replicas.elements.isEmpty() && !quorum.isError() && others.elements.size() == 2;
        });
        if (!ready) {
            m_error = QStringLiteral("sentinel %1 did not see the replica and the other sentinels")
                          .arg(i);
            return false;
        }
    }
    return true;
}

} // namespace poolscope::testing
