// The count-reset scenario against a real redis-server, and `poolscope-cli scenario reset --json`.
#include "RedisFixture.h"

#include "base/RedisError.h"
#include "load/ResetScenario.h"
#include "pool/PoolKeys.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

class TestScenario : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;

    ResetScenarioSpec spec(RestorePolicy policy) {
        ResetScenarioSpec s;
        s.endpoint = m_redis->endpoint();
        s.poolKey = "pool";
        s.members = 5;
        s.ratePerSecond = 2000;
        s.policy = policy;
        s.before = std::chrono::milliseconds(1000);
        s.after = std::chrono::milliseconds(1500);
        return s;
    }
    qint64 scoreSum() {
        const RedisReply reply = m_redis->run({"ZRANGE", "pool", "0", "-1", "WITHSCORES"});
        qint64 sum = 0;
        for (qsizetype i = 1; i < reply.elements.size(); i += 2)
            sum += static_cast<qint64>(reply.elements[i].toDouble());
        return sum;
    }
    static QString describe(const ResetScenarioReport &report) {
        QJsonObject object = report.toJson();
        object.remove(QStringLiteral("timeline"));
        return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    }

private Q_SLOTS:
    void init() {
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }
    void cleanup() { m_redis.reset(); }

    void forecastMatchesObservation_data() {
        QTest::addColumn<RestorePolicy>("policy");
        QTest::addColumn<double>("startCount");
        QTest::newRow("zero") << RestorePolicy::Zero << 0.0;
        QTest::newRow("min") << RestorePolicy::Min << 0.0;
        QTest::newRow("keep") << RestorePolicy::Keep << 0.0;
        QTest::newRow("start") << RestorePolicy::Start << 5.0;
    }
    void forecastMatchesObservation() {
        QFETCH(RestorePolicy, policy);
        QFETCH(double, startCount);
        ResetScenarioSpec scenario = spec(policy);
        scenario.startCount = startCount;
        QList<ResetScenarioProgress::Phase> phases;
        const ResetScenarioReport report =
            runResetScenario(scenario, [&](const ResetScenarioProgress &step) {
                if (phases.isEmpty() || phases.last() != step.phase)
                    phases.append(step.phase);
            });
        const QString details = describe(report);
        QCOMPARE(phases,
                 (QList<ResetScenarioProgress::Phase>{ResetScenarioProgress::Phase::Running,
                                                      ResetScenarioProgress::Phase::Evicted,
                                                      ResetScenarioProgress::Phase::Restored,
                                                      ResetScenarioProgress::Phase::Finished}));
        QVERIFY(!report.cancelled);
        QCOMPARE(report.member, QByteArray("proxy-04"));
        QVERIFY(report.evictedAtSeconds > 0 && report.evictedAtSeconds < report.restoredAtSeconds);
        QCOMPARE_GE(report.restoredAtEpochMs, report.evictedAtEpochMs);
        QVERIFY2(report.allocationsAfterRestore > 0, qPrintable(details));

        // Every allocation is in the pool's counts, and the restored member's count is its
        // restored count plus what it got afterwards.
        QCOMPARE(scoreSum(), report.allocations + qint64(5 * startCount) +
                                 qint64(report.restoredCount - report.savedCount));
        QCOMPARE(m_redis->run({"ZSCORE", "pool", "proxy-04"}).toDouble(),
                 report.restoredCount + report.toRestoredMemberAfterRestore);
        QCOMPARE(m_redis->run({"HLEN", PoolKeys("pool").evicted()}).integer, 0LL);

        QVERIFY2(report.longestRun >= report.forecastRun - 1, qPrintable(details));
        QVERIFY2(report.catchUpSeconds.has_value(), qPrintable(details));
        switch (policy) {
        case RestorePolicy::Zero:
            QCOMPARE(report.restoredCount, 0.0);
            QVERIFY2(report.forecastRun >= 50, qPrintable(details)); // a real flood to observe
            QVERIFY2(report.shareInWindow > report.fairShare, qPrintable(details));
            break;
        case RestorePolicy::Min:
            QCOMPARE(report.forecastRun, 0.0);
            QVERIFY2(report.longestRun <= 2, qPrintable(details));
            QCOMPARE(*report.catchUpSeconds, 0.0);
            break;
        case RestorePolicy::Keep:
            QCOMPARE(report.restoredCount, report.savedCount);
            break;
        case RestorePolicy::Start:
            QCOMPARE(report.restoredCount, startCount);
            break;
        }
    }

    void refusesAPoolThatExists() {
        m_redis->makePool("pool", {"mine:1", "mine:2"}, 42);
        QVERIFY_THROWS_EXCEPTION(RedisError, runResetScenario(spec(RestorePolicy::Zero)));
        QCOMPARE(m_redis->run({"ZSCORE", "pool", "mine:1"}).toDouble(), 42.0);

        m_redis->run({"DEL", "pool"});
        m_redis->run({"SET", "pool", "not a pool"});
        ResetScenarioSpec replacing = spec(RestorePolicy::Zero);
        replacing.replace = true; // still never deletes a key that is not a pool
        try {
            runResetScenario(replacing);
            QFAIL("a string key must not be replaced");
        } catch (const RedisError &e) {
            QCOMPARE(e.serverCode(), QByteArray("WRONGTYPE"));
        }
        QCOMPARE(m_redis->run({"GET", "pool"}).text, QByteArray("not a pool"));
    }

    void cancelEndsEarly() {
        std::atomic<bool> cancel{false};
        ResetScenarioSpec slow = spec(RestorePolicy::Zero);
        slow.before = std::chrono::milliseconds(20000);
        const ResetScenarioReport report = runResetScenario(
            slow,
            [&](const ResetScenarioProgress &step) {
                if (step.allocations >= 100)
                    cancel.store(true);
            },
            &cancel);
        QVERIFY(report.cancelled);
        QVERIFY2(report.elapsedSeconds < 10, qPrintable(describe(report)));
        QCOMPARE_GE(report.allocations, 100);
        QCOMPARE(report.restoredAtSeconds, -1.0);
        QCOMPARE(scoreSum(), report.allocations);
    }

    void cliScenarioJson() {
        const QStringList arguments{QStringLiteral("--url"),  m_redis->url(),
                                    QStringLiteral("--key"),  QStringLiteral("pool"),
                                    QStringLiteral("--json"), QStringLiteral("scenario"),
                                    QStringLiteral("reset"),  QStringLiteral("--members"),
                                    QStringLiteral("4"),      QStringLiteral("--rate"),
                                    QStringLiteral("1500"),   QStringLiteral("--policy"),
                                    QStringLiteral("zero"),   QStringLiteral("--seconds-before"),
                                    QStringLiteral("0.8"),    QStringLiteral("--seconds-after"),
                                    QStringLiteral("1")};
        CliRun run = runCli(arguments);
        QVERIFY2(run.exitCode == 0, run.err);
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(report.value(QStringLiteral("policy")).toString(), QStringLiteral("zero"));
        QCOMPARE(report.value(QStringLiteral("members")).toInt(), 4);
        QCOMPARE(report.value(QStringLiteral("restored_count")).toDouble(), 0.0);
        const double forecast = report.value(QStringLiteral("forecast_run")).toDouble();
        QVERIFY2(forecast > 0, run.out);
        QVERIFY2(report.value(QStringLiteral("observed_longest_run")).toDouble() >= forecast - 1,
                 run.out);
        QVERIFY(report.contains(QStringLiteral("share_in_window")));
        QVERIFY(report.contains(QStringLiteral("catch_up_s")));
        QCOMPARE(m_redis->run({"ZCARD", "pool"}).integer, 4LL);

        // The pool now exists: a second run refuses it, and --replace starts over.
        run = runCli(arguments);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("already has 4 members"), run.err);
        run = runCli(arguments + QStringList{QStringLiteral("--replace"),
                                             QStringLiteral("--policy"), QStringLiteral("min")});
        QVERIFY2(run.exitCode == 0, run.err);
        QVERIFY2(QJsonDocument::fromJson(run.out)
                         .object()
                         .value(QStringLiteral("observed_longest_run"))
                         .toInt() <= 2,
                 run.out);

        run = runCli({QStringLiteral("--url"), m_redis->url(), QStringLiteral("scenario"),
                      QStringLiteral("reset")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--policy"), run.err);
    }
};

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"
