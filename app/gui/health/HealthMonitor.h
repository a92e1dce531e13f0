#pragma once

#include "endpoint/Endpoint.h"
#include "health/HealthStore.h"
#include "health/HealthTypes.h"

#include <atomic>
#include <memory>

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QThread>

namespace poolscope {

class PoolSession;
class PoolTableModel;

// The dashboard's side of proxy health (#16), off the GUI thread: a worker thread with its own
// Redis connection reads, after each of the pool's polls, the health records of the members
// polled (HMGET in bounded batches, HealthStore) and the guard's new actions: its entries in the
// pool's audit trail and, until that stream is deleted, the old guard-events stream (XRANGE
// after the last id seen in each). Records go into the members table's Health column; guard
// evictions, restores and caps become events in the Events panel and chart markers with their
// reasons. It also runs "Check selected": one check round of the chosen members, its results
// written to the health hash like `poolscope-cli check` does.
//
// HealthTargetNotifier tells every panel when the saved target URL changes (Check selected saves
// one), so a field showing it (the Guard panel's Target) follows.
class HealthTargetNotifier : public QObject {
    Q_OBJECT

Q_SIGNALS:
    void targetUrlSaved(const QString &url);
};

class HealthMonitor : public QObject {
    Q_OBJECT

public:
    static HealthTargetNotifier *targetUrlNotifier();

    HealthMonitor(PoolSession *session, PoolTableModel *model, QObject *parent = nullptr);
    ~HealthMonitor() override;

    // The URL checks fetch through each proxy, remembered in QSettings ("health/target").
    static QString savedTargetUrl();
    static void saveTargetUrl(const QString &url);

    // Starts a check round of these members against targetUrl on the worker thread. False (with
    // the reason in *error) for a bad URL, no pool, or a round already running.
    bool checkMembers(const QList<QByteArray> &members, const QString &targetUrl,
                      QString *error = nullptr);
    bool isChecking() const { return m_checking; }
    // Reads health and guard events now (when no read is under way).
    void readNow();
    // Guard events seen so far for this pool.
    int guardEventCount() const { return m_guardEvents; }

Q_SIGNALS:
    // The table took a read of the health hash.
    void healthRead();
    // Guard events became events and markers.
    void guardEventsShown(int count);
    void checkFinished(qint64 ok, qint64 failed, qint64 notCheckable);
    void readFailed(const QString &message);

private:
    struct Worker;
    void read(const QList<QByteArray> &members);
    // lastShownId: the stream id of the last one shown from its stream (guard-events or audit).
    void showGuardEvents(const QList<GuardEvent> &events, QByteArray &lastShownId);
    void targetChanged();

    PoolSession *m_session;
    PoolTableModel *m_model;
    QThread m_thread;
    QObject *m_context;               // lives on m_thread: queued work runs there
    std::shared_ptr<Worker> m_worker; // touched on m_thread only
    std::shared_ptr<std::atomic<bool>> m_stop;
    quint64 m_generation = 0; // bumped when the target changes: older answers are dropped
    bool m_reading = false;
    bool m_readAgain = false;
    bool m_checking = false;
    int m_guardEvents = 0;
    QList<QByteArray> m_lastMembers;
    // The pool whose guard events were shown, and the stream ids of the last ones shown from
    // the old guard-events stream and from the audit trail.
    Endpoint m_shownEndpoint;
    QByteArray m_shownPoolKey;
    QByteArray m_lastShownId;
    QByteArray m_lastShownAuditId;
};

} // namespace poolscope
