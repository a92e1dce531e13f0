// poolscope-cli seed: reads a proxy list, judges it and writes the accepted members.
#include "CliApp.h"

#include "proxylist/Eligibility.h"
#include "proxylist/ProxyListParser.h"
#include "text/MemberText.h"

#include <QFile>

namespace poolscope::cli {

int Cli::seed(const QStringList &args) {
    if (args.size() != 1)
        throw UsageError("seed takes one FILE, or - for standard input");
    QByteArray data;
    if (args.first() == QStringLiteral("-")) {
        data = m_in.readAll();
    } else {
        QFile file(args.first());
        if (!file.open(QIODevice::ReadOnly)) {
            m_err << "poolscope-cli: cannot read " << args.first() << ": " << file.errorString()
                  << '\n';
            return kExitFailure;
        }
        data = file.readAll();
    }
    EligibilityRules rules;
    if (m_parser.isSet(QStringLiteral("allow-scheme"))) {
        rules.allowedSchemes.clear();
        for (const QString &scheme : m_parser.values(QStringLiteral("allow-scheme")))
            rules.allowedSchemes.insert(scheme.toLower());
    }
    for (const QString &port : m_parser.values(QStringLiteral("allow-port"))) {
        bool ok = false;
        const int value = port.toInt(&ok);
        if (!ok || value < 1 || value > 65535)
            throw UsageError(
                QStringLiteral("--allow-port %1 is not a port 1-65535").arg(port).toStdString());
        rules.allowedPorts.insert(value);
    }
    rules.rejectNonPublicAddresses = m_parser.isSet(QStringLiteral("reject-private"));

    SeedOptions options;
    const QString start = m_parser.value(QStringLiteral("start"));
    options.startAtPoolMinimum = start == QStringLiteral("min");
    if (!options.startAtPoolMinimum)
        options.startCount = countOption(QStringLiteral("start"), 0);
    options.overwrite = m_parser.isSet(QStringLiteral("overwrite"));
    options.dryRun = m_parser.isSet(QStringLiteral("dry-run"));
    options.reason = reasonOption();
    const bool strict = m_parser.isSet(QStringLiteral("strict"));

    const EligibilityReport report = readProxyList(data, rules);
    const QList<QByteArray> members = report.accepted.memberIds();

    const bool blocked = !report.fatalError.isEmpty() || (strict && !report.rejected.isEmpty());
    SeedResult result;
    QString stopped; // why the seed stopped part-way; empty when it ran to the end
    qint64 unknown = 0;
    if (!blocked) {
        if (options.overwrite && !options.dryRun && !m_parser.isSet(QStringLiteral("yes"))) {
            SeedOptions preview = options;
            preview.dryRun = true;
            requireYes(pool().seed(members, preview).overwritten.size(),
                       QStringLiteral("--overwrite"));
        }
        try {
            result = pool().seed(members, options);
        } catch (const PartialSeedError &e) {
            // Stopped after its first write: say what was written, whatever the cause.
            stopped = e.message();
            unknown = e.unknown();
            result = e.partial();
        }
    }

    const bool written = !blocked && !options.dryRun;
    if (m_json) {
        QJsonArray rejected;
        for (const RejectedLine &line : report.rejected)
            rejected.append(QJsonObject{{QStringLiteral("line"), line.lineNumber},
                                        {QStringLiteral("text"), line.text},
                                        {QStringLiteral("reason"), line.reason}});
        QJsonObject object{{QStringLiteral("accepted"), report.accepted.size()},
                           {QStringLiteral("rejected"), rejected},
                           {QStringLiteral("rejected_count"), report.rejectedCount},
                           {QStringLiteral("duplicates"), report.duplicates},
                           {QStringLiteral("added"), toJsonArray(result.added)},
                           {QStringLiteral("already_present"), toJsonArray(result.alreadyPresent)},
                           {QStringLiteral("overwritten"), toJsonArray(result.overwritten)},
                           {QStringLiteral("evicted"), toJsonArray(result.evicted)},
                           {QStringLiteral("start_count"), result.startCount},
                           {QStringLiteral("written"), written},
                           {QStringLiteral("dry_run"), options.dryRun}};
        if (result.highestStartCount != result.startCount)
            object.insert(QStringLiteral("highest_start_count"), result.highestStartCount);
        if (!report.fatalError.isEmpty())
            object.insert(QStringLiteral("error"), report.fatalError);
        if (!stopped.isEmpty()) {
            object.insert(QStringLiteral("error"), stopped);
            object.insert(QStringLiteral("complete"), false);
            object.insert(QStringLiteral("added_count"), result.added.size());
            object.insert(QStringLiteral("unknown"), unknown);
        }
        printJson(object);
    } else {
        if (!report.fatalError.isEmpty())
            m_err << "poolscope-cli: " << report.fatalError << '\n';
        for (const RejectedLine &line : report.rejected)
            m_out << "rejected line " << line.lineNumber << ": " << line.text << ": " << line.reason
                  << '\n';
        for (const QByteArray &member : result.evicted)
            m_out << "evicted, not re-added (restore it instead): " << memberText(member) << '\n';
        m_out << "accepted " << report.accepted.size() << ", rejected " << report.rejectedCount
              << ", duplicates " << report.duplicates << ", added " << result.added.size()
              << ", already present " << result.alreadyPresent.size() << ", overwritten "
              << result.overwritten.size() << ", evicted " << result.evicted.size() << '\n';
        if (blocked)
            m_out << "nothing written"
                  << (strict && report.fatalError.isEmpty() ? " (--strict)" : "") << '\n';
        else if (options.dryRun)
            m_out << "dry run: nothing written (new members would start at "
                  << formatCount(result.startCount) << ")\n";
        else if (result.highestStartCount != result.startCount)
            m_out << "new members start at " << formatCount(result.startCount) << " to "
                  << formatCount(result.highestStartCount)
                  << " (each batch at the pool minimum as it ran)\n";
        else
            m_out << "new members start at " << formatCount(result.startCount) << '\n';
    }
    if (!stopped.isEmpty()) {
        m_err << "poolscope-cli: seed stopped part-way: " << stopped << "; " << result.added.size()
              << " members were added before it stopped";
        if (unknown > 0)
            m_err << " (and " << unknown << " more were sent without a reply: they may or may "
                  << "not have been written)";
        m_err << '\n';
        return kExitFailure;
    }
    return report.allAccepted() ? kExitOk : kExitRejectedInput;
}

} // namespace poolscope::cli
