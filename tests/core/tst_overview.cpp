// The overview of every pool on every chosen connection, against real servers the test starts
// (plain TCP, TLS, a three-primary cluster): every pool of every connection is listed with its
// figures, health and guard; one connection per server; nothing but bounded commands; a server
// killed mid-test says unreachable (why, last good poll), is tried less and less often, and
// comes back when it returns; wrong credentials are not retried.
#include "ClusterFixture.h"
#include "TlsCertificates.h"

#include "health/HealthStore.h"
#include "overview/OverviewPoller.h"
#include "overview/ServerReader.h"
#include "pool/PoolKeys.h"
#include "pool/PoolStats.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

constexpr auto kInterval = std::chrono::milliseconds(150);

QList<QByteArray> names(int count, const QByteArray &prefix = "m") {
    QList<QByteArray> list;
    for (int i = 0; i < count; ++i)
        list << prefix + QByteArray::number(i);
    return list;
}

QByteArray record(const char *outcome) {
    HealthRecord health;
    health.checkedAtMs = 1;
    health.outcome = QString::fromLatin1(outcome);
    return health.toJson();
}

// Writes `ok` records saying "ok" and `down` saying "refused" into the pool's health hash.
void writeHealth(RedisFixture &redis, const QByteArray &pool, int ok, int down) {
    RedisCommand hset{"HSET", PoolKeys(pool).health()};
    for (int i = 0; i < ok + down; ++i)
        hset << "m" + QByteArray::number(i) << record(i < ok ? "ok" : "refused");
    redis.admin().commandOrThrow(hset);
}

OverviewConnection connectionTo(const QString &name, const Endpoint &endpoint,
                                QList<QByteArray> pinned = {}) {
    OverviewConnection connection;
    connection.name = name;
    connection.endpoint = endpoint;
    connection.pinnedPools = std::move(pinned);
    return connection;
}

std::optional<OverviewRow> rowOf(const OverviewPoller &poller, const QString &connection,
                                 const QByteArray &pool) {
    for (const OverviewRow &row : poller.rows())
        if (row.connection == connection && row.pool == pool && !row.placeholder)
            return row;
    return std::nullopt;
}

OverviewServerStatus statusOf(const OverviewPoller &poller, const QString &connection) {
    for (const OverviewServerStatus &server : poller.servers())
        if (server.connections.contains(connection))
            return server;
    return {};
}

qint64 overviewClients(RedisFixture &redis) {
    return redis.run({"CLIENT", "LIST"}).text.count("name=poolscope-overview ");
}

// Waits for the poller's next `rounds` complete rounds.
bool waitRounds(OverviewPoller &poller, int rounds, int timeoutMs = 20000) {
    QSignalSpy spy(&poller, &OverviewPoller::roundCompleted);
    while (spy.size() < rounds)
        if (!spy.wait(timeoutMs))
            return false;
    return true;
}

} // namespace

class TestOverview : public QObject {
    Q_OBJECT

private:
    TlsCertificates m_certificates;
    std::unique_ptr<RedisFixture> m_plain;
    std::unique_ptr<RedisFixture> m_tls;
    ClusterFixture m_cluster;
    QList<QByteArray> m_clusterPools;

