#include "audit/AuditTrail.h"

#include "text/CredentialMask.h"
#include "pool/LuaScript.h"
#include "client/RedisConnection.h"
#include "base/RedisError.h"

#include <algorithm>

#include <QDateTime>
#include <QHash>
#include <QRegularExpression>

namespace poolscope {
namespace {

RedisError readError(const QByteArray &key, const RedisReply &reply) {
    QByteArray code = reply.errorCode();
    QString message = QString::fromUtf8(reply.text);
    if (code == "NOPERM")
        message = QStringLiteral("this Redis user lacks the right to read it (%1)").arg(message);
    return RedisError(
        RedisError::Kind::Server,
        QStringLiteral("reading the audit trail %1 failed: %2").arg(quotedKey(key), message), code);
}

} // namespace

bool AuditFilter::matches(const AuditEntry &entry) const {
    if (!actions.isEmpty() && !actions.contains(entry.action))
        return false;
    if (sinceMs && entry.timeMs < *sinceMs)
        return false;
    if (untilMs && entry.timeMs > *untilMs)
        return false;
    if (!actor.isEmpty() && !entry.actorText().contains(actor, Qt::CaseInsensitive))
        return false;
    if (!member.isEmpty()) {
        const QString wanted = maskCredentials(member);
        bool named = false;
        for (const AuditMemberChange &change : entry.members)
            named = named || change.member.contains(wanted);
        if (!named)
            return false;
    }
    return true;
}

std::optional<qint64> parseAuditTime(const QString &text, qint64 nowMs, QString *error) {
    static const QRegularExpression relative(QStringLiteral("^(\\d{1,9})([smhdw])$"));
    const QString trimmed = text.trimmed();
    if (const QRegularExpressionMatch match = relative.match(trimmed); match.hasMatch()) {
        static const QHash<QChar, qint64> unitMs{{u's', 1000},
                                                 {u'm', 60 * 1000},
                                                 {u'h', 3600 * 1000},
                                                 {u'd', 86400 * 1000},
                                                 {u'w', 7 * 86400 * 1000}};
        return nowMs - match.captured(1).toLongLong() * unitMs.value(match.captured(2).at(0));
    }
    QString iso = trimmed;
    if (iso.size() > 10 && iso.at(10) == u' ')
        iso[10] = u'T';
    const QDateTime time = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (time.isValid())
        return time.toMSecsSinceEpoch();
    if (error)
        *error = QStringLiteral("\"%1\" is not a time: give ISO 8601 (2024-04-05T03:12:00Z, "
                                "2024-04-05 03:12, 2024-04-05) or a time ago (90s, 10m, 2h, 1d, "
                                "1w)")
                     .arg(text);
    return std::nullopt;
}

AuditTrail::AuditTrail(RedisConnection &connection, PoolKeys keys)
    : m_connection(connection)
    , m_keys(std::move(keys)) {}

QList<AuditEntry> AuditTrail::after(const QByteArray &afterId, int count, QByteArray *lastId) {
    const QByteArray limit = QByteArray::number(std::max(1, count));
    ++m_commands;
    const RedisReply reply =
        afterId.isEmpty()
            ? m_connection.command({"XREVRANGE", m_keys.audit(), "+", "-", "COUNT", limit})
            : m_connection.command({"XRANGE", m_keys.audit(), "(" + afterId, "+", "COUNT", limit});
    if (reply.isError())
        throw readError(m_keys.audit(), reply);
    QList<AuditEntry> entries;
    for (const RedisReply &element : reply.elements)
        if (const std::optional<AuditEntry> entry = AuditEntry::fromStreamEntry(element)) {
            if (afterId.isEmpty())
                entries.prepend(*entry);
            else
                entries.append(*entry);
        }
    if (lastId && !entries.isEmpty())
        *lastId = entries.constLast().id;
    return entries;
}

qint64 AuditTrail::length() {
    ++m_commands;
    const RedisReply reply = m_connection.command({"XLEN", m_keys.audit()});
    if (reply.isError())
        throw readError(m_keys.audit(), reply);
    return reply.integer;
}

// One stream of the walk: the trail, or the old guard-events stream.
struct AuditWalk::Source {
    QByteArray key;
    bool guardEvents = false;
    QByteArray cursor;         // the last id read; empty before the first page
    QList<AuditEntry> pending; // read, not yet handed out, in walk order
    bool exhausted = false;
};

AuditWalk::AuditWalk(RedisConnection &connection, const PoolKeys &keys, AuditFilter filter,
                     Order order, int pageSize)
    : m_connection(connection)
    , m_filter(std::move(filter))
    , m_order(order)
    , m_pageSize(std::max(1, pageSize)) {
    m_sources.append(Source{keys.audit(), false, {}, {}, false});
    m_sources.append(Source{keys.guardEvents(), true, {}, {}, false});
}

AuditWalk::~AuditWalk() = default;

bool AuditWalk::atEnd() const {
    for (const Source &source : m_sources)
        if (!source.exhausted || !source.pending.isEmpty())
            return false;
    return true;
}

bool AuditWalk::refill(Source &source) {
    const bool newestFirst = m_order == Order::NewestFirst;
    // The time filter is the id range, so entries outside it are never read.
    const QByteArray low =
        m_filter.sinceMs ? QByteArray::number(std::max<qint64>(0, *m_filter.sinceMs)) : "-";
    const QByteArray high = m_filter.untilMs ? QByteArray::number(*m_filter.untilMs) : "+";
    QByteArray from = newestFirst ? high : low;
    if (!source.cursor.isEmpty())
        from = '(' + source.cursor;
    const QByteArray to = newestFirst ? low : high;
    ++m_commands;
    const RedisReply reply =
        m_connection.command({newestFirst ? "XREVRANGE" : "XRANGE", source.key, from, to, "COUNT",
                              QByteArray::number(m_pageSize)});
    if (reply.isError()) {
        // The old stream is history a user may not have been given: the trail is read alone.
        if (source.guardEvents && reply.errorCode() == "NOPERM") {
            source.exhausted = true;
            return false;
        }
        throw readError(source.key, reply);
    }
    for (const RedisReply &element : reply.elements) {
        const std::optional<AuditEntry> entry = source.guardEvents
                                                    ? AuditEntry::fromGuardEvent(element)
                                                    : AuditEntry::fromStreamEntry(element);
        if (!entry)
            continue;
        source.cursor = entry->id;
        source.pending.append(*entry);
        ++m_entriesRead;
    }
    source.exhausted = reply.elements.size() < m_pageSize;
    return true;
}

QList<AuditEntry> AuditWalk::step() {
    for (Source &source : m_sources)
        if (source.pending.isEmpty() && !source.exhausted)
            refill(source);
    // Merge by id: an entry is handed out only when every stream that may still hold an earlier
    // one (in walk order) has an entry pending to compare it with.
    const bool newestFirst = m_order == Order::NewestFirst;
    QList<AuditEntry> found;
    for (;;) {
        Source *next = nullptr;
        bool blocked = false;
        for (Source &source : m_sources) {
            if (source.pending.isEmpty()) {
                blocked = blocked || !source.exhausted;
                continue;
            }
            const int order = next ? compareStreamIds(source.pending.constFirst().id,
                                                      next->pending.constFirst().id)
                                   : 0;
            if (!next || (newestFirst ? order > 0 : order < 0))
                next = &source;
        }
        if (!next || blocked)
            break;
        const AuditEntry entry = next->pending.takeFirst();
        if (m_filter.matches(entry))
            found.append(entry);
    }
    return found;
}

bool addGuardNote(RedisConnection &connection, const PoolKeys &keys, const AuditActor &actor,
                  AuditAction action, qint64 count, const QString &reason,
                  const QByteArray &guardId, qint64 cap) {
    const RedisReply reply = LuaScript::byName(QStringLiteral("audit_note.lua"))
                                 .run(connection, {keys.audit(), keys.guardLease()},
                                      auditScriptArguments(actor, reason, guardId, cap) +
                                          QList<QByteArray>{auditActionName(action).toUtf8(),
                                                            QByteArray::number(count)});
    if (reply.isError())
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("adding to the audit trail %1 failed: %2")
                             .arg(quotedKey(keys.audit()), QString::fromUtf8(reply.text)),
                         reply.errorCode());
    return !reply.isNil();
}

} // namespace poolscope
