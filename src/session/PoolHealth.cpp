#include "session/PoolHealth.h"

#include "session/DisplayFormat.h"
#include "session/PoolSession.h"
#include "pool/MemberSubset.h"
#include "text/CredentialMask.h"

#include <algorithm>
#include <cmath>

#include <QDateTime>
#include <QLocale>
#include <QStringList>

namespace poolscope {

namespace {

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

ConnectionOptions healthOptions(const QString &clientName) {
    ConnectionOptions options;
    options.clientName = clientName;
    options.describeError = dashboardErrorText; // the dashboard's fields, not CLI flags
    return options;
}

} // namespace

PoolHealth::PoolHealth(PoolSession *session)
    : m_session(session) {
    connect(session, &PoolSession::targetChanged, this, &PoolHealth::targetChanged);
    connect(session, &PoolSession::observationApplied, this, &PoolHealth::observationApplied);
    connect(session, &PoolSession::chartedMembersChanged, this,
            [this](const QList<QByteArray> &members) {
                m_charted = QSet<QByteArray>(members.cbegin(), members.cend());
            });
    connect(&m_reader, &HealthReader::readFinished, this, &PoolHealth::readFinished);
    connect(&m_reader, &HealthReader::readFailed, this, [this](const Failure &failure) {
        m_wholeAsked = false; // the whole read stays due
        Q_EMIT readFailed(failure);
    });
    connect(&m_reader, &HealthReader::checkFinished, this, &PoolHealth::checkDone);
}

PoolHealth::~PoolHealth() = default;

const HealthRecord *PoolHealth::recordOf(const QByteArray &member) const {
    const auto it = m_records.constFind(member);
    return it == m_records.constEnd() ? nullptr : &*it;
}

void PoolHealth::targetChanged() {
    stopGuard(); // a guard acts on the pool it was started on, never on the next one
    m_records.clear();
    m_read.clear();
    m_noneUnreadAt = 0;
    m_wholeDue = true;
    m_wholeAsked = false;
    Q_EMIT recordsChanged();
    if (!m_session->hasTarget() || m_session->isShowingRecording()) {
        m_reader.clearTarget();
        return;
    }
    // Reconnected to the same pool: its events go on from the last one shown, never again.
    const bool samePool =
        m_session->endpoint() == m_shownEndpoint && m_session->poolKey() == m_shownPoolKey;
    if (!samePool) {
        m_shown = {};
        m_shownEndpoint = m_session->endpoint();
        m_shownPoolKey = m_session->poolKey();
    }
    m_reader.setTarget(m_session->endpoint(), m_session->poolKey(),
                       healthOptions(QStringLiteral("poolscope-health")), m_shown);
}

void PoolHealth::observationApplied(const PoolObservation &observation) {
    if (m_session->isShowingRecording() || !m_reader.hasTarget())
        return;
    const PoolSnapshot &snapshot = observation.snapshot;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // One whole read at a time: polls that come while it runs (a slow server, a big pool) read
    // the charted members only, or each would queue another whole read behind it.
    if (!m_wholeAsked && (m_wholeDue || now - m_lastWholeMs >= kWholeReadIntervalMs)) {
        QList<QByteArray> members;
        for (const PoolMember &member : snapshot.members)
            members << member.member;
        for (const EvictedMember &member : snapshot.evicted)
            members << member.member;
        if (members.size() > kMaxMembersRead)
            members.resize(kMaxMembersRead);
        m_wholeAsked = true;
        m_noneUnreadAt = 0;
        m_reader.read(members, true);
        return;
    }
    // Between whole reads: the chart's members, and those not read yet (new in the pool) unless
    // the whole read on its way reads them. A member not read yet can only have come since a
    // poll that had none: its read's changes would say so. Until then only the charted and
    // pinned members are looked for (MemberSubset: no hash of most members, not three).
    const bool unreadPossible = !m_wholeAsked && !noneUnreadSince(snapshot);
    MemberSubset wanted(m_charted);
    for (const QByteArray &member : m_session->pins())
        wanted.insert(member);
    QList<QByteArray> some;
    qsizetype listed = 0;
    bool anyUnread = false;
    const auto consider = [&](const QByteArray &member) {
        if (listed++ >= kMaxMembersRead)
            return;
        const bool unread = unreadPossible && !m_read.contains(member);
        anyUnread = anyUnread || unread;
        if (unread || wanted.contains(member))
            some << member;
    };
    for (const PoolMember &member : snapshot.members)
        consider(member.member);
    for (const EvictedMember &member : snapshot.evicted)
        consider(member.member);
    if (m_wholeAsked || (unreadPossible && (anyUnread || listed > kMaxMembersRead))) {
        m_noneUnreadAt = 0;
    } else {
        m_noneUnreadAt = snapshot.readId;
        m_noneUnreadEvicted = snapshot.evicted;
    }
    m_reader.read(some, false); // with no member: the trail alone
}

bool PoolHealth::noneUnreadSince(const PoolSnapshot &snapshot) const {
    if (m_noneUnreadAt == 0 || !snapshot.changes ||
        snapshot.changes->sinceReadId != m_noneUnreadAt || snapshot.evicted != m_noneUnreadEvicted)
        return false;
    return std::none_of(snapshot.changes->changed.cbegin(), snapshot.changes->changed.cend(),
                        [](const MemberChange &change) { return std::isnan(change.before); });
}

void PoolHealth::readFinished(const HealthReading &reading) {
    if (reading.whole) {
        m_lastWholeMs = QDateTime::currentMSecsSinceEpoch();
        m_wholeAsked = false;
        m_wholeDue = false;
    }
    // A guard or an operator acted: marks and records may have changed anywhere.
    m_wholeDue = m_wholeDue || reading.trailMoved;
    merge(reading.records, reading.members, reading.whole);
    showGuardEvents(reading.streamEvents, m_shown.eventsId);
    showGuardEvents(reading.auditEvents, m_shown.auditId);
    showTrailEntries(reading.trailEntries);
    if (reading.guard)
        Q_EMIT guardStatusRead(*reading.guard);
    Q_EMIT healthRead(reading.whole);
}

void PoolHealth::merge(const QHash<QByteArray, HealthRecord> &records,
                       const QList<QByteArray> &asked, bool whole) {
    bool changed = false;
    if (whole) {
        changed = records != m_records;
        m_records = records;
        m_read = QSet<QByteArray>(asked.cbegin(), asked.cend());
        m_noneUnreadAt = 0;
    } else {
        for (const QByteArray &member : asked) {
            m_read.insert(member);
            const auto found = records.constFind(member);
            if (found == records.constEnd())
                changed = m_records.remove(member) > 0 || changed;
            else if (const auto it = m_records.find(member);
                     it == m_records.end() || *it != *found) {
                m_records.insert(member, *found);
                changed = true;
            }
        }
    }
    if (changed)
        Q_EMIT recordsChanged();
}

void PoolHealth::showGuardEvents(const QList<GuardEvent> &allEvents, QByteArray &lastShownId) {
    for (const GuardEvent &event : allEvents) {
        if (!event.id.isEmpty() && !streamIdAfter(event.id, lastShownId))
            continue;
        if (!event.id.isEmpty())
            lastShownId = event.id;
        const QString member = maskCredentials(event.member);
        HistoryEvent::Kind kind = HistoryEvent::Kind::Note;
        QString text;
        LogSeverity severity = LogSeverity::Info;
        if (event.kind == u"evict") {
            kind = HistoryEvent::Kind::Evict;
            severity = LogSeverity::Warning;
            text = tr("guard evicted %1: %2").arg(member, event.reason);
        } else if (event.kind == u"restore") {
            kind = HistoryEvent::Kind::Restore;
            text = tr("guard restored %1: %2").arg(member, event.reason);
            if (event.restoredCount)
                text = tr("guard restored %1: %2; restored at count %3 (policy %4)")
                           .arg(member, event.reason,
                                QLocale().toString(*event.restoredCount, 'g', 16), event.policy);
        } else if (event.kind == u"capped") {
            severity = LogSeverity::Warning;
            text = tr("guard held back: %1").arg(event.reason);
        } else if (event.kind == u"uncapped") {
            text = tr("guard %1").arg(event.reason);
        } else {
            text = tr("guard %1%2: %3")
                       .arg(event.kind, member.isEmpty() ? QString() : u' ' + member, event.reason);
        }
        m_session->log(severity, QStringLiteral("guard"), text);
        m_session->addHistoryEvent(kind, event.member.toUtf8(), text, event.timeMs,
                                   event.id.isEmpty() ? QByteArray("guard") : event.id);
    }
}

void PoolHealth::showTrailEntries(const QList<AuditEntry> &entries) {
    static const AuditActor self = AuditActor::thisProcess();
    for (const AuditEntry &entry : entries) {
        // A guard's are shown as the guard's (showGuardEvents); this dashboard's own actions were
        // logged when they were done.
        if (entry.byGuard() || (entry.actor.host == self.host && entry.actor.pid == self.pid))
            continue;
        QStringList members;
        for (const AuditMemberChange &change : entry.members)
            members << change.member;
        // Not "user@host": the events' text is masked like a member id, where that reads as a
        // proxy's credentials.
        const QString who =
            tr("%1 on %2 (%3, pid %4)")
                .arg(entry.actor.user.isEmpty() ? tr("someone") : entry.actor.user,
                     entry.actor.host, entry.actor.program, QString::number(entry.actor.pid));
        const QString shown = members.join(QStringLiteral(", "));
        HistoryEvent::Kind kind = HistoryEvent::Kind::Note;
        QString text;
        switch (entry.action) {
        case AuditAction::Seed:
            kind = HistoryEvent::Kind::Seed;
            text = tr("%1 seeded %n member(s)", nullptr, int(entry.count)).arg(who);
            break;
        case AuditAction::Evict:
            kind = HistoryEvent::Kind::Evict;
            text = tr("%1 evicted %2").arg(who, shown);
            break;
        case AuditAction::Restore:
            kind = HistoryEvent::Kind::Restore;
            text = tr("%1 restored %2").arg(who, shown);
            break;
        default:
            text = tr("%1: %2 %3").arg(who, entry.actionName, shown).trimmed();
            break;
        }
        if (!entry.reason.isEmpty())
            text = tr("%1; reason: %2").arg(text, entry.reason);
        m_session->log(kind == HistoryEvent::Kind::Evict ? LogSeverity::Warning : LogSeverity::Info,
                       QStringLiteral("audit"), text);
        const QByteArray member =
            entry.members.size() == 1 ? entry.members.constFirst().member.toUtf8() : QByteArray();
        m_session->addHistoryEvent(kind, member, text, entry.timeMs, entry.id);
    }
}

bool PoolHealth::check(const QList<QByteArray> &members, const QString &targetUrl, QString *error) {
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (m_reader.isChecking())
        return fail(tr("a check round is already running"));
    if (!m_session->hasTarget() || !m_reader.hasTarget())
        return fail(tr("no pool is watched"));
    if (members.isEmpty())
        return fail(tr("no member selected"));
    QString problem;
    const auto target = CheckTarget::parse(targetUrl, &problem);
    if (!target)
        return fail(tr("target URL \"%1\": %2").arg(targetUrl, problem));
    CheckOptions options;
    options.target = *target;
    m_reader.check(members, options);
    m_session->log(
        LogSeverity::Info, QStringLiteral("health"),
        tr("checking %n member(s) through their proxies against %1", nullptr, int(members.size()))
            .arg(maskCredentialsInText(targetUrl)));
    return true;
}

void PoolHealth::checkDone(const HealthCheckReport &report) {
    const CheckCounts &counts = report.counts;
    if (report.failure) {
        m_session->log(LogSeverity::Error, QStringLiteral("health"),
                       tr("check results not saved: %1").arg(report.failure->text));
    } else {
        merge(report.records, report.records.keys(), false);
        m_session->log(counts.failed > 0 ? LogSeverity::Warning : LogSeverity::Info,
                       QStringLiteral("health"),
                       tr("checked %n member(s) in %1 ms: %2 up, %3 down, %4 not checkable",
                          nullptr, int(report.round.results.size()))
                           .arg(report.round.elapsedMs)
                           .arg(counts.ok)
                           .arg(counts.failed)
                           .arg(counts.notCheckable));
    }
    Q_EMIT checkFinished(counts.ok, counts.failed, counts.notCheckable);
}

GuardRunner *PoolHealth::guard() {
    if (!m_guard) {
        m_guard = std::make_unique<GuardRunner>();
        connect(m_guard.get(), &GuardRunner::roundFinished, this, &PoolHealth::guardRound);
        connect(m_guard.get(), &GuardRunner::runEnded, this, &PoolHealth::guardEnded);
    }
    return m_guard.get();
}

bool PoolHealth::startGuard(const GuardOptions &options, std::chrono::milliseconds interval,
                            QString *error) {
    if (const QString problem = guardStartProblem(); !problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    GuardRunSettings settings;
    settings.endpoint = m_session->endpoint();
    settings.poolKey = m_session->poolKey();
    settings.connection = healthOptions(QStringLiteral("poolscope-guard"));
    settings.guard = options;
    settings.guard.actor = AuditActor::dashboard(); // its audit entries name the dashboard
    settings.interval = interval;
    settings.requireLease = true; // refused, saying who holds it, when another guard does
    m_guardPool = std::pair(settings.endpoint, settings.poolKey);
    guard()->start(settings);
    return true;
}

QString PoolHealth::guardStartProblem() const {
    if (m_guard && m_guard->isRunning())
        return tr("the guard is already running");
    if (!m_session->hasTarget() || m_session->isShowingRecording())
        return tr("Guard not started: no live pool is watched");
    if (!m_session->canWrite())
        return tr("Guard not started: %1").arg(m_session->writeBlockReason());
    return {};
}

void PoolHealth::stopGuard() {
    if (m_guard)
        m_guard->stop();
}

QString PoolHealth::guardRefusalText(const GuardRunEnd &end) {
    if (end.reason == GuardRunEnd::Reason::LeaseRefused)
        return tr("Guard not started: another guard (%1) holds the lease on this pool")
            .arg(QString::fromUtf8(end.holder));
    return tr("Guard not started: %1").arg(end.failure.text);
}

void PoolHealth::guardRound(const GuardRoundReport &report) {
    // Its records are every member's as the round wrote them: no need to read them back.
    const bool samePool = m_guardPool && m_guardPool->first == m_session->endpoint() &&
                          m_guardPool->second == m_session->poolKey();
    if (!samePool || !report.round.leaseHeld || report.round.stopped)
        return;
    m_lastWholeMs = QDateTime::currentMSecsSinceEpoch();
    merge(report.round.records, report.round.records.keys(), true);
}

void PoolHealth::guardEnded(const GuardRunEnd &end) {
    if (end.reason == GuardRunEnd::Reason::LeaseRefused)
        m_session->log(LogSeverity::Warning, QStringLiteral("guard"), guardRefusalText(end));
}

} // namespace poolscope
