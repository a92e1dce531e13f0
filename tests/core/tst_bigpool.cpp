// A pool of 1,000,000 members: the big-pool reads return the right members and none of their
// commands takes 5 ms or more (SLOWLOG; the benchmark holds the 1 ms target, this margin is for
// noisy shared machines).
#include "RedisFixture.h"

#include "monitor/PoolMonitor.h"
#include "pool/PoolSummary.h"

#include <QSignalSpy>

#include <limits>

#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

constexpr qint64 kMembers = 1000000;
constexpr int kDistinctCounts = 1000;

// Member i is "p<i, 7 digits>" with count i % 1000, so rank r holds count r / 1000 and, within
// a count, members sort by number: rank r is member (r / 1000) + 1000 * (r % 1000).
QByteArray memberAt(qint64 i) {
    return 'p' + QByteArray::number(i).rightJustified(7, '0');
}
QByteArray memberAtRank(qint64 rank) {
    return memberAt(rank / kDistinctCounts + kDistinctCounts * (rank % kDistinctCounts));
}

} // namespace

class TestBigPool : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;
    std::unique_ptr<RedisConnection> m_poller;

private Q_SLOTS:
    void initTestCase() {
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
        // Load in pipelined batches of 1,000 members per ZADD.
        RedisConnection &admin = m_redis->admin();
        for (qint64 start = 0; start < kMembers; start += 50000) {
            for (qint64 batch = start; batch < start + 50000; batch += 1000) {
                RedisCommand zadd{"ZADD", "big"};
                for (qint64 i = batch; i < batch + 1000; ++i)
                    zadd << QByteArray::number(i % kDistinctCounts) << memberAt(i);
                admin.append(zadd);
            }
            for (int reply = 0; reply < 50; ++reply)
                QVERIFY(!admin.readReply().isError());
        }
        QCOMPARE(m_redis->run({"ZCARD", "big"}).integer, kMembers);
        m_redis->run({"CONFIG", "SET", "slowlog-log-slower-than", "5000"});
        m_redis->run({"SLOWLOG", "RESET"});
        m_poller = m_redis->connect(QStringLiteral("test-poller"));
    }
    void cleanupTestCase() {
        m_poller.reset();
        m_redis.reset();
    }

    void summaryHasQuantilesAndEnds() {
        PoolSummaryReader reader(*m_poller, PoolKeys("big"));
        const PoolSummary summary = reader.read(5, {memberAt(42), memberAt(999999), "missing"});
        QCOMPARE(summary.size, kMembers);
        QCOMPARE(summary.quantile(0.0), 0.0);
        QCOMPARE(summary.quantile(1.0), 999.0);
        QCOMPARE(summary.quantile(0.5), 500.0); // rank 500000 of 0..999999 (nearest rank)
        QCOMPARE(summary.quantile(0.1), 100.0);
        QCOMPARE(summary.bottom.size(), 5);
        QCOMPARE(summary.bottom[0], (RankedMember{0, memberAtRank(0), 0}));
        QCOMPARE(summary.bottom[4].member, memberAtRank(4));
        QCOMPARE(summary.top[0], (RankedMember{kMembers - 1, memberAtRank(kMembers - 1), 999}));
        QCOMPARE(summary.top[1].member, memberAtRank(kMembers - 2));
        QCOMPARE(summary.pinned, (QList<PoolMember>{{memberAt(42), 42}, {memberAt(999999), 999}}));
        QCOMPARE(summary.pinnedMissing, QList<QByteArray>{"missing"});
    }

    void rowsAtScrollPositions_data() {
        QTest::addColumn<qint64>("fromRank");
        QTest::newRow("top of the table") << qint64(0);
        QTest::newRow("middle") << qint64(kMembers / 2 - 17);
        QTest::newRow("bottom") << qint64(kMembers - 40);
    }
    void rowsAtScrollPositions() {
        QFETCH(qint64, fromRank);
        PoolSummaryReader reader(*m_poller, PoolKeys("big"));
        const QList<RankedMember> rows = reader.rows(fromRank, 40);
        QCOMPARE(rows.size(), 40);
        for (const RankedMember &row : rows) {
            QCOMPARE(row.member, memberAtRank(row.rank));
            QCOMPARE(row.count, double(row.rank / kDistinctCounts));
        }
        QCOMPARE(rows.first().rank, fromRank);
    }

    void incrementalScanCoversThePool() {
        IncrementalPoolScan scan;
        int steps = 0;
        while (!scan.step(*m_poller, "big", 1000))
            QVERIFY(++steps < 100);
        const IncrementalPoolScan::Totals totals = *scan.lastCompleted();
        QCOMPARE_GE(totals.members, kMembers); // rehashing may show a member twice, never miss one
        QCOMPARE_LT(totals.members, kMembers + kMembers / 100);
        QVERIFY(totals.jainIndex() > 0.74 && totals.jainIndex() < 0.76); // uniform 0..999: 0.749
    }

    void pollerWatchesTheBigPool() {
        // The dashboard's poller, as the dashboard runs it, against the 1M pool.
        PoolMonitor monitor;
        monitor.setPollInterval(std::chrono::milliseconds(200));
        monitor.setVisibleRows(kMembers / 2, 40);
        monitor.setPinnedMembers({memberAt(7), memberAt(123456)});
        QSignalSpy observations(&monitor, &PoolMonitor::observationArrived);
        ConnectionOptions options;
        options.clientName = QStringLiteral("test-poller");
        monitor.connectTo(m_redis->endpoint(), "big", options);
        QTRY_VERIFY_WITH_TIMEOUT(observations.size() >= 5, 20000);
        const PoolObservation last = observations.last().at(0).value<PoolObservation>();
        QVERIFY(last.summaryMode);
        QCOMPARE(last.stats.size, kMembers);
        QCOMPARE(last.summary.bottom.first().member, memberAtRank(0));
        QCOMPARE(last.summary.top.first().member, memberAtRank(kMembers - 1));
        QCOMPARE(last.visibleRows.size(), 40);
        QCOMPARE(last.visibleRows.first().member, memberAtRank(kMembers / 2));
        QCOMPARE(last.summary.pinned.size(), 2);
        QCOMPARE_GT(last.scanProgress, 0);
    }

    void noCommandOfOursWasSlow() {
        // SLOWLOG measures wall time; instrumented test binaries take CPU from the server on a
        // 2-core machine. The uninstrumented run (scripts/test.sh) holds this check.
        if (qEnvironmentVariableIsSet("POOLSCOPE_SANITIZERS"))
            QSKIP("timing check: runs in the uninstrumented build");
        const RedisReply slowlog = m_redis->run({"SLOWLOG", "GET", "1000"});
        struct Slow {
            qint64 micros;
            QList<RedisReply> argv;
        };
        QList<Slow> slow;
        for (const RedisReply &entry : slowlog.elements) {
            // Entry: id, time, microseconds, argv, client address, client name.
            const QByteArray client = entry.elements.value(5).text;
            if (client == "test-poller")
                slow.append({entry.elements.value(2).integer, entry.elements.value(3).elements});
        }
        // SLOWLOG measures wall time, so a command can be logged because the server was
        // descheduled mid-command on a busy machine. Repeat each logged command: it fails the test
        // only if it is slow every time, i.e. slow in itself.
        QStringList ours;
        for (const Slow &entry : slow) {
            RedisCommand again;
            for (const RedisReply &arg : entry.argv)
                again << arg.text;
            m_redis->run({"CONFIG", "SET", "slowlog-log-slower-than", "0"});
            qint64 fastest = std::numeric_limits<qint64>::max();
            for (int attempt = 0; attempt < 5; ++attempt) {
                m_redis->run({"SLOWLOG", "RESET"});
                m_poller->command(again);
                for (const RedisReply &logged : m_redis->run({"SLOWLOG", "GET", "10"}).elements)
                    if (logged.elements.value(5).text == "test-poller")
                        fastest = std::min(fastest, logged.elements.value(2).integer);
            }
            m_redis->run({"CONFIG", "SET", "slowlog-log-slower-than", "5000"});
            if (fastest >= 5000)
                ours << QStringLiteral("%1 us (fastest of 5 repeats: %2 us): %3")
                            .arg(entry.micros)
                            .arg(fastest)
                            .arg(QString::fromUtf8(again.join(' ')));
            else
                qInfo("%lld us once, %lld us at best when repeated: the server was descheduled",
                      entry.micros, fastest);
        }
        QVERIFY2(ours.isEmpty(), qPrintable(ours.join(QStringLiteral("; "))));
        // The check can fail: a whole-pool read of 1M members is logged.
        m_redis->run({"ZRANGE", "big", "0", "-1", "WITHSCORES"});
        QCOMPARE_GE(m_redis->run({"SLOWLOG", "LEN"}).integer, 1);
    }
};

QTEST_GUILESS_MAIN(TestBigPool)
#include "tst_bigpool.moc"
