#include "monitor/PoolWriter.h"

#include "audit/AuditActor.h"
#include "base/RedisError.h"
#include "client/BackgroundWorker.h"
#include "client/NodeScan.h"
#include "pool/PoolOperations.h"

#include <algorithm>

#include <QMetaType>
#include <QSet>

namespace poolscope {
namespace {

using std::chrono::milliseconds;

constexpr int kMaxScanCalls = 50;
constexpr qsizetype kMaxNamedMembers = 5;

void registerWriterTypes() {
    static const bool registered = [] {
        qRegisterMetaType<poolscope::SeedResult>("poolscope::SeedResult");
        qRegisterMetaType<QList<poolscope::EvictResult>>("QList<poolscope::EvictResult>");
        qRegisterMetaType<QList<poolscope::RestoreResult>>("QList<poolscope::RestoreResult>");
        Failure::registerMetaType();
        return true;
    }();
    Q_UNUSED(registered);
}

QList<QByteArray> withoutDuplicates(const QList<QByteArray> &members) {
    QList<QByteArray> unique;
    QSet<QByteArray> seen;
    for (const QByteArray &member : members)
        if (!seen.contains(member)) {
            seen.insert(member);
            unique.append(member);
        }
    return unique;
}

// "\"a\"", "\"a\" and \"b\"", "\"a\", \"b\" and 3 more"
QString nameMembers(const QList<QByteArray> &members) {
    QStringList shown;
    for (qsizetype i = 0; i < members.size() && i < kMaxNamedMembers; ++i)
        shown.append(describeMember(members[i]));
    if (members.size() > kMaxNamedMembers)
        return shown.join(QStringLiteral(", ")) +
               QStringLiteral(" and %1 more").arg(members.size() - kMaxNamedMembers);
    if (shown.size() == 1)
        return shown.front();
    const QString last = shown.takeLast();
    return shown.join(QStringLiteral(", ")) + QStringLiteral(" and ") + last;
}

} // namespace

// The context of the writer's BackgroundWorker: runs one request at a time, in the order they were
// made. Each request delivers its result (or failure), then its completion, to the writer. Once
// the worker stops, requests not yet started are skipped and long ones stop between batches.
class PoolWriter::Worker : public QObject {
public:
    Worker(PoolWriter *writer, WorkerLink link)
        : m_writer(writer)
        , m_link(std::move(link)) {}

    void setTarget(const Endpoint &endpoint, const QByteArray &poolKey,
                   const ConnectionOptions &options) {
        if (!m_hasTarget || endpoint != m_endpoint || options.clientName != m_options.clientName ||
            options.commandTimeout != m_options.commandTimeout ||
            options.connectTimeout != m_options.connectTimeout) {
            m_connection.reset();
            m_actor.user.clear(); // the next connection may log in as another user
        }
        m_endpoint = endpoint;
        m_poolKey = poolKey;
        m_options = options;
        m_hasTarget = true;
    }

    void seed(const QList<QByteArray> &members, const SeedOptions &options) {
        run(QStringLiteral("seed"), [&] {
            PoolOperations operations(connection(), m_poolKey);
            operations.setActor(actor());
            const SeedResult result =
                operations.seed(members, options, [this](qint64 done, qint64 total) {
                    throwIfCancelled();
                    m_link.deliver([writer = m_writer, done, total] {
                        Q_EMIT writer->seedProgressed(done, total);
                    });
                });
            m_link.deliver([writer = m_writer, result] { Q_EMIT writer->seedFinished(result); });
        });
    }

    void evict(const QList<QByteArray> &requested, const QString &reason) {
        run(QStringLiteral("evict"), [&] {
            const QList<QByteArray> members = withoutDuplicates(requested);
            PoolOperations operations(connection(), m_poolKey);
            operations.setActor(actor());
            // All or nothing for what we can check: an unknown name stops the whole request.
            QList<QByteArray> unknown;
            for (qsizetype start = 0; start < members.size(); start += PoolOperations::kChunkSize) {
                const QList<QByteArray> chunk = members.mid(start, PoolOperations::kChunkSize);
                const RedisReply scores =
                    connection().command(RedisCommand{"ZMSCORE", m_poolKey} + chunk);
                if (scores.isError())
                    operations.throwServerError(scores,
                                                QStringLiteral("checking members to evict"));
                for (qsizetype i = 0; i < chunk.size(); ++i)
                    if (scores.elements.value(i).isNil())
                        unknown.append(chunk[i]);
            }
            if (!unknown.isEmpty())
                throw RedisError::usage(
                    QStringLiteral("cannot evict %1: %2 of pool %3; nothing was evicted")
                        .arg(nameMembers(unknown),
                             unknown.size() == 1 ? QStringLiteral("it is not a member")
                                                 : QStringLiteral("they are not members"),
                             quotedKey(m_poolKey)));
            QList<EvictResult> results;
            try {
                for (const QByteArray &member : members) {
                    throwIfCancelled();
                    results.append(operations.evict(member, {}, reason));
                }
            } catch (const RedisError &error) {
                reportPartial(results);
                throw error.withMessage(
                    QStringLiteral("%1 (%2 of %3 members were evicted before this)")
                        .arg(error.bareMessage())
                        .arg(results.size())
                        .arg(members.size()));
            }
            reportPartial(results, true);
        });
    }

