// Option parsing, dispatch to the commands and the helpers they share (the commands live in
// CliSeed.cpp, CliAllocate.cpp, CliMembers.cpp, CliWatch.cpp, CliExporter.cpp and CliRecord.cpp).
#include "CliCommands.h"

#include "CliApp.h"

#include "audit/AuditActor.h"
#include "pool/CompanionMigration.h"
#include "pool/PoolKeys.h"

#include "base/RedisError.h"
#include "pool/LuaScript.h"
#include "text/MemberText.h"
#include "topology/SentinelCommandLine.h"
#include "transport/ssh/SshCommandLine.h"
#include "transport/TlsCommandLine.h"

#include <cmath>
#include <functional>
#include <map>

namespace poolscope::cli {
namespace {

const char *kUsage = R"(Usage: poolscope-cli [--url URL] [--key KEY] [--json] COMMAND [ARGS...]

Commands:
  seed FILE|- [--start N|min] [--overwrite] [--dry-run] [--strict] [--yes]
              [--allow-scheme S]... [--allow-port P]... [--reject-private] [--reason TEXT]
                            add proxies from a list (lines, CSV or JSON) at a starting count
  allocate [-n N]           run the allocation script N times, print each chosen member
                            (with none of the options below and no --json)
  allocate -n N [--workers W] [--pipeline P] [--rate R] [--duration S] [--non-atomic]
           [--threads T]    test allocations at full speed: W connections with P commands
                            in flight each, at most R per second overall, N in all or for
                            S seconds; prints a report (JSON with --json). --non-atomic runs
                            the naive ZRANGE + ZINCRBY pair and counts collisions. T threads
                            drive the connections (default: half the CPU cores, at least 1).
                            Ctrl+C stops the run and still prints the report.
           [--wait-replicas N --wait-timeout MS]   WAIT N MS after each window of P
                            allocations. Behind Sentinel the report counts the acknowledged
                            allocations a failover lost (lost in failover).
  evict MEMBER... [--yes] [--reason TEXT]
                            move members out of the pool, keeping their counts
  restore MEMBER... --policy keep|zero|start|min [--start N] [--yes] [--reason TEXT]
                            move evicted members back into the pool
  list [--evicted]          members and counts in allocation order (or evicted ones)
  stats                     size, min/median/max, spread, Jain's fairness index
  script-sha                the SHA1 of the allocation script poolscope runs
  migrate-companion [--reason TEXT]
                            move the pool's evicted hash from its old (shared) name to the current
                            one (refused, changing nothing, when the old name was shared)
  audit [--since TIME] [--member M] [--actor A] [--action X] [--limit N]
                            the pool's audit trail, newest first: every seed batch, evict,
                            restore, migrate-companion and guard action, with who (Redis user,
                            host, program, pid, guard) and why. TIME: ISO 8601 or a time ago
                            (10m, 2h, 1d); M: a member id contains it; A: the actor's text
                            contains it (any case); X: seed, evict, restore, migrate-companion,
                            capped, uncapped (repeat or comma-separate); at most N entries
                            (default 100). Only reads
  watch [--interval MS] [--duration S] [--full-snapshot-threshold N]
                            poll the pool like the dashboard does (full snapshots up to N
                            members, default 10000; summaries above) and print one line per
                            poll until S seconds have passed or Ctrl+C
  exporter [--listen HOST:PORT] [--member-limit N]
                            serve the pools named with --key (repeat it for several) to
                            Prometheus at http://HOST:PORT/metrics (default 127.0.0.1:9750),
                            read fresh on every scrape with bounded commands; one series per
                            member for pools of up to N members (default 1000). Runs until
                            Ctrl+C or SIGTERM
  record [--db FILE] [--interval MS] [--full-snapshot-threshold N] [--duration S]
                            poll the pool like the dashboard and record its history to FILE
                            (default: a file per server and pool in
                            ~/.local/share/poolscope/poolscope/recordings) until Ctrl+C or
                            SIGTERM (or S seconds); one recorder per file, any number of readers
  pools [--interval MS]     every sorted set that looks like a pool, on the server or on
                            every primary of a cluster: node, size, min/median/max, spread,
                            evicted, and allocations/s measured over MS (default 1000; 0: no
                            rate). Read with bounded commands only
  scenario reset --policy keep|zero|start|min [--members M] [--rate R] [--start N]
                 [--seconds-before S] [--seconds-after S] [--replace]
                            the count-reset demo: seeds a fresh pool of M members (default 10)
                            at --key, allocates R per second (default 500), evicts one member
                            halfway through the S seconds before the restore (default 10),
                            restores it with the policy and keeps allocating S seconds
                            (default 10); prints the forecast run next to what happened.
                            Refuses a key that already holds a pool unless --replace.
  check MEMBER...|--all --target URL [--expect-status S] [--concurrency N] [--rate R]
        [--probe-connect-timeout MS] [--proxy-timeout MS] [--target-timeout MS]
        [--check-timeout MS] [--target-ca FILE] [--target-insecure]
                            one round of health checks through each member's proxy (HTTP
                            CONNECT or GET, https:// proxies, SOCKS5 with user/password,
                            SOCKS4) to URL; prints a table (or JSON) and records the results in
                            the pool's health hash, changing nothing in the pool. Statuses in S
                            count as healthy (default 200-399); at most N checks at once
                            (default 50) and R started per second (default: no cap). Members
                            on documentation, private or other non-routable addresses are never
                            probed ("not-checkable")
  guard --target URL [--interval S] [--fall N] [--rise N] [--restore-policy min|start|keep]
        [--max-evicted-percent P] [--check-new] [--rounds N] [check options]
                            checks every member (evicted ones too) every S seconds (default 10);
                            evicts after N consecutive failures (default 3), restores what it
                            evicted after N successes (default 2, policy min), never above P%
                            evicted (default 30: "the target or the network looks down");
                            --check-new evicts a new member on its first failure. One guard per
                            pool (a lease in Redis); a second one waits. Its actions go to the
                            pool's audit trail, its checks as their reason. Runs until Ctrl+C or
                            N rounds
  alert-check [--rules FILE] [--window S] [--interval MS] [--print-rules]
                            poll the pool for S seconds (default 5) and judge the alert rules
                            (the defaults, the profile's, or FILE's) once, as a Nagios / Icinga /
                            Sensu plugin: a status line with performance data, exit 0 OK,
                            1 WARNING, 2 CRITICAL, 3 UNKNOWN. `alert-check --help` lists the
                            rules and how a one-shot check treats their for-durations
  profile add NAME --url URL [--key KEY] [--group G] [--env production|staging|development]
              [--poll-interval MS] [--needs-password] [TLS and SSH options] [--replace]
              [--rules FILE]
                            save a connection in the dashboard's store (never a password: a URL
                            holding one is refused; give it at use time, or keep it in the
                            keychain from the dashboard); an existing NAME only with --replace
                            (its alert rules are kept); --rules: the alert rules of its pool
  profile list              saved connections: name, group, environment, URL, pool key
  profile remove NAME       delete a saved connection
  overview [--profile NAME]... [--group G]... [--watch S] [--interval MS]
                            every pool on the saved connections named (and those in the groups
                            named; none named: every saved connection), one row per pool found
                            on each server (every primary of a cluster) plus each connection's
                            own pool key: members, evicted, min/median/max, spread, Jain (pools
                            read whole, up to 1000 members), allocations/s, health up/down,
                            guard holder, last good poll, trends. One connection per server,
                            bounded commands only. Once: two readings MS apart (default 1000;
                            0: one, no rates), exit 1 when a server could not be read in full;
                            --watch S: read every S seconds (servers that fail: backing off to
                            at most a minute) and print the table every S seconds until Ctrl+C
                            or SIGTERM. A connection that needs a password takes it from the
                            keychain, or from --password-file / --password-stdin when it is the
                            only one named

