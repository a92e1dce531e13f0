// A session's feed played by the test: what the session asks for is recorded, and the test says
// what the "server" answers (the connection, each poll, each command's result). No process, no
// socket, no thread: every answer is delivered when the test calls for it.
#pragma once

#include "pool/PoolStats.h"
#include "session/PoolFeed.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include <QDateTime>
#include <QDir>

namespace poolscope::testing {

class ScriptedFeed final : public PoolFeed {
public:
    // A feed and the pointer the test keeps to it once the session owns it.
    static std::pair<std::unique_ptr<PoolFeed>, ScriptedFeed *> make() {
        auto feed = std::make_unique<ScriptedFeed>();
        ScriptedFeed *raw = feed.get();
        return {std::move(feed), raw};
    }

    // An endpoint for connectTo(): a unix socket in `dir` that nothing listens on, so the readers
    // beside the feed that open their own connections (health reads, the Pools panel) fail at once
    // without a process or the network.
    static Endpoint nowhere(const QString &dir) {
        Endpoint endpoint;
        endpoint.socketPath = QDir(dir).filePath(QStringLiteral("no-server.sock"));
        return endpoint;
    }

    // What the session asked for.
    struct Restore {
        QList<QByteArray> members;
        RestorePolicy policy;
        double startCount;
    };
    std::optional<std::pair<Endpoint, QByteArray>> target;
    int pollsAsked = 0;
    int keySearches = 0;
    QList<QByteArray> pinned;
    std::pair<qint64, int> visibleRows{0, 0};
    QList<QList<QByteArray>> seeds;
    QList<QList<QByteArray>> evictions;
    QList<Restore> restores;

    // The server's answers.
    // version: as the poller reports it ("Redis 7.0.15"), also on every poll.
    void answerConnected(const QString &version = QStringLiteral("Redis 7.0.15")) {
        m_version = version;
        setState(ConnectionState::Connected, version);
    }
    void answerConnectionLost(const QString &why) { setState(ConnectionState::Reconnecting, why); }
    // One poll that read the pool whole: `members` in any order, at `timeMs` (0: now, and always
    // after the previous poll).
    PoolObservation answerPoll(QList<PoolMember> members, const QList<EvictedMember> &evicted = {},
                               qint64 timeMs = 0) {
        std::sort(members.begin(), members.end(), [](const PoolMember &a, const PoolMember &b) {
            return a.count != b.count ? a.count < b.count : a.member < b.member;
        });
        PoolObservation observation;
        observation.timeMs =
            timeMs > 0 ? timeMs : std::max(QDateTime::currentMSecsSinceEpoch(), m_lastPollMs + 1);
        m_lastPollMs = observation.timeMs;
        observation.snapshot.members = members;
        observation.snapshot.evicted = evicted;
        QList<double> counts;
        for (const PoolMember &member : std::as_const(members))
            counts.append(member.count);
        observation.stats = computePoolStats(counts, evicted.size());
        observation.roundTripMs = 1;
        observation.serverVersion = m_version;
        observation.mode = QStringLiteral("full snapshot (%1 members)").arg(members.size());
        Q_EMIT observationArrived(observation);
        return observation;
    }
    void answerPollFailed(const Failure &failure) { Q_EMIT pollFailed(failure); }
    void answerEvicted(const QList<EvictResult> &results) {
        Q_EMIT membersEvicted(results);
        Q_EMIT commandsSettled();
    }
    void answerRestored(const QList<RestoreResult> &results, double poolMinimumBefore) {
        Q_EMIT membersRestored(results, poolMinimumBefore);
        Q_EMIT commandsSettled();
    }
    void answerCommandFailed(const QString &operation, const Failure &failure) {
        Q_EMIT commandFailed(operation, failure);
        Q_EMIT commandsSettled();
    }

    // PoolFeed
    void connectTo(const Endpoint &endpoint, const QByteArray &poolKey) override {
        target = std::pair(endpoint, poolKey);
        setState(ConnectionState::Connecting, endpoint.toDisplayString());
    }
    void disconnectFromServer() override {
        setState(ConnectionState::Disconnected, QStringLiteral("disconnected"));
    }
    ConnectionState state() const override { return m_state; }
    void setPollInterval(std::chrono::milliseconds interval) override { m_interval = interval; }
    std::chrono::milliseconds pollInterval() const override { return m_interval; }
    void setPaused(bool paused) override { m_paused = paused; }
    bool isPaused() const override { return m_paused; }
    void pollNow() override { ++pollsAsked; }
    void setFullSnapshotThreshold(qint64) override {}
    void setPinnedMembers(const QList<QByteArray> &members) override { pinned = members; }
    void setVisibleRows(qint64 fromRank, int count) override { visibleRows = {fromRank, count}; }
    void setMemberSearch(const QByteArray &) override {}
    void seed(const QList<QByteArray> &members, const SeedOptions &) override {
        seeds.append(members);
    }
    void evict(const QList<QByteArray> &members, const QString &) override {
        evictions.append(members);
    }
    void restore(const QList<QByteArray> &members, RestorePolicy policy, double startCount,
                 const QString &) override {
        restores.append({members, policy, startCount});
    }
    void findPoolKeys() override { ++keySearches; }

private:
    void setState(ConnectionState state, const QString &detail) {
        m_state = state;
        Q_EMIT stateChanged(state, detail);
    }

    ConnectionState m_state = ConnectionState::Disconnected;
    std::chrono::milliseconds m_interval{1000};
    bool m_paused = false;
    qint64 m_lastPollMs = 0;
    QString m_version;
};

} // namespace poolscope::testing
