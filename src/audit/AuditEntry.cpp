#include "audit/AuditEntry.h"

#include "text/CredentialMask.h"
#include "redis/RedisReply.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

namespace poolscope {
namespace {

struct ActionName {
    AuditAction action;
    const char *name;
};

constexpr ActionName kActionNames[] = {
    {AuditAction::Seed, "seed"},       {AuditAction::Evict, "evict"},
    {AuditAction::Restore, "restore"}, {AuditAction::MigrateCompanion, "migrate-companion"},
    {AuditAction::Capped, "capped"},   {AuditAction::Uncapped, "uncapped"},
};

std::pair<quint64, quint64> idParts(const QByteArray &id) {
    const qsizetype dash = id.indexOf('-');
    return {id.left(dash < 0 ? id.size() : dash).toULongLong(),
            dash < 0 ? 0ULL : id.mid(dash + 1).toULongLong()};
}

std::optional<double> countFromJson(const QJsonValue &value) {
    if (value.isString()) {
        bool ok = false;
        const double count = value.toString().toDouble(&ok);
        if (ok)
            return count;
        return std::nullopt;
    }
    if (value.isDouble())
        return value.toDouble();
    return std::nullopt;
}

QJsonValue countToJson(const std::optional<double> &count) {
    return count ? QJsonValue(*count) : QJsonValue();
}

// The fields of a stream entry, [id, [name, value, ...]], as name -> value.
bool readFields(const RedisReply &entry, QByteArray *id, QList<QByteArray> *names,
                QList<QByteArray> *values) {
    if (entry.elements.size() != 2 || entry.elements[0].type != RedisReply::Type::String ||
        !entry.elements[1].isArray())
        return false;
    *id = entry.elements[0].text;
    const QList<RedisReply> &fields = entry.elements[1].elements;
    for (qsizetype i = 0; i + 1 < fields.size(); i += 2) {
        names->append(fields[i].text);
        values->append(fields[i + 1].text);
    }
    return true;
}

} // namespace

QString auditActionName(AuditAction action) {
    for (const ActionName &known : kActionNames)
        if (known.action == action)
            return QLatin1String(known.name);
    return QStringLiteral("other");
}

std::optional<AuditAction> parseAuditAction(const QString &name) {
    for (const ActionName &known : kActionNames)
        if (name == QLatin1String(known.name))
            return known.action;
    return std::nullopt;
}

QList<AuditAction> allAuditActions() {
    QList<AuditAction> actions;
    for (const ActionName &known : kActionNames)
        actions.append(known.action);
    return actions;
}

int compareStreamIds(const QByteArray &a, const QByteArray &b) {
    if (a.isEmpty() || b.isEmpty())
        return int(!a.isEmpty()) - int(!b.isEmpty());
    const auto left = idParts(a);
    const auto right = idParts(b);
    return left < right ? -1 : (left == right ? 0 : 1);
}

std::optional<AuditEntry> AuditEntry::fromStreamEntry(const RedisReply &reply) {
    AuditEntry entry;
    QList<QByteArray> names, values;
    if (!readFields(reply, &entry.id, &names, &values))
        return std::nullopt;
    entry.timeMs = qint64(idParts(entry.id).first);
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QByteArray &name = names[i];
        const QString value = QString::fromUtf8(values[i]);
        if (name == "action") {
            entry.actionName = value;
            entry.action = parseAuditAction(value).value_or(AuditAction::Other);
        } else if (name == "members") {
            for (const QJsonValue &item : QJsonDocument::fromJson(values[i]).array()) {
                const QJsonArray change = item.toArray();
                if (change.isEmpty())
                    continue;
                entry.members.append({change.at(0).toString(), countFromJson(change.at(1)),
                                      countFromJson(change.at(2))});
            }
        } else if (name == "count") {
            entry.count = value.toLongLong();
        } else if (name == "policy") {
            entry.policy = value;
        } else if (name == "detail") {
            entry.detail = value;
        } else if (name == "reason") {
            entry.reason = value;
        } else if (name == "user") {
            entry.actor.user = value;
        } else if (name == "host") {
            entry.actor.host = value;
        } else if (name == "program") {
            entry.actor.program = value;
        } else if (name == "pid") {
            entry.actor.pid = value.toLongLong();
        } else if (name == "guard") {
            entry.guardId = value;
        }
    }
    return entry;
}

std::optional<AuditEntry> AuditEntry::fromGuardEvent(const RedisReply &reply) {
    AuditEntry entry;
    QList<QByteArray> names, values;
    if (!readFields(reply, &entry.id, &names, &values))
        return std::nullopt;
    entry.fromGuardEvents = true;
    entry.timeMs = qint64(idParts(entry.id).first);
    entry.actor.program = QStringLiteral("guard");
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QString value = QString::fromUtf8(values[i]);
        if (names[i] == "t" && value.toLongLong() > 0) {
            entry.timeMs = value.toLongLong();
        } else if (names[i] == "kind") {
            entry.actionName = value;
            entry.action = parseAuditAction(value).value_or(AuditAction::Other);
        } else if (names[i] == "member" && !value.isEmpty()) {
            entry.members.append({maskCredentials(value), std::nullopt, std::nullopt});
        } else if (names[i] == "reason") {
            entry.reason = maskCredentialsInText(value);
        }
    }
    entry.count = entry.members.size();
    return entry;
}

QString AuditEntry::actorText() const {
    QString text = actor.user.isEmpty() ? actor.host : actor.user + u'@' + actor.host;
    QStringList about;
    if (!actor.program.isEmpty())
        about << actor.program;
    if (actor.pid > 0)
        about << QStringLiteral("pid %1").arg(actor.pid);
    if (!about.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + u'(' +
                about.join(QStringLiteral(", ")) + u')';
    if (!guardId.isEmpty())
        text += QStringLiteral(" guard ") + guardId;
    if (fromGuardEvents)
        text += QStringLiteral(" (from the guard-events stream)");
    return text;
}

QJsonObject AuditEntry::toJson() const {
    QJsonArray changes;
    for (const AuditMemberChange &change : members)
        changes.append(QJsonObject{{QStringLiteral("member"), change.member},
                                   {QStringLiteral("before"), countToJson(change.before)},
                                   {QStringLiteral("after"), countToJson(change.after)}});
    return {
        {QStringLiteral("id"), QString::fromLatin1(id)},
        {QStringLiteral("time"),
         QDateTime::fromMSecsSinceEpoch(timeMs, Qt::UTC).toString(Qt::ISODateWithMs)},
        {QStringLiteral("time_ms"), timeMs},
        {QStringLiteral("action"), actionName},
        {QStringLiteral("members"), changes},
        {QStringLiteral("count"), count},
        {QStringLiteral("policy"), policy},
        {QStringLiteral("detail"), detail},
        {QStringLiteral("reason"), reason},
        {QStringLiteral("user"), actor.user},
        {QStringLiteral("host"), actor.host},
        {QStringLiteral("program"), actor.program},
        {QStringLiteral("pid"), actor.pid},
        {QStringLiteral("guard"), guardId},
        {QStringLiteral("source"),
         fromGuardEvents ? QStringLiteral("guard-events") : QStringLiteral("audit")},
    };
}

} // namespace poolscope
