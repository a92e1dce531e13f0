#include "health/HealthReader.h"

#include "audit/AuditTrail.h"
#include "base/RedisError.h"
#include "client/BackgroundWorker.h"
#include "client/RedisConnection.h"
#include "health/HealthChecker.h"

#include <QDateTime>
#include <QMetaType>

namespace poolscope {

namespace {

void registerHealthTypes() {
    static const bool registered = [] {
        qRegisterMetaType<poolscope::HealthReading>("poolscope::HealthReading");
        qRegisterMetaType<poolscope::HealthCheckReport>("poolscope::HealthCheckReport");
        Failure::registerMetaType();
        return true;
    }();
    Q_UNUSED(registered);
}

// A guard's audit entry in the form the guard-events stream had: the reason says why, a restore's
// count and policy say what came of it.
GuardEvent guardEventOf(const AuditEntry &entry) {
    GuardEvent event;
    event.id = entry.id;
    event.timeMs = entry.timeMs;
    event.kind = entry.actionName;
    event.member = entry.members.isEmpty() ? QString() : entry.members.constFirst().member;
    event.reason = entry.reason;
    if (entry.action == AuditAction::Restore && !entry.members.isEmpty()) {
        event.restoredCount = entry.members.constFirst().after;
        event.policy = entry.policy;
    }
    return event;
}

} // namespace

// The context of the reader's BackgroundWorker: its connection and where the streams were read
// up to.
class HealthReader::Worker : public QObject {
public:
    Worker(HealthReader *reader, WorkerLink link)
        : m_reader(reader)
        , m_link(std::move(link)) {}

    void setTarget(quint64 generation, const Endpoint &endpoint, const QByteArray &poolKey,
                   const ConnectionOptions &options, const GuardEventCursor &resume) {
        m_generation = generation;
        m_endpoint = endpoint;
        m_keys = PoolKeys(poolKey);
        m_options = options;
        m_cursor = resume;
        m_connection.reset();
    }

    void clearTarget() { m_connection.reset(); }

    void read(const QList<QByteArray> &members, bool whole) {
        if (!m_link.isCurrent(m_generation))
            return;
        HealthReading reading;
        reading.members = members;
        reading.whole = whole;
        try {
            RedisConnection &redis = connection();
            HealthStore store(redis, m_keys);
            if (!members.isEmpty())
                reading.records = store.read(members);
            // An empty stream: every entry from now on is new ("0-0").
            const bool firstEvents = m_cursor.eventsId.isEmpty();
            reading.streamEvents = store.eventsAfter(
                m_cursor.eventsId, firstEvents ? kPastEventsShown : kEventsPerRead,
                &m_cursor.eventsId);
            reading.trailMoved = !firstEvents && !reading.streamEvents.isEmpty();
            if (firstEvents && m_cursor.eventsId.isEmpty())
                m_cursor.eventsId = "0-0";
            // The guard's actions since the audit trail: its entries with a guard's id.
            AuditTrail trail(redis, m_keys);
            const bool firstAudit = m_cursor.auditId.isEmpty();
            const QList<AuditEntry> entries =
                trail.after(m_cursor.auditId, firstAudit ? kPastEventsShown : kEventsPerRead,
                            &m_cursor.auditId);
            reading.trailMoved = reading.trailMoved || (!firstAudit && !entries.isEmpty());
            for (const AuditEntry &entry : entries)
                if (entry.byGuard())
                    reading.auditEvents.append(guardEventOf(entry));
            if (!firstAudit)
                reading.trailEntries = entries;
            // The lease and the cap, for the alerts: rarely, as they change only with the trail.
            if (whole || reading.trailMoved || firstAudit) {
                try {
                    reading.guard = store.guardStatus();
                } catch (const RedisError &error) {
                    if (error.connectionLost())
                        throw;
                }
            }
            if (firstAudit && m_cursor.auditId.isEmpty())
                m_cursor.auditId = "0-0";
            reading.cursor = m_cursor;
            m_link.deliver(m_generation, [reader = m_reader, reading] {
                reader->m_reading = false;
                Q_EMIT reader->readFinished(reading);
                reader->startRead(); // the one asked for meanwhile
            });
        } catch (const RedisError &error) {
            if (error.connectionLost() || (m_connection && m_connection->isBroken()))
                m_connection.reset();
            m_link.deliver(m_generation, [reader = m_reader, failure = failureOf(error)] {
                reader->m_reading = false;
                Q_EMIT reader->readFailed(failure);
                reader->startRead();
            });
        }
    }

