#include "CliCommands.h"

#include "load/LoadRunner.h"
#include "load/ResetScenario.h"
#include "monitor/PoolMonitor.h"
#include "pool/LuaScript.h"
#include "pool/PoolOperations.h"
#include "proxylist/Eligibility.h"
#include "proxylist/ProxyListParser.h"
#include "redis/BrokenPipe.h"
#include "redis/RedisError.h"

#include <atomic>
#include <cmath>
#include <csignal>
#include <functional>
#include <map>
#include <tuple>

#include <QCommandLineParser>
#include <QDateTime>
#include <QEventLoop>
#include <QTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace poolscope::cli {
namespace {

const char *kUsage = R"(Usage: poolscope-cli [--url URL] [--key KEY] [--json] COMMAND [ARGS...]

Commands:
  seed FILE|- [--start N|min] [--overwrite] [--dry-run] [--strict] [--yes]
              [--allow-scheme S]... [--allow-port P]... [--reject-private]
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
  evict MEMBER... [--yes]   move members out of the pool, keeping their counts
  restore MEMBER... --policy keep|zero|start|min [--start N] [--yes]
                            move evicted members back into the pool
  list [--evicted]          members and counts in allocation order (or evicted ones)
  stats                     size, min/median/max, spread, Jain's fairness index
  script-sha                the SHA1 of the allocation script poolscope runs
  watch [--interval MS] [--duration S] [--full-snapshot-threshold N]
                            poll the pool like the dashboard does (full snapshots up to N
                            members, default 10000; summaries above) and print one line per
                            poll until S seconds have passed or Ctrl+C
  scenario reset --policy keep|zero|start|min [--members M] [--rate R] [--start N]
                 [--seconds-before S] [--seconds-after S] [--replace]
                            the count-reset demo: seeds a fresh pool of M members (default 10)
                            at --key, allocates R per second (default 500), evicts one member
                            halfway through the S seconds before the restore (default 10),
                            restores it with the policy and keeps allocating S seconds
                            (default 10); prints the forecast run next to what happened.
                            Refuses a key that already holds a pool unless --replace.

Options:
  --url URL     redis://[user[:password]@]host[:port][/db] or unix:///path[?db=N]
                (default: $REDIS_URL, else redis://127.0.0.1:6379/0)
  --key KEY     the pool's sorted-set key (default: proxies)
  --json        machine-readable output
  --connect-timeout MS, --command-timeout MS   (defaults 2000 and 1000)
  --help, --version   this text, or the program's version

Exit codes: 0 ok, 1 connection or Redis error, 2 usage error, 3 empty pool (allocate),
65 some input lines were rejected (seed), 130 interrupted by Ctrl+C (allocate, scenario).
)";

constexpr int kExitInterrupted = 130; // 128 + SIGINT, as shells report it

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

void onInterrupt(int) {
    g_interrupted.store(true);
}

// While a run lasts, the first Ctrl+C asks it to stop (and print its report); a second one
// kills the process as usual (SA_RESETHAND).
class InterruptGuard {
public:
    InterruptGuard() {
        g_interrupted.store(false);
        struct sigaction action {};
        action.sa_handler = onInterrupt;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        sigaction(SIGINT, &action, &m_previous);
    }
    ~InterruptGuard() { sigaction(SIGINT, &m_previous, nullptr); }
    InterruptGuard(const InterruptGuard &) = delete;
    InterruptGuard &operator=(const InterruptGuard &) = delete;

private:
    struct sigaction m_previous {};
};

QString percent(double share) {
    return QString::number(share * 100, 'f', 1) + QLatin1Char('%');
}

QJsonArray toJsonArray(const QList<QByteArray> &members) {
    QJsonArray array;
    for (const QByteArray &member : members)
        array.append(QString::fromUtf8(member));
    return array;
}

class Cli {
public:
    Cli(QTextStream &out, QTextStream &err, QIODevice &in)
        : m_out(out)
        , m_err(err)
        , m_in(in) {}

    int run(const QStringList &arguments);

private:
    void declareOptions();
    std::pair<Endpoint, ConnectionOptions> target();
    QByteArray poolKey();
    RedisConnection &connection();
    PoolOperations &pool();
    void printJson(const QJsonObject &object) {
        m_out << QJsonDocument(object).toJson(QJsonDocument::Compact) << '\n';
    }
    double countOption(const QString &name, double fallback);
    void requireYes(qsizetype affected, const QString &what);
    // --policy, required; command names the command in the error.
    RestorePolicy policyOption(const char *command);
    double numberOption(const QString &name, double fallback, double minimum, double maximum);

