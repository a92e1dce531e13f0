#pragma once

#include "base/Failure.h"
#include "catalog/PoolCatalog.h"
#include "client/RedisConnection.h"
#include "endpoint/Endpoint.h"

#include <memory>

#include <QList>
#include <QObject>

namespace poolscope {

class BackgroundWorker;

// Reads the pool catalog (PoolCatalog) on a thread (a BackgroundWorker) and connection of its
// own, one reading at a time, and adds the allocation rates since its previous reading of the
// same target. Replies to a target that has since changed are dropped (each request carries a
// generation).
class PoolCatalogReader : public QObject {
    Q_OBJECT

public:
    explicit PoolCatalogReader(QObject *parent = nullptr);
    ~PoolCatalogReader() override;

    // Takes effect for the next read(); the connection ("poolscope-pools") opens then.
    void setTarget(const Endpoint &endpoint, const ConnectionOptions &options = {});
    // Ignored while a reading is under way.
    void read();

Q_SIGNALS:
    void catalogRead(const QList<poolscope::PoolOverview> &pools);
    // The reading failed; or, right after catalogRead, the cluster primaries it could not read
    // (the kind of the first).
    void readFailed(const poolscope::Failure &failure);

private:
    class Worker;

    bool m_reading = false;
    bool m_hasTarget = false;
    std::unique_ptr<BackgroundWorker> m_background; // last: stopped first
    Worker *m_worker = nullptr;                     // its context, on its thread
};

} // namespace poolscope