    void check(const QList<QByteArray> &members, const CheckOptions &options) {
        HealthCheckReport report;
        // Stops between its checks when the reader goes.
        report.round = runCheckRound(members, options, m_link.stopFlag());
        report.counts = CheckCounts::of(report.round.results);
        try {
            if (!m_link.isCurrent(m_generation))
                return; // another pool now: these results are not its
            HealthStore store(connection(), m_keys);
            const QHash<QByteArray, HealthRecord> previous = store.read(members);
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            for (const CheckResult &result : report.round.results)
                report.records.insert(result.member,
                                      previous.value(result.member).after(result, now));
            store.write(report.records);
        } catch (const RedisError &error) {
            if (error.connectionLost() || (m_connection && m_connection->isBroken()))
                m_connection.reset();
            report.failure = failureOf(error);
        }
        m_link.deliver(m_generation, [reader = m_reader, report] {
            reader->m_checking = false;
            Q_EMIT reader->checkFinished(report);
        });
    }

private:
    RedisConnection &connection() {
        if (!m_connection || m_connection->isBroken())
            m_connection = RedisConnection::open(m_endpoint, m_options);
        return *m_connection;
    }

    Failure failureOf(const RedisError &error) const {
        return Failure(error, describe(m_options, error));
    }

    HealthReader *m_reader; // only named in deliveries
    WorkerLink m_link;
    quint64 m_generation = 0;
    Endpoint m_endpoint;
    PoolKeys m_keys{QByteArray()};
    ConnectionOptions m_options;
    GuardEventCursor m_cursor;
    std::unique_ptr<RedisConnection> m_connection;
};

HealthReader::HealthReader(QObject *parent)
    : QObject(parent)
    , m_background(std::make_unique<BackgroundWorker>(QStringLiteral("poolscope-health"))) {
    registerHealthTypes();
    m_worker = m_background->adopt(new Worker(this, m_background->link()));
}

HealthReader::~HealthReader() = default;

void HealthReader::setTarget(const Endpoint &endpoint, const QByteArray &poolKey,
                             const ConnectionOptions &options, const GuardEventCursor &resume) {
    const quint64 generation = m_background->retarget();
    m_hasTarget = true;
    m_reading = m_checking = m_readAgain = false; // what the old target answers is dropped
    m_againMembers.clear();
    // The caller's timeouts as they are: an SSH key's passphrase may take longer to check than a
    // command may take to answer.
    ConnectionOptions named = options;
    if (named.clientName.isEmpty())
        named.clientName = QStringLiteral("poolscope-health");
    m_background->post([worker = m_worker, generation, endpoint, poolKey, named, resume] {
        worker->setTarget(generation, endpoint, poolKey, named, resume);
    });
}

void HealthReader::clearTarget() {
    m_background->retarget();
    m_hasTarget = false;
    m_reading = m_checking = m_readAgain = false;
    m_againMembers.clear();
    m_background->post([worker = m_worker] { worker->clearTarget(); });
}

void HealthReader::read(const QList<QByteArray> &members, bool whole) {
    if (!m_hasTarget)
        return;
    // A whole read waiting stays whole (it reads these members too).
    if (whole || !m_readAgain || !m_againWhole) {
        m_againMembers = members;
        m_againWhole = whole;
    }
    m_readAgain = true;
    startRead();
}

void HealthReader::startRead() {
    if (m_reading || !m_readAgain || !m_hasTarget)
        return;
    m_reading = true;
    m_readAgain = false;
    m_background->post([worker = m_worker, members = std::exchange(m_againMembers, {}),
                        whole = m_againWhole] { worker->read(members, whole); });
}

bool HealthReader::check(const QList<QByteArray> &members, const CheckOptions &options) {
    if (m_checking || !m_hasTarget)
        return false;
    m_checking = true;
    m_background->post([worker = m_worker, members, options] { worker->check(members, options); });
    return true;
}

} // namespace poolscope