    int allocateOneByOne(qint64 count);
    int allocateUnderLoad(qint64 count);
    void printLoadReport(const LoadReport &report);
    void printScenarioReport(const ResetScenarioReport &report);

    int seed(const QStringList &args);
    int allocate(const QStringList &args);
    int evict(const QStringList &args);
    int restore(const QStringList &args);
    int list(const QStringList &args);
    int stats(const QStringList &args);
    int scriptSha(const QStringList &args);
    int scenario(const QStringList &args);
    int watch(const QStringList &args);

    QTextStream &m_out;
    QTextStream &m_err;
    QIODevice &m_in;
    QCommandLineParser m_parser;
    bool m_json = false;
    std::unique_ptr<RedisConnection> m_connection;
    std::unique_ptr<PoolOperations> m_pool;
};

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
        {{QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("help")},
        {QStringLiteral("version"), QStringLiteral("version")},
    });
}

std::pair<Endpoint, ConnectionOptions> Cli::target() {
    const QString url = m_parser.isSet(QStringLiteral("url"))
                            ? m_parser.value(QStringLiteral("url"))
                            : defaultRedisUrl();
    const EndpointParseResult parsed = parseEndpoint(url);
    if (!parsed.ok())
        throw UsageError(QStringLiteral("bad --url: %1").arg(parsed.error).toStdString());
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
    return {*parsed.endpoint, options};
}

QByteArray Cli::poolKey() {
    const QByteArray key = m_parser.value(QStringLiteral("key")).toUtf8();
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
    if (!m_pool)
        m_pool = std::make_unique<PoolOperations>(connection(), poolKey());
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
    const bool strict = m_parser.isSet(QStringLiteral("strict"));

    const EligibilityReport report = readProxyList(data, rules);
    QList<QByteArray> members;
    for (const ProxyEntry &entry : report.accepted)
        members.append(entry.memberId());

    const bool blocked = !report.fatalError.isEmpty() || (strict && !report.rejected.isEmpty());
    SeedResult result;
    if (!blocked) {
        if (options.overwrite && !options.dryRun && !m_parser.isSet(QStringLiteral("yes"))) {
            SeedOptions preview = options;
            preview.dryRun = true;
            requireYes(pool().seed(members, preview).overwritten.size(),
                       QStringLiteral("--overwrite"));
        }
        result = pool().seed(members, options);
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
                           {QStringLiteral("duplicates"), report.duplicates},
                           {QStringLiteral("added"), toJsonArray(result.added)},
                           {QStringLiteral("already_present"), toJsonArray(result.alreadyPresent)},
                           {QStringLiteral("overwritten"), toJsonArray(result.overwritten)},
                           {QStringLiteral("evicted"), toJsonArray(result.evicted)},
                           {QStringLiteral("start_count"), result.startCount},
                           {QStringLiteral("written"), written},
                           {QStringLiteral("dry_run"), options.dryRun}};
        if (!report.fatalError.isEmpty())
            object.insert(QStringLiteral("error"), report.fatalError);
        printJson(object);
    } else {
        if (!report.fatalError.isEmpty())
            m_err << "poolscope-cli: " << report.fatalError << '\n';
        for (const RejectedLine &line : report.rejected)
            m_out << "rejected line " << line.lineNumber << ": " << line.text << ": " << line.reason
                  << '\n';
        for (const QByteArray &member : result.evicted)
            m_out << "evicted, not re-added (restore it instead): " << QString::fromUtf8(member)
                  << '\n';
        m_out << "accepted " << report.accepted.size() << ", rejected " << report.rejected.size()
              << ", duplicates " << report.duplicates << ", added " << result.added.size()
              << ", already present " << result.alreadyPresent.size() << ", overwritten "
              << result.overwritten.size() << ", evicted " << result.evicted.size() << '\n';
        if (blocked)
            m_out << "nothing written"
                  << (strict && report.fatalError.isEmpty() ? " (--strict)" : "") << '\n';
        else if (options.dryRun)
            m_out << "dry run: nothing written (new members would start at "
                  << formatCount(result.startCount) << ")\n";
        else
            m_out << "new members start at " << formatCount(result.startCount) << '\n';
    }
    return report.allAccepted() ? kExitOk : kExitRejectedInput;
}

