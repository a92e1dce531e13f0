#pragma once

#include "base/Failure.h"
#include "client/RedisConnection.h"
#include "endpoint/Endpoint.h"
#include "pool/PoolTypes.h"

#include <memory>

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QStringList>

namespace poolscope {

class BackgroundWorker;

// The writer: runs the dashboard's writes (seed, evict, restore) and key discovery on its own
// thread (a BackgroundWorker) and connection, one request at a time, in order. A write that fails
// is reported, never queued again or replayed.
class PoolWriter : public QObject {
    Q_OBJECT

public:
    explicit PoolWriter(QObject *parent = nullptr);
    // The request under way stops at its next batch; the queued ones are skipped.
    ~PoolWriter() override;

    // Takes effect for the requests made after it. The connection opens with the first request
    // (clientName defaults to "poolscope-writer"; command timeout 1 s when unset, connect timeout
    // capped at it) and, once lost, is reopened by the next one.
    void setTarget(const Endpoint &endpoint, const QByteArray &poolKey,
                   const ConnectionOptions &options = {});
    // Each request answers with its result signal or with commandFailed. evict and restore check
    // every member first (in the pool / evicted) and change nothing when one does not qualify.
    // Every write adds its entries to the pool's audit trail in the same scripts, naming the
    // dashboard (AuditActor::dashboard(), with the connection's Redis user) and the reason, when
    // one is given (a seed's is options.reason).
    void seed(const QList<QByteArray> &members, const SeedOptions &options);
    void evict(const QList<QByteArray> &members, const QString &reason = {});
    void restore(const QList<QByteArray> &members, RestorePolicy policy, double startCount,
                 const QString &reason = {});
    // A bounded SCAN (TYPE zset) for pool keys to offer in the key field.
    void findPoolKeys(int maxKeys = 200);
    bool isBusy() const { return m_pending > 0; }

Q_SIGNALS:
    void seedProgressed(qint64 done, qint64 total);
    void seedFinished(const poolscope::SeedResult &result);
    void membersEvicted(const QList<poolscope::EvictResult> &results);
    // poolMinimumBefore: the pool's lowest count just before the restore (nullopt as -1), so the
    // UI can compare the forecast run (minimum - restored count) with what then happens.
    void membersRestored(const QList<poolscope::RestoreResult> &results, double poolMinimumBefore);
    void poolKeysFound(const QStringList &keys);
    // operation: "seed", "evict", "restore", "scan"; the failure's text says what and where.
    void commandFailed(const QString &operation, const poolscope::Failure &failure);
    void busyChanged(bool busy);

private:
    class Worker;
    void adjustPending(int delta);

    int m_pending = 0;
    std::unique_ptr<BackgroundWorker> m_background; // last: stopped first
    Worker *m_worker = nullptr;                     // its context, on its thread
};

} // namespace poolscope
