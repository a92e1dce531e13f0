// describeOutsideChanges: counts that went back and members that left without an eviction, found
// from the changes SnapshotOrder gives with a read (only the members that changed) say the same
// as a comparison of every member of the two reads. Random pools, data-driven seeds; no server.

#include "session/OutsideChanges.h"

#include "pool/PoolStats.h"
#include "pool/SnapshotOrder.h"

#include <algorithm>
#include <random>

#include <QRandomGenerator>
#include <QtTest>

using namespace poolscope;

namespace {

PoolObservation observed(SnapshotOrder &order, const QList<PoolMember> &read,
                         const QList<EvictedMember> &evicted) {
    PoolObservation observation;
    observation.snapshot.members = order.order(read, &observation.snapshot);
    observation.snapshot.evicted = evicted;
    QList<double> counts;
    for (const PoolMember &member : std::as_const(observation.snapshot.members))
        counts.append(member.count);
    observation.stats = computePoolStats(counts);
    return observation;
}

PoolObservation withoutChanges(PoolObservation observation) {
    observation.snapshot.changes.reset();
    return observation;
}

} // namespace

class TestOutsideChanges : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void changesGiveWhatAWholeComparisonGives_data() {
        QTest::addColumn<quint32>("seed");
        for (const quint32 seed : {1u, 7u, 42u, 1234u, 99999u})
            QTest::addRow("seed %u", seed) << seed;
    }

    void changesGiveWhatAWholeComparisonGives() {
        QFETCH(quint32, seed);
        QRandomGenerator random(seed);
        QList<PoolMember> pool;
        for (int i = 0; i < 300; ++i)
            pool.append({"m" + QByteArray::number(i), double(random.bounded(5))});
        SnapshotOrder order;
        PoolObservation before = observed(order, pool, {});
        int described = 0;
        for (int poll = 0; poll < 20; ++poll) {
            QList<EvictedMember> evicted;
            QSet<QByteArray> explained;
            QList<PoolMember> next;
            for (const PoolMember &member : std::as_const(pool)) {
                const int roll = int(random.bounded(100));
                if (roll < 2)
                    continue; // left, unexplained
                if (roll < 3) {
                    evicted.append({member.member, member.count}); // evicted: not a loss
                    continue;
                }
                PoolMember changed = member;
                if (roll < 6)
                    changed.count = std::max(0.0, changed.count - 1 - random.bounded(3));
                else if (roll < 40)
                    changed.count += 1;
                if (roll < 5 && roll % 2 == 0)
                    explained.insert(member.member);
                next.append(changed);
            }
            next.append({"new" + QByteArray::number(poll), 0});
            std::sort(evicted.begin(), evicted.end(),
                      [](const auto &a, const auto &b) { return a.member < b.member; });
            std::shuffle(next.begin(), next.end(), std::mt19937(seed + quint32(poll)));
            const PoolObservation now = observed(order, next, evicted);
            QVERIFY(now.snapshot.changes.has_value());
            const QStringList fromChanges = describeOutsideChanges(before, now, explained);
            const QStringList whole =
                describeOutsideChanges(before, withoutChanges(now), explained);
            QCOMPARE(fromChanges, whole);
            described += int(whole.size());
            before = now;
            pool = next;
        }
        QCOMPARE_GT(described, 0); // the polls did lower counts and lose members
    }

    // Changes against another read than `before` (a poll that was dropped in between) are not
    // used: the whole comparison decides.
    void changesAgainstAnotherReadAreNotUsed() {
        SnapshotOrder order;
        const PoolObservation first = observed(order, {{"a", 5}, {"b", 5}}, {});
        observed(order, {{"a", 5}, {"b", 2}}, {}); // never seen by the session
        const PoolObservation third = observed(order, {{"a", 5}, {"b", 2}}, {});
        QVERIFY(third.snapshot.changes && third.snapshot.changes->changed.isEmpty());
        const QStringList text = describeOutsideChanges(first, third, {});
        QCOMPARE(text.size(), 1);
        QVERIFY(text.constFirst().startsWith(QStringLiteral("counts went back by 3")));
    }
};

QTEST_GUILESS_MAIN(TestOutsideChanges)
#include "tst_outsidechanges.moc"
