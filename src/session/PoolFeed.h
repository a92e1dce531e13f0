#pragma once

#include "base/Failure.h"
#include "endpoint/Endpoint.h"
#include "monitor/PoolMonitor.h"
#include "pool/MemberSearch.h"
#include "pool/PoolTypes.h"

#include <chrono>

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QStringList>

namespace poolscope {

// Where a session's observations and command results come from: the seam under PoolSession.
// The dashboard's is ServerFeed (the poller and the writer, each on its own thread and
// connection); tests of widgets that need no server give the session a scripted one. Intents go
// in as calls, answers come back as signals, never synchronously from the call that asked (except
// stateChanged(Connecting) and (Disconnected), which connectTo and disconnectFromServer emit at
// once, as the poller does).
class PoolFeed : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;
    ~PoolFeed() override = default;

    // Polls: see PoolMonitor for what each does.
    virtual void connectTo(const Endpoint &endpoint, const QByteArray &poolKey) = 0;
    virtual void disconnectFromServer() = 0;
    virtual ConnectionState state() const = 0;
    virtual void setPollInterval(std::chrono::milliseconds interval) = 0;
    virtual std::chrono::milliseconds pollInterval() const = 0;
    virtual void setPaused(bool paused) = 0;
    virtual bool isPaused() const = 0;
    virtual void pollNow() = 0;
    virtual void setFullSnapshotThreshold(qint64 members) = 0;
    virtual void setPinnedMembers(const QList<QByteArray> &members) = 0;
    virtual void setVisibleRows(qint64 fromRank, int count) = 0;
    virtual void setMemberSearch(const QByteArray &text) = 0;

    // Commands on the pool connectTo() named: see PoolWriter.
    virtual void seed(const QList<QByteArray> &members, const SeedOptions &options) = 0;
    virtual void evict(const QList<QByteArray> &members, const QString &reason) = 0;
    virtual void restore(const QList<QByteArray> &members, RestorePolicy policy, double startCount,
                         const QString &reason) = 0;
    virtual void findPoolKeys() = 0;

Q_SIGNALS:
    void stateChanged(poolscope::ConnectionState state, const QString &detail);
    void observationArrived(const poolscope::PoolObservation &observation);
    void pollFailed(const poolscope::Failure &failure);
    void authenticationFailed(const poolscope::Failure &failure);
    void memberSearchUpdated(const poolscope::MemberSearchResult &result);

    void seedProgressed(qint64 done, qint64 total);
    void seedFinished(const poolscope::SeedResult &result);
    void membersEvicted(const QList<poolscope::EvictResult> &results);
    void membersRestored(const QList<poolscope::RestoreResult> &results, double poolMinimumBefore);
    void poolKeysFound(const QStringList &keys);
    void commandFailed(const QString &operation, const poolscope::Failure &failure);
    // Every command asked for so far has been answered.
    void commandsSettled();
};

} // namespace poolscope