    void restore(const QList<QByteArray> &requested, RestorePolicy policy, double startCount,
                 const QString &reason) {
        run(QStringLiteral("restore"), [&] {
            const QList<QByteArray> members = withoutDuplicates(requested);
            PoolOperations operations(connection(), m_poolKey);
            operations.setActor(actor());
            QList<QByteArray> notEvicted;
            for (qsizetype start = 0; start < members.size(); start += PoolOperations::kChunkSize) {
                const QList<QByteArray> chunk = members.mid(start, PoolOperations::kChunkSize);
                const RedisReply saved = connection().command(
                    RedisCommand{"HMGET", operations.keys().evicted()} + chunk);
                if (saved.isError())
                    operations.throwServerError(saved,
                                                QStringLiteral("checking members to restore"));
                for (qsizetype i = 0; i < chunk.size(); ++i)
                    if (saved.elements.value(i).isNil())
                        notEvicted.append(chunk[i]);
            }
            if (!notEvicted.isEmpty())
                throw RedisError::usage(
                    QStringLiteral("cannot restore %1: %2 of pool %3; nothing was restored")
                        .arg(nameMembers(notEvicted),
                             notEvicted.size() == 1
                                 ? QStringLiteral("it is not an evicted member")
                                 : QStringLiteral("they are not evicted members"),
                             quotedKey(m_poolKey)));
            double minimumBefore = -1;
            QList<RestoreResult> results;
            try {
                for (const QByteArray &member : members) {
                    throwIfCancelled();
                    results.append(operations.restore(member, policy, startCount, {}, reason));
                    // The first restore's own reading: exact, not raced by running workers.
                    if (results.size() == 1)
                        minimumBefore = results.first().poolMinimumBefore.value_or(-1);
                }
            } catch (const RedisError &error) {
                if (!results.isEmpty())
                    reportRestored(results, minimumBefore);
                throw error.withMessage(
                    QStringLiteral("%1 (%2 of %3 members were restored before this)")
                        .arg(error.bareMessage())
                        .arg(results.size())
                        .arg(members.size()));
            }
            reportRestored(results, minimumBefore);
        });
    }

    void findPoolKeys(int maxKeys) {
        run(QStringLiteral("scan"), [&] {
            try {
                scanForPoolKeys(maxKeys);
            } catch (const RedisError &error) {
                // A read is safe to repeat: a connection that died since the last request (a
                // server restart) gets one fresh try instead of a stale "connection lost".
                if (!error.connectionLost())
                    throw;
                m_connection.reset();
                scanForPoolKeys(maxKeys);
            }
        });
    }

private:
    void scanForPoolKeys(int maxKeys) {
        QSet<QByteArray> found;
        // Redis Cluster: every primary, each with its own cursor.
        forEachPrimary(connection(), [&](NodeConnection &node, const QString &) {
            scanNodeForPoolKeys(node, maxKeys, found);
        });
        QStringList keys;
        keys.reserve(found.size());
        for (const QByteArray &key : std::as_const(found))
            keys.append(QString::fromUtf8(key));
        keys.sort();
        m_link.deliver([writer = m_writer, keys] { Q_EMIT writer->poolKeysFound(keys); });
    }

    void scanNodeForPoolKeys(NodeConnection &node, int maxKeys, QSet<QByteArray> &found) {
        QByteArray cursor = "0";
        // Bounded both ways: a huge keyspace costs at most kMaxScanCalls short commands.
        for (int call = 0; call < kMaxScanCalls && found.size() < maxKeys; ++call) {
            const RedisReply reply =
                node.command({"SCAN", cursor, "MATCH", "*", "COUNT", "1000", "TYPE", "zset"});
            if (reply.isError())
                throw RedisError(
                    RedisError::Kind::Server,
                    QStringLiteral("looking for pool keys on %1 failed: %2")
                        .arg(m_endpoint.toDisplayString(), QString::fromUtf8(reply.text)),
                    reply.errorCode());
            if (reply.elements.size() != 2)
                throw RedisError(RedisError::Kind::Server,
                                 QStringLiteral("unexpected SCAN reply from %1")
                                     .arg(m_endpoint.toDisplayString()));
            cursor = reply.elements[0].text;
            for (const RedisReply &key : reply.elements[1].elements)
                if (found.size() < maxKeys)
                    found.insert(key.text);
            if (cursor == "0")
                break;
        }
    }

