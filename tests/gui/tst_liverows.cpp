// The members table's live rows (PoolTableModel::setLiveRows, what the members panel uses) against
// rows built whole at each poll (setRows(buildRows(...))): random pools over many polls, read
// through a SnapshotOrder as the poller reads them (so most polls take the counts-only path), with
// members allocated, added, evicted, restored and gone. Every cell, every sort and the signals'
// kinds must be the same.
#include "members/PoolSortProxy.h"
#include "members/PoolTableModel.h"
#include "pool/SnapshotOrder.h"
#include "session/RateTracker.h"

#include <cmath>

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QtTest>

using namespace poolscope;

namespace {

struct Pool {
    QMap<QByteArray, double> members;
    QMap<QByteArray, double> evicted;
};

// One step of a pool: allocations, and now and then a member added, evicted, restored or gone.
void step(Pool &pool, QRandomGenerator &random, int step) {
    const QList<QByteArray> names = pool.members.keys();
    for (int i = 0; i < 1 + int(random.bounded(names.size() + 1)); ++i)
        pool.members[names[random.bounded(names.size())]] += 1 + random.bounded(3);
    if (step % 7 == 3)
        pool.members.insert("new" + QByteArray::number(step), random.bounded(5));
    if (step % 11 == 5 && pool.members.size() > 3) {
        const QByteArray member = pool.members.firstKey();
        pool.evicted.insert(member, pool.members.take(member));
    }
    if (step % 13 == 8 && !pool.evicted.isEmpty()) {
        const QByteArray member = pool.evicted.firstKey();
        pool.members.insert(member, pool.evicted.take(member));
    }
    if (step % 17 == 9 && pool.members.size() > 3)
        pool.members.remove(pool.members.lastKey());
}

QList<PoolMember> readOf(const Pool &pool, QRandomGenerator &random) {
    QList<PoolMember> read;
    for (auto it = pool.members.cbegin(); it != pool.members.cend(); ++it)
        read.append({it.key(), it.value()});
    // ZSCAN's order is no order.
    std::shuffle(read.begin(), read.end(), random);
    return read;
}

} // namespace

class TestLiveRows : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sameAsRowsBuiltWhole_data();
    void sameAsRowsBuiltWhole();
};

void TestLiveRows::sameAsRowsBuiltWhole_data() {
    QTest::addColumn<quint32>("seed");
    QTest::addColumn<int>("members");
    for (quint32 seed : {1u, 2u, 3u})
        for (int members : {1, 2, 5, 40})
            QTest::addRow("seed %u, %d members", seed, members) << seed << members;
}

void TestLiveRows::sameAsRowsBuiltWhole() {
    QFETCH(quint32, seed);
    QFETCH(int, members);
    QRandomGenerator random(seed);
    Pool pool;
    for (int i = 0; i < members; ++i)
        pool.members.insert("m" + QByteArray::number(i), random.bounded(4));

    PoolTableModel whole;
    PoolTableModel live;
    QAbstractItemModelTester tester(&live, QAbstractItemModelTester::FailureReportingMode::QtTest);
    PoolSortProxy wholeProxy(&whole);
    PoolSortProxy liveProxy(&live);
    wholeProxy.setDynamicSortFilter(true);
    liveProxy.setDynamicSortFilter(true);
    SnapshotOrder order;
    RateTracker rates(5000);
    QSignalSpy liveResets(&live, &QAbstractItemModel::modelReset);
    QSignalSpy wholeResets(&whole, &QAbstractItemModel::modelReset);
    int countsOnly = 0;
    for (int poll = 0; poll < 60; ++poll) {
        const qint64 now = 1'000'000 + poll * 1000;
        PoolSnapshot snapshot;
        snapshot.members = order.order(readOf(pool, random), &snapshot);
        for (auto it = pool.evicted.cbegin(); it != pool.evicted.cend(); ++it)
            snapshot.evicted.append({it.key(), it.value()});
        rates.record(now, snapshot.members);
        const bool onlyCounts =
            snapshot.changes && snapshot.changes->gone.isEmpty() &&
            std::none_of(snapshot.changes->changed.cbegin(), snapshot.changes->changed.cend(),
                         [](const MemberChange &c) { return std::isnan(c.before); });
        countsOnly += onlyCounts ? 1 : 0;
        whole.setRows(PoolTableModel::buildRows(snapshot, &rates, nullptr), now);
        live.setLiveRows(snapshot, &rates, nullptr, now);

        QCOMPARE(live.rowCount(), whole.rowCount());
        QCOMPARE(live.poolMemberCount(), whole.poolMemberCount());
        QCOMPARE(liveResets.count(), wholeResets.count());
        for (int row = 0; row < whole.rowCount(); ++row) {
            const PoolTableModel::Row &expected = whole.rowAt(row);
            const int at = live.rowOf(expected.member);
            QVERIFY2(at >= 0, expected.member.constData());
            const PoolTableModel::Row &got = live.rowAt(at);
            QCOMPARE(got.count, expected.count);
            QCOMPARE(got.evicted, expected.evicted);
            QCOMPARE(got.share, expected.share);
            QCOMPARE(got.rate, expected.rate);
            QCOMPARE(got.debt, expected.debt);
            QCOMPARE(got.lastChangeMs, expected.lastChangeMs);
            for (int column = 0; column < PoolTableModel::ColumnCount; ++column)
                for (int role : {int(Qt::DisplayRole), int(PoolTableModel::SortRole),
                                 int(PoolTableModel::RawRole)})
                    QCOMPARE(live.index(at, column).data(role),
                             whole.index(row, column).data(role));
        }
        // Sorted by each column in turn, both tables list the members in the same order.
        const int column = poll % PoolTableModel::ColumnCount;
        const Qt::SortOrder direction = poll % 2 ? Qt::DescendingOrder : Qt::AscendingOrder;
        wholeProxy.sort(column, direction);
        liveProxy.sort(column, direction);
        for (int row = 0; row < wholeProxy.rowCount(); ++row)
            QCOMPARE(liveProxy.index(row, 0).data(PoolTableModel::MemberRole),
                     wholeProxy.index(row, 0).data(PoolTableModel::MemberRole));
        step(pool, random, poll);
    }
    QCOMPARE_GT(countsOnly, 20); // the counts-only path was taken, not only the general one
}

QTEST_MAIN(TestLiveRows)
#include "tst_liverows.moc"
