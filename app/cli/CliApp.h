// The CLI's internals shared by its command files: the Cli class, usage errors, Ctrl+C handling.
#pragma once

#include "CliCommands.h"

#include "alerts/AlertFacts.h"
#include "alerts/AlertRules.h"
#include "load/LoadRunner.h"
#include "load/ResetScenario.h"
#include "health/HealthTypes.h"
#include "overview/OverviewTypes.h"
#include "pool/PoolOperations.h"
#include "profiles/ConnectionProfile.h"
#include "transport/UserPrompts.h"

#include <atomic>
#include <functional>
#include <optional>
#include <csignal>
#include <memory>
#include <stdexcept>

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace poolscope {
struct GuardRoundReport;
}

namespace poolscope::cli {

constexpr int kExitInterrupted = 130; // 128 + SIGINT, as shells report it

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A write through a production profile without --yes --confirm-key KEY (exit 2, like a usage
// error; kind "confirmation" under --json).
class ConfirmationRequired : public UsageError {
public:
    using UsageError::UsageError;
};

// Set by the SIGINT handler while an InterruptGuard lives.
extern std::atomic<bool> g_interrupted;

// While a run lasts, the first Ctrl+C asks it to stop (and print its report); a second one
// kills the process as usual (SA_RESETHAND).
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard &) = delete;
    InterruptGuard &operator=(const InterruptGuard &) = delete;

private:
    struct sigaction m_previous {};
};

// Set by the SIGTERM handler while a TerminateGuard lives. The handler sets g_interrupted as
// well, so a long-running command (record, exporter, guard) ends on systemd's stop as cleanly as
// on Ctrl+C; g_terminated tells the two apart for the exit code (0 after SIGTERM).
extern std::atomic<bool> g_terminated;

class TerminateGuard {
public:
    TerminateGuard();
    ~TerminateGuard();
    TerminateGuard(const TerminateGuard &) = delete;
    TerminateGuard &operator=(const TerminateGuard &) = delete;

private:
    struct sigaction m_previous {};
};

// What a long-running command returns when it stopped on a signal or ran its course.
int stopExitCode();

QString percent(double share);
// --profile, --password-file, --password-stdin, --tls-key-passphrase-file (CliProfile.cpp).
QList<QCommandLineOption> profileCommandLineOptions();
QJsonArray toJsonArray(const QList<QByteArray> &members);
// `alert-check --help` (CliAlerts.cpp): the command, the one-shot rule, every rule's default.
QString alertCheckHelp();
// The keychain's entry for a saved connection, when there is a keychain (waits a few seconds at
// most; CliProfile.cpp).
std::optional<QString> readKeychain(const QString &connection, transport::SecretKind kind);

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
    // CliProfile.cpp: the saved connection named by --profile (nullptr without), the address
    // (--url over the profile over $REDIS_URL), TLS options, and the password.
    const ConnectionProfile *profile();
    Endpoint baseEndpoint();
    void applyTls(Endpoint &endpoint);
    void applyPassword(Endpoint &endpoint);
    QByteArray poolKey();
    // CliProfileCommands.cpp: throws ConfirmationRequired when `command` would write through a
    // production profile without --yes and --confirm-key equal to the pool key.
    void requireProductionConfirmation(const QString &command);
    int profileCommand(const QStringList &args);
    int profileAdd(const QStringList &args);
    int profileList(const QStringList &args);
    int profileRemove(const QStringList &args);
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
    // numberOption for counts of things: a fraction is refused, not truncated.
    int wholeOption(const QString &name, int fallback, int minimum, int maximum);

    int allocateOneByOne(qint64 count);
    int allocateUnderLoad(qint64 count);
    void printLoadReport(const LoadReport &report);
    void printScenarioReport(const ResetScenarioReport &report);

    int seed(const QStringList &args);
    int allocate(const QStringList &args);
    int evict(const QStringList &args);
    int restore(const QStringList &args);
    void warnIfGuardMarkKept(const QByteArray &member, bool kept);
    int list(const QStringList &args);
    int migrateCompanionCommand(const QStringList &args);
    // evict/restore: checks every member first (nothing is done when one is wrong: the error
    // names each), then applies action to each; the action prints its text line and returns its
    // JSON row.
    using MemberAction = std::function<QJsonObject(const QByteArray &)>;
    std::optional<QList<QByteArray>> checkMembers(const QStringList &args, bool forEvict);
    int actOnMembers(const QStringList &args, bool forEvict, const MemberAction &action);
    int stats(const QStringList &args);
    int scriptSha(const QStringList &args);
    // A command line that does not parse: the reason and the usage on stderr, and under --json
    // {"error", "kind": "usage"} on stdout. Returns kExitUsage.
    int usageFailure(const QString &problem);
    int scenario(const QStringList &args);
    int watch(const QStringList &args);
    int exporter(const QStringList &args);
    int record(const QStringList &args);
    int pools(const QStringList &args);
    // Every pool on the saved connections named (CliOverview.cpp).
    int overview(const QStringList &args);
    QList<OverviewConnection> overviewConnections();
    // Health checks (CliHealth.cpp).
    CheckOptions checkOptions();
    int check(const QStringList &args);
    int guard(const QStringList &args);
    // One round's lines (JSON lines under --json); waitingFor: the other guard last named.
    void printGuardRound(const GuardRoundReport &report, const QString &pool,
                         QByteArray &waitingFor);
    // The pool's audit trail (CliAudit.cpp).
    int audit(const QStringList &args);
    // --reason TEXT, checked (UsageError when too long).
    QString reasonOption();
    // alert-check (CliAlerts.cpp): exits 0-3 as a monitoring plugin, never with the CLI's codes.
    int alertCheck(const QStringList &args);
    int pluginUnknown(const QString &kind, const QString &problem);
    AlertRuleSet alertRules();
    int checkPool(const AlertRuleSet &rules, const Endpoint &endpoint, ConnectionOptions options,
                  const QByteArray &key, qint64 windowMs, int intervalMs,
                  qint64 fullSnapshotThreshold);
    int reportCheck(const AlertRuleSet &rules, const AlertFacts &facts, qint64 windowMs, int polls,
                    const QString &guardProblem);

    QTextStream &m_out;
    QTextStream &m_err;
    QIODevice &m_in;
    QCommandLineParser m_parser;
    bool m_json = false;
    std::unique_ptr<RedisConnection> m_connection;
    std::unique_ptr<PoolOperations> m_pool;
    std::optional<ConnectionProfile> m_profile;
    std::optional<QString> m_password; // read once: standard input cannot be read twice
    bool m_passphraseRead = false;
};

} // namespace poolscope::cli
