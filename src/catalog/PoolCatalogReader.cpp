#include "catalog/PoolCatalogReader.h"

#include "base/BrokenPipe.h"
#include "base/RedisError.h"
#include "client/WorkerSupport.h"

#include <chrono>
#include <optional>

#include <QStringList>
#include <QThread>

namespace poolscope {

using worker::post;

class PoolCatalogReader::Worker : public QObject {
public:
    explicit Worker(PoolCatalogReader *owner)
        : m_owner(owner) {}

    void setTarget(const Endpoint &endpoint, const ConnectionOptions &options) {
        m_endpoint = endpoint;
        m_options = worker::boundedOptions(options, QStringLiteral("poolscope-pools"));
        m_connection.reset();
        m_previous.reset();
    }

    void read(quint64 generation) {
        const BrokenPipeGuard brokenPipeGuard;
        try {
            if (!m_connection || m_connection->isBroken())
                m_connection = RedisConnection::open(m_endpoint, m_options);
            const auto now = std::chrono::steady_clock::now();
            // A hung cluster primary costs only its own pools; it is named after the list.
            QList<UnreadNode> unread;
            QList<PoolOverview> pools =
                PoolCatalog::read(*m_connection, PoolCatalog::kMaxKeys, &unread);
            QStringList unreadText;
            for (const UnreadNode &node : unread)
                unreadText << QStringLiteral("cluster node %1 could not be read, its pools are not "
                                             "listed: %2")
                                  .arg(node.node, node.message);
            if (m_previous)
                PoolCatalog::addRates(pools, m_previous->pools,
                                      std::chrono::duration<double>(now - m_previous->at).count());
            m_previous = Reading{pools, now};
            post(m_owner, [owner = m_owner, generation, pools, unreadText] {
                owner->finish(generation);
                if (generation != owner->m_generation)
                    return;
                Q_EMIT owner->catalogRead(pools);
                if (!unreadText.isEmpty())
                    Q_EMIT owner->readFailed(unreadText.join(QStringLiteral("; ")));
            });
        } catch (const RedisError &error) {
            if (error.connectionLost() || (m_connection && m_connection->isBroken()))
                m_connection.reset();
            post(m_owner, [owner = m_owner, generation, message = error.message()] {
                owner->finish(generation);
                if (generation == owner->m_generation)
                    Q_EMIT owner->readFailed(message);
            });
        }
    }

private:
    struct Reading {
        QList<PoolOverview> pools;
        std::chrono::steady_clock::time_point at;
    };
    PoolCatalogReader *m_owner;
    Endpoint m_endpoint;
    ConnectionOptions m_options;
    std::unique_ptr<RedisConnection> m_connection;
    std::optional<Reading> m_previous;
};

PoolCatalogReader::PoolCatalogReader(QObject *parent)
    : QObject(parent)
    , m_thread(std::make_unique<QThread>()) {
    m_thread->setObjectName(QStringLiteral("poolscope-pools"));
    m_worker = new Worker(this); // deleted on its thread when the thread finishes
    m_worker->moveToThread(m_thread.get());
    connect(m_thread.get(), &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

PoolCatalogReader::~PoolCatalogReader() {
    m_thread->quit();
    m_thread->wait();
}

void PoolCatalogReader::setTarget(const Endpoint &endpoint, const ConnectionOptions &options) {
    ++m_generation;
    m_hasTarget = true;
    m_reading = false; // a reading of the old target no longer blocks a new one
    post(m_worker,
         [worker = m_worker, endpoint, options] { worker->setTarget(endpoint, options); });
}

void PoolCatalogReader::read() {
    if (m_reading || !m_hasTarget)
        return;
    m_reading = true;
    post(m_worker, [worker = m_worker, generation = m_generation] { worker->read(generation); });
}

} // namespace poolscope