    QList<OverviewConnection> allConnections() {
        Endpoint tls = m_tls->endpoint();
        return {connectionTo(QStringLiteral("plain"), m_plain->endpoint(), {"proxies", "absent"}),
                connectionTo(QStringLiteral("plain-too"), m_plain->endpoint(), {"big"}),
                connectionTo(QStringLiteral("tls"), tls, {"{eu}:proxies"}),
                connectionTo(QStringLiteral("cluster"), m_cluster.endpoint())};
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_certificates.create(), qPrintable(m_certificates.error()));
        RedisServerOptions plain;
        plain.useTcp = true;
        m_plain = std::make_unique<RedisFixture>(plain);
        QVERIFY2(m_plain->start(), qPrintable(m_plain->error()));
        RedisServerOptions tls;
        tls.tlsCertFile = m_certificates.path(QStringLiteral("server.pem"));
        tls.tlsKeyFile = m_certificates.path(QStringLiteral("server.key"));
        tls.tlsCaFile = m_certificates.path(QStringLiteral("ca.pem"));
        m_tls = std::make_unique<RedisFixture>(tls);
        QVERIFY2(m_tls->start(), qPrintable(m_tls->error()));
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.error()));

        // plain: a small pool (counts 0..9), a big one (read by rank only), not-a-pool keys.
        for (int i = 0; i < 10; ++i)
            m_plain->run({"ZADD", "proxies", QByteArray::number(i), "m" + QByteArray::number(i)});
        m_plain->makePool("big", names(1500), 3);
        writeHealth(*m_plain, "proxies", 3, 1);
        writeHealth(*m_plain, "big", 400, 200); // more than one HSCAN page: walked
        m_plain->run({"SET", PoolKeys("proxies").guardLease(), "guard-A"});
        m_plain->run({"ZADD", "scores", "1.5", "a"});
        m_plain->run({"SET", "text", "x"});
        m_tls->makePool("{eu}:proxies", names(5), 2);
        for (int node = 0; node < m_cluster.size(); ++node) {
            const QByteArray key = m_cluster.keyOn(node, "pool", true);
            m_cluster.node(node).makePool(key, names(3), node);
            m_clusterPools << key;
        }
    }

    void listsEveryPoolOfEveryConnection() {
        OverviewPoller poller;
        poller.setInterval(kInterval);
        poller.setConnections(allConnections());
        QVERIFY(waitRounds(poller, 2));

        const std::optional<OverviewRow> proxies = rowOf(poller, "plain", "proxies");
        QVERIFY(proxies);
        QCOMPARE(proxies->state, RowState::Ok);
        QVERIFY(proxies->pinned);
        QCOMPARE(proxies->members, 10);
        QCOMPARE(proxies->minimum, 0.0);
        QCOMPARE(proxies->maximum, 9.0);
        QCOMPARE(proxies->median, 4.5);
        QVERIFY(proxies->jainIndex);
        QCOMPARE(*proxies->jainIndex, jainFairnessIndex({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
        QCOMPARE(proxies->guardHolder, QByteArray("guard-A"));
        QVERIFY(proxies->guardKnown);
        QCOMPARE(proxies->health.source, OverviewHealth::Source::Whole);
        QCOMPARE(proxies->health.up, 3);
        QCOMPARE(proxies->health.down, 1);
        QVERIFY(proxies->allocationRate); // two readings
        QCOMPARE(*proxies->allocationRate, 0.0);
        QVERIFY(!proxies->rateEstimated);
        QCOMPARE(proxies->trend.size(), 2);
        QCOMPARE_GT(proxies->lastGoodPollMs, 0);

        // The big pool belongs to the connection that pinned it; Jain is not known, not guessed.
        const std::optional<OverviewRow> big = rowOf(poller, "plain-too", "big");
        QVERIFY(big);
        QCOMPARE(big->members, 1500);
        QVERIFY(!big->jainIndex);
        QVERIFY(!big->guardHolder.size());
        QVERIFY(!rowOf(poller, "plain", "big"));

        const std::optional<OverviewRow> absent = rowOf(poller, "plain", "absent");
        QVERIFY(absent);
        QCOMPARE(absent->state, RowState::NotAPool);
        QCOMPARE(absent->problem, QStringLiteral("no such key"));
        QVERIFY(!rowOf(poller, "plain", "scores")); // not allocation counts: not a pool
        QVERIFY(!rowOf(poller, "plain", "text"));

        const std::optional<OverviewRow> tls = rowOf(poller, "tls", "{eu}:proxies");
        QVERIFY(tls);
        QCOMPARE(tls->members, 5);
        QCOMPARE(tls->minimum, 2.0);

        for (int node = 0; node < m_cluster.size(); ++node) {
            const std::optional<OverviewRow> pool = rowOf(poller, "cluster", m_clusterPools[node]);
            QVERIFY2(pool, m_clusterPools[node].constData());
            QCOMPARE(pool->node,
                     QStringLiteral("127.0.0.1:%1").arg(m_cluster.node(node).endpoint().port));
            QCOMPARE(pool->maximum, double(node));
        }
        // Every row is a pool, or stands for a connection; each connection is shown.
        QSet<QString> shown;
        for (const OverviewRow &row : poller.rows())
            shown.insert(row.connection);
        QCOMPARE(shown.size(), 4);
        for (const OverviewServerStatus &server : poller.servers())
            QCOMPARE(server.state, OverviewServerStatus::State::Ok);

        // The big health hash is walked one page a reading: its counts once a pass is complete.
        QTRY_COMPARE_WITH_TIMEOUT(rowOf(poller, "plain-too", "big")->health.source,
                                  OverviewHealth::Source::Walk, 20000);
        QCOMPARE(rowOf(poller, "plain-too", "big")->health.up, 400);
        QCOMPARE(rowOf(poller, "plain-too", "big")->health.down, 200);
    }

    void oneConnectionPerServer() {
        OverviewPoller poller;
        poller.setInterval(kInterval);
        poller.setConnections(allConnections());
        QVERIFY(waitRounds(poller, 3));
        // "plain" and "plain-too" name one server: read over one connection.
        QCOMPARE(overviewClients(*m_plain), 1);
        QCOMPARE(overviewClients(*m_tls), 1);
        for (int node = 0; node < m_cluster.size(); ++node)
            QCOMPARE(overviewClients(m_cluster.node(node)), 1);
        QCOMPARE(poller.servers().size(), 3);
    }

    void allocationsShowInTheRateAndTrend() {
        OverviewPoller poller;
        poller.setInterval(kInterval);
        poller.setConnections({connectionTo(QStringLiteral("plain"), m_plain->endpoint())});
        QVERIFY(waitRounds(poller, 2));
        for (int i = 0; i < 20; ++i)
            m_plain->run({"ZINCRBY", "proxies", "1", "m0"});
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(poller, "plain", "proxies")->allocationRate.value_or(0) > 0,
                                 10000);
        const QList<TrendPoint> trend = rowOf(poller, "plain", "proxies")->trend.points();
        QVERIFY(std::any_of(trend.cbegin(), trend.cend(), [](const TrendPoint &point) {
            return point.allocationRate.value_or(0) > 0;
        }));
        m_plain->run({"ZADD", "proxies", "0", "m0"});
    }

    // Every command the overview sends touches a bounded number of elements.
    void commandsStayBounded() {
        m_plain->run({"CONFIG", "SET", "slowlog-log-slower-than", "0"});
        m_plain->run({"CONFIG", "SET", "slowlog-max-len", "100000"});
        m_plain->run({"SLOWLOG", "RESET"});
        ServerReader reader(m_plain->endpoint(), {}, {"proxies"});
        for (int i = 0; i < 3; ++i)
            reader.read();
        const RedisReply log = m_plain->run({"SLOWLOG", "GET", "-1"});
        m_plain->run({"CONFIG", "SET", "slowlog-log-slower-than", "10000"});
        int seen = 0;
        for (const RedisReply &entry : log.elements) {
            if (entry.elements.value(5).text != "poolscope-overview")
                continue;
            ++seen;
            QList<QByteArray> argv;
            for (const RedisReply &arg : entry.elements.value(3).elements)
                argv << arg.text;
            const QByteArray verb = argv.value(0).toUpper();
            const QByteArray text = argv.join(' ');
            if (verb == "ZRANGE") {
                const qint64 from = argv.value(2).toLongLong();
                const qint64 to = argv.value(3).toLongLong();
                if (argv.value(1) == "big") // by rank only: never more than two members
                    QVERIFY2(to >= 0 && from >= 0 ? to - from <= 1 : from == to, text);
            }
            QVERIFY2(!(verb == "HGETALL" && argv.value(1) == PoolKeys("big").health()), text);
            if (verb == "HSCAN" || verb == "SCAN")
                QVERIFY2(argv.contains("COUNT"), text);
            QVERIFY2(verb != "KEYS" && verb != "SMEMBERS" && verb != "EVAL", text);
        }
        QCOMPARE_GT(seen, 20);
    }

    void healthOfABigHashIsWalked() {
        ServerReader reader(m_plain->endpoint(), {}, {});
        const auto healthOf = [](const ServerReading &reading) {
            for (const PoolReading &pool : reading.pools)
                if (pool.key == "big")
                    return pool.health;
            return OverviewHealth{};
        };
        OverviewHealth health = healthOf(reader.read());
        QCOMPARE(health.source, OverviewHealth::Source::None); // a page is not the hash
        int readings = 1;
        while (health.source == OverviewHealth::Source::None && readings < 10) {
            health = healthOf(reader.read());
            ++readings;
        }
        QCOMPARE(health.source, OverviewHealth::Source::Walk);
        QCOMPARE(health.up, 400);
        QCOMPARE(health.down, 200);
        QCOMPARE(health.records, 600);
        // The next pass counts what changed; until it ends the last pass's counts stand.
        writeHealth(*m_plain, "big", 600, 0);
        for (int i = 0; i < 20 && healthOf(reader.read()).down != 0; ++i) {
        }
        QCOMPARE(healthOf(reader.read()).up, 600);
        writeHealth(*m_plain, "big", 400, 200);
    }

    void killedServerIsUnreachableBacksOffAndRecovers() {
        RedisServerOptions options;
        options.useTcp = true;
        RedisFixture victim(options);
        QVERIFY2(victim.start(), qPrintable(victim.error()));
        victim.makePool("proxies", names(10), 1);
        const auto interval = std::chrono::milliseconds(150);
        const auto maxBackoff = std::chrono::milliseconds(1200);
        OverviewPoller poller;
        poller.setInterval(interval);
        poller.setMaxBackoff(maxBackoff);
        poller.setConnections(
            {connectionTo(QStringLiteral("victim"), victim.endpoint(), {"proxies"}),
             connectionTo(QStringLiteral("steady"), m_plain->endpoint())});
        QVERIFY(waitRounds(poller, 2));
        const qint64 lastGood = rowOf(poller, "victim", "proxies")->lastGoodPollMs;
        QCOMPARE_GT(lastGood, 0);

        const qint64 killedAt = QDateTime::currentMSecsSinceEpoch();
        victim.server().killHard();
        QSignalSpy polled(&poller, &OverviewPoller::serverPolled);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(poller, "victim").state,
                                  OverviewServerStatus::State::Unreachable, 10000);
        const std::optional<OverviewRow> down = rowOf(poller, "victim", "proxies");
        QVERIFY(down);
        QCOMPARE(down->state, RowState::Unreachable);
        QVERIFY2(down->errorKind == RedisError::Kind::Connection ||
                     down->errorKind == RedisError::Kind::Timeout,
                 qPrintable(down->problem));
        QVERIFY2(down->problem.contains(QStringLiteral("127.0.0.1:%1").arg(victim.endpoint().port)),
                 qPrintable(down->problem));
        QVERIFY(down->lastGoodPollMs > 0 && down->lastGoodPollMs <= killedAt);
        QCOMPARE(down->members, 10); // its last known figures stay
        QVERIFY(!down->allocationRate);

        // Backoff: 2, 4, 8 intervals, then the ceiling; the steady server is read meanwhile.
        const qint64 steadyBefore = statusOf(poller, "steady").attempts;
        const qint64 victimBefore = statusOf(poller, "victim").attempts;
        QList<qint64> delays;
        QList<qint64> attemptTimes;
        int failures = 0;
        while (delays.size() < 5) {
            QVERIFY(polled.wait(10000));
            const OverviewServerStatus victimStatus = statusOf(poller, "victim");
            if (!attemptTimes.isEmpty() && attemptTimes.last() == victimStatus.lastAttemptMs)
                continue;
            QCOMPARE_GT(victimStatus.consecutiveFailures, failures);
            failures = victimStatus.consecutiveFailures;
            const qint64 expected = std::min<qint64>(interval.count() << failures, 1200);
            QCOMPARE(victimStatus.nextDelayMs, expected);
            attemptTimes << victimStatus.lastAttemptMs;
            delays << victimStatus.nextDelayMs;
        }
        QCOMPARE(delays.last(), qint64(maxBackoff.count()));
        for (qsizetype i = 1; i < attemptTimes.size(); ++i)
            QVERIFY2(attemptTimes[i] - attemptTimes[i - 1] >= delays[i - 1] * 9 / 10,
                     qPrintable(QStringLiteral("attempt %1 came %2 ms after the one before")
                                    .arg(i)
                                    .arg(attemptTimes[i] - attemptTimes[i - 1])));
        const qint64 victimAttempts = statusOf(poller, "victim").attempts - victimBefore;
        const qint64 steadyAttempts = statusOf(poller, "steady").attempts - steadyBefore;
        QVERIFY2(victimAttempts * 2 < steadyAttempts,
                 qPrintable(QStringLiteral("while down: %1 attempts, the steady server %2 readings")
                                .arg(victimAttempts)
                                .arg(steadyAttempts)));

        // Back on the same port: read again within one backoff, at the interval from then on.
        const qint64 restartedAt = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(victim.server().start());
        victim.run({"PING"}); // the fixture's own connection reconnects to the new process
        victim.makePool("proxies", names(12), 4);
        QTRY_COMPARE_WITH_TIMEOUT(rowOf(poller, "victim", "proxies")->state, RowState::Ok,
                                  int(maxBackoff.count()) * 3);
        const OverviewRow back = *rowOf(poller, "victim", "proxies");
        QCOMPARE(back.members, 12);
        QCOMPARE_GE(back.lastGoodPollMs, restartedAt);
        QCOMPARE(statusOf(poller, "victim").consecutiveFailures, 0);
        QCOMPARE(statusOf(poller, "victim").nextDelayMs, qint64(interval.count()));
        QCOMPARE(overviewClients(victim), 1);
    }

    // A server that was never reached is one row per connection saying why, never polled again
    // after wrong credentials until asked.
    void wrongPasswordIsNotRetried() {
        RedisServerOptions options;
        options.extraArguments = {QStringLiteral("--requirepass"), QStringLiteral("s3cret-9")};
        RedisFixture locked(options);
        QVERIFY2(locked.start(), qPrintable(locked.error()));
        Endpoint endpoint = locked.endpoint();
        endpoint.password.clear();
        OverviewPoller poller;
        poller.setInterval(kInterval);
        poller.setConnections({connectionTo(QStringLiteral("locked"), endpoint, {"proxies"}),
                               connectionTo(QStringLiteral("steady"), m_plain->endpoint())});
        QVERIFY(waitRounds(poller, 4));
        const OverviewServerStatus status = statusOf(poller, "locked");
        QCOMPARE(status.state, OverviewServerStatus::State::Unreachable);
        QCOMPARE(status.errorKind, RedisError::Kind::Authentication);
        QVERIFY(!status.retrying);
        QCOMPARE(status.attempts, 1);
        QList<OverviewRow> rows;
        for (const OverviewRow &row : poller.rows())
            if (row.connection == QLatin1String("locked"))
                rows << row;
        QCOMPARE(rows.size(), 1);
        QVERIFY(rows.first().placeholder);
        QCOMPARE(rows.first().state, RowState::Unreachable);
        QCOMPARE(rows.first().lastGoodPollMs, 0);
        poller.pollNow();
        QTRY_COMPARE(statusOf(poller, "locked").attempts, 2);
    }

    // A connection that cannot be polled is shown, not polled, and holds no round back.
    void connectionWithAProblemIsShownNotPolled() {
        OverviewConnection broken;
        broken.name = QStringLiteral("broken");
        broken.problem = QStringLiteral("connection \"broken\": url: bad");
        OverviewPoller poller;
        poller.setInterval(kInterval);
        poller.setConnections({broken, connectionTo(QStringLiteral("plain"), m_plain->endpoint())});
        QVERIFY(waitRounds(poller, 1));
        const OverviewRow row = poller.rows().first();
        QCOMPARE(row.connection, QStringLiteral("broken"));
        QCOMPARE(row.state, RowState::NotPolled);
        QCOMPARE(row.problem, broken.problem);
        QCOMPARE(statusOf(poller, "broken").attempts, 0);
    }
};

QTEST_GUILESS_MAIN(TestOverview)
#include "tst_overview.moc"
