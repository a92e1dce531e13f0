// poolscope-cli evict, restore, list and migrate-companion: actions on and views of members.
#include "CliApp.h"

#include "base/RedisError.h"
#include "pool/CompanionMigration.h"
#include "text/MemberText.h"

#include <algorithm>
#include <cmath>

#include <QSet>

namespace poolscope::cli {
namespace {

// A count as the CLI shows it: the number, or what Redis holds when it is not a finite one.
QJsonValue countJson(double count) {
    return std::isfinite(count) ? QJsonValue(count) : QJsonValue();
}

QString countText(double count) {
    if (std::isfinite(count))
        return formatCount(count);
    return (std::isnan(count) ? QStringLiteral("nan")
                              : (count > 0 ? QStringLiteral("inf") : QStringLiteral("-inf"))) +
           QStringLiteral(" (invalid count)");
}

} // namespace

std::optional<QList<QByteArray>> Cli::checkMembers(const QStringList &args, bool forEvict) {
    // Every member is checked before anything is written, as the dashboard does: one wrong
    // member and nothing changes.
    QList<QByteArray> members;
    QSet<QByteArray> seen;
    QStringList problems;
    QJsonArray refused;
    const auto refuse = [&](const QByteArray &member, const QString &reason) {
        problems.append(QStringLiteral("%1 %2").arg(describeMember(member), reason));
        refused.append(QJsonObject{{QStringLiteral("member"), memberText(member)},
                                   {QStringLiteral("reason"), reason}});
    };
    for (const QString &name : args) {
        const QByteArray member = name.toUtf8();
        if (seen.contains(member)) {
            refuse(member, QStringLiteral("is named twice"));
            continue;
        }
        seen.insert(member);
        members.append(member);
    }
    const PoolKeys &keys = pool().keys();
    const QList<RedisReply> replies =
        connection().pipeline({RedisCommand{"ZMSCORE", keys.pool()} + members,
                               RedisCommand{"HMGET", keys.evicted()} + members});
    for (const RedisReply &reply : replies)
        if (reply.isError())
            pool().throwServerError(reply, QStringLiteral("checking the members"));
    for (qsizetype i = 0; i < members.size(); ++i) {
        const bool inPool = !replies[0].elements.value(i).isNil();
        const bool saved = !replies[1].elements.value(i).isNil();
        if (inPool && saved)
            refuse(members[i], QStringLiteral("is both in the pool and in the evicted hash "
                                              "(resolve it by hand)"));
        else if (forEvict && !inPool)
            refuse(members[i], saved ? QStringLiteral("is already evicted")
                                     : QStringLiteral("is not a member of the pool"));
        else if (!forEvict && !saved)
            refuse(members[i], inPool ? QStringLiteral("is in the pool, not evicted")
                                      : QStringLiteral("is not an evicted member of the pool"));
    }
    if (!problems.isEmpty()) {
        const QString message =
            QStringLiteral("%1 nothing: %2")
                .arg(forEvict ? QStringLiteral("evicted") : QStringLiteral("restored"),
                     problems.join(QStringLiteral("; ")));
        m_err << "poolscope-cli: " << message << '\n';
        if (m_json)
            printJson(
                {{forEvict ? QStringLiteral("evicted") : QStringLiteral("restored"), QJsonArray()},
                 {QStringLiteral("refused"), refused},
                 {QStringLiteral("error"), message}});
        return std::nullopt;
    }
    return members;
}

int Cli::actOnMembers(const QStringList &args, bool forEvict, const MemberAction &action) {
    const std::optional<QList<QByteArray>> checked = checkMembers(args, forEvict);
    if (!checked)
        return kExitFailure;
    const QList<QByteArray> &members = *checked;
    const QString doneKey = forEvict ? QStringLiteral("evicted") : QStringLiteral("restored");
    QJsonArray done;
    for (const QByteArray &member : members) {
        try {
            done.append(action(member));
        } catch (const RedisError &e) {
            // Changed between the check and the action (another operator), or the connection
            // dropped: say exactly which members were done.
            m_err << "poolscope-cli: " << e.message() << " (" << done.size() << " of "
                  << members.size() << " done before)\n";
            if (m_json)
                printJson({{doneKey, done},
                           {QStringLiteral("failed"), memberText(member)},
                           {QStringLiteral("error"), e.message()}});
            return kExitFailure;
        }
    }
    if (m_json)
        printJson({{doneKey, done}});
    return kExitOk;
}

void Cli::warnIfGuardMarkKept(const QByteArray &member, bool kept) {
    if (kept)
        m_err << "poolscope-cli: warning: this user may not write "
              << memberText(pool().keys().guardMarks()) << ", so a guard's mark on "
              << memberText(member) << " (if any) was kept: a guard may still restore it\n";
}

int Cli::evict(const QStringList &args) {
    if (args.isEmpty())
        throw UsageError("evict needs at least one MEMBER");
    requireYes(args.size(), QStringLiteral("evict"));
    const QString reason = reasonOption();
    return actOnMembers(args, true, [this, reason](const QByteArray &member) {
        const EvictResult result = pool().evict(member, {}, reason);
        warnIfGuardMarkKept(member, result.guardMarkKept);
        if (!m_json)
            m_out << "evicted " << memberText(member) << " (saved count "
                  << formatCount(result.savedCount) << ")\n";
        return QJsonObject{{QStringLiteral("member"), memberText(member)},
                           {QStringLiteral("saved_count"), result.savedCount}};
    });
}

int Cli::restore(const QStringList &args) {
    if (args.isEmpty())
        throw UsageError("restore needs at least one MEMBER");
    const RestorePolicy policy = policyOption("restore");
    if (policy == RestorePolicy::Start && !m_parser.isSet(QStringLiteral("start")))
        throw UsageError("restore --policy start needs --start N, the agreed starting count");
    requireYes(args.size(), QStringLiteral("restore"));
    const double start = countOption(QStringLiteral("start"), 0);
    const QString reason = reasonOption();
    return actOnMembers(args, false, [this, policy, start, reason](const QByteArray &member) {
        const RestoreResult result = pool().restore(member, policy, start, {}, reason);
        warnIfGuardMarkKept(member, result.guardMarkKept);
        const std::optional<double> minimum = result.poolMinimumBefore;
        // The flood forecast: how many allocations in a row the member will take.
        const double forecast = minimum ? std::max(0.0, *minimum - result.restoredCount) : 0.0;
        if (!m_json)
            m_out << "restored " << memberText(member) << " at "
                  << formatCount(result.restoredCount) << " (policy " << restorePolicyName(policy)
                  << ", saved count " << formatCount(result.savedCount)
                  << "; it will take about the next " << formatCount(forecast) << " allocations)\n";
        return QJsonObject{{QStringLiteral("member"), memberText(member)},
                           {QStringLiteral("policy"), restorePolicyName(policy)},
                           {QStringLiteral("saved_count"), result.savedCount},
                           {QStringLiteral("restored_count"), result.restoredCount},
                           {QStringLiteral("forecast_run"), forecast}};
    });
}

int Cli::list(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("list takes no positional arguments");
    const PoolSnapshot snapshot = pool().snapshot();
    const bool evicted = m_parser.isSet(QStringLiteral("evicted"));
    // One line (or JSON row) per member, names escaped (see MemberText.h); a count that is not
    // a finite number is shown as invalid (null in JSON, with "invalid": true).
    QJsonArray rows;
    const auto row = [&](const QByteArray &member, double count, const QString &countKey) {
        if (!m_json) {
            m_out << memberText(member) << '\t' << countText(count) << '\n';
            return;
        }
        QJsonObject object{{QStringLiteral("member"), memberText(member)},
                           {countKey, countJson(count)}};
        if (!std::isfinite(count))
            object.insert(QStringLiteral("invalid"), true);
        rows.append(object);
    };
    if (evicted) {
        for (const EvictedMember &member : snapshot.evicted)
            row(member.member, member.savedCount, QStringLiteral("saved_count"));
    } else {
        for (const PoolMember &member : snapshot.members)
            row(member.member, member.count, QStringLiteral("count"));
    }
    if (m_json)
        printJson({{evicted ? QStringLiteral("evicted") : QStringLiteral("members"), rows}});
    return kExitOk;
}

int Cli::migrateCompanionCommand(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("migrate-companion takes no positional arguments");
    const QString reason = reasonOption();
    const CompanionMigration result =
        migrateCompanion(connection(), poolKey(), AuditActor::thisProcess(), reason);
    const QString outcome = result.outcome == CompanionMigration::Outcome::Moved     ? "moved"
                            : result.outcome == CompanionMigration::Outcome::Nothing ? "nothing"
                                                                                     : "refused";
    if (m_json) {
        QJsonObject object{{QStringLiteral("outcome"), outcome},
                           {QStringLiteral("old_key"), memberText(result.oldKey)},
                           {QStringLiteral("new_key"), memberText(result.newKey)},
                           {QStringLiteral("evicted_members"), result.fields}};
        if (!result.reason.isEmpty())
            object.insert(QStringLiteral("error"), result.reason);
        printJson(object);
    } else if (result.outcome == CompanionMigration::Outcome::Moved) {
        m_out << "moved " << result.fields << " evicted members from " << memberText(result.oldKey)
              << " to " << memberText(result.newKey) << '\n';
    } else if (result.outcome == CompanionMigration::Outcome::Nothing) {
        m_out << "nothing to move: no " << memberText(result.oldKey) << '\n';
    }
    if (result.outcome == CompanionMigration::Outcome::Refused) {
        m_err << "poolscope-cli: not moved: " << result.reason << '\n';
        return kExitFailure;
    }
    return kExitOk;
}

} // namespace poolscope::cli