Options:
  --url URL     redis://[user[:password]@]host[:port][/db], rediss://... (TLS) or
                unix:///path[?db=N], redis+sentinel://[user[:password]@]s1:26379,s2:26379/
                MASTER_NAME[/db] (default: $REDIS_URL, else redis://127.0.0.1:6379/0);
                redis+cluster://host:port[,host:port...] for Redis Cluster (a plain URL
                naming a cluster node works too)
  --sentinel-password PASSWORD   the sentinels' password (or $REDIS_SENTINEL_PASSWORD)
  --key KEY     the pool's sorted-set key (default: proxies)
  --json        machine-readable output
  --connect-timeout MS, --command-timeout MS   (defaults 2000 and 1000)
  --tls-ca FILE             TLS: trust only the CAs in FILE (default: the system's CAs);
                            the server's chain and name are always verified, unless
  --tls-insecure            no verification at all (a warning on stderr says so)
  --tls-server-name NAME    the name the certificate must carry, and the SNI (default: host)
  --tls-cert FILE --tls-key FILE   client certificate and its key (PEM)
  --tls-key-passphrase-file FILE   the passphrase of an encrypted --tls-key (first line)
  --ssh [user@]host[:port]  reach the URL's address (host:port or unix socket) from this SSH
                            host, through a tunnel; a ~/.ssh/config Host alias works too
  --ssh-key FILE            SSH key to log in with, after ssh-agent (default: the config's
                            IdentityFile, ~/.ssh/id_*); passphrase-protected keys: use the agent
  --ssh-accept-new          trust and record an SSH host key not yet in ~/.ssh/known_hosts
                            (unknown keys are refused without it; changed keys always are)
  --profile NAME            a connection saved in the dashboard (Connections...): its URL, TLS
                            and SSH settings, pool key and poll interval; options given here
                            override it. Through a production profile every write (seed,
                            allocate, evict, restore, scenario, migrate-companion, guard) needs
  --yes --confirm-key KEY   with KEY the pool key; without them it is refused (exit 2)
  --password-file FILE      the Redis password: the file's first line (refused when other users
                            can read the file)
  --password-stdin          the Redis password: the first line of standard input
  --help, --version   this text, or the program's version

