// RateTracker fed with what changed between two reads (recordChanges, the members SnapshotOrder
// says changed, came or left) gives what it gives when fed every member of each poll (record):
// the members that arrived, the pool's and each member's rate and activity. Random pools with
// members leaving and coming back, data-driven seeds, and the two ways mixed; no server.

#include "session/RateTracker.h"

#include "pool/SnapshotOrder.h"

#include <algorithm>
#include <random>

#include <QRandomGenerator>
#include <QtTest>

using namespace poolscope;

class TestRateTracker : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void changesGiveWhatEveryMemberGives_data() {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<bool>("mixed"); // every third poll given whole to the changes' tracker
        for (const quint32 seed : {3u, 11u, 2024u})
            for (const bool mixed : {false, true})
                QTest::addRow("seed %u%s", seed, mixed ? " mixed" : "") << seed << mixed;
    }

    void changesGiveWhatEveryMemberGives() {
        QFETCH(quint32, seed);
        QFETCH(bool, mixed);
        QRandomGenerator random(seed);
        QList<PoolMember> pool;
        for (int i = 0; i < 200; ++i)
            pool.append({"m" + QByteArray::number(i), double(random.bounded(4))});
        QList<PoolMember> away; // left the pool, may come back
        SnapshotOrder order;
        RateTracker whole(5000);
        RateTracker byChanges(5000);
        qint64 timeMs = 1'000'000;
        PoolSnapshot first;
        const QList<PoolMember> firstRead = order.order(pool, &first);
        QCOMPARE(byChanges.record(timeMs, firstRead), whole.record(timeMs, firstRead));
        int arrivals = 0;
        for (int poll = 1; poll < 40; ++poll) {
            timeMs += 1000;
            QList<PoolMember> next;
            for (const PoolMember &member : std::as_const(pool)) {
                const int roll = int(random.bounded(100));
                if (roll < 2) {
                    away.append(member);
                    continue;
                }
                PoolMember changed = member;
                if (roll < 4)
                    changed.count = 0; // reset: no allocation
                else if (roll < 50)
                    changed.count += 1 + random.bounded(2);
                next.append(changed);
            }
            if (!away.isEmpty() && random.bounded(2) == 0)
                next.append({away.takeFirst().member, 0}); // back, restored at zero
            std::shuffle(next.begin(), next.end(), std::mt19937(seed + quint32(poll)));
            PoolSnapshot snapshot;
            const QList<PoolMember> read = order.order(next, &snapshot);
            QVERIFY(snapshot.changes.has_value());
            const QList<QByteArray> expected = whole.record(timeMs, read);
            const QList<QByteArray> arrived =
                mixed && poll % 3 == 0 ? byChanges.record(timeMs, read)
                                       : byChanges.recordChanges(timeMs, *snapshot.changes);
            QCOMPARE(QSet<QByteArray>(arrived.cbegin(), arrived.cend()),
                     QSet<QByteArray>(expected.cbegin(), expected.cend()));
            arrivals += int(expected.size());
            QCOMPARE(byChanges.poolRate(), whole.poolRate());
            QCOMPARE(byChanges.lastTickAllocations(), whole.lastTickAllocations());
            QCOMPARE(byChanges.totalAllocations(), whole.totalAllocations());
            QCOMPARE(byChanges.memberAllocations(), whole.memberAllocations());
            QList<QByteArray> everyone;
            for (const PoolMember &member : pool + away + next)
                everyone.append(member.member);
            for (const QByteArray &member : std::as_const(everyone)) {
                const RateTracker::Activity a = byChanges.activity(member);
                const RateTracker::Activity b = whole.activity(member);
                QVERIFY2(a.followed == b.followed && a.rateKnown == b.rateKnown &&
                             a.ratePerSecond == b.ratePerSecond && a.lastChangeMs == b.lastChangeMs,
                         member.constData());
            }
            pool = next;
        }
        QVERIFY(arrivals > 0); // members did come back
    }
};

QTEST_GUILESS_MAIN(TestRateTracker)
#include "tst_ratetracker.moc"
