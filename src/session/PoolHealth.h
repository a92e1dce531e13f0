#pragma once

#include "base/Failure.h"
#include "endpoint/Endpoint.h"
#include "health/GuardRunner.h"
#include "health/HealthReader.h"

#include <chrono>
#include <memory>
#include <optional>

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>

namespace poolscope {

class PoolSession;
struct PoolObservation;

// A watched pool's proxy health, below the widget line (owned by PoolSession, read by the members
// table): the members' health records (the Health column and its filter), the guard's actions
// (events and chart markers with their reasons), "Check selected" and the dashboard's own guard.
//
// Reading is cheap: every member's record once a pool is watched, then again only when it can
// have changed: a minute after the last whole read, or at the next poll after the audit trail
// moved (a guard or an operator acted). Between, each poll reads only the members drawn on the
// chart (pinned and charted) and those not read yet; the trail is read after its last entry seen.
// What this dashboard writes itself (a check round, its guard's rounds) is taken from what was
// written, not read back.
class PoolHealth : public QObject {
    Q_OBJECT

public:
    static constexpr qint64 kWholeReadIntervalMs = 60000;
    static constexpr int kMaxMembersRead = 20000; // 40 HMGETs of 500, in one pipeline

    explicit PoolHealth(PoolSession *session);
    ~PoolHealth() override;

    // Null when the member has no record (never checked, nor marked by a guard).
    const HealthRecord *recordOf(const QByteArray &member) const;
    const QHash<QByteArray, HealthRecord> &records() const { return m_records; }

    // One check round of these members against targetUrl, through their proxies, its results
    // written to the health hash. False (with the reason in *error) for a bad URL, no pool, no
    // member, or a round already running.
    bool check(const QList<QByteArray> &members, const QString &targetUrl,
               QString *error = nullptr);

    // Starts the dashboard's guard on the watched pool (GuardRunner, requiring the lease, its
    // audit entries naming the dashboard). False (with the reason in *error) when it runs
    // already, no live pool is watched or writes are not allowed. Stopped when the session
    // watches another pool.
    bool startGuard(const GuardOptions &options, std::chrono::milliseconds interval,
                    QString *error = nullptr);
    // Why startGuard() would refuse now, or empty.
    QString guardStartProblem() const;
    void stopGuard();
    GuardRunner *guard();
    // "Guard not started: ..." for a run that ended before its first round.
    static QString guardRefusalText(const GuardRunEnd &end);

Q_SIGNALS:
    // records() changed (a read found something new, a check or a guard round wrote).
    void recordsChanged();
    // A read came back; whole: it read every member.
    void healthRead(bool whole);
    void readFailed(const poolscope::Failure &failure);
    void checkFinished(qint64 ok, qint64 failed, qint64 notCheckable);
    // The guard's lease and cap as a read found them (for the alerts).
    void guardStatusRead(const poolscope::GuardStatus &status);

private:
    void targetChanged();
    void observationApplied(const PoolObservation &observation);
    // No member of this poll's read is unread: the last poll had none, and this read's changes
    // are against that poll's read with no member come and the same evicted ones.
    bool noneUnreadSince(const PoolSnapshot &snapshot) const;
    void readFinished(const HealthReading &reading);
    void checkDone(const HealthCheckReport &report);
    void guardRound(const GuardRoundReport &report);
    void guardEnded(const GuardRunEnd &end);
    // Sets records, and says so when any changed.
    void merge(const QHash<QByteArray, HealthRecord> &records, const QList<QByteArray> &asked,
               bool whole);
    // lastShownId: the id of the last event shown from its stream (audit trail or old stream).
    // Every other actor's entries (the CLI's, other dashboards'): events and chart markers
    // naming the actor and the reason.
    void showTrailEntries(const QList<AuditEntry> &entries);
    void showGuardEvents(const QList<GuardEvent> &events, QByteArray &lastShownId);

    PoolSession *m_session;
    HealthReader m_reader;
    std::unique_ptr<GuardRunner> m_guard; // made when first started
    QHash<QByteArray, HealthRecord> m_records;
    QSet<QByteArray> m_read; // members read since the pool was watched
    // The read (PoolSnapshot::readId) of the last poll that had no member unread, and its
    // evicted members; 0: not known.
    quint64 m_noneUnreadAt = 0;
    QList<EvictedMember> m_noneUnreadEvicted;
    QSet<QByteArray> m_charted; // the chart's members: read on every poll
    qint64 m_lastWholeMs = 0;
    bool m_wholeDue = true;
    bool m_wholeAsked = false; // a whole read is on its way
    // The pool whose guard events were shown (kept across reconnects to it), and where each of
    // its streams was shown up to.
    Endpoint m_shownEndpoint;
    QByteArray m_shownPoolKey;
    GuardEventCursor m_shown;
    // The pool the dashboard's guard runs on (its reports are dropped for any other).
    std::optional<std::pair<Endpoint, QByteArray>> m_guardPool;
};

} // namespace poolscope