    template <typename Body> void run(const QString &operation, Body body) {
        if (!m_link.isStopping()) {
            try {
                if (!m_hasTarget)
                    throw RedisError::usage(
                        QStringLiteral("no Redis server chosen yet: connect first"));
                body();
            } catch (const RedisError &error) {
                // A broken connection is replaced lazily, by the next request.
                if (error.connectionLost() || (m_connection && m_connection->isBroken()))
                    m_connection.reset();
                reportFailure(operation, Failure(error, describe(m_options, error)));
            } catch (const std::exception &error) {
                // Anything else leaves the connection in doubt: a new one for the next request.
                m_connection.reset();
                reportFailure(operation, Failure(RedisError::Kind::Connection,
                                                 QString::fromLocal8Bit(error.what())));
            }
        }
        m_link.deliver([writer = m_writer] { writer->adjustPending(-1); });
    }

    RedisConnection &connection() {
        if (!m_connection || m_connection->isBroken()) {
            m_connection = RedisConnection::open(m_endpoint, m_options);
            m_actor.user.clear();
        }
        return *m_connection;
    }

    // Who the audit entries of the dashboard's writes name; the Redis user asked once per
    // connection.
    const AuditActor &actor() {
        RedisConnection &current = connection();
        if (m_actor.user.isEmpty())
            m_actor.user = redisUserOf(current);
        return m_actor;
    }

    void throwIfCancelled() const {
        if (m_link.isStopping())
            throw RedisError::usage(QStringLiteral("cancelled: poolscope is closing"));
    }

    void reportPartial(const QList<EvictResult> &results, bool evenIfEmpty = false) {
        if (results.isEmpty() && !evenIfEmpty)
            return;
        m_link.deliver([writer = m_writer, results] { Q_EMIT writer->membersEvicted(results); });
    }

    void reportRestored(const QList<RestoreResult> &results, double minimumBefore) {
        m_link.deliver([writer = m_writer, results, minimumBefore] {
            Q_EMIT writer->membersRestored(results, minimumBefore);
        });
    }

    void reportFailure(const QString &operation, const Failure &failure) {
        m_link.deliver([writer = m_writer, operation, failure] {
            Q_EMIT writer->commandFailed(operation, failure);
        });
    }

    PoolWriter *m_writer; // only named in deliveries: never touched from this thread
    WorkerLink m_link;
    std::unique_ptr<RedisConnection> m_connection;
    Endpoint m_endpoint;
    QByteArray m_poolKey;
    ConnectionOptions m_options;
    bool m_hasTarget = false;
    AuditActor m_actor = AuditActor::dashboard();
};

PoolWriter::PoolWriter(QObject *parent)
    : QObject(parent)
    , m_background(std::make_unique<BackgroundWorker>(QStringLiteral("poolscope-writer"))) {
    registerWriterTypes();
    m_worker = m_background->adopt(new Worker(this, m_background->link()));
}

PoolWriter::~PoolWriter() = default;

void PoolWriter::setTarget(const Endpoint &endpoint, const QByteArray &poolKey,
                           const ConnectionOptions &options) {
    const ConnectionOptions bounded =
        worker::boundedOptions(options, QStringLiteral("poolscope-writer"));
    m_background->post([worker = m_worker, endpoint, poolKey, bounded] {
        worker->setTarget(endpoint, poolKey, bounded);
    });
}

void PoolWriter::seed(const QList<QByteArray> &members, const SeedOptions &options) {
    adjustPending(1);
    m_background->post([worker = m_worker, members, options] { worker->seed(members, options); });
}

void PoolWriter::evict(const QList<QByteArray> &members, const QString &reason) {
    adjustPending(1);
    m_background->post([worker = m_worker, members, reason] { worker->evict(members, reason); });
}

void PoolWriter::restore(const QList<QByteArray> &members, RestorePolicy policy, double startCount,
                         const QString &reason) {
    adjustPending(1);
    m_background->post([worker = m_worker, members, policy, startCount, reason] {
        worker->restore(members, policy, startCount, reason);
    });
}

void PoolWriter::findPoolKeys(int maxKeys) {
    adjustPending(1);
    m_background->post(
        [worker = m_worker, maxKeys = std::max(0, maxKeys)] { worker->findPoolKeys(maxKeys); });
}

void PoolWriter::adjustPending(int delta) {
    const bool wasBusy = m_pending > 0;
    m_pending += delta;
    if (wasBusy != (m_pending > 0))
        Q_EMIT busyChanged(m_pending > 0);
}

} // namespace poolscope
