#include "health/HealthStore.h"

#include "audit/AuditEntry.h"
#include "base/RedisError.h"
#include "text/CredentialMask.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace poolscope {

QByteArray HealthRecord::toJson() const {
    QJsonObject object{{QStringLiteral("t"), checkedAtMs},
                       {QStringLiteral("o"), outcome},
                       {QStringLiteral("l"), latencyMs},
                       {QStringLiteral("s"), status},
                       {QStringLiteral("up"), successes},
                       {QStringLiteral("down"), failures},
                       {QStringLiteral("e"), maskCredentialsInText(error)}};
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

std::optional<HealthRecord> HealthRecord::fromJson(const QByteArray &json) {
    const QJsonDocument document = QJsonDocument::fromJson(json);
    if (!document.isObject())
        return std::nullopt;
    const QJsonObject object = document.object();
    HealthRecord record;
    record.checkedAtMs = qint64(object.value(QStringLiteral("t")).toDouble());
    record.outcome = object.value(QStringLiteral("o")).toString();
    record.latencyMs = qint64(object.value(QStringLiteral("l")).toDouble(-1));
    record.status = object.value(QStringLiteral("s")).toInt();
    record.successes = object.value(QStringLiteral("up")).toInt();
    record.failures = object.value(QStringLiteral("down")).toInt();
    record.error = object.value(QStringLiteral("e")).toString();
    return record;
}

HealthRecord HealthRecord::after(const CheckResult &result, qint64 nowMs) const {
    HealthRecord next = *this;
    next.checkedAtMs = nowMs;
    next.outcome = outcomeName(result.outcome);
    next.latencyMs = result.totalMs >= 0 ? result.totalMs : result.proxyMs;
    next.status = result.status;
    next.error = result.detail;
    if (result.outcome == CheckOutcome::Ok) {
        next.successes = successes + 1;
        next.failures = 0;
    } else if (isFailure(result.outcome)) {
        next.failures = failures + 1;
        next.successes = 0;
    } else {
        next.successes = 0;
        next.failures = 0;
    }
    return next;
}

HealthStore::HealthStore(RedisConnection &connection, PoolKeys keys)
    : m_connection(connection)
    , m_keys(std::move(keys)) {}

QHash<QByteArray, HealthRecord> HealthStore::read(const QList<QByteArray> &members) {
    QHash<QByteArray, HealthRecord> records;
    QList<RedisCommand> commands;
    for (qsizetype start = 0; start < members.size(); start += kChunk) {
        commands.append(RedisCommand{"HMGET", m_keys.health()} + members.mid(start, kChunk));
        commands.append(RedisCommand{"HMGET", m_keys.guardMarks()} + members.mid(start, kChunk));
    }
    const QList<RedisReply> replies = m_connection.pipeline(commands);
    m_commands += commands.size();
    for (qsizetype c = 0; c + 1 < replies.size(); c += 2) {
        for (qsizetype r = c; r <= c + 1; ++r)
            if (replies[r].type == RedisReply::Type::Error)
                throw RedisError(
                    RedisError::Kind::Server,
                    QStringLiteral("reading health hash %1: %2")
                        .arg(QString::fromUtf8(r == c ? m_keys.health() : m_keys.guardMarks()),
                             QString::fromUtf8(replies[r].text)),
                    replies[r].errorCode());
        const QList<RedisReply> &fields = replies[c].elements;
        const QList<RedisReply> &marks = replies[c + 1].elements;
        for (qsizetype i = 0; i < fields.size(); ++i) {
            const QByteArray &member = members[(c / 2) * kChunk + i];
            std::optional<HealthRecord> record;
            if (fields[i].type == RedisReply::Type::String)
                record = HealthRecord::fromJson(fields[i].text);
            const bool marked = marks.value(i).type == RedisReply::Type::String;
            if (!record && !marked)
                continue;
            if (!record)
                record = HealthRecord{};
            record->evictedByGuard = marked;
            records.insert(member, *record);
        }
    }
    return records;
}

void HealthStore::write(const QHash<QByteArray, HealthRecord> &records) {
    QList<RedisCommand> commands;
    RedisCommand current;
    for (auto it = records.cbegin(); it != records.cend(); ++it) {
        if (current.isEmpty())
            current = {"HSET", m_keys.health()};
        current << it.key() << it.value().toJson();
        if ((current.size() - 2) / 2 >= kChunk) {
            commands.append(current);
            current.clear();
        }
    }
    if (!current.isEmpty())
        commands.append(current);
    if (commands.isEmpty())
        return;
    const QList<RedisReply> replies = m_connection.pipeline(commands);
    m_commands += commands.size();
    for (const RedisReply &reply : replies)
        if (reply.type == RedisReply::Type::Error)
            throw RedisError(
                RedisError::Kind::Server,
                QStringLiteral("writing health hash %1: %2")
                    .arg(QString::fromUtf8(m_keys.health()), QString::fromUtf8(reply.text)),
                reply.errorCode());
}

QByteArray HealthStore::pruneStep(const QByteArray &cursor, const QSet<QByteArray> &members,
                                  qint64 *removed) {
    if (removed)
        *removed = 0;
    const auto fail = [this](const QByteArray &what) {
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("pruning health hash %1: %2")
                             .arg(QString::fromUtf8(m_keys.health()), QString::fromUtf8(what)));
    };
    const RedisReply page = m_connection.command(
        {"HSCAN", m_keys.health(), cursor, "COUNT", QByteArray::number(kChunk)});
    ++m_commands;
    if (page.type == RedisReply::Type::Error)
        fail(page.text);
    if (page.elements.size() != 2 || page.elements[1].type != RedisReply::Type::Array)
        fail("unexpected reply to HSCAN");
    RedisCommand hdel{"HDEL", m_keys.health()};
    const QList<RedisReply> &pairs = page.elements[1].elements;
    for (qsizetype i = 0; i + 1 < pairs.size(); i += 2)
        if (!members.contains(pairs[i].text))
            hdel << pairs[i].text;
    if (hdel.size() > 2) {
        const RedisReply reply = m_connection.command(hdel);
        ++m_commands;
        if (reply.type == RedisReply::Type::Error)
            fail(reply.text);
        if (removed)
            *removed = reply.integer;
    }
    return page.elements[0].text;
}

