#pragma once

#include "base/Failure.h"
#include "endpoint/Endpoint.h"
#include "health/HealthStore.h"
#include "audit/AuditEntry.h"
#include "health/HealthTypes.h"

#include <memory>
#include <optional>

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>

namespace poolscope {

class BackgroundWorker;

// Where the guard's actions were read up to, in each stream that holds them: the pool's audit
// trail and the old guard-events stream (read until it is deleted). Empty: not read yet (the
// first read takes the latest few).
struct GuardEventCursor {
    QByteArray auditId;
    QByteArray eventsId;
};

// One read of a pool's health.
struct HealthReading {
    QList<QByteArray> members; // asked for
    bool whole = false;        // members were every member of the pool (as the caller knew it)
    QHash<QByteArray, HealthRecord> records; // of those members that have one or a guard's mark
    // The guard's actions since the last read, oldest first: from the audit trail and from the
    // old guard-events stream; and where the streams were read up to. trailMoved: either stream
    // had new entries (any action on the pool, a guard's or not).
    QList<GuardEvent> auditEvents;
    QList<GuardEvent> streamEvents;
    GuardEventCursor cursor;
    bool trailMoved = false;
    // Every entry of the audit trail since the last read (an operator's, the CLI's, a guard's),
    // oldest first; on a first read none (what came before watching is the Audit view's).
    QList<AuditEntry> trailEntries;
    // The guard's lease and cap (HealthStore::guardStatus), read on whole reads and after the
    // trail moved; nullopt on the others or when it cannot be read.
    std::optional<GuardStatus> guard;
};

// What a check round found and wrote.
struct HealthCheckReport {
    CheckRound round;
    CheckCounts counts;
    QHash<QByteArray, HealthRecord> records; // written to the health hash (unless failure)
    std::optional<Failure> failure;          // the records could not be read or written
};

// Reads a watched pool's health on a thread of its own (a BackgroundWorker) with its own
// connection ("poolscope-health"): the members' records in the health hash with the guard's
// marks (HealthStore, HMGET in batches of 500), and the guard's actions since the last read from
// the pool's audit trail and the old guard-events stream (XRANGE after the last id seen). It also
// runs a check round through the members' proxies ("Check selected") and writes its results, as
// `poolscope-cli check` does. One read at a time: a read asked for while one is under way follows
// it (the latest asked, whole if any asked was). A new target drops what the old one answers.
class HealthReader : public QObject {
    Q_OBJECT

public:
    static constexpr int kEventsPerRead = 200;
    static constexpr int kPastEventsShown = 20; // on a first read: the guard's latest actions

    explicit HealthReader(QObject *parent = nullptr);
    ~HealthReader() override;

    // resume: where a reader of the same pool had got to (reconnecting), empty for a new pool.
    void setTarget(const Endpoint &endpoint, const QByteArray &poolKey,
                   const ConnectionOptions &options, const GuardEventCursor &resume = {});
    void clearTarget();
    bool hasTarget() const { return m_hasTarget; }
    void read(const QList<QByteArray> &members, bool whole);
    // A check round of these members; false when one is running or there is no target.
    bool check(const QList<QByteArray> &members, const CheckOptions &options);
    bool isChecking() const { return m_checking; }

Q_SIGNALS:
    void readFinished(const poolscope::HealthReading &reading);
    void readFailed(const poolscope::Failure &failure);
    void checkFinished(const poolscope::HealthCheckReport &report);

private:
    class Worker;
    void startRead();

    bool m_hasTarget = false;
    bool m_reading = false;
    bool m_checking = false;
    bool m_readAgain = false;
    bool m_againWhole = false;
    QList<QByteArray> m_againMembers;
    std::unique_ptr<BackgroundWorker> m_background; // last: stopped first
    Worker *m_worker = nullptr;                     // its context, on its thread
};

} // namespace poolscope
