// What the dashboard's health reads cost and when they happen, counted on a real redis-server
// (INFO commandstats): at 10,000 members every member's record is read once (2 × 20 HMGETs of
// 500), then each poll reads only the chart's members; an action in the audit trail brings a
// whole read at the next poll, and what the dashboard checks itself shows without a read back.
#include "RedisFixture.h"

#include "health/HealthStore.h"
#include "pool/PoolKeys.h"
#include "pool/PoolOperations.h"
#include "session/PoolHealth.h"
#include "session/PoolSession.h"

#include <QSignalSpy>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

class TestHealthReads : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsWholeOnceThenTheChartsMembers();
    void betweenWholeReadsNewAndPinnedMembersAreRead();

private:
    // Calls of one command since the last CONFIG RESETSTAT.
    static qint64 calls(RedisFixture &redis, const QByteArray &command) {
        const QByteArray stats = redis.run({"INFO", "commandstats"}).text;
        const QByteArray field = "cmdstat_" + command + ":calls=";
        const qsizetype at = stats.indexOf(field);
        if (at < 0)
            return 0;
        const qsizetype from = at + field.size();
        return stats.mid(from, stats.indexOf(',', from) - from).toLongLong();
    }
};

void TestHealthReads::readsWholeOnceThenTheChartsMembers() {
    RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    const QByteArray key = "big";
    const PoolKeys keys(key);
    QList<QByteArray> members;
    for (int i = 0; i < 10000; ++i)
        members << "192.0.2." + QByteArray::number(i % 250) + ':' + QByteArray::number(1000 + i);
    redis.makePool(key, members, 0);
    // Every member checked once, by someone else.
    HealthRecord down;
    down.checkedAtMs = QDateTime::currentMSecsSinceEpoch();
    down.outcome = QStringLiteral("refused");
    down.failures = 1;
    HealthStore(redis.admin(), keys).write([&] {
        QHash<QByteArray, HealthRecord> records;
        for (const QByteArray &member : std::as_const(members))
            records.insert(member, down);
        return records;
    }());

    PoolSession session;
    PoolHealth &health = session.health();
    QSignalSpy reads(&health, &PoolHealth::healthRead);
    session.setPollInterval(100ms);
    redis.run({"CONFIG", "RESETSTAT"});
    session.connectTo(redis.endpoint(), key);
    // The first read is whole: every record, 2 × 20 HMGETs.
    QVERIFY(reads.wait(10000));
    QVERIFY(reads.constFirst().at(0).toBool());
    QCOMPARE(health.records().size(), 10000);
    QCOMPARE(calls(redis, "hmget"), 40);
    // Then, poll after poll, only the chart's members (10 of them: one HMGET of each hash).
    const QList<QByteArray> charted = members.mid(0, 10);
    session.setChartedMembers(charted);
    reads.clear();
    redis.run({"CONFIG", "RESETSTAT"});
    QTRY_VERIFY_WITH_TIMEOUT(reads.size() >= 20, 20000);
    const qint64 polls = reads.size();
    const qint64 hmgets = calls(redis, "hmget");
    qInfo("%lld reads after the first: %lld HMGETs (%.2f a poll; 40 a poll before)", polls, hmgets,
          double(hmgets) / double(polls));
    for (const QList<QVariant> &read : std::as_const(reads))
        QVERIFY(!read.at(0).toBool());
    QCOMPARE_LE(hmgets, 2 * (polls + 1)); // a read under way when counting began may add one
    // A record of a charted member written outside shows at the next poll; another's waits.
    HealthRecord up = down;
    up.outcome = QStringLiteral("ok");
    up.failures = 0;
    up.successes = 1;
    HealthStore(redis.admin(), keys).write({{charted.first(), up}, {members.last(), up}});
    QTRY_COMPARE(health.recordOf(charted.first())->outcome, QStringLiteral("ok"));
    QCOMPARE(health.recordOf(members.last())->outcome, QStringLiteral("refused"));
    // An action in the audit trail (an operator's eviction): the next read is whole again.
    PoolOperations(redis.admin(), key).evict(members.at(500));
    reads.clear();
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(reads.cbegin(), reads.cend(),
                                         [](const auto &read) { return read.at(0).toBool(); }),
                             10000);
    QCOMPARE(health.recordOf(members.last())->outcome, QStringLiteral("ok"));
}

// Between whole reads a member new to the pool is read at its first poll (a pool whose polls
// changed only counts reads none but the chart's), and a pinned member at every poll.
void TestHealthReads::betweenWholeReadsNewAndPinnedMembersAreRead() {
    RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    const QByteArray key = "small";
    const PoolKeys keys(key);
    QList<QByteArray> members;
    for (int i = 0; i < 50; ++i)
        members << "m" + QByteArray::number(i);
    redis.makePool(key, members, 0);
    HealthRecord down;
    down.checkedAtMs = QDateTime::currentMSecsSinceEpoch();
    down.outcome = QStringLiteral("refused");
    down.failures = 1;
    HealthRecord up = down;
    up.outcome = QStringLiteral("ok");
    up.failures = 0;
    up.successes = 1;

    PoolSession session;
    PoolHealth &health = session.health();
    QSignalSpy reads(&health, &PoolHealth::healthRead);
    session.setPollInterval(100ms);
    session.connectTo(redis.endpoint(), key);
    QVERIFY(reads.wait(10000));
    QVERIFY(reads.constFirst().at(0).toBool()); // the whole read
    // Polls that change only counts (an allocation now and then), read after read.
    for (int i = 0; i < 5; ++i) {
        redis.run({"ZINCRBY", key, "1", members.at(i)});
        reads.clear();
        QVERIFY(reads.wait(10000));
        QVERIFY(!reads.constFirst().at(0).toBool());
    }
    // A member new to the pool, with a record written by someone else: read without a whole
    // read (the next one is a minute away).
    HealthStore(redis.admin(), keys).write({{"fresh", down}});
    redis.run({"ZADD", key, "0", "fresh"});
    reads.clear();
    QTRY_VERIFY_WITH_TIMEOUT(health.recordOf("fresh") != nullptr, 10000);
    for (const QList<QVariant> &read : std::as_const(reads))
        QVERIFY(!read.at(0).toBool());
    // A pinned member (not charted): a record written outside shows at the next polls.
    session.pin({members.at(30)});
    HealthStore(redis.admin(), keys).write({{members.at(30), up}});
    QTRY_VERIFY_WITH_TIMEOUT(health.recordOf(members.at(30)) != nullptr &&
                                 health.recordOf(members.at(30))->outcome == QStringLiteral("ok"),
                             10000);
    // Another, neither new, charted nor pinned, waits for the next whole read.
    HealthStore(redis.admin(), keys).write({{members.at(40), up}});
    reads.clear();
    QTRY_VERIFY_WITH_TIMEOUT(reads.size() >= 5, 10000);
    QCOMPARE(health.recordOf(members.at(40)), nullptr);
}

QTEST_MAIN(TestHealthReads)
#include "tst_healthreads.moc"