int Cli::allocate(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("allocate takes no positional arguments (use -n N)");
    bool ok = false;
    const qint64 count = m_parser.value(QStringLiteral("n")).toLongLong(&ok);
    if (!ok || count < 1)
        throw UsageError(QStringLiteral("-n %1 is not a positive number")
                             .arg(m_parser.value(QStringLiteral("n")))
                             .toStdString());
    const bool underLoad =
        m_json || m_parser.isSet(QStringLiteral("workers")) ||
        m_parser.isSet(QStringLiteral("threads")) || m_parser.isSet(QStringLiteral("pipeline")) ||
        m_parser.isSet(QStringLiteral("rate")) || m_parser.isSet(QStringLiteral("duration")) ||
        m_parser.isSet(QStringLiteral("non-atomic"));
    return underLoad ? allocateUnderLoad(count) : allocateOneByOne(count);
}

int Cli::allocateOneByOne(qint64 count) {
    const BrokenPipeGuard brokenPipeGuard;
    for (qint64 i = 0; i < count; ++i) {
        const std::optional<QByteArray> member = pool().allocate();
        if (!member) {
            m_err << "poolscope-cli: pool \"" << m_parser.value(QStringLiteral("key"))
                  << "\" is empty: no proxy allocated\n";
            return kExitEmptyPool;
        }
        m_out << QString::fromUtf8(*member) << '\n';
    }
    return kExitOk;
}

int Cli::allocateUnderLoad(qint64 count) {
    LoadSpec spec;
    std::tie(spec.endpoint, spec.connection) = target();
    spec.poolKey = poolKey();
    spec.workers = static_cast<int>(numberOption(QStringLiteral("workers"), 1, 1, 1000));
    spec.pipeline = static_cast<int>(numberOption(QStringLiteral("pipeline"), 1, 1, 4096));
    spec.threads = static_cast<int>(numberOption(QStringLiteral("threads"), 0, 1, 256));
    spec.ratePerSecond = numberOption(QStringLiteral("rate"), 0, 0.001, 1e9);
    const double seconds = numberOption(QStringLiteral("duration"), 0, 0.001, 7 * 24 * 3600.0);
    spec.duration = std::chrono::milliseconds(std::llround(seconds * 1000));
    // -n defaults to 1; with --duration alone the run is bounded by time only.
    spec.total = seconds > 0 && !m_parser.isSet(QStringLiteral("n")) ? 0 : count;
    spec.atomic = !m_parser.isSet(QStringLiteral("non-atomic"));
    if (!spec.atomic && spec.pipeline > 1)
        m_err << "poolscope-cli: --non-atomic sends one command at a time; --pipeline ignored\n";
    if (const QString problem = validateLoadSpec(spec); !problem.isEmpty())
        throw UsageError(problem.toStdString());

    LoadReport report;
    bool interrupted = false;
    {
        const InterruptGuard interruptGuard;
        report = LoadRunner::run(spec, &g_interrupted);
        interrupted = g_interrupted.load();
    }
    if (report.errorsByKind.contains(QStringLiteral("WRONGTYPE"))) {
        // Say what the key holds instead of the bare error code.
        try {
            pool().checkKeyTypes();
        } catch (const RedisError &e) {
            m_err << "poolscope-cli: " << e.message() << '\n';
        }
    }
    if (!report.error.isEmpty())
        m_err << "poolscope-cli: " << report.error << '\n';
    if (m_json)
        printJson(report.toJson());
    else
        printLoadReport(report);

    if (interrupted)
        return kExitInterrupted;
    if (report.errors() > 0 || !report.error.isEmpty())
        return kExitFailure;
    if (report.allocated == 0 && report.empty > 0) {
        m_err << "poolscope-cli: pool \"" << QString::fromUtf8(spec.poolKey)
              << "\" is empty: no proxy allocated\n";
        return kExitEmptyPool;
    }
    return kExitOk;
}

