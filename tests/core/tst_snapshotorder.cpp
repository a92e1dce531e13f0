// SnapshotOrder: successive full reads of a pool, in any order and with members read twice, come
// out in allocation order (as a sort would give them), with the changes between two reads; the
// first read and a reset have no changes. And MemberSubset, which picks members out of a read,
// answers as its set does. Pure: no server.

#include "pool/MemberSubset.h"
#include "pool/SnapshotOrder.h"

#include <cmath>
#include <map>

#include <QRandomGenerator>
#include <QtTest>

using namespace poolscope;

namespace {

// What a whole sort gives: a member read twice counts with its last count.
QList<PoolMember> sorted(const QList<PoolMember> &read) {
    QHash<QByteArray, double> last;
    for (const PoolMember &member : read)
        last.insert(member.member, member.count);
    QList<PoolMember> out;
    for (auto it = last.cbegin(); it != last.cend(); ++it)
        out.append({it.key(), it.value()});
    std::sort(out.begin(), out.end(), [](const PoolMember &a, const PoolMember &b) {
        return a.count != b.count ? a.count < b.count : a.member < b.member;
    });
    return out;
}

// The changes from one sorted read to the next, as SnapshotOrder reports them.
PoolChanges diff(const QList<PoolMember> &before, const QList<PoolMember> &now) {
    std::map<QByteArray, double> old;
    for (const PoolMember &member : before)
        old[member.member] = member.count;
    PoolChanges changes;
    for (const PoolMember &member : now) {
        const auto it = old.find(member.member);
        if (it == old.end())
            changes.changed.append({member.member, std::nan(""), member.count});
        else if (it->second != member.count)
            changes.changed.append({member.member, it->second, member.count});
        if (it != old.end())
            old.erase(it);
    }
    for (const auto &[member, count] : old)
        changes.gone.append(member);
    return changes;
}

bool sameChanges(PoolChanges a, PoolChanges b) {
    if (a.changed.size() != b.changed.size())
        return false;
    for (qsizetype i = 0; i < a.changed.size(); ++i) {
        const MemberChange &x = a.changed[i];
        const MemberChange &y = b.changed[i];
        if (x.member != y.member || x.now != y.now ||
            !(x.before == y.before || (std::isnan(x.before) && std::isnan(y.before))))
            return false;
    }
    std::sort(a.gone.begin(), a.gone.end());
    std::sort(b.gone.begin(), b.gone.end());
    return a.gone == b.gone;
}

QByteArray nameOf(int i) {
    return "m" + QByteArray::number(i);
}

} // namespace

