#include "session/AuditSearch.h"

#include "base/RedisError.h"
#include "client/BackgroundWorker.h"
#include "client/RedisConnection.h"
#include "session/DisplayFormat.h"

namespace poolscope {

AuditSearch::AuditSearch(QObject *parent)
    : QObject(parent)
    , m_background(std::make_unique<BackgroundWorker>(QStringLiteral("poolscope-audit"))) {
    qRegisterMetaType<QList<poolscope::AuditEntry>>("QList<poolscope::AuditEntry>");
    Failure::registerMetaType();
    m_background->adopt(new QObject);
}

AuditSearch::~AuditSearch() = default;

void AuditSearch::start(const Endpoint &endpoint, const QByteArray &poolKey,
                        const AuditFilter &filter) {
    const quint64 generation = m_background->retarget();
    m_running = true;
    ConnectionOptions options;
    options.clientName = QStringLiteral("poolscope-audit");
    options.describeError = dashboardErrorText;
    m_background->post([this, link = m_background->link(), generation, endpoint, poolKey, filter,
                        options] {
        qint64 found = 0;
        try {
            // One connection per search: a search is asked for by a person, now and then.
            const std::unique_ptr<RedisConnection> connection =
                RedisConnection::open(endpoint, options);
            AuditWalk walk(*connection, PoolKeys(poolKey), filter);
            while (!walk.atEnd() && found < kMaxFound) {
                if (!link.isCurrent(generation))
                    return;
                QList<AuditEntry> entries = walk.step();
                if (found + entries.size() > kMaxFound)
                    entries.resize(kMaxFound - found);
                found += entries.size();
                if (!entries.isEmpty())
                    link.deliver(generation, [this, entries] { Q_EMIT entriesFound(entries); });
            }
            link.deliver(generation, [this, read = walk.entriesRead(), complete = walk.atEnd()] {
                m_running = false;
                Q_EMIT searchFinished(read, complete);
            });
        } catch (const RedisError &error) {
            link.deliver(generation, [this, failure = Failure(error, describe(options, error))] {
                m_running = false;
                Q_EMIT searchFailed(failure);
            });
        }
    });
}

void AuditSearch::cancel() {
    m_background->retarget();
    m_running = false;
}

} // namespace poolscope
