#include "catalog/PoolCatalogReader.h"

#include "base/RedisError.h"
#include "client/BackgroundWorker.h"

#include <chrono>
#include <optional>

#include <QStringList>

namespace poolscope {

// The context of the reader's BackgroundWorker: its connection and the previous reading.
class PoolCatalogReader::Worker : public QObject {
public:
    Worker(PoolCatalogReader *owner, WorkerLink link)
        : m_owner(owner)
        , m_link(std::move(link)) {}

    void setTarget(const Endpoint &endpoint, const ConnectionOptions &options) {
        m_endpoint = endpoint;
        m_options = worker::boundedOptions(options, QStringLiteral("poolscope-pools"));
        m_connection.reset();
        m_previous.reset();
    }

    void read(quint64 generation) {
        try {
            if (!m_connection || m_connection->isBroken())
                m_connection = RedisConnection::open(m_endpoint, m_options);
            const auto now = std::chrono::steady_clock::now();
            // A hung cluster primary costs only its own pools; it is named after the list.
            QList<UnreadNode> unread;
            QList<PoolOverview> pools =
                PoolCatalog::read(*m_connection, PoolCatalog::kMaxKeys, &unread);
            std::optional<Failure> unreadNodes;
            if (!unread.isEmpty()) {
                QStringList text;
                for (const UnreadNode &node : unread)
                    text << QStringLiteral("cluster node %1 could not be read, its pools are not "
                                           "listed: %2")
                                .arg(node.node, node.message);
                unreadNodes =
                    Failure(RedisError(unread.constFirst().kind, text.join(QStringLiteral("; "))));
            }
            if (m_previous)
                PoolCatalog::addRates(pools, m_previous->pools,
                                      std::chrono::duration<double>(now - m_previous->at).count());
            m_previous = Reading{pools, now};
            m_link.deliver(generation, [owner = m_owner, pools, unreadNodes] {
                owner->m_reading = false;
                Q_EMIT owner->catalogRead(pools);
                if (unreadNodes)
                    Q_EMIT owner->readFailed(*unreadNodes);
            });
        } catch (const RedisError &error) {
            if (error.connectionLost() || (m_connection && m_connection->isBroken()))
                m_connection.reset();
            m_link.deliver(generation, [owner = m_owner, failure = Failure(error)] {
                owner->m_reading = false;
                Q_EMIT owner->readFailed(failure);
            });
        }
    }

private:
    struct Reading {
        QList<PoolOverview> pools;
        std::chrono::steady_clock::time_point at;
    };
    PoolCatalogReader *m_owner; // only named in deliveries
    WorkerLink m_link;
    Endpoint m_endpoint;
    ConnectionOptions m_options;
    std::unique_ptr<RedisConnection> m_connection;
    std::optional<Reading> m_previous;
};

PoolCatalogReader::PoolCatalogReader(QObject *parent)
    : QObject(parent)
    , m_background(std::make_unique<BackgroundWorker>(QStringLiteral("poolscope-pools"))) {
    Failure::registerMetaType();
    m_worker = m_background->adopt(new Worker(this, m_background->link()));
}

PoolCatalogReader::~PoolCatalogReader() = default;

void PoolCatalogReader::setTarget(const Endpoint &endpoint, const ConnectionOptions &options) {
    m_background->retarget();
    m_hasTarget = true;
    m_reading = false; // a reading of the old target no longer blocks a new one
    m_background->post(
        [worker = m_worker, endpoint, options] { worker->setTarget(endpoint, options); });
}

void PoolCatalogReader::read() {
    if (m_reading || !m_hasTarget)
        return;
    m_reading = true;
    m_background->post(
        [worker = m_worker, generation = m_background->generation()] { worker->read(generation); });
}

} // namespace poolscope