class TestSnapshotOrder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void firstReadIsSortedWithoutChanges() {
        SnapshotOrder order;
        PoolSnapshot snapshot;
        const QList<PoolMember> read{{"c", 1}, {"a", 2}, {"b", 1}, {"a", 0}};
        QCOMPARE(order.order(read, &snapshot), (QList<PoolMember>{{"a", 0}, {"b", 1}, {"c", 1}}));
        QVERIFY(snapshot.readId != 0);
        QVERIFY(!snapshot.changes.has_value());
    }

    void changesAreAgainstThePreviousRead() {
        SnapshotOrder order;
        PoolSnapshot first;
        order.order({{"a", 0}, {"b", 0}, {"c", 0}, {"d", 0}}, &first);
        PoolSnapshot second;
        // b allocated twice, c evicted, e seeded; d read twice by the scan.
        QCOMPARE(order.order({{"d", 0}, {"e", 0}, {"b", 2}, {"a", 0}, {"d", 0}}, &second),
                 (QList<PoolMember>{{"a", 0}, {"d", 0}, {"e", 0}, {"b", 2}}));
        QVERIFY(second.changes.has_value());
        QCOMPARE(second.changes->sinceReadId, first.readId);
        QCOMPARE(second.changes->gone, QList<QByteArray>{"c"});
        QCOMPARE(second.changes->changed.size(), 2);
        QCOMPARE(second.changes->changed[0].member, QByteArray("e"));
        QVERIFY(std::isnan(second.changes->changed[0].before));
        QCOMPARE(second.changes->changed[1], (MemberChange{"b", 0, 2}));
        // A reset forgets the previous read: no changes, a new read id.
        order.reset();
        PoolSnapshot third;
        order.order({{"a", 1}}, &third);
        QVERIFY(!third.changes.has_value());
        QVERIFY(third.readId != second.readId);
    }

    // Reads of a pool under allocations (the lowest count first), evictions, restores and new
    // members, in a scan's shuffled order with repeats, or in the same order read after read (as
    // ZSCAN returns a set that was not rehashed, with a member named ""): every read comes out as
    // a sort gives it, with the changes a comparison of the two sorted reads gives.
    void everyReadMatchesAWholeSort_data() {
        QTest::addColumn<int>("members");
        QTest::addColumn<int>("perRead"); // allocations between reads
        QTest::addColumn<bool>("shuffled");
        QTest::newRow("fair, 10 members") << 10 << 3 << true;
        QTest::newRow("fair, 1,000 members, half a round a read") << 1000 << 500 << true;
        QTest::newRow("many rounds a read") << 50 << 700 << true;
        QTest::newRow("in scan order, 10 members") << 10 << 3 << false;
        QTest::newRow("in scan order, 1,000 members") << 1000 << 500 << false;
    }
    void everyReadMatchesAWholeSort() {
        QFETCH(int, members);
        QFETCH(int, perRead);
        QFETCH(bool, shuffled);
        QRandomGenerator random(7);
        QHash<QByteArray, double> pool;
        for (int i = 0; i < members; ++i)
            pool.insert(nameOf(i), 0);
        if (!shuffled)
            pool.insert(QByteArray(""), 0);
        int next = members;
        SnapshotOrder order;
        QList<PoolMember> previous;
        for (int read = 0; read < 40; ++read) {
            for (int a = 0; a < perRead && !pool.isEmpty(); ++a) {
                // The script's choice: the lowest count, ties by member.
                auto lowest = pool.begin();
                for (auto it = pool.begin(); it != pool.end(); ++it)
                    if (it.value() < lowest.value() ||
                        (it.value() == lowest.value() && it.key() < lowest.key()))
                        lowest = it;
                lowest.value() += 1;
            }
            if (read % 7 == 3 && pool.size() > 2)
                pool.remove(pool.constBegin().key()); // evicted
            if (read % 5 == 1)
                pool.insert(nameOf(next++), double(random.bounded(3))); // seeded
            QList<PoolMember> scan;
            for (auto it = pool.cbegin(); it != pool.cend(); ++it) {
                scan.append({it.key(), it.value()});
                if (shuffled && random.bounded(10) == 0)
                    scan.append({it.key(), it.value()}); // a scan returns some twice
            }
            if (shuffled)
                std::shuffle(scan.begin(), scan.end(), random);
            PoolSnapshot snapshot;
            const QList<PoolMember> ordered = order.order(scan, &snapshot);
            const QList<PoolMember> expected = sorted(scan);
            QCOMPARE(ordered, expected);
            if (read > 0) {
                QVERIFY(snapshot.changes.has_value());
                QVERIFY(sameChanges(*snapshot.changes, diff(previous, expected)));
            }
            previous = expected;
        }
    }
    // Members picked out of a read: the same answers as the set, for ids alike but for a byte,
    // of other lengths, empty, and binary.
    void memberSubsetAnswersAsItsSet() {
        QRandomGenerator random(11);
        QList<QByteArray> ids = {QByteArray(""), QByteArray("a"), QByteArray("\0\xff", 2)};
        for (int i = 0; i < 3000; ++i)
            ids << nameOf(i)
                << "10.0." + QByteArray::number(i % 256) + ".1:" + QByteArray::number(8000 + i);
        for (int round = 0; round < 20; ++round) {
            QSet<QByteArray> chosen;
            for (int i = 0; i < 1 + round; ++i)
                chosen.insert(ids[random.bounded(int(ids.size()))]);
            const MemberSubset subset(chosen);
            for (const QByteArray &id : std::as_const(ids))
                QCOMPARE(subset.contains(id), chosen.contains(id));
        }
        QVERIFY(!MemberSubset().contains(""));
    }
};

QTEST_GUILESS_MAIN(TestSnapshotOrder)
#include "tst_snapshotorder.moc"
