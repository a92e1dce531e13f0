// Fault tests: a real redis-server per test, killed, flushed, paused, starved of memory or
// replaced by a listener that never answers. Nothing may hang, nothing may be lost silently, and
// every allocation must be accounted for.
#include "RedisFixture.h"

#include "base/RedisError.h"
#include "load/LoadRunner.h"
#include "monitor/PoolWriter.h"
#include "monitor/PoolMonitor.h"
#include "pool/PoolOperations.h"

#include <atomic>
#include <random>
#include <thread>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

QList<QByteArray> names(int count) {
    QList<QByteArray> list;
    for (int i = 0; i < count; ++i)
        list << "192.0.2." + QByteArray::number(i % 250) + ':' + QByteArray::number(1000 + i);
    return list;
}

QList<qint64> clientIds(RedisFixture &redis, const QByteArray &name) {
    QList<qint64> ids;
    for (const QByteArray &line : redis.run({"CLIENT", "LIST"}).text.split('\n')) {
        if (!line.contains(" name=" + name + ' '))
            continue;
        const qsizetype start = line.indexOf("id=") + 3;
        ids << line.mid(start, line.indexOf(' ', start) - start).toLongLong();
    }
    return ids;
}

LoadReport finishedReport(const QSignalSpy &spy) {
    return spy.last().at(0).value<LoadReport>();
}

// A loopback listener that accepts nothing: with the accept queue full, new SYNs are dropped
// (connect times out); connections already queued are never answered (commands time out).
class SilentListener {
public:
    SilentListener() {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof(address));
        ::listen(m_fd, 0);
        socklen_t length = sizeof(address);
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length);
        m_port = ntohs(address.sin_port);
    }
    ~SilentListener() {
        for (int fd : m_fillers)
            ::close(fd);
        ::close(m_fd);
    }
    int port() const { return m_port; }
    // Occupies the accept queue so the next connection attempt gets no SYN-ACK.
    void fillQueue() {
        for (int i = 0; i < 4; ++i) {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            sockaddr_in address{};
            address.sin_family = AF_INET;
            address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            address.sin_port = htons(quint16(m_port));
            ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address));
            m_fillers << fd;
        }
    }

private:
    int m_fd = -1;
    int m_port = 0;
    QList<int> m_fillers;
};

// Answers the first command on each connection with an array header announcing `elements`
// elements, then sends nothing more: a broken or hostile server.
class HugeArrayListener {
public:
    explicit HugeArrayListener(long long elements)
        : m_header("*" + QByteArray::number(elements) + "\r\n") {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof(address));
        ::listen(m_fd, 4);
        socklen_t length = sizeof(address);
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length);
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this] {
            const int client = ::accept(m_fd, nullptr, nullptr);
            if (client < 0)
                return;
            char buffer[4096];
            if (::read(client, buffer, sizeof(buffer)) > 0)
                (void)::write(client, m_header.constData(), size_t(m_header.size()));
            m_client = client; // kept open: the rest of the reply never comes
        });
    }
    ~HugeArrayListener() {
        ::shutdown(m_fd, SHUT_RDWR); // wakes accept() if nobody connected
        m_thread.join();
        if (m_client >= 0)
            ::close(m_client);
        ::close(m_fd);
    }
    int port() const { return m_port; }

private:
    QByteArray m_header;
    int m_fd = -1;
    int m_port = 0;
    std::atomic<int> m_client{-1};
    std::thread m_thread;
};

} // namespace

class TestFaults : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;

    void startRedis(RedisServerOptions options = {}) {
        m_redis = std::make_unique<RedisFixture>(std::move(options));
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }
    LoadSpec loadSpec(int workers, qint64 total, std::chrono::milliseconds timeout = 500ms) {
        LoadSpec spec;
        spec.endpoint = m_redis->endpoint();
        spec.poolKey = "pool";
        spec.workers = workers;
        spec.pipeline = 8;
        spec.total = total;
        spec.connection.commandTimeout = timeout;
        spec.connection.connectTimeout = timeout;
        return spec;
    }
    // Exact accounting: the scores rose by the allocations reported, plus at most the unknowns.
    static void verifyAccounting(double before, double after, const LoadReport &report) {
        const double rise = after - before;
        QVERIFY2(rise >= double(report.allocated) &&
                     rise <= double(report.allocated + report.unknown),
                 qPrintable(QStringLiteral("scores rose by %1; allocated %2, unknown %3")
                                .arg(rise)
                                .arg(report.allocated)
                                .arg(report.unknown)));
    }

