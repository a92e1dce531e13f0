#include "health/HealthMonitor.h"

#include "audit/AuditTrail.h"
#include "base/BrokenPipe.h"
#include "base/RedisError.h"
#include "client/RedisConnection.h"
#include "health/HealthChecker.h"
#include "members/PoolTableModel.h"
#include "session/DisplayFormat.h"
#include "session/PoolSession.h"
#include "text/CredentialMask.h"

#include <QDateTime>
#include <QLocale>
#include <QMetaObject>
#include <QSettings>

namespace poolscope {

namespace {

const QString kTargetSetting = QStringLiteral("health/target");
constexpr int kMaxMembersRead = 20000; // health read per poll at most (40 HMGETs of 500)
constexpr int kEventsPerRead = 200;
constexpr int kPastEventsShown = 20; // on connecting: the guard's latest actions

// Stream entry ids ("ms-seq") in stream order.
bool streamIdAfter(const QByteArray &id, const QByteArray &than) {
    if (than.isEmpty())
        return true;
    const auto parts = [](const QByteArray &text) {
        const qsizetype dash = text.indexOf('-');
        return std::pair(text.left(dash).toULongLong(),
                         dash < 0 ? 0ULL : text.mid(dash + 1).toULongLong());
    };
    return parts(id) > parts(than);
}

// A guard's audit entry in the form the guard-events stream had: the reason says why, the entry's
// counts and policy say what came of it.
GuardEvent guardEventOf(const AuditEntry &entry) {
    GuardEvent event;
    event.id = entry.id;
    event.timeMs = entry.timeMs;
    event.kind = entry.actionName;
    event.member = entry.members.isEmpty() ? QString() : entry.members.constFirst().member;
    event.reason = entry.reason;
    if (entry.action == AuditAction::Restore && !entry.members.isEmpty() &&
        entry.members.constFirst().after)
        event.reason =
            HealthMonitor::tr("%1; restored at count %2 (policy %3)")
                .arg(entry.reason, QLocale().toString(*entry.members.constFirst().after, 'g', 16),
                     entry.policy);
    return event;
}

} // namespace

// The worker thread's state: its connection and where the audit trail and the old guard-events
// stream were read up to.
struct HealthMonitor::Worker {
    std::unique_ptr<RedisConnection> connection;
    quint64 generation = 0;
    QByteArray lastEventId;
    QByteArray lastAuditId;

