// The dashboard's health reads at 10,000 members, counted on a loopback redis-server started for
// the run (INFO commandstats): every member read at every poll (the reader's schedule before the
// reads moved below the widget line) against PoolHealth's (every member once a minute or after
// the audit trail moved, the chart's members at every poll). Polls every second, 10 charted
// members, DURATION seconds (default 120) of each. Prints a Markdown table.
#include "RedisFixture.h"

#include "health/HealthReader.h"
#include "health/HealthStore.h"
#include "monitor/PoolMonitor.h"
#include "pool/PoolKeys.h"
#include "session/PoolHealth.h"
#include "session/PoolSession.h"

#include <QGuiApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <cstdio>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

struct Stat {
    qint64 calls = 0;
    qint64 usec = 0;
};

Stat stat(RedisFixture &redis, const QByteArray &command) {
    const QByteArray stats = redis.run({"INFO", "commandstats"}).text;
    const QByteArray field = "cmdstat_" + command + ":calls=";
    const qsizetype at = stats.indexOf(field);
    if (at < 0)
        return {};
    // "calls=N,usec=N,usec_per_call=N,rejected_calls=N,failed_calls=N"
    const qsizetype from = stats.indexOf(':', at) + 1;
    const QList<QByteArray> parts = stats.mid(from, stats.indexOf('\r', from) - from).split(',');
    Stat result;
    for (const QByteArray &part : parts) {
        if (part.startsWith("calls="))
            result.calls = part.mid(6).toLongLong();
        else if (part.startsWith("usec="))
            result.usec = part.mid(5).toLongLong();
    }
    return result;
}

void waitFor(int seconds) {
    QEventLoop loop;
    QTimer::singleShot(std::chrono::seconds(seconds), &loop, &QEventLoop::quit);
    loop.exec();
}

void row(const char *schedule, RedisFixture &redis, qint64 polls) {
    const Stat hmget = stat(redis, "hmget");
    const Stat xrange = stat(redis, "xrange");
    std::printf("| %s | %lld | %lld | %.2f | %.0f |\n", schedule, polls, hmget.calls,
                double(hmget.calls) / double(polls),
                double(hmget.usec + xrange.usec) / double(polls));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
    QGuiApplication app(argc, argv);
    const int seconds = qEnvironmentVariableIntValue("DURATION") > 0
                            ? qEnvironmentVariableIntValue("DURATION")
                            : 120;
    RedisFixture redis;
    if (!redis.start()) {
        std::fprintf(stderr, "%s\n", qPrintable(redis.error()));
        return 1;
    }
    const QByteArray key = "health-reads";
    QList<QByteArray> members;
    for (int i = 0; i < 10000; ++i)
        members << "192.0.2." + QByteArray::number(i % 250) + ':' + QByteArray::number(1000 + i);
    redis.makePool(key, members, 0);
    HealthRecord record;
    record.checkedAtMs = QDateTime::currentMSecsSinceEpoch();
    record.outcome = QStringLiteral("ok");
    record.latencyMs = 12;
    record.successes = 3;
    QHash<QByteArray, HealthRecord> records;
    for (const QByteArray &member : std::as_const(members))
        records.insert(member, record);
    HealthStore(redis.admin(), PoolKeys(key)).write(records);

    std::printf("| health reads, 10,000 members, 1 s polls | polls | HMGETs | HMGETs a poll | "
                "server µs a poll (HMGET + XRANGE) |\n|---|---|---|---|---|\n");
    qint64 polls = 0;
    {
        // Before: every member at every poll, as the dashboard's health thread read them.
        PoolMonitor monitor;
        HealthReader reader;
        reader.setTarget(redis.endpoint(), key, {});
        QObject::connect(&monitor, &PoolMonitor::observationArrived, &reader,
                         [&](const PoolObservation &observation) {
                             QList<QByteArray> all;
                             for (const PoolMember &member : observation.snapshot.members)
                                 all << member.member;
                             ++polls;
                             reader.read(all, true);
                         });
        monitor.connectTo(redis.endpoint(), key);
        waitFor(3);
        redis.run({"CONFIG", "RESETSTAT"});
        polls = 0;
        waitFor(seconds);
        row("every member at every poll (before)", redis, polls);
    }
    {
        PoolSession session;
        session.setChartedMembers(members.mid(0, 10));
        QObject::connect(&session, &PoolSession::observationApplied, &session, [&] { ++polls; });
        session.connectTo(redis.endpoint(), key);
        waitFor(3);
        redis.run({"CONFIG", "RESETSTAT"});
        polls = 0;
        waitFor(seconds);
        row("PoolHealth: once a minute, the chart's members at every poll (after)", redis, polls);
    }
    return 0;
}
