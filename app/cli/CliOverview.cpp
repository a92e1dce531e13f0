// `poolscope-cli overview`: every pool on every saved connection chosen, side by side, once or
// every few seconds; the rows and columns are the core's (OverviewPoller, OverviewModel), as the
// dashboard will show them.
#include "CliApp.h"

#include "overview/OverviewExport.h"
#include "overview/OverviewModel.h"
#include "overview/OverviewPoller.h"
#include "profiles/ProfileStore.h"

#include <algorithm>
#include <cmath>

#include <QDateTime>
#include <QEventLoop>
#include <QSet>
#include <QTimer>

namespace poolscope::cli {
namespace {

QJsonObject serverToJson(const OverviewServerStatus &server) {
    QJsonObject object{
        {QStringLiteral("connections"), QJsonArray::fromStringList(server.connections)},
        {QStringLiteral("address"), server.address},
        {QStringLiteral("state"), serverStateName(server.state)},
        {QStringLiteral("last_good_poll_ms"),
         server.lastGoodPollMs > 0 ? QJsonValue(server.lastGoodPollMs) : QJsonValue()},
        {QStringLiteral("attempts"), server.attempts},
        {QStringLiteral("consecutive_failures"), server.consecutiveFailures},
        {QStringLiteral("retrying"), server.retrying},
    };
    if (!server.problem.isEmpty()) {
        object.insert(QStringLiteral("error"), server.problem);
        object.insert(QStringLiteral("error_kind"), errorKindName(server.errorKind));
    }
    if (!server.serverVersion.isEmpty())
        object.insert(QStringLiteral("server_version"), server.serverVersion);
    if (server.lastGoodPollMs > 0)
        object.insert(QStringLiteral("last_reading_ms"), server.lastReadingMs);
    return object;
}

// The model's header and rows as text, each column as wide as its widest cell.
QString alignedTable(const OverviewModel &model) {
    QList<QStringList> cells;
    QStringList header;
    for (int column = 0; column < model.columnCount(); ++column)
        header << model.headerData(column, Qt::Horizontal).toString().toUpper();
    cells << header;
    for (int row = 0; row < model.rowCount(); ++row) {
        QStringList line;
        for (int column = 0; column < model.columnCount(); ++column)
            line << model.index(row, column).data().toString();
        cells << line;
    }
    QList<qsizetype> widths(model.columnCount(), 0);
    for (const QStringList &line : cells)
        for (qsizetype column = 0; column < line.size(); ++column)
            widths[column] = std::max(widths[column], line[column].size());
    QString text;
    for (const QStringList &line : cells) {
        QString out;
        for (qsizetype column = 0; column < line.size(); ++column) {
            const bool last = column + 1 == line.size();
            const bool right = model.headerData(int(column), Qt::Horizontal).isValid() &&
                               model.rowCount() > 0 &&
                               model.index(0, int(column)).data(Qt::TextAlignmentRole).isValid();
            if (last)
                out += line[column];
            else if (right)
                out += line[column].rightJustified(widths[column]) + QStringLiteral("  ");
            else
                out += line[column].leftJustified(widths[column]) + QStringLiteral("  ");
        }
        while (out.endsWith(QLatin1Char(' ')))
            out.chop(1);
        text += out + QLatin1Char('\n');
    }
    return text;
}

} // namespace

QList<OverviewConnection> Cli::overviewConnections() {
    ProfileStore store;
    const QStringList saved = store.names();
    if (saved.isEmpty())
        throw UsageError(QStringLiteral("overview: no saved connections (in %1): add one with "
                                        "`poolscope-cli profile add NAME --url URL`")
                             .arg(store.fileName())
                             .toStdString());
    const QStringList named = m_parser.values(QStringLiteral("profile"));
    const QStringList groups = m_parser.values(QStringLiteral("group"));
    QStringList chosen;
    for (const QString &name : named) {
        if (!store.contains(name))
            throw UsageError(QStringLiteral("overview: --profile \"%1\": no saved connection of "
                                            "that name (`poolscope-cli profile list` lists them)")
                                 .arg(name)
                                 .toStdString());
        if (!chosen.contains(name))
            chosen << name;
    }
    QSet<QString> groupsFound;
    QList<ProfileLoadResult> loaded;
    for (const QString &name : saved)
        loaded << store.load(name);
    for (qsizetype i = 0; i < saved.size(); ++i) {
        const QString group = loaded[i].ok() ? loaded[i].profile->group : QString();
        if (groups.contains(group)) {
            groupsFound.insert(group);
            if (!chosen.contains(saved[i]))
                chosen << saved[i];
        }
    }
    for (const QString &group : groups)
        if (!groupsFound.contains(group))
            throw UsageError(
                QStringLiteral("overview: --group \"%1\": no saved connection in that group")
                    .arg(group)
                    .toStdString());
    if (named.isEmpty() && groups.isEmpty())
        chosen = saved;

    const bool passwordGiven = m_parser.isSet(QStringLiteral("password-file")) ||
                               m_parser.isSet(QStringLiteral("password-stdin"));
    if (passwordGiven && chosen.size() != 1)
        throw UsageError("overview: --password-file and --password-stdin give the password of "
                         "one connection: name exactly one with --profile (the others' come "
                         "from the keychain)");
    bool ok1 = false, ok2 = false;
    const int connectMs = m_parser.value(QStringLiteral("connect-timeout")).toInt(&ok1);
    const int commandMs = m_parser.value(QStringLiteral("command-timeout")).toInt(&ok2);
    if (!ok1 || !ok2 || connectMs <= 0 || commandMs <= 0)
        throw UsageError(
            "--connect-timeout and --command-timeout take a positive number of milliseconds");

    QList<OverviewConnection> connections;
    for (const QString &name : chosen) {
        const ProfileLoadResult &result = loaded[saved.indexOf(name)];
        if (!result.ok()) {
            OverviewConnection damaged;
            damaged.name = name;
            damaged.problem = result.error;
            connections << damaged;
            continue;
        }
        const ConnectionProfile &profile = *result.profile;
        OverviewConnection connection = OverviewConnection::fromProfile(profile);
        connection.options.connectTimeout = std::chrono::milliseconds(connectMs);
        connection.options.commandTimeout = std::chrono::milliseconds(commandMs);
        if (connection.problem.isEmpty() && connection.endpoint.tls.insecure)
            m_err << "poolscope-cli: warning: the TLS server of \"" << name
                  << "\" is NOT verified (its saved connection says so)\n";
        if (connection.problem.isEmpty() && passwordGiven) {
            applyPassword(connection.endpoint);
        } else if (connection.problem.isEmpty() && profile.needsPassword) {
            std::optional<QString> password;
            if (profile.rememberSecrets)
                password = readKeychain(name, transport::SecretKind::RedisPassword);
            if (password) {
                connection.endpoint.password = *password;
            } else {
                connection.problem =
                    QStringLiteral("needs a password%1: give it with --profile \"%2\" and "
                                   "--password-file FILE or --password-stdin")
                        .arg(profile.rememberSecrets ? QStringLiteral(" (none in the keychain)")
                                                     : QString(),
                             name);
                connection.problemKind = RedisError::Kind::Authentication;
            }
        }
        connections << connection;
    }
    return connections;
}

int Cli::overview(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("overview takes no positional arguments (name connections with "
                         "--profile NAME or --group G)");
    if (m_parser.isSet(QStringLiteral("url")))
        throw UsageError("overview reads saved connections: name them with --profile NAME or "
                         "--group G (none: every one); --url is not used");
    double watchSeconds = 0;
    if (m_parser.isSet(QStringLiteral("watch"))) {
        watchSeconds = numberOption(QStringLiteral("watch"), 5, 0.1, 86400);
    }
    // Once: two readings this far apart, for the allocation rates (0: one reading, no rates).
    const int intervalMs = wholeOption(QStringLiteral("interval"), 1000, 0, 60000);
    const QList<OverviewConnection> connections = overviewConnections();

    OverviewPoller poller;
    poller.setInterval(std::chrono::milliseconds(
        watchSeconds > 0 ? qint64(std::lround(watchSeconds * 1000)) : std::max(intervalMs, 10)));
    OverviewModel model;
    QObject::connect(&poller, &OverviewPoller::rowsChanged, &model,
                     [&model, &poller] { model.setRows(poller.rows()); });

    bool allRead = true;
    const auto print = [&] {
        const QList<OverviewServerStatus> servers = poller.servers();
        allRead = std::all_of(servers.cbegin(), servers.cend(), [](const auto &server) {
            return server.state == OverviewServerStatus::State::Ok;
        });
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (m_json) {
            QJsonArray serverRows;
            for (const OverviewServerStatus &server : servers)
                serverRows.append(serverToJson(server));
            printJson({{QStringLiteral("time_ms"), now},
                       {QStringLiteral("rows"), overviewJson(model)},
                       {QStringLiteral("servers"), serverRows}});
        } else {
            const qsizetype unreachable =
                std::count_if(servers.cbegin(), servers.cend(), [](const auto &server) {
                    return server.state != OverviewServerStatus::State::Ok;
                });
            m_out << "overview at "
                  << QDateTime::fromMSecsSinceEpoch(now).toString(QStringLiteral("HH:mm:ss"))
                  << ": " << connections.size() << " connection(s), " << servers.size()
                  << " server(s)";
            if (unreachable > 0)
                m_out << ", " << unreachable << " not read in full";
            m_out << '\n' << alignedTable(model);
        }
        m_out.flush();
    };

    QEventLoop loop;
    int exitCode = kExitOk;
    const InterruptGuard interrupt;
    const TerminateGuard terminate;
    QTimer interruptCheck;
    QObject::connect(&interruptCheck, &QTimer::timeout, &loop, [&] {
        if (g_interrupted.load()) {
            exitCode = stopExitCode();
            loop.quit();
        }
    });
    interruptCheck.start(100);
    // --watch: a table after every round (every server read or failed); when a server backing
    // off holds a round back, the table is printed anyway after one and a half periods.
    QTimer fallback;
    fallback.setSingleShot(true);
    const auto watchPeriod = std::chrono::milliseconds(qint64(std::lround(watchSeconds * 1500)));
    QObject::connect(&fallback, &QTimer::timeout, &loop, [&] {
        print();
        fallback.start(watchPeriod);
    });
    const quint64 roundsWanted = watchSeconds > 0 || intervalMs == 0 ? 1 : 2;
    QObject::connect(&poller, &OverviewPoller::roundCompleted, &loop, [&](quint64 round) {
        // No server left to read (none can be polled, or each refused our credentials): no
        // second round will come.
        const QList<OverviewServerStatus> servers = poller.servers();
        const bool anyPolled =
            std::any_of(servers.cbegin(), servers.cend(), [](const OverviewServerStatus &s) {
                return s.retrying && s.state != OverviewServerStatus::State::NotPolled;
            });
        if (round < roundsWanted && anyPolled)
            return;
        print();
        if (watchSeconds > 0)
            fallback.start(watchPeriod);
        else
            loop.quit();
    });
    poller.setConnections(connections);
    loop.exec();
    if (watchSeconds > 0)
        return exitCode;
    if (exitCode != kExitOk)
        return exitCode;
    return allRead ? kExitOk : kExitFailure;
}

} // namespace poolscope::cli
