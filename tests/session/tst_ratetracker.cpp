// RateTracker: only rises count as allocations, the window slides and its sums follow it, a big
// pool's counted allocations. Fed with what changed between two reads (recordChanges, the members
// SnapshotOrder says changed, came or left) gives what it gives when fed every member of each poll
// (record): the members that arrived, the pool's and each member's rate and activity. Random pools
// with members leaving and coming back, data-driven seeds, and the two ways mixed; no server.

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
    void rateTrackerCountsOnlyRises() {
        RateTracker rates(10000);
        rates.record(0, {{"a", 10}, {"b", 10}});
        rates.record(1000, {{"a", 20}, {"b", 15}, {"c", 0}}); // c seeded: no allocation
        rates.record(2000, {{"a", 30}, {"c", 0}, {"b", 0}});  // b evicted and restored at 0
        QCOMPARE(rates.memberRate("a"), 10.0);
        QCOMPARE(rates.memberRate("b"), 2.5);
        QCOMPARE(rates.memberRate("c"), 0.0);
        QCOMPARE(rates.poolRate(), 12.5);
        QCOMPARE(rates.totalAllocations(), 25.0);
        QCOMPARE(rates.memberAllocations().value("a"), 20.0);
    }

    void rateTrackerWindowSlides() {
        RateTracker rates(2000);
        QCOMPARE(rates.poolRate(), 0.0);
        double count = 0;
        for (int second = 0; second <= 10; ++second) {
            count += second < 5 ? 100 : 10; // fast, then slow
            rates.record(second * 1000, {{"a", count}});
        }
        QCOMPARE(rates.poolRate(), 10.0); // only the last 2 s count
        QVERIFY(rates.coveredMs() >= 2000 && rates.coveredMs() <= 3000);
        rates.clear();
        QCOMPARE(rates.poolRate(), 0.0);
    }

    void rateTrackerWindowSumsFollowTheWindow() {
        // The per-member sums are kept incrementally: members must leave them exactly when their
        // last allocation leaves the window, and a member absent from one poll must not count its
        // return as allocations.
        RateTracker rates(2000);
        rates.record(0, {{"a", 0}, {"b", 0}});
        rates.record(1000, {{"a", 5}, {"b", 3}});
        rates.record(2000, {{"a", 6}});            // b gone (evicted)
        rates.record(3000, {{"a", 7}, {"b", 50}}); // b back much higher: no allocation
        // The 2 s window now starts with the tick 1000-2000: b's first 3 have left it.
        QVERIFY(!rates.memberAllocations().contains("b"));
        QCOMPARE(rates.memberAllocations().value("a"), 2.0);
        rates.record(4000, {{"a", 8}, {"b", 51}});
        rates.record(5000, {{"a", 9}, {"b", 51}});
        // The window now holds the ticks 3000-4000 and 4000-5000: b's 3 from the first tick left
        // it.
        QCOMPARE(rates.memberAllocations().value("b"), 1.0);
        QCOMPARE(rates.memberAllocations().value("a"), 2.0);
        QCOMPARE(rates.memberRate("a"), 1.0);
        rates.setWindowMs(1);
        QCOMPARE(rates.memberAllocations().size(), 1); // only a rose in the last tick
        QCOMPARE(rates.memberRate("a"), 1.0);
        rates.record(6000, {{"a", 9}, {"b", 51}});
        QVERIFY(rates.memberAllocations().isEmpty());
        QCOMPARE(rates.memberRate("a"), 0.0);
        QCOMPARE(rates.totalAllocations(), 8.0 + 1 + 1 + 2 + 1);
    }

    // A big pool's rate comes from the allocations the poller counted, not from the few members
    // read; a stretch it could not count is left out, not taken as idle.
    void rateTrackerPoolAllocations() {
        RateTracker tracker(10000);
        tracker.record(0, {{"a", 5}});
        tracker.recordPoolAllocations(0, std::nullopt);
        QVERIFY(!tracker.hasPoolAllocations());
        tracker.record(1000, {{"a", 5}});
        tracker.recordPoolAllocations(1000, 500.0);
        tracker.record(2000, {{"a", 5}});
        tracker.recordPoolAllocations(2000, std::nullopt); // an eviction in between: unknown
        tracker.record(3000, {{"a", 5}});
        tracker.recordPoolAllocations(3000, 300.0);
        QVERIFY(tracker.hasPoolAllocations());
        QCOMPARE(tracker.poolRate(), 400.0); // 800 over the two seconds counted
        tracker.clearPoolAllocations();
        QCOMPARE(tracker.poolRate(), 0.0); // the members' rises again: "a" did not move
    }

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
        QCOMPARE_GT(arrivals, 0); // members did come back
    }
};

QTEST_GUILESS_MAIN(TestRateTracker)
#include "tst_ratetracker.moc"
