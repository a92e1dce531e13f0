// poolscope-cli audit: the pool's audit trail (src/audit), newest first, filtered. Only reads.
#include "CliApp.h"

#include "audit/AuditTrail.h"
#include "base/RedisError.h"

#include <QDateTime>

namespace poolscope::cli {
namespace {

QString countText(const std::optional<double> &count) {
    return count ? formatCount(*count) : QStringLiteral("-");
}

// "a, b, c and 197 more"
QString someMembers(const QList<AuditMemberChange> &members, qint64 count) {
    constexpr qsizetype kShown = 3;
    QStringList names;
    for (qsizetype i = 0; i < members.size() && i < kShown; ++i)
        names << members[i].member;
    QString text = names.join(QStringLiteral(", "));
    if (count > names.size())
        text += QStringLiteral(" and %1 more").arg(count - names.size());
    return text;
}

// What the entry did, in a few words.
QString whatText(const AuditEntry &entry) {
    const AuditMemberChange first = entry.members.value(0);
    switch (entry.action) {
    case AuditAction::Evict:
        return QStringLiteral("%1 (count %2)").arg(first.member, countText(first.before));
    case AuditAction::Restore:
        if (entry.fromGuardEvents)
            return first.member;
        return QStringLiteral("%1 at %2 (policy %3, saved count %4)")
            .arg(first.member, countText(first.after), entry.policy, countText(first.before));
    case AuditAction::Seed:
        return QStringLiteral("%1 member(s) at %2 (%3): %4; %5")
            .arg(entry.count)
            .arg(countText(first.after), entry.policy, someMembers(entry.members, entry.count),
                 entry.detail);
    case AuditAction::MigrateCompanion:
        return QStringLiteral("%1 evicted member(s): %2").arg(entry.count).arg(entry.detail);
    case AuditAction::Capped:
    case AuditAction::Uncapped:
        return entry.fromGuardEvents ? QString()
                                     : QStringLiteral("%1 member(s) failing").arg(entry.count);
    case AuditAction::Other:
        break;
    }
    return QStringList{someMembers(entry.members, entry.count), entry.detail}.join(u' ').trimmed();
}

} // namespace

int Cli::audit(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("audit takes no positional arguments");
    AuditFilter filter;
    if (m_parser.isSet(QStringLiteral("since"))) {
        QString problem;
        filter.sinceMs = parseAuditTime(m_parser.value(QStringLiteral("since")),
                                        QDateTime::currentMSecsSinceEpoch(), &problem);
        if (!filter.sinceMs)
            throw UsageError(QStringLiteral("--since: %1").arg(problem).toStdString());
    }
    filter.member = m_parser.value(QStringLiteral("member"));
    filter.actor = m_parser.value(QStringLiteral("actor"));
    for (const QString &value : m_parser.values(QStringLiteral("action")))
        for (const QString &name : value.split(u',', Qt::SkipEmptyParts)) {
            const std::optional<AuditAction> action = parseAuditAction(name.trimmed());
            if (!action) {
                QStringList known;
                for (const AuditAction each : allAuditActions())
                    known << auditActionName(each);
                throw UsageError(QStringLiteral("unknown --action \"%1\" (expected %2)")
                                     .arg(name, known.join(QStringLiteral(", ")))
                                     .toStdString());
            }
            filter.actions.append(*action);
        }
    const int limit = wholeOption(QStringLiteral("limit"), 100, 1, 1000000);

    // Newest first, in bounded pages, until `limit` entries match or the trail has been read.
    AuditWalk walk(connection(), pool().keys(), filter);
    QList<AuditEntry> found;
    while (!walk.atEnd() && found.size() <= limit)
        found += walk.step();
    const bool complete = walk.atEnd() && found.size() <= limit;
    if (found.size() > limit)
        found.resize(limit);

    if (m_json) {
        QJsonArray entries;
        for (const AuditEntry &entry : found)
            entries.append(entry.toJson());
        printJson({{QStringLiteral("pool"), QString::fromUtf8(poolKey())},
                   {QStringLiteral("trail"), QString::fromUtf8(pool().keys().audit())},
                   {QStringLiteral("entries"), entries},
                   {QStringLiteral("count"), found.size()},
                   {QStringLiteral("complete"), complete}});
        return kExitOk;
    }
    for (const AuditEntry &entry : found) {
        m_out << QDateTime::fromMSecsSinceEpoch(entry.timeMs, Qt::UTC).toString(Qt::ISODateWithMs)
              << "  " << entry.actionName << "  " << whatText(entry) << "  by "
              << entry.actorText();
        if (!entry.reason.isEmpty())
            m_out << "  reason: " << entry.reason;
        m_out << '\n';
    }
    if (found.isEmpty())
        m_err << "poolscope-cli: no audit entries match in " << pool().keys().audit() << '\n';
    else if (!complete)
        m_err << "poolscope-cli: the newest " << found.size()
              << " matching entries; there may be more (--limit N, --since TIME)\n";
    return kExitOk;
}

} // namespace poolscope::cli
