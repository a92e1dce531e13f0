// The load runner against a real redis-server: exact accounting, empty pools, the rate cap,
// cancelling, reconnecting, the race demo, error kinds; and `poolscope-cli allocate --json`.
#include "RedisFixture.h"

#include "load/LatencyHistogram.h"
#include "load/LoadRunner.h"
#include "pool/LuaScript.h"

#include <cctype>
#include <csignal>

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

Q_DECLARE_METATYPE(poolscope::LoadReport)

namespace {

int threadCount() {
    return static_cast<int>(QDir(QStringLiteral("/proc/self/task"))
                                .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                                .size());
}

QList<QByteArray> names(int count) {
    QList<QByteArray> list;
    for (int i = 0; i < count; ++i)
        list << "proxy-" + QByteArray::number(i).rightJustified(3, '0');
    return list;
}

} // namespace

class TestLoadRunner : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;

    LoadSpec spec(qint64 total, int workers = 1, int pipeline = 1) {
        LoadSpec s;
        s.endpoint = m_redis->endpoint();
        s.poolKey = "pool";
        s.total = total;
        s.workers = workers;
        s.pipeline = pipeline;
        s.connection.commandTimeout = std::chrono::milliseconds(5000);
        return s;
    }
    // Sum of all scores, read exactly (scores are small integers).
    qint64 scoreSum() {
        const RedisReply reply = m_redis->run({"ZRANGE", "pool", "0", "-1", "WITHSCORES"});
        qint64 sum = 0;
        for (qsizetype i = 1; i < reply.elements.size(); i += 2)
            sum += static_cast<qint64>(reply.elements[i].toDouble());
        return sum;
    }
    // A field of an INFO section line such as "errorstat_NOSCRIPT:count=3" or
    // "cmdstat_eval:calls=12,usec=…": the number after "NAME=" (0 when the line is absent).
    qint64 infoCount(const QByteArray &section, const QByteArray &line, const QByteArray &name) {
        const QByteArray info = m_redis->run({"INFO", section}).text;
        const qsizetype at = info.indexOf("\n" + line + ':');
        if (at < 0)
            return 0;
        const qsizetype value = info.indexOf(name + '=', at) + name.size() + 1;
        qsizetype end = value;
        while (end < info.size() && std::isdigit(static_cast<unsigned char>(info[end])))
            ++end;
        return info.mid(value, end - value).toLongLong();
    }
    qint64 noscriptErrors() { return infoCount("errorstats", "errorstat_NOSCRIPT", "count"); }
    qint64 commandCalls(const QByteArray &command) {
        return infoCount("commandstats", "cmdstat_" + command, "calls");
    }
    // Every NOSCRIPT so far answered by its EVAL. The EVALs are read first: a NOSCRIPT counted
    // after them would need an EVALSHA to meet an empty cache, which those EVALs filled.
    bool everyNoscriptAnswered() {
        const qint64 evals = commandCalls("eval");
        return evals >= noscriptErrors();
    }
    int loadClients() {
        const QByteArray list = m_redis->run({"CLIENT", "LIST"}).text;
        return static_cast<int>(list.count("name=poolscope-load "));
    }
    static qint64 perMemberSum(const LoadReport &report) {
        qint64 sum = 0;
        for (const qint64 count : report.perMember)
            sum += count;
        return sum;
    }
    static QString describe(const LoadReport &report) {
        return QString::fromUtf8(QJsonDocument(report.toJson()).toJson(QJsonDocument::Compact));
    }
    CliRun cli(const QStringList &arguments) {
        return runCli(QStringList{QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                                  QStringLiteral("pool")} +
                      arguments);
    }

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<poolscope::LoadReport>(); }
    void init() {
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }
    void cleanup() { m_redis.reset(); }

    void histogramQuantiles() {
        LatencyHistogram histogram;
        QCOMPARE(histogram.quantileMicros(0.5), 0);
        for (qint64 value = 1; value <= 100; ++value)
            histogram.record(value);
        QCOMPARE(histogram.quantileMicros(0.5), 50); // exact below 128 µs
        QCOMPARE(histogram.quantileMicros(0.99), 99);
        QCOMPARE(histogram.maxMicros(), 100);
        LatencyHistogram slow;
        slow.record(1'000'000);
        slow.record(20'000'000); // above the range: last bucket, exact max
        histogram.merge(slow);
        QCOMPARE(histogram.count(), 102);
        QCOMPARE(histogram.maxMicros(), 20'000'000);
        const qint64 oneSecond = histogram.quantileMicros(101.0 / 102);
        QVERIFY2(oneSecond >= 1'000'000 && oneSecond <= 1'016'000,
                 qPrintable(QString::number(oneSecond)));
        for (qint64 value : {128LL, 1000LL, 123456LL, 9'999'999LL}) {
            const int bucket = LatencyHistogram::bucketOf(value);
            QCOMPARE_GE(LatencyHistogram::upperEdgeOf(bucket), value);
            QCOMPARE_LT(LatencyHistogram::upperEdgeOf(bucket - 1), value);
        }
    }

    void invalidSpecsAreRefused() {
        LoadSpec bad = spec(0);
        QVERIFY(!validateLoadSpec(bad).isEmpty()); // neither total nor duration
        bad = spec(10, 0);
        QVERIFY(validateLoadSpec(bad).contains(QStringLiteral("workers")));
        LoadRunner runner;
        QVERIFY(!runner.start(bad));
        QVERIFY(!runner.isRunning());
        const LoadReport report = LoadRunner::run(bad);
        QVERIFY(!report.error.isEmpty());
        QCOMPARE(report.attempts(), 0);
    }

    void exactAccounting_data() {
        QTest::addColumn<int>("workers");
        QTest::addColumn<int>("pipeline");
        QTest::addColumn<int>("threads"); // 0 = automatic
        QTest::newRow("1 worker, no pipeline") << 1 << 1 << 0;
        QTest::newRow("1 worker, pipeline 16") << 1 << 16 << 0;
        QTest::newRow("4 workers, no pipeline") << 4 << 1 << 0;
        QTest::newRow("4 workers, pipeline 16") << 4 << 16 << 0;
        QTest::newRow("4 workers, pipeline 16, 4 threads") << 4 << 16 << 4;
        QTest::newRow("5 workers, no pipeline, 3 threads") << 5 << 1 << 3;
    }
    void exactAccounting() {
        QFETCH(int, workers);
        QFETCH(int, pipeline);
        QFETCH(int, threads);
        m_redis->makePool("pool", names(10), 7);
        const qint64 before = scoreSum();
        LoadSpec run = spec(3001, workers, pipeline);
        run.threads = threads;
        const LoadReport report = LoadRunner::run(run);
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE(report.allocated, 3001);
        QCOMPARE(report.empty, 0);
        QCOMPARE(report.errors(), 0);
        QCOMPARE(report.unknown, 0);
        QCOMPARE(report.attempts(), 3001);
        QCOMPARE(scoreSum() - before, report.allocated);
        QCOMPARE(perMemberSum(report), report.allocated);
        QCOMPARE(report.perMember.size(), 10);
        // Least-used keeps the pool level: every member got 300 or 301.
        for (const qint64 count : report.perMember)
            QVERIFY2(count == 300 || count == 301, qPrintable(describe(report)));
        QCOMPARE(report.workers, workers);
        QCOMPARE(report.pipeline, pipeline);
        if (threads > 0)
            QCOMPARE(report.threads, threads);
        QVERIFY(report.threads >= 1 && report.threads <= workers);
        QCOMPARE_GT(report.elapsedSeconds, 0);
        QCOMPARE_LE(report.latencyP50Ms, report.latencyP99Ms);
        QCOMPARE_LE(report.latencyP99Ms, report.latencyMaxMs);
        QCOMPARE_GT(report.latencyMaxMs, 0);
        QVERIFY(!report.cancelled);
    }

    void emptyPoolEndsTheRun() {
        const LoadReport report = LoadRunner::run(spec(500, 3, 8));
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE(report.empty, 500); // empties use up the total, so the run ends
        QCOMPARE(report.allocated, 0);
        QCOMPARE(report.errors(), 0);
        QCOMPARE(report.unknown, 0);
        QCOMPARE(m_redis->run({"EXISTS", "pool"}).integer, 0LL);
    }

    void durationRunStopsInTime() {
        m_redis->makePool("pool", names(5));
        LoadSpec timed = spec(0, 2, 4);
        timed.duration = std::chrono::milliseconds(300);
        const qint64 before = scoreSum();
        const LoadReport report = LoadRunner::run(timed);
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE_GT(report.allocated, 0);
        QVERIFY2(report.elapsedSeconds >= 0.29, qPrintable(describe(report)));
        QCOMPARE(scoreSum() - before, report.allocated);
    }

    void rateCapIsRespected() {
        m_redis->makePool("pool", names(5));
        LoadSpec capped = spec(300, 3, 4);
        capped.ratePerSecond = 1000;
        const LoadReport report = LoadRunner::run(capped);
        QCOMPARE(report.allocated, 300);
        // Never faster than the cap (bucket of one token per worker); no bound on slowness.
        QVERIFY2(report.elapsedSeconds >= 0.8 * 300 / 1000.0, qPrintable(describe(report)));
        QVERIFY2(report.ratePerSecond() <= 1250, qPrintable(describe(report)));
    }

    void progressAndCancelHalfway() {
        m_redis->makePool("pool", names(20));
        const qint64 before = scoreSum();
        const int threadsBefore = threadCount();
        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        const qint64 total = 100'000'000; // far more than can finish before the cancel
        QVERIFY(runner.start(spec(total, 4, 8)));
        QVERIFY(runner.isRunning());
        QVERIFY(!runner.start(spec(10))); // one run at a time
        QTRY_VERIFY_WITH_TIMEOUT(progressed.size() >= 2 && progressed.last().at(0).toLongLong() > 0,
                                 10000);
        QCOMPARE(progressed.last().at(1).toLongLong(), total);
        QCOMPARE(loadClients(), 4);
        runner.cancel();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.size(), 1);
        QVERIFY(!runner.isRunning());
        const auto report = finished.first().at(0).value<LoadReport>();
        QVERIFY(report.cancelled);
        QVERIFY2(report.allocated > 0 && report.allocated < total, qPrintable(describe(report)));
        // Cancelling drains what is in flight: still exact.
        QCOMPARE(report.unknown, 0);
        QCOMPARE(scoreSum() - before, report.allocated);
        QCOMPARE(progressed.last().at(0).toLongLong(), report.attempts());
        QTRY_COMPARE(threadCount(), threadsBefore);
        QTRY_COMPARE(loadClients(), 0);
        QVERIFY(!finished.wait(300)); // finished() comes once
    }

    void destructorCancelsAndJoins() {
        m_redis->makePool("pool", names(5));
        const qint64 before = scoreSum();
        const int threadsBefore = threadCount();
        {
            LoadRunner runner;
            QSignalSpy progressed(&runner, &LoadRunner::progressed);
            QVERIFY(runner.start(spec(100'000'000, 3, 4)));
            QTRY_VERIFY_WITH_TIMEOUT(
                !progressed.isEmpty() && progressed.last().at(0).toLongLong() > 0, 10000);
        }
        QCOMPARE(threadCount(), threadsBefore); // joined, not detached
        QTRY_COMPARE(loadClients(), 0);
        QCOMPARE_GT(scoreSum(), before);
    }

    void externalCancelFlagStopsRun() {
        m_redis->makePool("pool", names(5));
        std::atomic<bool> cancel{true}; // already set: the run ends at once, with nothing lost
        const LoadReport report = LoadRunner::run(spec(1'000'000, 2, 4), &cancel);
        QVERIFY(report.cancelled);
        QCOMPARE_LT(report.allocated, 1'000'000);
        QCOMPARE(report.unknown, 0);
        QCOMPARE(scoreSum(), report.allocated);
    }

    void naiveModeCollidesScriptDoesNot() {
        m_redis->makePool("pool", names(5));
        LoadSpec naive = spec(20000, 8);
        naive.atomic = false;
        naive.pipeline = 16; // ignored: the naive pair goes one command at a time
        qint64 before = scoreSum();
        const LoadReport race = LoadRunner::run(naive);
        QVERIFY2(race.error.isEmpty(), qPrintable(race.error));
        QCOMPARE(race.allocated, 20000);
        QCOMPARE(scoreSum() - before, race.allocated);
        QVERIFY2(race.collisions > 0, qPrintable(describe(race)));
        QVERIFY2(race.duplicatePicks > 0, qPrintable(describe(race)));
        QVERIFY(!race.atomic);
        QCOMPARE(race.pipeline, 1);

        before = scoreSum();
        const LoadReport script = LoadRunner::run(spec(20000, 8));
        QCOMPARE(script.allocated, 20000);
        QCOMPARE(scoreSum() - before, script.allocated);
        QCOMPARE(script.collisions, 0);
        QCOMPARE(script.duplicatePicks, 0);
    }

    void errorRepliesAreCountedByKind_data() {
        QTest::addColumn<bool>("atomic");
        QTest::newRow("script") << true;
        QTest::newRow("naive") << false;
    }
    void errorRepliesAreCountedByKind() {
        QFETCH(bool, atomic);
        m_redis->run({"SET", "pool", "not a pool"});
        LoadSpec wrong = spec(50, 2, 4);
        wrong.atomic = atomic;
        const LoadReport report = LoadRunner::run(wrong);
        QCOMPARE(report.errorsByKind.value(QStringLiteral("WRONGTYPE")), 50);
        QCOMPARE(report.errors(), 50);
        QCOMPARE(report.allocated, 0);
        QCOMPARE(report.unknown, 0);
        QVERIFY(report.error.isEmpty()); // the run itself worked
        QCOMPARE(m_redis->run({"GET", "pool"}).text, QByteArray("not a pool"));
    }

    void scriptFlushDuringRunLosesNothing() {
        m_redis->makePool("pool", names(10));
        const qint64 before = scoreSum();
        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        // Runs until cancelled: a fixed duration could end before the third flush on a busy
        // machine, and then no worker is left to meet it.
        QVERIFY(runner.start(spec(100'000'000, 3, 8)));
        QTRY_VERIFY_WITH_TIMEOUT(!progressed.isEmpty() && progressed.last().at(0).toLongLong() > 0,
                                 10000);
        // Each flush is met: the server counts the NOSCRIPT errors it answered (INFO errorstats),
        // and the workers' EVAL fallback (INFO commandstats) runs the script again.
        for (int i = 0; i < 3; ++i) {
            const qint64 seen = noscriptErrors();
            m_redis->run({"SCRIPT", "FLUSH"});
            QTRY_VERIFY_WITH_TIMEOUT(noscriptErrors() > seen, 10000);
            // The script cached again: a next flush that came before a resend would be undone
            // by it, and no EVALSHA would meet the empty cache.
            QTRY_VERIFY_WITH_TIMEOUT(everyNoscriptAnswered(), 10000);
        }
        runner.cancel();
        QVERIFY(finished.wait(20000));
        const auto report = finished.first().at(0).value<LoadReport>();
        QVERIFY2(noscriptErrors() >= 3, qPrintable(QString::number(noscriptErrors())));
        QVERIFY2(commandCalls("eval") >= 3, qPrintable(QString::number(commandCalls("eval"))));
        QCOMPARE(report.errors(), 0); // NOSCRIPT was answered with EVAL
        QCOMPARE(report.unknown, 0);
        QCOMPARE(scoreSum() - before, report.allocated);
    }

    void killedConnectionsReconnect() {
        m_redis->makePool("pool", names(10));
        const qint64 before = scoreSum();
        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        LoadSpec timed = spec(0, 4, 8);
        timed.duration = std::chrono::milliseconds(2000);
        QVERIFY(runner.start(timed));
        QTRY_VERIFY_WITH_TIMEOUT(!progressed.isEmpty() && progressed.last().at(0).toLongLong() > 0,
                                 10000);
        QCOMPARE_GE(m_redis->run({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"}).integer, 4);
        QVERIFY(finished.wait(20000));
        const auto report = finished.first().at(0).value<LoadReport>();
        QVERIFY2(report.connectionLosses >= 4, qPrintable(describe(report)));
        QVERIFY2(report.reconnects >= 4, qPrintable(describe(report)));
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        // Each allocation lost in flight may or may not have run: never more than `unknown`.
        const qint64 rose = scoreSum() - before;
        QVERIFY2(rose >= report.allocated && rose <= report.allocated + report.unknown,
                 qPrintable(QStringLiteral("rose %1: %2").arg(rose).arg(describe(report))));
        QTRY_COMPARE(loadClients(), 0);
    }

    void stuckServerTimesOutAndRecovers() {
        m_redis->makePool("pool", names(10));
        const qint64 before = scoreSum();
        LoadRunner runner;
        QSignalSpy progressed(&runner, &LoadRunner::progressed);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        LoadSpec timed = spec(0, 3, 4);
        timed.duration = std::chrono::milliseconds(2500);
        timed.connection.commandTimeout = std::chrono::milliseconds(300);
        QVERIFY(runner.start(timed));
        QTRY_VERIFY_WITH_TIMEOUT(!progressed.isEmpty() && progressed.last().at(0).toLongLong() > 0,
                                 10000);
        // Scripts count as writes: every EVALSHA now waits longer than the command timeout.
        QCOMPARE(m_redis->run({"CLIENT", "PAUSE", "1200", "WRITE"}).text, QByteArray("OK"));
        QVERIFY(finished.wait(20000));
        const auto report = finished.first().at(0).value<LoadReport>();
        QVERIFY2(report.connectionLosses >= 3, qPrintable(describe(report)));
        QVERIFY2(report.unknown >= 3, qPrintable(describe(report)));
        QVERIFY2(report.reconnects >= 3, qPrintable(describe(report)));
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        const qint64 rose = scoreSum() - before;
        QVERIFY2(rose >= report.allocated && rose <= report.allocated + report.unknown,
                 qPrintable(QStringLiteral("rose %1: %2").arg(rose).arg(describe(report))));
        QCOMPARE_GT(report.allocated, 0);
    }

    void unreachableServerFailsFast() {
        LoadSpec nowhere = spec(100, 2);
        nowhere.endpoint.socketPath += QStringLiteral(".missing");
        const LoadReport report = LoadRunner::run(nowhere);
        QVERIFY(!report.error.isEmpty());
        QCOMPARE(report.attempts(), 0);
    }

    void cliAllocateJson() {
        m_redis->makePool("pool", names(5));
        CliRun run = cli({QStringLiteral("--json"), QStringLiteral("allocate"),
                          QStringLiteral("-n"), QStringLiteral("200"), QStringLiteral("--workers"),
                          QStringLiteral("2"), QStringLiteral("--pipeline"), QStringLiteral("4")});
        QCOMPARE(run.exitCode, 0);
        QJsonObject report = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(report.value(QStringLiteral("allocated")).toInt(), 200);
        QCOMPARE(report.value(QStringLiteral("empty")).toInt(), 0);
        QCOMPARE(report.value(QStringLiteral("errors")).toInt(), 0);
        QCOMPARE(report.value(QStringLiteral("unknown")).toInt(), 0);
        QCOMPARE(report.value(QStringLiteral("workers")).toInt(), 2);
        QCOMPARE(report.value(QStringLiteral("pipeline")).toInt(), 4);
        QVERIFY(
            report.value(QStringLiteral("latency_ms")).toObject().contains(QStringLiteral("p99")));
        QCOMPARE_GT(report.value(QStringLiteral("rate_per_s")).toDouble(), 0);
        int perMember = 0;
        for (const QJsonValue count : report.value(QStringLiteral("per_member")).toObject())
            perMember += count.toInt();
        QCOMPARE(perMember, 200);
        QCOMPARE(scoreSum(), 200);

        run = cli({QStringLiteral("--json"), QStringLiteral("allocate"), QStringLiteral("-n"),
                   QStringLiteral("300"), QStringLiteral("--workers"), QStringLiteral("4"),
                   QStringLiteral("--non-atomic")});
        QCOMPARE(run.exitCode, 0);
        report = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(report.value(QStringLiteral("atomic")).toBool(), false);
        QVERIFY(report.contains(QStringLiteral("collisions")));
        QVERIFY(report.contains(QStringLiteral("duplicate_picks")));
        QCOMPARE(scoreSum(), 500);

        m_redis->run({"DEL", "pool"});
        run = cli({QStringLiteral("--json"), QStringLiteral("allocate"), QStringLiteral("-n"),
                   QStringLiteral("10"), QStringLiteral("--workers"), QStringLiteral("2")});
        QCOMPARE(run.exitCode, 3);
        report = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(report.value(QStringLiteral("empty")).toInt(), 10);
        QVERIFY2(run.err.contains("empty"), run.err);
    }

    void cliInterruptPrintsPartialReport() {
        m_redis->makePool("pool", names(5));
        QProcess process;
        process.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                      {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                       QStringLiteral("pool"), QStringLiteral("--json"), QStringLiteral("allocate"),
                       QStringLiteral("--duration"), QStringLiteral("60"),
                       QStringLiteral("--workers"), QStringLiteral("2")});
        QVERIFY(process.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(scoreSum() > 0, 10000);
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 130);
        const QJsonObject report =
            QJsonDocument::fromJson(process.readAllStandardOutput()).object();
        QCOMPARE(report.value(QStringLiteral("cancelled")).toBool(), true);
        QCOMPARE(report.value(QStringLiteral("unknown")).toInt(), 0);
        QCOMPARE(report.value(QStringLiteral("allocated")).toInteger(), scoreSum());
    }
};

QTEST_GUILESS_MAIN(TestLoadRunner)
#include "tst_loadrunner.moc"