void Cli::printLoadReport(const LoadReport &r) {
    m_out << "allocated " << r.allocated;
    if (r.requested > 0)
        m_out << " of " << r.requested;
    m_out << " in " << QString::number(r.elapsedSeconds, 'f', 3)
          << " s: " << QString::number(r.ratePerSecond(), 'f', 0) << " allocations/s (" << r.workers
          << (r.workers == 1 ? " worker" : " workers") << ", pipeline " << r.pipeline << ", "
          << r.threads << (r.threads == 1 ? " thread, " : " threads, ")
          << (r.atomic ? "atomic script" : "naive ZRANGE + ZINCRBY") << ')'
          << (r.cancelled ? ", cancelled" : "") << '\n';
    m_out << "empty " << r.empty << ", errors " << r.errors() << ", unknown " << r.unknown;
    for (auto it = r.errorsByKind.cbegin(); it != r.errorsByKind.cend(); ++it)
        m_out << ", " << it.key() << ' ' << it.value();
    if (r.connectionLosses > 0)
        m_out << ", connection losses " << r.connectionLosses << ", reconnects " << r.reconnects;
    m_out << '\n';
    m_out << "latency p50 " << QString::number(r.latencyP50Ms, 'f', 3) << " ms, p99 "
          << QString::number(r.latencyP99Ms, 'f', 3) << " ms, max "
          << QString::number(r.latencyMaxMs, 'f', 3) << " ms\n";
    if (!r.perMember.isEmpty()) {
        const auto [least, most] = std::minmax_element(r.perMember.cbegin(), r.perMember.cend());
        m_out << r.perMember.size() << " members got allocations, from " << *least << " ("
              << QString::fromUtf8(least.key()) << ") to " << *most << " ("
              << QString::fromUtf8(most.key()) << ")\n";
    }
    if (!r.atomic) {
        const double share = r.allocated > 0 ? double(r.collisions) / double(r.allocated) : 0;
        m_out << "collisions " << r.collisions << " of " << r.allocated << " allocations ("
              << percent(share) << "), duplicate picks " << r.duplicatePicks
              << ": another worker was handed the same proxy at the same count; the final counts "
                 "can still look fair\n";
    }
}

int Cli::scenario(const QStringList &args) {
    if (args != QStringList{QStringLiteral("reset")})
        throw UsageError("scenario takes one name: reset");
    const RestorePolicy policy = policyOption("scenario reset");
    ResetScenarioSpec spec;
    std::tie(spec.endpoint, spec.connection) = target();
    spec.poolKey = poolKey();
    spec.policy = policy;
    spec.members = static_cast<int>(numberOption(QStringLiteral("members"), 10, 2, 1000));
    spec.ratePerSecond = numberOption(QStringLiteral("rate"), 500, 0.1, 1e6);
    spec.startCount = countOption(QStringLiteral("start"), 0);
    spec.before = std::chrono::milliseconds(
        std::llround(1000 * numberOption(QStringLiteral("seconds-before"), 10, 0.01, 3600)));
    spec.after = std::chrono::milliseconds(
        std::llround(1000 * numberOption(QStringLiteral("seconds-after"), 10, 0.01, 3600)));
    spec.replace = m_parser.isSet(QStringLiteral("replace"));

    auto lastPhase = ResetScenarioProgress::Phase::Running;
    const auto progress = [this, &lastPhase](const ResetScenarioProgress &step) {
        if (m_json || step.phase == lastPhase)
            return;
        lastPhase = step.phase;
        if (step.phase == ResetScenarioProgress::Phase::Evicted)
            m_err << "evicted at " << QString::number(step.elapsedSeconds, 'f', 2) << " s\n";
        else if (step.phase == ResetScenarioProgress::Phase::Restored)
            m_err << "restored at " << QString::number(step.elapsedSeconds, 'f', 2) << " s\n";
        m_err.flush();
    };
    ResetScenarioReport report;
    bool interrupted = false;
    {
        const InterruptGuard interruptGuard;
        report = runResetScenario(spec, progress, &g_interrupted);
        interrupted = g_interrupted.load();
    }
    if (m_json)
        printJson(report.toJson());
    else
        printScenarioReport(report);
    return interrupted ? kExitInterrupted : kExitOk;
}