    RedisConnection &connectionFor(quint64 forGeneration, const Endpoint &endpoint) {
        if (generation != forGeneration) {
            connection.reset();
            lastEventId.clear();
            lastAuditId.clear();
            generation = forGeneration;
        }
        if (!connection || connection->isBroken()) {
            ConnectionOptions options;
            options.clientName = QStringLiteral("poolscope-health");
            connection = RedisConnection::open(endpoint, options);
        }
        return *connection;
    }
};

HealthMonitor::HealthMonitor(PoolSession *session, PoolTableModel *model, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_model(model)
    , m_context(new QObject)
    , m_worker(std::make_shared<Worker>())
    , m_stop(std::make_shared<std::atomic<bool>>(false)) {
    m_thread.setObjectName(QStringLiteral("poolscope-health"));
    m_context->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread.start();
    // A server that went away must not kill the dashboard with SIGPIPE on this thread's writes.
    QMetaObject::invokeMethod(m_context, [] { blockBrokenPipeOnThisThread(); });
    connect(session, &PoolSession::targetChanged, this, &HealthMonitor::targetChanged);
    connect(session, &PoolSession::observationApplied, this,
            [this](const PoolObservation &observation) {
                if (m_session->isShowingRecording())
                    return;
                QList<QByteArray> members;
                for (const PoolMember &member : observation.snapshot.members)
                    members << member.member;
                for (const EvictedMember &member : observation.snapshot.evicted)
                    members << member.member;
                if (members.size() > kMaxMembersRead)
                    members.resize(kMaxMembersRead);
                read(members);
            });
}

HealthMonitor::~HealthMonitor() {
    m_stop->store(true);
    m_thread.quit();
    m_thread.wait();
}

QString HealthMonitor::savedTargetUrl() {
    return QSettings().value(kTargetSetting).toString();
}

HealthTargetNotifier *HealthMonitor::targetUrlNotifier() {
    static HealthTargetNotifier notifier;
    return &notifier;
}

void HealthMonitor::saveTargetUrl(const QString &url) {
    if (savedTargetUrl() == url)
        return;
    QSettings().setValue(kTargetSetting, url);
    Q_EMIT targetUrlNotifier()->targetUrlSaved(url);
}

void HealthMonitor::targetChanged() {
    // Reconnected to the same pool: its events go on from the last one shown, never again.
    const bool samePool = m_session->hasTarget() && m_session->endpoint() == m_shownEndpoint &&
                          m_session->poolKey() == m_shownPoolKey;
    if (!samePool) {
        m_lastShownId.clear();
        m_lastShownAuditId.clear();
        m_shownEndpoint = m_session->endpoint();
        m_shownPoolKey = m_session->poolKey();
    }
    ++m_generation;
    m_guardEvents = 0;
    m_lastMembers.clear();
    m_model->setHealth({});
}

void HealthMonitor::readNow() {
    read(m_lastMembers);
}

void HealthMonitor::read(const QList<QByteArray> &members) {
    m_lastMembers = members;
    if (m_reading) {
        m_readAgain = true; // one read at a time; the latest members follow it
        return;
    }
    if (!m_session->hasTarget())
        return;
    m_reading = true;
    m_readAgain = false;
    const quint64 generation = m_generation;
    const Endpoint endpoint = m_session->endpoint();
    const PoolKeys keys(m_session->poolKey());
    const QByteArray resumeAfter = m_lastShownId;
    const QByteArray resumeAfterAudit = m_lastShownAuditId;
    QMetaObject::invokeMethod(m_context, [this, worker = m_worker, generation, endpoint, keys,
                                          members, resumeAfter, resumeAfterAudit] {
        QHash<QByteArray, HealthRecord> records;
        QList<GuardEvent> events;
        QList<GuardEvent> auditEvents;
        QString failure;
        try {
            RedisConnection &connection = worker->connectionFor(generation, endpoint);
            HealthStore store(connection, keys);
            if (worker->lastEventId.isEmpty())
                worker->lastEventId = resumeAfter;
            if (worker->lastAuditId.isEmpty())
                worker->lastAuditId = resumeAfterAudit;
            records = store.read(members);
            // An empty stream: every entry from now on is new ("0-0").
            const bool first = worker->lastEventId.isEmpty();
            events =
                store.eventsAfter(worker->lastEventId, first ? kPastEventsShown : kEventsPerRead,
                                  &worker->lastEventId);
            if (first && worker->lastEventId.isEmpty())
                worker->lastEventId = "0-0";
            // The guard's actions since the audit trail: its entries with a guard's id.
            AuditTrail trail(connection, keys);
            const bool firstAudit = worker->lastAuditId.isEmpty();
            for (const AuditEntry &entry :
                 trail.after(worker->lastAuditId, firstAudit ? kPastEventsShown : kEventsPerRead,
                             &worker->lastAuditId))
                if (entry.byGuard())
                    auditEvents.append(guardEventOf(entry));
            if (firstAudit && worker->lastAuditId.isEmpty())
                worker->lastAuditId = "0-0";
        } catch (const RedisError &e) {
            failure = dashboardErrorText(e);
        }
        QMetaObject::invokeMethod(this, [this, generation, records, events, auditEvents, failure] {
            m_reading = false;
            if (generation == m_generation) {
                if (!failure.isEmpty()) {
                    Q_EMIT readFailed(failure);
                } else {
                    m_model->setHealth(records);
                    showGuardEvents(events, m_lastShownId);
                    showGuardEvents(auditEvents, m_lastShownAuditId);
                    Q_EMIT healthRead();
                }
            }
            if (m_readAgain)
                read(m_lastMembers);
        });
    });
}

void HealthMonitor::showGuardEvents(const QList<GuardEvent> &allEvents, QByteArray &lastShownId) {
    QList<GuardEvent> events;
    for (const GuardEvent &event : allEvents)
        if (event.id.isEmpty() || streamIdAfter(event.id, lastShownId)) {
            events.append(event);
            if (!event.id.isEmpty())
                lastShownId = event.id;
        }
    for (const GuardEvent &event : events) {
        const QString member = maskCredentials(event.member);
        HistoryEvent::Kind kind = HistoryEvent::Kind::Note;
        QString text;
        LogSeverity severity = LogSeverity::Info;
        if (event.kind == u"evict") {
            kind = HistoryEvent::Kind::Evict;
            severity = LogSeverity::Warning;
            text = QStringLiteral("guard evicted %1: %2").arg(member, event.reason);
        } else if (event.kind == u"restore") {
            kind = HistoryEvent::Kind::Restore;
            text = QStringLiteral("guard restored %1: %2").arg(member, event.reason);
        } else if (event.kind == u"capped") {
            severity = LogSeverity::Warning;
            text = QStringLiteral("guard held back: %1").arg(event.reason);
        } else if (event.kind == u"uncapped") {
            text = tr("guard %1").arg(event.reason);
        } else {
            text = QStringLiteral("guard %1%2: %3")
                       .arg(event.kind, member.isEmpty() ? QString() : u' ' + member, event.reason);
        }
        m_session->log(severity, QStringLiteral("guard"), text);
        m_session->addHistoryEvent(kind, event.member.toUtf8(), text, event.timeMs,
                                   event.id.isEmpty() ? QByteArray("guard") : event.id);
    }
    if (!events.isEmpty()) {
        m_guardEvents += int(events.size());
        Q_EMIT guardEventsShown(int(events.size()));
    }
}

bool HealthMonitor::checkMembers(const QList<QByteArray> &members, const QString &targetUrl,
                                 QString *error) {
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (m_checking)
        return fail(QStringLiteral("a check round is already running"));
    if (!m_session->hasTarget())
        return fail(QStringLiteral("no pool is watched"));
    if (members.isEmpty())
        return fail(QStringLiteral("no member selected"));
    QString problem;
    const auto target = CheckTarget::parse(targetUrl, &problem);
    if (!target)
        return fail(QStringLiteral("target URL \"%1\": %2").arg(targetUrl, problem));
    CheckOptions options;
    options.target = *target;
    m_checking = true;
    const quint64 generation = m_generation;
    const Endpoint endpoint = m_session->endpoint();
    const PoolKeys keys(m_session->poolKey());
    m_session->log(LogSeverity::Info, QStringLiteral("health"),
                   QStringLiteral("checking %1 member(s) through their proxies against %2")
                       .arg(members.size())
                       .arg(maskCredentialsInText(targetUrl)));
    QMetaObject::invokeMethod(m_context, [this, worker = m_worker, stop = m_stop, generation,
                                          endpoint, keys, members, options] {
        const CheckRound round = runCheckRound(members, options, stop.get());
        QHash<QByteArray, HealthRecord> records;
        QString failure;
        try {
            HealthStore store(worker->connectionFor(generation, endpoint), keys);
            const QHash<QByteArray, HealthRecord> previous = store.read(members);
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            for (const CheckResult &result : round.results)
                records.insert(result.member, previous.value(result.member).after(result, now));
            if (!stop->load())
                store.write(records);
        } catch (const RedisError &e) {
            failure = dashboardErrorText(e);
        }
        qint64 ok = 0, failed = 0, notCheckable = 0;
        for (const CheckResult &result : round.results) {
            if (result.outcome == CheckOutcome::Ok)
                ++ok;
            else if (isFailure(result.outcome))
                ++failed;
            else
                ++notCheckable;
        }
        QMetaObject::invokeMethod(this, [=, this] {
            m_checking = false;
            if (generation != m_generation)
                return;
            if (!failure.isEmpty()) {
                m_session->log(LogSeverity::Error, QStringLiteral("health"),
                               QStringLiteral("check results not saved: %1").arg(failure));
            } else {
                m_model->setHealth(records, true);
                m_session->log(failed > 0 ? LogSeverity::Warning : LogSeverity::Info,
                               QStringLiteral("health"),
                               QStringLiteral("checked %1 member(s) in %2 ms: %3 up, %4 down, %5 "
                                              "not checkable")
                                   .arg(round.results.size())
                                   .arg(round.elapsedMs)
                                   .arg(ok)
                                   .arg(failed)
                                   .arg(notCheckable));
            }
            Q_EMIT checkFinished(ok, failed, notCheckable);
        });
    });
    return true;
}

} // namespace poolscope