private Q_SLOTS:
    void cleanup() { m_redis.reset(); }

    // 1. kill -9 during a 4-worker run, restart on the same port.
    void serverKilledAndRestartedDuringLoad() {
        RedisServerOptions options;
        options.useTcp = true;
        // This test alone keeps an append-only file (fsync on every write), so the pool survives
        // the crash and the accounting can be checked across it.
        options.extraArguments = {QStringLiteral("--appendonly"), QStringLiteral("yes"),
                                  QStringLiteral("--appendfsync"), QStringLiteral("always")};
        startRedis(options);
        m_redis->makePool("pool", names(20));
        const double before = sumOfScores(*m_redis, "pool");

        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QVERIFY(runner.start(loadSpec(4, 40000)));
        QTRY_VERIFY_WITH_TIMEOUT(
            !progressed.isEmpty() && progressed.last().at(0).toLongLong() > 2000, 20000);
        m_redis->server().killHard();
        QVERIFY2(m_redis->server().start(), qPrintable(m_redis->server().logTail()));
        QVERIFY(finished.wait(60000));
        const LoadReport report = finishedReport(finished);
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE_GE(report.connectionLosses, 1);
        QCOMPARE_GE(report.reconnects, 1);
        QCOMPARE(report.attempts(), 40000);
        // The only refusals allowed: LOADING, while the restarted server reads its append-only
        // file. They did not run, and they are counted as errors, not allocations.
        QCOMPARE(report.errors(), report.errorsByKind.value(QStringLiteral("LOADING")));
        verifyAccounting(before, sumOfScores(*m_redis, "pool"), report);
    }

    // 2. SCRIPT FLUSH during load: NOSCRIPT is handled, no allocation fails.
    void scriptFlushDuringLoad() {
        startRedis();
        m_redis->makePool("pool", names(10));
        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QVERIFY(runner.start(loadSpec(4, 30000, 5000ms)));
        for (int flush = 0; flush < 5 && finished.isEmpty(); ++flush) {
            const qsizetype seen = progressed.size();
            QTRY_VERIFY_WITH_TIMEOUT(progressed.size() > seen || !finished.isEmpty(), 10000);
            m_redis->run({"SCRIPT", "FLUSH"});
        }
        QVERIFY(!finished.isEmpty() || finished.wait(60000));
        const LoadReport report = finishedReport(finished);
        QCOMPARE(report.allocated, 30000);
        QCOMPARE(report.errors(), 0);
        QCOMPARE(report.unknown, 0);
        QCOMPARE(sumOfScores(*m_redis, "pool"), 30000.0);
    }

    // 3. CLIENT KILL of the poller and of a load worker: both come back.
    void killedClientsComeBack() {
        startRedis();
        m_redis->makePool("pool", names(10));
        PoolMonitor monitor;
        monitor.setPollInterval(50ms);
        QSignalSpy states(&monitor, &PoolMonitor::stateChanged);
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        monitor.connectTo(m_redis->endpoint(), "pool");
        QVERIFY(observations.wait(5000));

        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        LoadSpec spec = loadSpec(2, 0, 2000ms);
        spec.duration = 3000ms;
        spec.ratePerSecond = 2000;
        QVERIFY(runner.start(spec));
        QTRY_VERIFY_WITH_TIMEOUT(progressed.size() >= 3, 10000);

        const double before = 0; // the pool started at zero
        const QList<qint64> pollers = clientIds(*m_redis, "poolscope-poller");
        const QList<qint64> workers = clientIds(*m_redis, "poolscope-load");
        QCOMPARE(pollers.size(), 1);
        QVERIFY(!workers.isEmpty());
        m_redis->run({"CLIENT", "KILL", "ID", QByteArray::number(pollers.first())});
        m_redis->run({"CLIENT", "KILL", "ID", QByteArray::number(workers.first())});

        // The poller notices, reconnects, and observations resume.
        QTRY_VERIFY_WITH_TIMEOUT(monitor.state() != ConnectionState::Connected ||
                                     clientIds(*m_redis, "poolscope-poller") != pollers,
                                 5000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor.state(), ConnectionState::Connected, 5000);
        const qsizetype seen = observations.size();
        QTRY_VERIFY_WITH_TIMEOUT(observations.size() > seen + 2, 5000);

        QVERIFY(finished.wait(20000));
        const LoadReport report = finishedReport(finished);
        QCOMPARE_GE(report.reconnects, 1);
        QCOMPARE(report.errors(), 0);
        verifyAccounting(before, sumOfScores(*m_redis, "pool"), report);
    }

    // 4a. DEBUG SLEEP: the poller's command times out, nothing hangs, it recovers.
    void debugSleepTimesOutAndRecovers() {
        RedisServerOptions options;
        options.extraArguments = {QStringLiteral("--enable-debug-command"),
                                  QStringLiteral("local")};
        startRedis(options);
        m_redis->makePool("pool", names(5));
        PoolMonitor monitor;
        monitor.setPollInterval(50ms);
        ConnectionOptions connection;
        connection.commandTimeout = 300ms;
        QSignalSpy failures(&monitor, &PoolMonitor::pollFailed);
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        monitor.connectTo(m_redis->endpoint(), "pool", connection);
        QVERIFY(observations.wait(5000));

        // The event loop keeps turning while the server sleeps: the poll's timeout reaches this
        // thread (a queued signal) before the sleep is over. Only a wait for the server's reply,
        // by the worker or by this thread, can miss that: the sleep is ten command timeouts.
        std::atomic<bool> sleeping = true;
        bool failureSeenWhileSleeping = false;
        int failuresSeen = 0;
        connect(&monitor, &PoolMonitor::pollFailed, this, [&] {
            if (failuresSeen++ == 0)
                failureSeenWhileSleeping = sleeping.load();
        });
        ConnectionOptions patient;
        patient.commandTimeout = 20000ms; // returns when the sleep is over
        auto sleeper = RedisConnection::open(m_redis->endpoint(), patient);
        std::thread sleep([&] {
            sleeper->command({"DEBUG", "SLEEP", "3"});
            sleeping = false;
        });
        const auto joined = qScopeGuard([&] { sleep.join(); });
        QTRY_VERIFY_WITH_TIMEOUT(failuresSeen > 0 || !sleeping.load(), 10000);
        QVERIFY2(failureSeenWhileSleeping, "no failure reached the event loop during the sleep");
        QVERIFY(!failures.isEmpty());
        QVERIFY2(failures.first().at(0).toString().contains(QStringLiteral("no reply")),
                 qPrintable(failures.first().at(0).toString()));
        const qsizetype seen = observations.size();
        QTRY_VERIFY_WITH_TIMEOUT(observations.size() > seen, 10000);
        QCOMPARE(monitor.state(), ConnectionState::Connected);
    }

    // 4b. CLIENT PAUSE WRITE: allocations time out as "unknown", reads go on, all resumes.
    void clientPauseWrite() {
        startRedis();
        m_redis->makePool("pool", names(5));
        PoolMonitor monitor;
        monitor.setPollInterval(50ms);
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        monitor.connectTo(m_redis->endpoint(), "pool");
        QVERIFY(observations.wait(5000));

        LoadRunner runner;
        QSignalSpy finished(&runner, &LoadRunner::finished);
        LoadSpec spec = loadSpec(2, 0, 500ms);
        spec.duration = 5000ms;
        spec.ratePerSecond = 1000;
        QVERIFY(runner.start(spec));
        QTRY_VERIFY_WITH_TIMEOUT(sumOfScores(*m_redis, "pool") > 100, 5000);
        m_redis->run({"CLIENT", "PAUSE", "3000", "WRITE"});
        // Polls are reads: they keep arriving during the pause.
        const qsizetype seen = observations.size();
        QTRY_VERIFY_WITH_TIMEOUT(observations.size() > seen + 3, 2500);
        QVERIFY(finished.wait(30000));
        const LoadReport report = finishedReport(finished);
        QVERIFY2(report.connectionLosses >= 1, "the paused writes should have timed out");
        QCOMPARE(report.errors(), 0);
        verifyAccounting(0, sumOfScores(*m_redis, "pool"), report);
    }

    // 5. A listener that never answers: connect and command timeouts, with clear messages.
    void silentListenerTimesOut() {
        SilentListener listener;
        Endpoint endpoint;
        endpoint.port = listener.port();
        ConnectionOptions options;
        options.connectTimeout = 300ms;
        options.commandTimeout = 300ms;
        // What these bounds catch is a wait that is not ours: none at all (the listener never
        // answers) or the kernel's connect retries (tcp_syn_retries, about two minutes). A
        // loaded machine ends a 300 ms wait far within them.
        const qint64 notOurs = 30000;
        QElapsedTimer clock;
        clock.start();
        try {
            RedisConnection::open(endpoint, options); // accepted by the kernel, never answered
            QFAIL("must time out");
        } catch (const RedisError &e) {
            QCOMPARE(e.kind(), RedisError::Kind::Timeout);
            QVERIFY2(e.message().contains(QStringLiteral("no reply")) &&
                         e.message().contains(QStringLiteral("300 ms")),
                     qPrintable(e.message()));
        }
        QCOMPARE_LT(clock.elapsed(), notOurs);

        listener.fillQueue();
        clock.restart();
        try {
            RedisConnection::open(endpoint, options); // SYN dropped: the connect itself times out
            QFAIL("must time out");
        } catch (const RedisError &e) {
            QVERIFY2(e.message().contains(QStringLiteral("cannot connect")) &&
                         e.message().contains(QStringLiteral("timed out")),
                     qPrintable(e.message()));
        }
        QCOMPARE_LT(clock.elapsed(), notOurs);
    }

    // 5b. A reply announcing 100 million elements is refused at once, before hiredis allocates
    // 800 MB for it, with a message that says so (not a timeout after the allocation).
    void hugeArrayReplyIsRefused() {
        HugeArrayListener listener(100'000'000);
        Endpoint endpoint;
        endpoint.port = listener.port();
        ConnectionOptions options;
        // Long timeouts, so that only a refusal that waited for one can take as long.
        options.connectTimeout = 30000ms;
        options.commandTimeout = 30000ms;
        QElapsedTimer clock;
        clock.start();
        try {
            RedisConnection::open(endpoint, options); // the handshake's INFO gets the header
            QFAIL("must be refused");
        } catch (const RedisError &e) {
            QCOMPARE(e.kind(), RedisError::Kind::Connection);
            QVERIFY2(e.message().contains(QStringLiteral("larger than poolscope accepts")),
                     qPrintable(e.message()));
        }
        QCOMPARE_LT(clock.elapsed(), options.commandTimeout.count()); // refused, not timed out
    }

    // 6. Out of memory: writes are refused with the reason, reads and polling continue.
    void outOfMemoryRefusesWritesOnly() {
        startRedis();
        m_redis->makePool("pool", names(5), 3);
        m_redis->run({"CONFIG", "SET", "maxmemory", "1"});
        auto connection = m_redis->connect();
        PoolOperations pool(*connection, "pool");
        const QByteArray first = names(5).first();
        // Evicting frees memory: its first write (ZREM) is not refused, and Redis lets a script
        // that has written finish, so the move completes whole.
        QCOMPARE(pool.evict(first).savedCount, 3.0);
        // Everything that adds data is refused before its first write: nothing half-done.
        for (const auto &write : QList<std::function<void()>>{
                 [&] { pool.allocate(); }, [&] { pool.seed({"198.51.100.1:80"}, SeedOptions{}); },
                 [&] { pool.restore(first, RestorePolicy::Zero); }}) {
            try {
                write();
                QFAIL("the write should have been refused");
            } catch (const RedisError &e) {
                QCOMPARE(e.serverCode(), QByteArray("OOM"));
                QVERIFY2(e.message().contains(QStringLiteral("out of memory")),
                         qPrintable(e.message()));
            }
        }
        QCOMPARE(m_redis->run({"HGET", PoolKeys("pool").evicted(), first}).toDouble(), 3.0);
        QVERIFY(m_redis->run({"ZSCORE", "pool", "198.51.100.1:80"}).isNil());
        QCOMPARE(pool.snapshot().members.size(), 4); // reads still work
        QCOMPARE(sumOfScores(*m_redis, "pool"), 12.0);

        PoolMonitor monitor;
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        monitor.connectTo(m_redis->endpoint(), "pool");
        QVERIFY(observations.wait(5000));

        LoadSpec spec = loadSpec(1, 50);
        const LoadReport report = LoadRunner::run(spec);
        QCOMPARE(report.errorsByKind.value(QStringLiteral("OOM")), 50);
        QCOMPARE(report.allocated, 0);
    }

    // 7. Load, evictions and restores at once: every member in exactly one place, and the
    //    counts add up per policy.
    void concurrentEvictRestoreUnderLoad() {
        startRedis();
        const QList<QByteArray> members = names(20);
        m_redis->makePool("pool", members, 100);

        LoadRunner runner;
        QSignalSpy finished(&runner, &LoadRunner::finished);
        LoadSpec spec = loadSpec(8, 0, 5000ms);
        spec.duration = 20000ms;
        QVERIFY(runner.start(spec));

        // Two operators evict and restore random members, logging each restore's adjustment.
        struct Adjustments {
            QHash<QByteArray, double> byMember;
            QMap<QString, double> byPolicy;
            QMap<QString, int> restores;
        };
        std::atomic<bool> stop{false};
        auto operatorLoop = [&](unsigned seed, Adjustments &adjustments) {
            auto connection = m_redis->connect(QStringLiteral("test-operator"));
            PoolOperations pool(*connection, "pool");
            std::mt19937 random(seed);
            const QList<RestorePolicy> policies = allRestorePolicies();
            while (!stop.load()) {
                const QByteArray &member = members[random() % members.size()];
                try {
                    pool.evict(member);
                } catch (const RedisError &e) {
                    if (e.kind() != RedisError::Kind::Usage)
                        throw;
                    const RestorePolicy policy = policies[random() % policies.size()];
                    try {
                        const RestoreResult result = pool.restore(member, policy, 50);
                        const double delta = result.restoredCount - result.savedCount;
                        adjustments.byMember[member] += delta;
                        adjustments.byPolicy[restorePolicyName(policy)] += delta;
                        ++adjustments.restores[restorePolicyName(policy)];
                    } catch (const RedisError &e2) {
                        if (e2.kind() !=
                            RedisError::Kind::Usage) // the other operator got there first
                            throw;
                    }
                }
            }
        };
        Adjustments first, second;
        std::thread a([&] { operatorLoop(1, first); });
        std::thread b([&] { operatorLoop(2, second); });
        QVERIFY(finished.wait(60000));
        stop = true;
        a.join();
        b.join();
        const LoadReport report = finishedReport(finished);
        QCOMPARE(report.errors(), 0);
        QCOMPARE(report.unknown, 0);
        QCOMPARE_GT(report.allocated, 1000);

        // Every member is in exactly one of the pool and the evicted hash.
        const QByteArray evictedKey = PoolKeys("pool").evicted();
        QHash<QByteArray, double> finalCount;
        for (const QByteArray &member : members) {
            const RedisReply inPool = m_redis->run({"ZSCORE", "pool", member});
            const RedisReply saved = m_redis->run({"HGET", evictedKey, member});
            QVERIFY2(inPool.isNil() != saved.isNil(), member);
            finalCount[member] = inPool.isNil() ? saved.toDouble() : inPool.toDouble();
        }
        // Per member: start + allocations + restore adjustments = final. An allocation while
        // evicted, or one lost between an evict's read and its removal, breaks this.
        for (const QByteArray &member : members) {
            const double expected = 100 + double(report.perMember.value(member)) +
                                    first.byMember.value(member) + second.byMember.value(member);
            QCOMPARE(finalCount[member], expected);
        }
        int restores = 0;
        for (const QString &policy : first.restores.keys() + second.restores.keys())
            restores += first.restores.value(policy) + second.restores.value(policy);
        QVERIFY2(restores > 20, "the operators should have restored members many times");
        // Per policy: keep never changes a count; the others add up to the recorded adjustments.
        QCOMPARE(first.byPolicy.value(QStringLiteral("keep")) +
                     second.byPolicy.value(QStringLiteral("keep")),
                 0.0);
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