void Cli::printScenarioReport(const ResetScenarioReport &r) {
    const QString member = QString::fromUtf8(r.member);
    m_out << "count reset on pool \"" << QString::fromUtf8(r.poolKey) << "\": " << r.members
          << " members, " << QString::number(r.ratePerSecond, 'g', 6) << " allocations/s asked, "
          << QString::number(r.achievedRatePerSecond, 'f', 1) << " achieved, policy "
          << restorePolicyName(r.policy) << (r.cancelled ? " (cancelled)" : "") << '\n';
    if (r.evictedAtSeconds >= 0)
        m_out << "evicted " << member << " at " << QString::number(r.evictedAtSeconds, 'f', 2)
              << " s with count " << formatCount(r.savedCount) << '\n';
    if (r.restoredAtSeconds < 0) {
        m_out << "not restored: the run ended first\n";
        return;
    }
    m_out << "restored it at " << QString::number(r.restoredAtSeconds, 'f', 2) << " s with count "
          << formatCount(r.restoredCount) << "; the other members' lowest count was "
          << formatCount(r.poolMinimumAtRestore) << '\n';
    const QString catchUp = r.catchUpSeconds ? QString::number(*r.catchUpSeconds, 'f', 2) + " s"
                                             : QStringLiteral("not within the run");
    const auto row = [this](const QString &label, const QString &forecast,
                            const QString &observed) {
        m_out << label.leftJustified(36) << forecast.leftJustified(16) << observed << '\n';
    };
    row(QString(), QStringLiteral("forecast"), QStringLiteral("observed"));
    row(QStringLiteral("allocations in a row to it"), formatCount(r.forecastRun),
        QString::number(r.longestRun));
    row(QStringLiteral("time until within 1 of the minimum"),
        QString::number(r.forecastRun / r.ratePerSecond, 'f', 2) + QStringLiteral(" s"), catchUp);
    row(QStringLiteral("its share of the first %1 s").arg(r.shareWindowSeconds, 0, 'g', 3),
        percent(r.fairShare) + QStringLiteral(" (fair)"), percent(r.shareInWindow));
}

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

namespace {

// The pool figures of `stats` and of each `watch` line, in JSON.
QJsonObject statsToJson(const PoolStats &stats) {
    return {{QStringLiteral("size"), stats.size},   {QStringLiteral("evicted"), stats.evicted},
            {QStringLiteral("min"), stats.min},     {QStringLiteral("median"), stats.median},
            {QStringLiteral("max"), stats.max},     {QStringLiteral("spread"), stats.spread},
            {QStringLiteral("total"), stats.total}, {QStringLiteral("jain"), stats.jainIndex}};
}

} // namespace

int Cli::stats(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("stats takes no positional arguments");
    const PoolStats s = pool().stats();
    if (m_json) {
        printJson(statsToJson(s));
        return kExitOk;
    }
    m_out << "members  " << s.size << " (+" << s.evicted << " evicted)\n"
          << "min / median / max  " << formatCount(s.min) << " / " << s.median << " / "
          << formatCount(s.max) << '\n'
          << "spread  " << formatCount(s.spread) << '\n'
          << "total allocations  " << formatCount(s.total) << '\n'
          << "Jain's fairness index  " << QString::number(s.jainIndex, 'f', 6) << '\n';
    return kExitOk;
}

