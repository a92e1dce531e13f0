#pragma once

#include "catalog/PoolCatalog.h"
#include "client/RedisConnection.h"
#include "endpoint/Endpoint.h"

#include <memory>

#include <QList>
#include <QObject>

class QThread;

namespace poolscope {

// Reads the pool catalog (PoolCatalog) on a thread and connection of its own, one reading at a
// time, and adds the allocation rates since its previous reading of the same target. Replies
// to a target that has since changed are dropped (each request carries a generation).
class PoolCatalogReader : public QObject {
    Q_OBJECT

public:
    explicit PoolCatalogReader(QObject *parent = nullptr);
    ~PoolCatalogReader() override; // joins the thread

    // Takes effect for the next read(); the connection ("poolscope-pools") opens then.
    void setTarget(const Endpoint &endpoint, const ConnectionOptions &options = {});
    // Ignored while a reading is under way.
    void read();

Q_SIGNALS:
    void catalogRead(const QList<poolscope::PoolOverview> &pools);
    // The reading failed; or, right after catalogRead, the cluster primaries it could not read.
    void readFailed(const QString &message);

private:
    class Worker;
    void finish(quint64 generation) {
        if (generation == m_generation)
            m_reading = false;
    }

    std::unique_ptr<QThread> m_thread;
    Worker *m_worker = nullptr;
    quint64 m_generation = 0;
    bool m_reading = false;
    bool m_hasTarget = false;
};

} // namespace poolscope
