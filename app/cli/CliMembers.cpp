// poolscope-cli evict, restore and list: actions on and views of single members.
#include "CliApp.h"

#include <algorithm>

namespace poolscope::cli {

int Cli::evict(const QStringList &args) {
    if (args.isEmpty())
        throw UsageError("evict needs at least one MEMBER");
    requireYes(args.size(), QStringLiteral("evict"));
    QJsonArray done;
    for (const QString &name : args) {
        const EvictResult result = pool().evict(name.toUtf8());
        if (m_json)
            done.append(QJsonObject{{QStringLiteral("member"), name},
                                    {QStringLiteral("saved_count"), result.savedCount}});
        else
            m_out << "evicted " << name << " (saved count " << formatCount(result.savedCount)
                  << ")\n";
    }
    if (m_json)
        printJson({{QStringLiteral("evicted"), done}});
    return kExitOk;
}

int Cli::restore(const QStringList &args) {
    if (args.isEmpty())
        throw UsageError("restore needs at least one MEMBER");
    const RestorePolicy policy = policyOption("restore");
    requireYes(args.size(), QStringLiteral("restore"));
    const double start = countOption(QStringLiteral("start"), 0);
    QJsonArray done;
    for (const QString &name : args) {
        const RestoreResult result = pool().restore(name.toUtf8(), policy, start);
        const std::optional<double> minimum = result.poolMinimumBefore;
        // The flood forecast: how many allocations in a row the member will take.
        const double forecast = minimum ? std::max(0.0, *minimum - result.restoredCount) : 0.0;
        if (m_json)
            done.append(QJsonObject{{QStringLiteral("member"), name},
                                    {QStringLiteral("policy"), restorePolicyName(policy)},
                                    {QStringLiteral("saved_count"), result.savedCount},
                                    {QStringLiteral("restored_count"), result.restoredCount},
                                    {QStringLiteral("forecast_run"), forecast}});
        else
            m_out << "restored " << name << " at " << formatCount(result.restoredCount)
                  << " (policy " << restorePolicyName(policy) << ", saved count "
                  << formatCount(result.savedCount) << "; it will take about the next "
                  << formatCount(forecast) << " allocations)\n";
    }
    if (m_json)
        printJson({{QStringLiteral("restored"), done}});
    return kExitOk;
}

int Cli::list(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("list takes no positional arguments");
    const PoolSnapshot snapshot = pool().snapshot();
    const bool evicted = m_parser.isSet(QStringLiteral("evicted"));
    if (m_json) {
        QJsonArray rows;
        if (evicted) {
            for (const EvictedMember &member : snapshot.evicted)
                rows.append(
                    QJsonObject{{QStringLiteral("member"), QString::fromUtf8(member.member)},
                                {QStringLiteral("saved_count"), member.savedCount}});
        } else {
            for (const PoolMember &member : snapshot.members)
                rows.append(
                    QJsonObject{{QStringLiteral("member"), QString::fromUtf8(member.member)},
                                {QStringLiteral("count"), member.count}});
        }
        printJson({{evicted ? QStringLiteral("evicted") : QStringLiteral("members"), rows}});
        return kExitOk;
    }
    if (evicted) {
        for (const EvictedMember &member : snapshot.evicted)
            m_out << QString::fromUtf8(member.member) << '\t' << formatCount(member.savedCount)
                  << '\n';
    } else {
        for (const PoolMember &member : snapshot.members)
            m_out << QString::fromUtf8(member.member) << '\t' << formatCount(member.count) << '\n';
    }
    return kExitOk;
}

} // namespace poolscope::cli