int Cli::watch(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("watch takes no positional arguments");
    bool ok = false;
    const int intervalMs = m_parser.value(QStringLiteral("interval")).toInt(&ok);
    if (!ok || intervalMs < 10)
        throw UsageError("--interval takes milliseconds, at least 10");
    const qint64 threshold =
        m_parser.value(QStringLiteral("full-snapshot-threshold")).toLongLong(&ok);
    if (!ok || threshold < 1)
        throw UsageError("--full-snapshot-threshold takes a positive number of members");
    double seconds = 0;
    if (m_parser.isSet(QStringLiteral("duration"))) {
        seconds = m_parser.value(QStringLiteral("duration")).toDouble(&ok);
        if (!ok || !(seconds > 0))
            throw UsageError("--duration takes a positive number of seconds");
    }
    auto [endpoint, options] = target();
    options.clientName = QStringLiteral("poolscope-poller");

    PoolMonitor monitor;
    monitor.setPollInterval(std::chrono::milliseconds(intervalMs));
    monitor.setFullSnapshotThreshold(threshold);
    QEventLoop loop;
    int exitCode = kExitOk;
    QObject::connect(&monitor, &PoolMonitor::observationArrived, &loop,
                     [this](const PoolObservation &observation) {
                         const PoolStats &s = observation.stats;
                         if (m_json) {
                             QJsonObject line = statsToJson(s);
                             line.insert(QStringLiteral("time_ms"), observation.timeMs);
                             line.insert(QStringLiteral("round_trip_ms"), observation.roundTripMs);
                             line.insert(QStringLiteral("mode"), observation.mode);
                             printJson(line);
                         } else {
                             m_out << QDateTime::fromMSecsSinceEpoch(observation.timeMs)
                                          .toString(QStringLiteral("HH:mm:ss.zzz"))
                                   << "  members " << s.size << " (+" << s.evicted
                                   << " evicted)  min/median/max " << formatCount(s.min) << '/'
                                   << s.median << '/' << formatCount(s.max) << "  spread "
                                   << formatCount(s.spread) << "  Jain "
                                   << QString::number(s.jainIndex, 'f', 4) << "  rtt "
                                   << QString::number(observation.roundTripMs, 'f', 2) << " ms  "
                                   << observation.mode << '\n';
                         }
                         m_out.flush();
                     });
    QObject::connect(&monitor, &PoolMonitor::pollFailed, &loop, [this](const QString &message) {
        m_err << "poolscope-cli: " << message << '\n';
        m_err.flush();
    });
    const InterruptGuard guard;
    QTimer interruptCheck;
    QObject::connect(&interruptCheck, &QTimer::timeout, &loop, [&] {
        if (g_interrupted.load()) {
            exitCode = kExitInterrupted;
            loop.quit();
        }
    });
    interruptCheck.start(100);
    if (seconds > 0)
        QTimer::singleShot(std::chrono::milliseconds(qint64(seconds * 1000)), &loop,
                           &QEventLoop::quit);
    monitor.connectTo(endpoint, poolKey(), options);
    loop.exec();
    return exitCode;
}

int Cli::run(const QStringList &arguments) {
    declareOptions();
    // QCommandLineParser wants a program name first.
    if (!m_parser.parse(QStringList{QStringLiteral("poolscope-cli")} + arguments)) {
        m_err << "poolscope-cli: " << m_parser.errorText() << "\n\n" << kUsage;
        return kExitUsage;
    }
    if (m_parser.isSet(QStringLiteral("help"))) {
        m_out << kUsage;
        return kExitOk;
    }
    if (m_parser.isSet(QStringLiteral("version"))) {
        m_out << "poolscope-cli " << POOLSCOPE_VERSION << '\n'; // project(VERSION) in CMake
        return kExitOk;
    }
    m_json = m_parser.isSet(QStringLiteral("json"));
    const QStringList positional = m_parser.positionalArguments();
    if (positional.isEmpty()) {
        m_err << "poolscope-cli: no command given\n\n" << kUsage;
        return kExitUsage;
    }
    const std::map<QString, std::function<int(const QStringList &)>> commands{
        {QStringLiteral("seed"), [this](const QStringList &a) { return seed(a); }},
        {QStringLiteral("allocate"), [this](const QStringList &a) { return allocate(a); }},
        {QStringLiteral("evict"), [this](const QStringList &a) { return evict(a); }},
        {QStringLiteral("restore"), [this](const QStringList &a) { return restore(a); }},
        {QStringLiteral("list"), [this](const QStringList &a) { return list(a); }},
        {QStringLiteral("stats"), [this](const QStringList &a) { return stats(a); }},
        {QStringLiteral("script-sha"), [this](const QStringList &a) { return scriptSha(a); }},
        {QStringLiteral("scenario"), [this](const QStringList &a) { return scenario(a); }},
        {QStringLiteral("watch"), [this](const QStringList &a) { return watch(a); }},
    };
    const auto command = commands.find(positional.first());
    if (command == commands.end()) {
        m_err << "poolscope-cli: unknown command \"" << positional.first() << "\"\n\n" << kUsage;
        return kExitUsage;
    }
    try {
        return command->second(positional.mid(1));
    } catch (const UsageError &e) {
        m_err << "poolscope-cli: " << e.what() << '\n';
        return kExitUsage;
    } catch (const RedisError &e) {
        m_err << "poolscope-cli: " << e.message() << '\n';
        if (m_json)
            printJson({{QStringLiteral("error"), e.message()},
                       {QStringLiteral("code"), QString::fromUtf8(e.serverCode())}});
        return kExitFailure;
    }
}

} // namespace

int run(const QStringList &arguments, QTextStream &out, QTextStream &err, QIODevice &in) {
    Cli cli(out, err, in);
    return cli.run(arguments);
}

} // namespace poolscope::cli