Every write (seed, evict, restore, migrate-companion, guard, scenario) adds entries to the pool's
audit trail in the same script as the change; --reason TEXT says why (at most 500 characters,
credentials masked).

Exit codes: 0 ok, 1 connection or Redis error, 2 usage error, 3 empty pool (allocate),
65 some input lines were rejected (seed), 130 interrupted by Ctrl+C (allocate, scenario);
alert-check: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (the monitoring-plugin convention).

Text and JSON are in English whatever the locale, so scripts can rely on them (the dashboard,
poolscope, is translated).
)";

void onInterrupt(int) {
    g_interrupted.store(true);
}

void onTerminate(int) {
    g_terminated.store(true);
    g_interrupted.store(true);
}

} // namespace

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

InterruptGuard::InterruptGuard() {
    g_interrupted.store(false);
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &action, &m_previous);
}

InterruptGuard::~InterruptGuard() {
    sigaction(SIGINT, &m_previous, nullptr);
}

std::atomic<bool> g_terminated{false};

TerminateGuard::TerminateGuard() {
    g_terminated.store(false);
    struct sigaction action {};
    action.sa_handler = onTerminate;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, &m_previous);
}

TerminateGuard::~TerminateGuard() {
    sigaction(SIGTERM, &m_previous, nullptr);
}

int stopExitCode() {
    if (g_terminated.load())
        return kExitOk;
    return g_interrupted.load() ? kExitInterrupted : kExitOk;
}

QString percent(double share) {
    return QString::number(share * 100, 'f', 1) + QLatin1Char('%');
}

QJsonArray toJsonArray(const QList<QByteArray> &members) {
    QJsonArray array;
    for (const QByteArray &member : members)
        array.append(memberText(member));
    return array;
}

