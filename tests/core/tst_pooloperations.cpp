// Every pool operation against a real redis-server started by the fixture.
#include "RedisFixture.h"

#include "base/RedisError.h"
#include "pool/LuaScript.h"
#include "pool/PoolOperations.h"

#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

class TestPoolOperations : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;
    std::unique_ptr<RedisConnection> m_connection;
    std::unique_ptr<PoolOperations> m_pool;

    QList<QByteArray> names(int count, const char *prefix = "m") {
        QList<QByteArray> list;
        for (int i = 0; i < count; ++i)
            list << QByteArray(prefix) + QByteArray::number(i).rightJustified(3, '0');
        return list;
    }
    double score(const QByteArray &member) {
        return m_redis->run({"ZSCORE", "pool", member}).toDouble();
    }

private Q_SLOTS:
    void init() {
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
        m_connection = m_redis->connect(QStringLiteral("test"));
        m_pool = std::make_unique<PoolOperations>(*m_connection, "pool");
    }
    void cleanup() {
        m_pool.reset();
        m_connection.reset();
        m_redis.reset(); // kills the server by PID
    }

    void allocateScriptIsTheSeedScript() {
        QCOMPARE(LuaScript::allocate().sha1(),
                 QByteArray("43144af8cdf336c396cb45b01cd6e0b359e2d9d0"));
        QFile file(QStringLiteral(POOLSCOPE_SOURCE_DIR "/resources/lua/allocate.lua"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(LuaScript::allocate().source(), file.readAll());
    }

    void emptyPoolAllocatesNothing() {
        QCOMPARE(m_pool->allocate(), std::nullopt);
        QCOMPARE(m_redis->run({"EXISTS", "pool"}).integer, 0LL);
        const PoolSnapshot snapshot = m_pool->snapshot();
        QVERIFY(snapshot.members.isEmpty());
        QVERIFY(snapshot.evicted.isEmpty());
    }

    void allocationLoadsScriptIntoCache() {
        m_redis->makePool("pool", {"a"});
        QCOMPARE(m_redis->run({"SCRIPT", "EXISTS", LuaScript::allocate().sha1()})
                     .elements.value(0)
                     .integer,
                 0LL);
        QCOMPARE(m_pool->allocate(), std::optional<QByteArray>("a"));
        QCOMPARE(m_redis->run({"SCRIPT", "EXISTS", LuaScript::allocate().sha1()})
                     .elements.value(0)
                     .integer,
                 1LL);
        // After SCRIPT FLUSH the NOSCRIPT fallback still allocates.
        m_redis->run({"SCRIPT", "FLUSH"});
        QCOMPARE(m_pool->allocate(), std::optional<QByteArray>("a"));
        QCOMPARE(score("a"), 2.0);
    }

    void tiesAreBrokenByMemberOrder() {
        m_redis->makePool("pool", {"c", "a", "b"}, 5);
        QCOMPARE(m_pool->allocate(), std::optional<QByteArray>("a"));
        QCOMPARE(m_pool->allocate(), std::optional<QByteArray>("b"));
        QCOMPARE(m_pool->allocate(), std::optional<QByteArray>("c"));
        QCOMPARE(m_pool->allocate(), std::optional<QByteArray>("a"));
        QCOMPARE(score("a"), 7.0);
    }

    void manyAllocationsStayFair() {
        m_redis->makePool("pool", names(10));
        for (int i = 0; i < 2000; ++i)
            QVERIFY(m_pool->allocate().has_value());
        const PoolStats stats = m_pool->stats();
        QCOMPARE(stats.size, 10);
        QVERIFY2(stats.spread <= 1, qPrintable(QString::number(stats.spread)));
        QCOMPARE(stats.total, 2000.0);
        QCOMPARE(stats.min, 200.0);
    }

    // A server without Lua (here: EVAL, EVALSHA and SCRIPT renamed away) is named as such, with
    // a kind of its own, not as a failed command to retry.
    void serverWithoutLuaIsToldApart() {
        RedisServerOptions options;
        options.extraArguments = {"--rename-command", "EVALSHA", "", "--rename-command", "EVAL", "",
                                  "--rename-command", "SCRIPT",  ""};
        RedisFixture noLua(options);
        QVERIFY2(noLua.start(), qPrintable(noLua.error()));
        noLua.makePool("pool", {"a", "b"});
        const auto connection = noLua.connect();
        PoolOperations pool(*connection, "pool");
        try {
            (void)pool.allocate();
            QFAIL("allocate succeeded without Lua");
        } catch (const RedisError &e) {
            QCOMPARE(e.kind(), RedisError::Kind::Unsupported);
            QVERIFY2(e.message().contains(QStringLiteral("Lua scripting")),
                     qPrintable(e.message()));
            QVERIFY2(e.message().contains(QStringLiteral("\"pool\"")), qPrintable(e.message()));
        }
        try {
            LuaScript::allocate().load(*connection);
            QFAIL("SCRIPT LOAD succeeded without Lua");
        } catch (const RedisError &e) {
            QCOMPARE(e.kind(), RedisError::Kind::Unsupported);
        }
        QCOMPARE(noLua.run({"ZSCORE", "pool", "a"}).toDouble(), 0.0);
    }

    void wrongTypeKeyIsNamed() {
        m_redis->run({"SET", "pool", "not a pool"});
        try {
            m_pool->allocate();
            QFAIL("allocate on a string key must throw");
        } catch (const RedisError &e) {
            QCOMPARE(e.serverCode(), QByteArray("WRONGTYPE"));
            QVERIFY2(
                e.message().contains(QStringLiteral("\"pool\" holds a string, not a sorted set")),
                qPrintable(e.message()));
        }
        QVERIFY_THROWS_EXCEPTION(RedisError, m_pool->snapshot());
        QVERIFY_THROWS_EXCEPTION(RedisError, m_pool->seed({"x:1"}, SeedOptions{}));
        QCOMPARE(m_redis->run({"GET", "pool"}).text, QByteArray("not a pool"));
    }

    void snapshotReadsBigPoolsInChunks() {
        const QList<QByteArray> members = names(2500);
        for (int i = 0; i < members.size(); ++i)
            m_redis->run({"ZADD", "pool", QByteArray::number(i % 7), members[i]});
        m_redis->run({"HSET", m_pool->keys().evicted(), "gone", "12"});
        const PoolSnapshot snapshot = m_pool->snapshot();
        QCOMPARE(snapshot.members.size(), 2500);
        QCOMPARE_GE(snapshot.commandsSent, 3); // ZCARD + several ZSCAN pages + HSCAN
        for (qsizetype i = 1; i < snapshot.members.size(); ++i) {
            const PoolMember &a = snapshot.members[i - 1];
            const PoolMember &b = snapshot.members[i];
            QVERIFY(a.count < b.count || (a.count == b.count && a.member < b.member));
        }
        QCOMPARE(snapshot.evicted, (QList<EvictedMember>{{"gone", 12}}));
        // Same content and order as one full read.
        const RedisReply full = m_redis->run({"ZRANGE", "pool", "0", "-1", "WITHSCORES"});
        for (qsizetype i = 0; i < snapshot.members.size(); ++i)
            QCOMPARE(snapshot.members[i].member, full.elements[2 * i].text);
    }

    void seedAddsAtStartCountAndKeepsExisting() {
        m_redis->makePool("pool", {"old"}, 9);
        SeedOptions options;
        options.startCount = 4;
        options.batchSize = 3; // several script calls
        const SeedResult result = m_pool->seed({"old", "n1", "n2", "n3", "n4"}, options);
        QCOMPARE(result.added, (QList<QByteArray>{"n1", "n2", "n3", "n4"}));
        QCOMPARE(result.alreadyPresent, (QList<QByteArray>{"old"}));
        QCOMPARE(score("old"), 9.0);
        QCOMPARE(score("n3"), 4.0);
    }

    void seedOverwriteAndDryRun() {
        m_redis->makePool("pool", {"a", "b"}, 9);
        SeedOptions options;
        options.startCount = 2;
        options.overwrite = true;
        options.dryRun = true;
        SeedResult result = m_pool->seed({"a", "c"}, options);
        QCOMPARE(result.overwritten, (QList<QByteArray>{"a"}));
        QCOMPARE(result.added, (QList<QByteArray>{"c"}));
        QCOMPARE(score("a"), 9.0);
        QCOMPARE(m_redis->run({"ZSCORE", "pool", "c"}).isNil(), true);
        options.dryRun = false;
        result = m_pool->seed({"a", "c"}, options);
        QCOMPARE(score("a"), 2.0);
        QCOMPARE(score("c"), 2.0);
        QCOMPARE(score("b"), 9.0);
    }

    void seedAtPoolMinimum() {
        m_redis->makePool("pool", {"a"}, 40);
        m_redis->makePool("pool", {"b"}, 42);
        SeedOptions options;
        options.startAtPoolMinimum = true;
        const SeedResult result = m_pool->seed({"new"}, options);
        QCOMPARE(result.startCount, 40.0);
        QCOMPARE(score("new"), 40.0);
    }

    void seedDoesNotReaddEvictedMembers() {
        m_redis->makePool("pool", {"a", "b"}, 3);
        m_pool->evict("a");
        const SeedResult result = m_pool->seed({"a", "c"}, SeedOptions{});
        QCOMPARE(result.evicted, (QList<QByteArray>{"a"}));
        QCOMPARE(result.added, (QList<QByteArray>{"c"}));
        QVERIFY(m_redis->run({"ZSCORE", "pool", "a"}).isNil());
    }

    void seedRejectsBadCounts_data() {
        QTest::addColumn<double>("count");
        QTest::newRow("negative") << -1.0;
        QTest::newRow("nan") << std::nan("");
        QTest::newRow("infinite") << HUGE_VAL;
        QTest::newRow("huge") << 1e300;
        QTest::newRow("fraction") << 1.5;
    }
    void seedRejectsBadCounts() {
        QFETCH(double, count);
        m_redis->makePool("pool", {"a"}, 3);
        SeedOptions options;
        options.startCount = count;
        QVERIFY_THROWS_EXCEPTION(RedisError, m_pool->seed({"b"}, options));
        QCOMPARE(m_redis->run({"ZCARD", "pool"}).integer, 1LL);
    }

    void evictKeepsCountInCompanionHash() {
        m_redis->makePool("pool", {"a", "b"}, 7);
        const EvictResult result = m_pool->evict("a");
        QCOMPARE(result.savedCount, 7.0);
        QVERIFY(m_redis->run({"ZSCORE", "pool", "a"}).isNil());
        QCOMPARE(m_redis->run({"HGET", PoolKeys("pool").evicted(), "a"}).text, QByteArray("7"));
        const PoolSnapshot snapshot = m_pool->snapshot();
        QCOMPARE(snapshot.members.size(), 1);
        QCOMPARE(snapshot.evicted, (QList<EvictedMember>{{"a", 7}}));
    }

    void evictUnknownMemberIsAnError() {
        m_redis->makePool("pool", {"a"}, 1);
        try {
            m_pool->evict("nope");
            QFAIL("must throw");
        } catch (const RedisError &e) {
            QCOMPARE(e.kind(), RedisError::Kind::Usage);
            QVERIFY2(e.message().contains(QStringLiteral("\"nope\"")), qPrintable(e.message()));
        }
        m_pool->evict("a");
        QVERIFY_THROWS_EXCEPTION(RedisError, m_pool->evict("a"));
    }

    void restoreUnderEachPolicy_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<double>("expected");
        // Pool: a=10 (evicted), b=30, c=40; agreed start 5.
        QTest::newRow("keep") << "keep" << 10.0;
        QTest::newRow("zero") << "zero" << 0.0;
        QTest::newRow("start") << "start" << 5.0;
        QTest::newRow("min") << "min" << 30.0;
    }
    void restoreUnderEachPolicy() {
        QFETCH(QString, policy);
        QFETCH(double, expected);
        m_redis->run({"ZADD", "pool", "10", "a", "30", "b", "40", "c"});
        m_pool->evict("a");
        const RestoreResult result = m_pool->restore("a", *parseRestorePolicy(policy), 5);
        QCOMPARE(result.restoredCount, expected);
        QCOMPARE(result.savedCount, 10.0);
        QCOMPARE(result.poolMinimumBefore, std::optional<double>(30)); // read with the restore
        QCOMPARE(score("a"), expected);
        QCOMPARE(m_redis->run({"HEXISTS", m_pool->keys().evicted(), "a"}).integer, 0LL);
        // The flood: with zero, the restored member takes every allocation until it catches up.
        const int forecast = int(30 - expected);
        for (int i = 0; i < forecast; ++i)
            QCOMPARE(m_pool->allocate(), std::optional<QByteArray>("a"));
    }

    void restoreMinIntoEmptyPoolKeepsSavedCount() {
        m_redis->makePool("pool", {"a"}, 8);
        m_pool->evict("a");
        const RestoreResult result = m_pool->restore("a", RestorePolicy::Min);
        QCOMPARE(result.restoredCount, 8.0);
        QCOMPARE(result.poolMinimumBefore, std::nullopt);
    }

    void restoreErrors() {
        m_redis->makePool("pool", {"a"}, 1);
        QVERIFY_THROWS_EXCEPTION(RedisError, m_pool->restore("a", RestorePolicy::Keep));
        QVERIFY_THROWS_EXCEPTION(RedisError, m_pool->restore("ghost", RestorePolicy::Keep));
        QCOMPARE(score("a"), 1.0);
    }

    void binarySafeMemberNames_data() {
        QTest::addColumn<QByteArray>("member");
        QTest::newRow("space") << QByteArray("a b:80");
        QTest::newRow("quotes") << QByteArray("\"q'\":80");
        QTest::newRow("unicode") << QByteArray("pröxy-日本:80");
        QTest::newRow("nul") << QByteArray("nul\0byte:80", 11);
    }
    void binarySafeMemberNames() {
        QFETCH(QByteArray, member);
        const SeedResult seeded = m_pool->seed({member}, SeedOptions{});
        QCOMPARE(seeded.added, QList<QByteArray>{member});
        QCOMPARE(m_pool->allocate(), std::optional<QByteArray>(member));
        QCOMPARE(m_pool->evict(member).savedCount, 1.0);
        QCOMPARE(m_pool->snapshot().evicted.value(0).member, member);
        QCOMPARE(m_pool->restore(member, RestorePolicy::Keep).restoredCount, 1.0);
        QCOMPARE(m_pool->snapshot().members.value(0).member, member);
    }

    void statsOfAKnownPool() {
        m_redis->run({"ZADD", "pool", "1", "a", "2", "b", "3", "c", "10", "d"});
        m_redis->run({"HSET", m_pool->keys().evicted(), "e", "4"});
        const PoolStats stats = m_pool->stats();
        QCOMPARE(stats.size, 4);
        QCOMPARE(stats.evicted, 1);
        QCOMPARE(stats.min, 1.0);
        QCOMPARE(stats.median, 2.5);
        QCOMPARE(stats.max, 10.0);
        QCOMPARE(stats.spread, 9.0);
        QCOMPARE_LT(qAbs(stats.jainIndex - (16.0 * 16.0) / (4.0 * 114.0)), 1e-9);
    }

    // Issue 10.2: a member in both the pool and the evicted hash is never overwritten.
    void evictAndRestoreRefuseAMemberInBothKeys() {
        const QByteArray hash = PoolKeys("pool").evicted();
        m_redis->makePool("pool", {"a"}, 0);
        m_redis->run({"HSET", hash, "a", "100"});
        QVERIFY_THROWS_EXCEPTION(RedisError, m_pool->evict("a"));
        QCOMPARE(m_redis->run({"HGET", hash, "a"}).text, QByteArray("100"));
        QCOMPARE(score("a"), 0.0);
        QVERIFY_THROWS_EXCEPTION(RedisError, m_pool->restore("a", RestorePolicy::Zero));
        QCOMPARE(m_redis->run({"HGET", hash, "a"}).text, QByteArray("100"));
        QCOMPARE(score("a"), 0.0);
    }

    // Issue 10.2: pools "eu" and "{eu}" keep apart what they evict.
    void poolsXAndBracedXDoNotShareEvictions() {
        m_redis->run({"ZADD", "eu", "100", "1.2.3.4:80"});
        m_redis->run({"ZADD", "{eu}", "0", "1.2.3.4:80"});
        PoolOperations plain(m_redis->admin(), "eu");
        PoolOperations braced(m_redis->admin(), "{eu}");
        QCOMPARE(plain.evict("1.2.3.4:80").savedCount, 100.0);
        QVERIFY(braced.snapshot().evicted.isEmpty());
        QCOMPARE(braced.evict("1.2.3.4:80").savedCount, 0.0);
        QCOMPARE(braced.restore("1.2.3.4:80", RestorePolicy::Keep).restoredCount, 0.0);
        QCOMPARE(plain.restore("1.2.3.4:80", RestorePolicy::Keep).restoredCount, 100.0);
        QCOMPARE(m_redis->run({"ZSCORE", "eu", "1.2.3.4:80"}).toDouble(), 100.0);
    }

    // Issue 10, "also": an infinite count is never restored.
    void restoreNeverGivesAnInfiniteCount() {
        const QByteArray hash = PoolKeys("pool").evicted();
        m_redis->run({"ZADD", "pool", "-inf", "bad", "5", "b"});
        m_redis->run({"HSET", hash, "a", "3", "huge", "inf"});
        // min skips the member at -inf: the lowest finite count is 5.
        QCOMPARE(m_pool->restore("a", RestorePolicy::Min).restoredCount, 5.0);
        QVERIFY_THROWS_EXCEPTION(RedisError, m_pool->restore("huge", RestorePolicy::Keep));
        QCOMPARE(m_redis->run({"HGET", hash, "huge"}).text, QByteArray("inf"));
        QVERIFY(m_redis->run({"ZSCORE", "pool", "huge"}).isNil());
        QCOMPARE(m_pool->minimumCount(), std::optional<double>(5));
    }

    // Issue 10, "also": seed --start min reads the minimum inside each batch's script.
    void seedScriptReadsTheMinimumItself() {
        m_redis->makePool("pool", {"a"}, 7);
        const PoolKeys keys("pool");
        const RedisReply reply = LuaScript::seed().run(
            m_redis->admin(), {keys.pool(), keys.evicted(), keys.audit()},
            m_pool->auditArguments({}) + QList<QByteArray>{"min", "0", "0", "x", ""});
        QVERIFY2(!reply.isError(), reply.text);
        QCOMPARE(score("x"), 7.0);
        SeedOptions options;
        options.startAtPoolMinimum = true;
        const SeedResult result = m_pool->seed({"y"}, options);
        QCOMPARE(result.startCount, 7.0);
        QCOMPARE(score("y"), 7.0);
    }
};

QTEST_GUILESS_MAIN(TestPoolOperations)
#include "tst_pooloperations.moc"