namespace {

GuardEvent eventFromEntry(const RedisReply &entry) {
    GuardEvent event;
    event.id = entry.elements[0].text;
    const QList<RedisReply> &fields = entry.elements[1].elements;
    for (qsizetype i = 0; i + 1 < fields.size(); i += 2) {
        const QByteArray &name = fields[i].text;
        const QString value = QString::fromUtf8(fields[i + 1].text);
        if (name == "t")
            event.timeMs = value.toLongLong();
        else if (name == "kind")
            event.kind = value;
        else if (name == "member")
            event.member = value;
        else if (name == "reason")
            event.reason = value;
    }
    return event;
}

} // namespace

QList<GuardEvent> HealthStore::eventsAfter(const QByteArray &afterId, int count,
                                           QByteArray *lastId) {
    ++m_commands;
    const QByteArray limit = QByteArray::number(count);
    const RedisReply reply =
        afterId.isEmpty() ? m_connection.commandOrThrow(
                                {"XREVRANGE", m_keys.guardEvents(), "+", "-", "COUNT", limit})
                          : m_connection.commandOrThrow({"XRANGE", m_keys.guardEvents(),
                                                         "(" + afterId, "+", "COUNT", limit});
    QList<GuardEvent> events;
    QByteArray newest;
    for (const RedisReply &entry : reply.elements) {
        if (entry.elements.size() != 2)
            continue;
        if (afterId.isEmpty()) {
            if (newest.isEmpty())
                newest = entry.elements[0].text;
            events.prepend(eventFromEntry(entry));
        } else {
            newest = entry.elements[0].text;
            events.append(eventFromEntry(entry));
        }
    }
    if (lastId && !newest.isEmpty())
        *lastId = newest;
    return events;
}

GuardStatus HealthStore::guardStatus(int scanned) {
    const QList<RedisReply> replies = m_connection.pipeline(
        {{"GET", m_keys.guardLease()},
         {"XREVRANGE", m_keys.audit(), "+", "-", "COUNT", QByteArray::number(scanned)}});
    m_commands += 2;
    for (const RedisReply &reply : replies)
        if (reply.type == RedisReply::Type::Error)
            throw RedisError(RedisError::Kind::Server,
                             QStringLiteral("reading the guard's lease and the audit trail: %1")
                                 .arg(QString::fromUtf8(reply.text)),
                             reply.errorCode());
    GuardStatus status;
    status.leaseHeld = replies[0].type != RedisReply::Type::Nil;
    status.holder = replies[0].text;
    for (const RedisReply &element : replies[1].elements) {
        const std::optional<AuditEntry> entry = AuditEntry::fromStreamEntry(element);
        if (!entry || !entry->byGuard())
            continue;
        if (!status.lastEventMs)
            status.lastEventMs = entry->timeMs;
        if (entry->action == AuditAction::Capped || entry->action == AuditAction::Uncapped) {
            status.capped = entry->action == AuditAction::Capped;
            status.capReason = status.capped ? maskCredentialsInText(entry->reason) : QString();
            break;
        }
    }
    return status;
}

} // namespace poolscope