void Cli::declareOptions() {
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    m_parser.addOptions({
        {QStringLiteral("url"), QStringLiteral("Redis URL"), QStringLiteral("URL")},
        {QStringLiteral("key"), QStringLiteral("pool key"), QStringLiteral("KEY"),
         QStringLiteral("proxies")},
        {QStringLiteral("json"), QStringLiteral("JSON output")},
        {QStringLiteral("connect-timeout"), QStringLiteral("ms"), QStringLiteral("MS"),
         QStringLiteral("2000")},
        {QStringLiteral("command-timeout"), QStringLiteral("ms"), QStringLiteral("MS"),
         QStringLiteral("1000")},
        {QStringLiteral("start"), QStringLiteral("starting count"), QStringLiteral("N")},
        {QStringLiteral("overwrite"), QStringLiteral("overwrite counts")},
        {QStringLiteral("dry-run"), QStringLiteral("write nothing")},
        {QStringLiteral("strict"), QStringLiteral("write nothing when a line is rejected")},
        {QStringLiteral("yes"), QStringLiteral("confirm an action on several members")},
        {QStringLiteral("allow-scheme"), QStringLiteral("allowed scheme"), QStringLiteral("S")},
        {QStringLiteral("allow-port"), QStringLiteral("allowed port"), QStringLiteral("P")},
        {QStringLiteral("reject-private"), QStringLiteral("reject non-public addresses")},
        {QStringLiteral("n"), QStringLiteral("how many"), QStringLiteral("N"), QStringLiteral("1")},
        {QStringLiteral("policy"), QStringLiteral("restore policy"), QStringLiteral("POLICY")},
        {QStringLiteral("evicted"), QStringLiteral("list evicted members")},
        {QStringLiteral("workers"), QStringLiteral("load workers"), QStringLiteral("W"),
         QStringLiteral("1")},
        {QStringLiteral("pipeline"), QStringLiteral("commands in flight per worker"),
         QStringLiteral("P"), QStringLiteral("1")},
        {QStringLiteral("rate"), QStringLiteral("allocations per second"), QStringLiteral("R")},
        {QStringLiteral("duration"), QStringLiteral("seconds to run"), QStringLiteral("S")},
        {QStringLiteral("threads"), QStringLiteral("threads driving the connections"),
         QStringLiteral("T")},
        {QStringLiteral("wait-replicas"), QStringLiteral("WAIT for N replicas after a window"),
         QStringLiteral("N")},
        {QStringLiteral("wait-timeout"), QStringLiteral("WAIT's timeout"), QStringLiteral("MS"),
         QStringLiteral("1000")},
        {QStringLiteral("non-atomic"), QStringLiteral("naive ZRANGE + ZINCRBY (race demo)")},
        {QStringLiteral("members"), QStringLiteral("scenario pool size"), QStringLiteral("M"),
         QStringLiteral("10")},
        {QStringLiteral("replace"), QStringLiteral("replace an existing pool")},
        {QStringLiteral("seconds-before"), QStringLiteral("load before the restore"),
         QStringLiteral("S"), QStringLiteral("10")},
        {QStringLiteral("seconds-after"), QStringLiteral("load after the restore"),
         QStringLiteral("S"), QStringLiteral("10")},
        {QStringLiteral("interval"), QStringLiteral("poll interval"), QStringLiteral("MS"),
         QStringLiteral("1000")},
        {QStringLiteral("full-snapshot-threshold"), QStringLiteral("summary polls above"),
         QStringLiteral("N"), QStringLiteral("10000")},
        {QStringLiteral("listen"), QStringLiteral("exporter address"), QStringLiteral("HOST:PORT"),
         QStringLiteral("127.0.0.1:9750")},
        {QStringLiteral("member-limit"), QStringLiteral("per-member series up to"),
         QStringLiteral("N"), QStringLiteral("1000")},
        {QStringLiteral("db"), QStringLiteral("recording file"), QStringLiteral("FILE")},
        {QStringLiteral("watch"), QStringLiteral("overview: print every S seconds"),
         QStringLiteral("S")},
        // Health checks (check, guard).
        {QStringLiteral("target"), QStringLiteral("URL fetched through each proxy"),
         QStringLiteral("URL")},
        {QStringLiteral("all"), QStringLiteral("every member")},
        {QStringLiteral("expect-status"), QStringLiteral("healthy statuses"), QStringLiteral("S")},
        {QStringLiteral("concurrency"), QStringLiteral("checks in flight"), QStringLiteral("N")},
        {QStringLiteral("probe-connect-timeout"), QStringLiteral("ms"), QStringLiteral("MS")},
        {QStringLiteral("proxy-timeout"), QStringLiteral("ms"), QStringLiteral("MS")},
        {QStringLiteral("target-timeout"), QStringLiteral("ms"), QStringLiteral("MS")},
        {QStringLiteral("check-timeout"), QStringLiteral("ms"), QStringLiteral("MS")},
        {QStringLiteral("target-ca"), QStringLiteral("CA file"), QStringLiteral("FILE")},
        {QStringLiteral("target-insecure"), QStringLiteral("no TLS verification of checks")},
        {QStringLiteral("fall"), QStringLiteral("failures to evict"), QStringLiteral("N")},
        {QStringLiteral("rise"), QStringLiteral("successes to restore"), QStringLiteral("N")},
        {QStringLiteral("restore-policy"), QStringLiteral("guard's restore policy"),
         QStringLiteral("POLICY")},
        {QStringLiteral("max-evicted-percent"), QStringLiteral("cap"), QStringLiteral("P")},
        {QStringLiteral("check-new"), QStringLiteral("evict new members on first failure")},
        {QStringLiteral("rounds"), QStringLiteral("guard rounds, 0 = until stopped"),
         QStringLiteral("N")},
        // The audit trail: why (writes), and the audit command's filters.
        {QStringLiteral("reason"), QStringLiteral("why, for the audit trail"),
         QStringLiteral("TEXT")},
        {QStringLiteral("since"), QStringLiteral("entries from"), QStringLiteral("TIME")},
        {QStringLiteral("member"), QStringLiteral("entries naming a member"), QStringLiteral("M")},
        {QStringLiteral("actor"), QStringLiteral("entries by"), QStringLiteral("A")},
        {QStringLiteral("action"), QStringLiteral("entries of an action"), QStringLiteral("X")},
        {QStringLiteral("limit"), QStringLiteral("entries at most"), QStringLiteral("N")},
        {QStringLiteral("rules"), QStringLiteral("alert rules file"), QStringLiteral("FILE")},
        {QStringLiteral("window"), QStringLiteral("alert-check's polling"), QStringLiteral("S")},
        {QStringLiteral("print-rules"), QStringLiteral("print the alert rules in force")},
        {{QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("help")},
        {QStringLiteral("version"), QStringLiteral("version")},
    });
    m_parser.addOptions(transport::tlsCommandLineOptions()); // TLS, for every command
    m_parser.addOptions(transport::sshCommandLineOptions()); // SSH tunnels, likewise
    m_parser.addOptions(profileCommandLineOptions());        // saved connections and secrets
    m_parser.addOptions(topology::sentinelCommandLineOptions());
}

std::pair<Endpoint, ConnectionOptions> Cli::target() {
    Endpoint endpoint = baseEndpoint();
    applyTls(endpoint);
    if (const QString problem = transport::applySshCommandLine(m_parser, endpoint);
        !problem.isEmpty())
        throw UsageError(problem.toStdString());
    applyPassword(endpoint);
    if (const QString problem = topology::applySentinelCommandLine(m_parser, endpoint);
        !problem.isEmpty())
        throw UsageError(problem.toStdString());
    if (endpoint.tls.insecure)
        m_err << "poolscope-cli: warning: the TLS server is NOT verified (--tls-insecure)\n";
    ConnectionOptions options;
    options.clientName = QStringLiteral("poolscope-cli");
    bool ok1 = false, ok2 = false;
    const int connectMs = m_parser.value(QStringLiteral("connect-timeout")).toInt(&ok1);
    const int commandMs = m_parser.value(QStringLiteral("command-timeout")).toInt(&ok2);
    if (!ok1 || !ok2 || connectMs <= 0 || commandMs <= 0)
        throw UsageError(
            "--connect-timeout and --command-timeout take a positive number of milliseconds");
    options.connectTimeout = std::chrono::milliseconds(connectMs);
    options.commandTimeout = std::chrono::milliseconds(commandMs);
    return {endpoint, options};
}

QByteArray Cli::poolKey() {
    const ConnectionProfile *saved = profile();
    const QByteArray key = saved && !m_parser.isSet(QStringLiteral("key"))
                               ? saved->poolKey
                               : m_parser.value(QStringLiteral("key")).toUtf8();
    if (key.isEmpty())
        throw UsageError("--key is empty: name the pool's sorted set");
    return key;
}

RedisConnection &Cli::connection() {
    if (!m_connection) {
        const auto [endpoint, options] = target();
        m_connection = RedisConnection::open(endpoint, options);
    }
    return *m_connection;
}

PoolOperations &Cli::pool() {
    if (!m_pool) {
        m_pool = std::make_unique<PoolOperations>(connection(), poolKey());
        // An old evicted hash is not read (so its members neither show nor can be restored)
        // until it is migrated: say so rather than let them look lost.
        if (const qint64 stranded = unmigratedCompanionMembers(connection(), poolKey()))
            m_err << QStringLiteral("poolscope-cli: warning: %1 evicted member(s) of this pool "
                                    "are still in its pre-0.2 hash %2, which is not read; run "
                                    "`poolscope-cli migrate-companion` to move them\n")
                         .arg(stranded)
                         .arg(describeMember(PoolKeys(poolKey()).legacyEvicted()));
    }
    return *m_pool;
}

double Cli::numberOption(const QString &name, double fallback, double minimum, double maximum) {
    if (!m_parser.isSet(name) && m_parser.value(name).isEmpty())
        return fallback;
    bool ok = false;
    const double value = m_parser.value(name).toDouble(&ok);
    if (!ok || !std::isfinite(value) || value < minimum || value > maximum)
        throw UsageError(QStringLiteral("--%1 %2 is not a number from %3 to %4")
                             .arg(name, m_parser.value(name))
                             .arg(minimum)
                             .arg(maximum)
                             .toStdString());
    return value;
}

int Cli::wholeOption(const QString &name, int fallback, int minimum, int maximum) {
    const double value = numberOption(name, fallback, minimum, maximum);
    if (value != std::floor(value))
        throw UsageError(QStringLiteral("--%1 %2 is not a whole number (from %3 to %4)")
                             .arg(name, m_parser.value(name))
                             .arg(minimum)
                             .arg(maximum)
                             .toStdString());
    return static_cast<int>(value);
}

double Cli::countOption(const QString &name, double fallback) {
    if (!m_parser.isSet(name))
        return fallback;
    QString problem;
    const std::optional<double> value = parseCount(m_parser.value(name), &problem);
    if (!value)
        throw UsageError(QStringLiteral("--%1: %2").arg(name, problem).toStdString());
    return *value;
}

RestorePolicy Cli::policyOption(const char *command) {
    if (!m_parser.isSet(QStringLiteral("policy")))
        throw UsageError(std::string(command) + " needs --policy keep|zero|start|min");
    const QString value = m_parser.value(QStringLiteral("policy"));
    const std::optional<RestorePolicy> policy = parseRestorePolicy(value);
    if (!policy)
        throw UsageError(
            QStringLiteral("unknown --policy \"%1\" (expected keep, zero, start or min)")
                .arg(value)
                .toStdString());
    return *policy;
}

QString Cli::reasonOption() {
    const QString reason = m_parser.value(QStringLiteral("reason"));
    if (const QString problem = validateAuditReason(reason); !problem.isEmpty())
        throw UsageError(QStringLiteral("--reason: %1").arg(problem).toStdString());
    return reason;
}

void Cli::requireYes(qsizetype affected, const QString &what) {
    if (affected > 1 && !m_parser.isSet(QStringLiteral("yes")))
        throw UsageError(QStringLiteral("%1 would affect %2 members: add --yes to confirm")
                             .arg(what)
                             .arg(affected)
                             .toStdString());
}

int Cli::scriptSha(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("script-sha takes no arguments");
    const QString sha = QString::fromLatin1(LuaScript::allocate().sha1());
    if (m_json)
        printJson({{QStringLiteral("sha1"), sha}});
    else
        m_out << sha << '\n';
    return kExitOk;
}

int Cli::usageFailure(const QString &problem) {
    m_err << "poolscope-cli: " << problem << "\n\n" << kUsage;
    if (m_json)
        printJson({{QStringLiteral("error"), problem},
                   {QStringLiteral("kind"), QStringLiteral("usage")}});
    return kExitUsage;
}

int Cli::run(const QStringList &arguments) {
    declareOptions();
    // QCommandLineParser wants a program name first.
    // Known before parsing, so that a command line that does not parse still answers in JSON.
    m_json = arguments.contains(QStringLiteral("--json"));
    // alert-check answers every problem as a plugin does: UNKNOWN, exit 3.
    const bool plugin = arguments.contains(QStringLiteral("alert-check"));
    if (!m_parser.parse(QStringList{QStringLiteral("poolscope-cli")} + arguments))
        return plugin ? pluginUnknown(QStringLiteral("usage"), m_parser.errorText())
                      : usageFailure(m_parser.errorText());
    if (m_parser.isSet(QStringLiteral("help"))) {
        m_out << (m_parser.positionalArguments().value(0) == QLatin1String("alert-check")
                      ? alertCheckHelp()
                      : QString::fromUtf8(kUsage));
        return kExitOk;
    }
    if (m_parser.isSet(QStringLiteral("version"))) {
        m_out << "poolscope-cli " << POOLSCOPE_VERSION << '\n'; // project(VERSION) in CMake
        return kExitOk;
    }
    m_json = m_parser.isSet(QStringLiteral("json"));
    const QStringList positional = m_parser.positionalArguments();
    if (positional.isEmpty())
        return usageFailure(QStringLiteral("no command given"));
    // writes: changes the server; through a production profile it needs --yes --confirm-key.
    struct Command {
        std::function<int(const QStringList &)> run;
        bool writes = false;
    };
    auto command = [this](int (Cli::*method)(const QStringList &), bool writes = false) {
        return Command{[this, method](const QStringList &a) { return (this->*method)(a); }, writes};
    };
    const std::map<QString, Command> commands{
        {QStringLiteral("seed"), command(&Cli::seed, true)},
        {QStringLiteral("allocate"), command(&Cli::allocate, true)},
        {QStringLiteral("evict"), command(&Cli::evict, true)},
        {QStringLiteral("restore"), command(&Cli::restore, true)},
        {QStringLiteral("list"), command(&Cli::list)},
        {QStringLiteral("stats"), command(&Cli::stats)},
        {QStringLiteral("script-sha"), command(&Cli::scriptSha)},
        {QStringLiteral("scenario"), command(&Cli::scenario, true)},
        {QStringLiteral("watch"), command(&Cli::watch)},
        {QStringLiteral("exporter"), command(&Cli::exporter)},
        {QStringLiteral("record"), command(&Cli::record)},
        {QStringLiteral("pools"), command(&Cli::pools)},
        {QStringLiteral("migrate-companion"), command(&Cli::migrateCompanionCommand, true)},
        {QStringLiteral("check"), command(&Cli::check)},
        {QStringLiteral("guard"), command(&Cli::guard, true)},
        {QStringLiteral("audit"), command(&Cli::audit)},
        {QStringLiteral("profile"), command(&Cli::profileCommand)},
        {QStringLiteral("alert-check"), command(&Cli::alertCheck)},
        {QStringLiteral("overview"), command(&Cli::overview)},
    };
    const auto found = commands.find(positional.first());
    if (found == commands.end())
        return usageFailure(QStringLiteral("unknown command \"%1\"").arg(positional.first()));
    try {
        // Decided here, before any connection, for every writing command alike.
        const bool dryRun =
            found->first == QLatin1String("seed") && m_parser.isSet(QStringLiteral("dry-run"));
        if (found->second.writes && !dryRun)
            requireProductionConfirmation(found->first);
        return found->second.run(positional.mid(1));
    } catch (const ConfirmationRequired &e) {
        m_err << "poolscope-cli: " << e.what() << '\n';
        if (m_json)
            printJson({{QStringLiteral("error"), QString::fromUtf8(e.what())},
                       {QStringLiteral("kind"), QStringLiteral("confirmation")}});
        return kExitUsage;
    } catch (const UsageError &e) {
        m_err << "poolscope-cli: " << e.what() << '\n';
        if (m_json)
            printJson({{QStringLiteral("error"), QString::fromUtf8(e.what())},
                       {QStringLiteral("kind"), QStringLiteral("usage")}});
        return kExitUsage;
    } catch (const RedisError &e) {
        m_err << "poolscope-cli: " << e.message() << '\n';
        if (m_json)
            printJson({{QStringLiteral("error"), e.message()},
                       {QStringLiteral("code"), QString::fromUtf8(e.serverCode())}});
        return kExitFailure;
    }
}

int run(const QStringList &arguments, QTextStream &out, QTextStream &err, QIODevice &in) {
    Cli cli(out, err, in);
    return cli.run(arguments);
}

} // namespace poolscope::cli
