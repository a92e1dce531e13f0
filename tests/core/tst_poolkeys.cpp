// The companion hash (and the audit trail) must share the pool key's Redis Cluster slot: checked
// against a real redis-server started with --cluster-enabled yes, whose CLUSTER KEYSLOT is the
// authority.
#include "RedisFixture.h"

#include "pool/PoolKeys.h"
#include "topology/HashSlot.h"

#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

class TestPoolKeys : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_cluster;

    int serverSlot(const QByteArray &key) {
        const RedisReply reply = m_cluster->run({"CLUSTER", "KEYSLOT", key});
        if (reply.type != RedisReply::Type::Integer)
            qWarning() << "CLUSTER KEYSLOT failed:" << reply.toDisplayString();
        return static_cast<int>(reply.integer);
    }

private Q_SLOTS:
    void initTestCase() {
        RedisServerOptions options;
        options.useTcp = true; // cluster mode needs a TCP port
        options.extraArguments = {QStringLiteral("--cluster-enabled"), QStringLiteral("yes"),
                                  QStringLiteral("--cluster-port"),
                                  QString::number(RedisServerProcess::pickFreeTcpPort())};
        m_cluster = std::make_unique<RedisFixture>(options);
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->error()));
        QVERIFY(m_cluster->run({"INFO", "cluster"}).text.contains("cluster_enabled:1"));
    }
    void cleanupTestCase() { m_cluster.reset(); }

    void companionSharesTheSlot_data() {
        QTest::addColumn<QByteArray>("poolKey");
        QTest::addColumn<QByteArray>("expectedCompanion");
        QTest::newRow("plain") << QByteArray("proxies") << QByteArray("{proxies}:evicted:proxies");
        QTest::newRow("tagged") << QByteArray("{pool}:proxies")
                                << QByteArray("{pool}:evicted:{pool}:proxies");
        QTest::newRow("tag in middle")
            << QByteArray("app:{eu}:pool") << QByteArray("{eu}:evicted:app:{eu}:pool");
        QTest::newRow("only a tag") << QByteArray("{eu}") << QByteArray("{eu}:evicted:{eu}");
        QTest::newRow("tag with open brace")
            << QByteArray("{{a}b") << QByteArray("{{a}:evicted:{{a}b");
        QTest::newRow("colons") << QByteArray("app:pool:1")
                                << QByteArray("{app:pool:1}:evicted:app:pool:1");
        QTest::newRow("unicode") << QByteArray("пул-日本")
                                 << QByteArray("{пул-日本}:evicted:пул-日本");
        // Braces that do not form a tag: the companion gets a computed tag.
        QTest::newRow("close brace only") << QByteArray("a}b") << QByteArray();
        QTest::newRow("open brace only") << QByteArray("a{b") << QByteArray();
        QTest::newRow("empty tag") << QByteArray("x{}y") << QByteArray();
        QTest::newRow("empty tag then tag") << QByteArray("{}{z}") << QByteArray();
        QTest::newRow("only braces") << QByteArray("{}") << QByteArray();
    }
    void companionSharesTheSlot() {
        QFETCH(QByteArray, poolKey);
        QFETCH(QByteArray, expectedCompanion);
        const PoolKeys keys(poolKey);
        if (!expectedCompanion.isEmpty())
            QCOMPARE(keys.evicted(), expectedCompanion);
        QVERIFY(keys.evicted() != keys.pool());
        QCOMPARE(serverSlot(keys.evicted()), serverSlot(keys.pool()));
        // The audit trail is written in the same scripts: the same slot, the same tag.
        QCOMPARE(serverSlot(keys.audit()), serverSlot(keys.pool()));
        QCOMPARE(topology::hashedPart(keys.audit()), topology::hashedPart(keys.evicted()));
        QCOMPARE(topology::hashSlot(keys.pool()), serverSlot(keys.pool()));
        QCOMPARE(topology::hashSlot(keys.evicted()), serverSlot(keys.evicted()));
    }

    // Issue 10.2: no two pool keys share a companion, and a companion is never taken for a pool.
    void companionsAreDistinct() {
        const QByteArray t = topology::hashedPart(PoolKeys("a}b").evicted()); // the computed tag
        QList<QByteArray> pools{"X",      "{X}",   "{X}:evicted", "a}b", "{" + t + "}a}b", "x{}y",
                                "{}",     "{}{z}", "{z}",         "z",   "{{a}b",          "{a}b",
                                "{eu}:p", "eu:p",  "{eu}",        "eu",  "{eu}:evicted:eu"};
        // A companion name used as a pool key gets a companion of its own, distinct too.
        pools.append(PoolKeys("X").evicted() + "x");
        QHash<QByteArray, QByteArray> owners;
        for (const QByteArray &pool : std::as_const(pools)) {
            const PoolKeys keys(pool);
            QVERIFY2(!owners.contains(keys.evicted()),
                     pool + " and " + owners.value(keys.evicted()) + " share " + keys.evicted());
            owners.insert(keys.evicted(), pool);
            QCOMPARE(serverSlot(keys.evicted()), serverSlot(pool));
            QCOMPARE(PoolKeys::poolOfCompanion(keys.evicted()), std::optional<QByteArray>(pool));
        }
        for (const QByteArray &pool : std::as_const(pools))
            if (!owners.contains(pool))
                QCOMPARE(PoolKeys::poolOfCompanion(pool), std::nullopt);
        // The key "{eu}:evicted:eu" IS the companion of "eu": it is recognised as such.
        QCOMPARE(PoolKeys::poolOfCompanion("{eu}:evicted:eu"), std::optional<QByteArray>("eu"));
    }

    void legacyNamesAndWhoSharedThem_data() {
        QTest::addColumn<QByteArray>("pool");
        QTest::addColumn<QByteArray>("legacy");
        QTest::addColumn<QByteArrayList>("sharers");
        QTest::newRow("plain") << QByteArray("eu") << QByteArray("{eu}:evicted")
                               << QByteArrayList{"{eu}"};
        QTest::newRow("braced") << QByteArray("{eu}") << QByteArray("{eu}:evicted")
                                << QByteArrayList{"eu"};
        QTest::newRow("tagged") << QByteArray("{eu}:p") << QByteArray("{eu}:p:evicted")
                                << QByteArrayList{};
        const QByteArray t = topology::hashedPart(PoolKeys("a}b").evicted());
        QTest::newRow("no tag") << QByteArray("a}b") << "{" + t + "}a}b:evicted"
                                << QByteArrayList{"{" + t + "}a}b"};
    }
    void legacyNamesAndWhoSharedThem() {
        QFETCH(QByteArray, pool);
        QFETCH(QByteArray, legacy);
        QFETCH(QByteArrayList, sharers);
        const PoolKeys keys(pool);
        QCOMPARE(keys.legacyEvicted(), legacy);
        QCOMPARE(keys.legacySharers(), sharers);
        QCOMPARE(serverSlot(legacy), serverSlot(pool));
    }

    void hashSlotMatchesServer_data() {
        QTest::addColumn<QByteArray>("key");
        for (const char *key : {"", "a", "foo", "123456789", "{user1000}.following", "foo{}{bar}",
                                "foo{{bar}}zap", "foo{bar}{zap}", "\x01\xff binary"})
            QTest::newRow(key) << QByteArray(key);
    }
    void hashSlotMatchesServer() {
        QFETCH(QByteArray, key);
        QCOMPARE(topology::hashSlot(key), serverSlot(key));
    }

    void knownSlot() {
        // The CRC16 check value from the Redis Cluster specification.
        QCOMPARE(topology::hashSlot("123456789"), 0x31C3 & 16383);
    }
};

QTEST_GUILESS_MAIN(TestPoolKeys)
#include "tst_poolkeys.moc"
