#pragma once

#include <chrono>
#include <optional>

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {

// What one check of one member found.
enum class CheckOutcome {
    Ok,
    NotCheckable,       // never probed: a documentation, private or other non-routable host
    Refused,            // the proxy's port refused the connection
    TimeoutConnect,     // no TCP connection to the proxy within the connect limit
    TimeoutProxy,       // the proxy did not answer within its limit
    TimeoutTarget,      // the target (through the proxy) did not answer within its limit
    ProxyAuthRequired,  // 407, or SOCKS authentication failed / required
    ProxyRefusedTarget, // the proxy would not (or could not) reach the target
    TlsError,           // TLS with the proxy or the target failed
    UnexpectedStatus,   // the target answered with a status outside --expect-status
    Garbage,            // the proxy answered with something that is no protocol we know
    NetworkError,       // any other socket error, or the connection closed mid-way
};

// "ok", "not-checkable", "refused", "timeout-connect", ...: stable names for the CLI, JSON and
// the health hash in Redis.
QString outcomeName(CheckOutcome outcome);
std::optional<CheckOutcome> parseOutcomeName(const QString &name);
// A failure counts against the member; Ok and NotCheckable do not.
inline bool isFailure(CheckOutcome outcome) {
    return outcome != CheckOutcome::Ok && outcome != CheckOutcome::NotCheckable;
}

// The URL checks fetch through each proxy: http://host[:port][/path] or https://...
struct CheckTarget {
    bool https = false;
    QByteArray host; // without brackets for IPv6
    quint16 port = 80;
    QByteArray path = "/";
    // host:port as it goes into the URL fetched through the proxy ("[v6]:port" for IPv6).
    QByteArray authority() const;
    // nullopt with the reason in *error.
    static std::optional<CheckTarget> parse(const QString &url, QString *error);
};

// Inclusive status ranges: "200-399", "200,204", "200-299,301".
struct StatusRanges {
    QList<std::pair<int, int>> ranges{{200, 399}};
    bool contains(int status) const;
    QString text() const;
    static std::optional<StatusRanges> parse(const QString &text, QString *error);
};

struct CheckOptions {
    CheckTarget target;
    StatusRanges expectStatus;
    std::chrono::milliseconds connectTimeout{3000}; // TCP connect to the proxy
    std::chrono::milliseconds proxyTimeout{5000};   // the proxy's answer (TLS, CONNECT, SOCKS)
    std::chrono::milliseconds targetTimeout{5000};  // the target's answer through the tunnel
    std::chrono::milliseconds checkTimeout{10000};  // one check in all
    int concurrency = 50;                           // checks in flight at once
    double ratePerSecond = 0;                       // checks started per second at most; 0: no cap
    QString caFile;           // TLS (proxy and target): trusted CAs; empty: the system's
    bool tlsInsecure = false; // no certificate verification at all
};

struct CheckResult {
    QByteArray member;
    CheckOutcome outcome = CheckOutcome::NetworkError;
    QString detail;        // one line, credentials masked; empty for Ok
    int status = 0;        // the target's HTTP status when it answered
    qint64 connectMs = -1; // TCP connect to the proxy
    qint64 proxyMs = -1;   // until the proxy was ready (tunnel open / its answer began)
    qint64 totalMs = -1;   // until the target's whole answer head
    bool probed = false;   // a connection was attempted (never for NotCheckable)
};

struct CheckRound {
    QList<CheckResult> results; // in the order of the members asked for
    qint64 elapsedMs = 0;
    qint64 connectionsOpened = 0;
};

// A round's results counted by outcome: up (Ok), down (isFailure) and not checkable.
struct CheckCounts {
    qint64 ok = 0;
    qint64 failed = 0;
    qint64 notCheckable = 0;
    static CheckCounts of(const QList<CheckResult> &results);
};

// A guard on a pool as seen from outside: who holds the lease, and whether the audit trail says
// it is held back at its cap (HealthStore::guardStatus).
struct GuardStatus {
    bool leaseHeld = false;            // some guard holds the lease now
    QByteArray holder;                 // its id
    std::optional<qint64> lastEventMs; // a guard's newest entry in the audit trail
    bool capped = false;               // a guard's newest "capped"/"uncapped" entry is "capped"
    QString capReason;                 // that entry's reason, credentials masked
};

} // namespace poolscope
