// The members table model and its sort/filter proxy, without a server: rows keep their place
// across polls, evicted members stay (greyed, saved count), debt and share are right, and
// QAbstractItemModelTester watches every change.

#include "session/MemberColors.h"
#include "members/PoolSortProxy.h"
#include "members/PoolTableModel.h"
#include "session/RateTracker.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QDateTime>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace poolscope;

namespace {

PoolSnapshot snapshot(const QList<QPair<QByteArray, double>> &members,
                      const QList<QPair<QByteArray, double>> &evicted = {}) {
    PoolSnapshot s;
    for (const auto &[member, count] : members)
        s.members.append({member, count});
    std::sort(s.members.begin(), s.members.end(), [](const PoolMember &a, const PoolMember &b) {
        return a.count != b.count ? a.count < b.count : a.member < b.member;
    });
    for (const auto &[member, count] : evicted)
        s.evicted.append({member, count});
    return s;
}

QString cell(const QAbstractItemModel &model, int row, int column, int role = Qt::DisplayRole) {
    return model.index(row, column).data(role).toString();
}

} // namespace

class TestPoolTableModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rowsFollowThePool();
    void debtIsTheGapToTheOthersMinimum_data();
    void debtIsTheGapToTheOthersMinimum();
    void shareAndRate();
    void evictedRowsAreGreyWithSavedCount();
    void proxySortsNumbersAsNumbersAndFilters();
    void typedSortMatchesTheSortRole_data();
    void typedSortMatchesTheSortRole();
    void sameMembersUpdateInPlace();
    void rankRowsOfUnfollowedMembersHaveNoRate();
    void bigChangeResetsOnce();
    void rankRowsJustFollowedHaveNoRateYet();
    void lastChangeExportsAsIsoTime();
    void credentialsAreMaskedUnlessShown();
};

void TestPoolTableModel::rankRowsJustFollowedHaveNoRateYet() {
    // A big pool's bottom members change from poll to poll: one that has just come into view
    // has been seen once, so its rate is unknown ("–"), not 0.0.
    RateTracker rates(10000);
    rates.record(0, {{"old", 5}});
    rates.record(1000, {{"old", 5}, {"new", 7}});
    QVERIFY(rates.activity("new").followed);
    QVERIFY(!rates.activity("new").rateKnown);
    QVERIFY(rates.activity("old").rateKnown);
    const QList<RankedMember> ranked{{0, "old", 5}, {1, "new", 7}};
    auto rows = PoolTableModel::buildRankRows(ranked, 0, 5, 7, &rates, nullptr);
    PoolTableModel model;
    model.setSummary(2, 0, rows, {}, 1000);
    QCOMPARE(cell(model, 0, PoolTableModel::Rate), QStringLiteral("0.0"));
    QCOMPARE(cell(model, 1, PoolTableModel::Rate), QStringLiteral("–"));
    // Seen twice: known, over the time it was followed (6 allocations in 1 s, not in 2 s).
    rates.record(2000, {{"old", 5}, {"new", 13}});
    QVERIFY(rates.activity("new").rateKnown);
    QCOMPARE(rates.activity("new").ratePerSecond, 6.0);
    rows =
        PoolTableModel::buildRankRows({{0, "old", 5}, {1, "new", 13}}, 0, 5, 13, &rates, nullptr);
    model.setSummary(2, 0, rows, {}, 2000);
    QCOMPARE(cell(model, 1, PoolTableModel::Rate), QStringLiteral("6.0"));
}

void TestPoolTableModel::lastChangeExportsAsIsoTime() {
    PoolTableModel model;
    PoolTableModel::Row row;
    row.member = "192.0.2.1:80";
    row.count = 3;
    row.lastChangeMs = 1764554400123; // 2025-12-01T02:00:00.123 UTC
    PoolTableModel::Row never;
    never.member = "192.0.2.2:80";
    model.setRows({row, never}, 1764554405123);
    QCOMPARE(cell(model, 0, PoolTableModel::LastChange), QStringLiteral("5.0 s ago"));
    const QString raw = cell(model, 0, PoolTableModel::LastChange, PoolTableModel::RawRole);
    QCOMPARE(raw, QStringLiteral("2025-12-01T02:00:00.123Z"));
    QCOMPARE(QDateTime::fromString(raw, Qt::ISODateWithMs).toMSecsSinceEpoch(), *row.lastChangeMs);
    QCOMPARE(cell(model, 1, PoolTableModel::LastChange, PoolTableModel::RawRole), QString());
    // The export's header names the format; the screen's stays short.
    QCOMPARE(model.headerData(PoolTableModel::LastChange, Qt::Horizontal, PoolTableModel::RawRole)
                 .toString(),
             QStringLiteral("last change (ISO 8601 UTC)"));
    QCOMPARE(model.headerData(PoolTableModel::LastChange, Qt::Horizontal).toString(),
             QStringLiteral("last change"));
}

void TestPoolTableModel::credentialsAreMaskedUnlessShown() {
    PoolTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QByteArray id = "socks5://alice:p@ss@proxy.example:1080";
    model.setRows(
        PoolTableModel::buildRows(snapshot({{id, 4}, {"192.0.2.1:80", 9}}, {}), nullptr, nullptr),
        0);
    const int row = model.rowOf(id);
    QCOMPARE_GE(row, 0);
    const QString masked = QStringLiteral("socks5://alice:****~a4048c@proxy.example:1080");
    QCOMPARE(cell(model, row, PoolTableModel::Member), masked);
    QVERIFY(!cell(model, row, PoolTableModel::Member, Qt::ToolTipRole).contains("p@ss"));
    QVERIFY(cell(model, row, PoolTableModel::Member, Qt::ToolTipRole).contains(masked));
    // The id itself is untouched: selection, actions and exports use it.
    QCOMPARE(model.index(row, 0).data(PoolTableModel::MemberRole).toByteArray(), id);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setCredentialsShown(true);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(cell(model, row, PoolTableModel::Member), QString::fromUtf8(id));
    model.setCredentialsShown(false);
    QCOMPARE(cell(model, row, PoolTableModel::Member), masked);
}

void TestPoolTableModel::rowsFollowThePool() {
    MemberColors colors;
    PoolTableModel model(&colors);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.columnCount(), int(PoolTableModel::ColumnCount));

    model.setRows(
        PoolTableModel::buildRows(snapshot({{"a", 1}, {"b", 2}, {"c", 3}}), nullptr, nullptr), 0);
    QCOMPARE(model.rowCount(), 3);
    const int rowOfB = model.rowOf("b");

    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    // c leaves, d joins, b is evicted: b keeps its row.
    model.setRows(
        PoolTableModel::buildRows(snapshot({{"a", 4}, {"d", 0}}, {{"b", 2}}), nullptr, nullptr), 0);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE_LT(model.rowOf("c"), 0);
    QCOMPARE(model.rowOf("b"), rowOfB);
    QVERIFY(model.rowAt(model.rowOf("b")).evicted);
    QCOMPARE(model.poolMemberCount(), 2);
    QCOMPARE(model.evictedCount(), 1);
    QCOMPARE(cell(model, model.rowOf("a"), PoolTableModel::Count), QStringLiteral("4"));

    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestPoolTableModel::debtIsTheGapToTheOthersMinimum_data() {
    QTest::addColumn<QList<double>>("counts"); // members m0, m1, ...
    QTest::addColumn<QList<double>>("debts");
    QTest::newRow("even") << QList<double>{5, 5, 5} << QList<double>{0, 0, 0};
    QTest::newRow("one restored at zero") << QList<double>{40, 41, 0} << QList<double>{0, 0, 40};
    QTest::newRow("two low") << QList<double>{10, 3, 7} << QList<double>{0, 4, 0};
    QTest::newRow("single member") << QList<double>{9} << QList<double>{0};
    QTest::newRow("tie at the bottom") << QList<double>{2, 2, 9} << QList<double>{0, 0, 0};
}

void TestPoolTableModel::debtIsTheGapToTheOthersMinimum() {
    QFETCH(QList<double>, counts);
    QFETCH(QList<double>, debts);
    QList<QPair<QByteArray, double>> members;
    for (qsizetype i = 0; i < counts.size(); ++i)
        members.append({"m" + QByteArray::number(i), counts[i]});
    const auto rows = PoolTableModel::buildRows(snapshot(members), nullptr, nullptr);
    for (const auto &row : rows) {
        const int i = row.member.mid(1).toInt();
        QCOMPARE(row.debt, debts[i]);
    }
}

void TestPoolTableModel::shareAndRate() {
    RateTracker rates(10000);
    rates.record(0, {{"a", 0}, {"b", 0}});
    rates.record(1000, {{"a", 30}, {"b", 10}});
    const auto rows = PoolTableModel::buildRows(snapshot({{"a", 30}, {"b", 10}}), &rates, nullptr);
    QCOMPARE(rows.size(), 2);
    for (const auto &row : rows) {
        if (row.member == "a") {
            QCOMPARE(row.share, 0.75);
            QCOMPARE(row.rate, 30.0);
        } else {
            QCOMPARE(row.share, 0.25);
            QCOMPARE(row.rate, 10.0);
        }
    }
    // The last change comes from the rate tracker, which follows every member polled (the
    // history records only some members of a big pool; here there is none at all).
    rates.record(2000, {{"a", 30}, {"b", 15}});
    for (const auto &row :
         PoolTableModel::buildRows(snapshot({{"a", 30}, {"b", 15}}), &rates, nullptr))
        QCOMPARE(row.lastChangeMs, std::optional<qint64>(row.member == "a" ? 1000 : 2000));
}

void TestPoolTableModel::evictedRowsAreGreyWithSavedCount() {
    MemberColors colors;
    colors.assign({"a", "b"});
    PoolTableModel model(&colors);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows(PoolTableModel::buildRows(snapshot({{"a", 7}}, {{"b", 40}}), nullptr, nullptr),
                  0);
    const int b = model.rowOf("b");
    QCOMPARE(cell(model, b, PoolTableModel::Count), QStringLiteral("40"));
    QVERIFY(cell(model, b, PoolTableModel::State).contains(QStringLiteral("evicted")));
    QVERIFY(cell(model, b, PoolTableModel::State).contains(QStringLiteral("saved 40")));
    QCOMPARE(cell(model, b, PoolTableModel::Share), QStringLiteral("–"));
    const QColor grey =
        model.index(b, PoolTableModel::Member).data(Qt::ForegroundRole).value<QColor>();
    QCOMPARE(grey, QColor(0x80, 0x80, 0x80));
    QVERIFY(!model.index(model.rowOf("a"), 0).data(Qt::ForegroundRole).isValid());
    // One colour per member, the one the chart uses.
    QCOMPARE(model.index(model.rowOf("a"), PoolTableModel::Member)
                 .data(Qt::DecorationRole)
                 .value<QColor>(),
             colors.colorFor("a"));
    QCOMPARE(model.index(b, 0).data(PoolTableModel::EvictedRole).toBool(), true);
    QCOMPARE(model.index(b, 0).data(PoolTableModel::MemberRole).toByteArray(), QByteArray("b"));
}

void TestPoolTableModel::proxySortsNumbersAsNumbersAndFilters() {
    PoolTableModel model;
    PoolSortProxy proxy(&model);
    proxy.setFilterKeyColumn(PoolTableModel::Member);
    proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows(
        PoolTableModel::buildRows(
            snapshot({{"192.0.2.1:80", 9}, {"192.0.2.2:80", 10}, {"198.51.100.1:80", 100}}),
            nullptr, nullptr),
        0);
    proxy.sort(PoolTableModel::Count, Qt::AscendingOrder);
    QCOMPARE(cell(proxy, 0, PoolTableModel::Count), QStringLiteral("9"));
    QCOMPARE(cell(proxy, 1, PoolTableModel::Count), QStringLiteral("10"));
    QCOMPARE(cell(proxy, 2, PoolTableModel::Count), QStringLiteral("100"));
    proxy.setFilterFixedString(QStringLiteral("198.51"));
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(cell(proxy, 0, PoolTableModel::Member), QStringLiteral("198.51.100.1:80"));
    // Updates under a filter and a sort keep the tester happy.
    model.setRows(
        PoolTableModel::buildRows(
            snapshot({{"192.0.2.1:80", 11}, {"198.51.100.1:80", 101}, {"198.51.100.2:80", 0}}),
            nullptr, nullptr),
        0);
    QCOMPARE(proxy.rowCount(), 2);
}

void TestPoolTableModel::typedSortMatchesTheSortRole_data() {
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    // The member column sorts naturally (hosts and ports as numbers), not as the SortRole's text:
    // tst_memberorder holds that order.
    for (const int column :
         {int(PoolTableModel::Count), int(PoolTableModel::Share), int(PoolTableModel::Rate),
          int(PoolTableModel::State), int(PoolTableModel::Debt), int(PoolTableModel::LastChange)}) {
        const QByteArray name = QByteArray::number(column);
        QTest::newRow(name + " ascending") << column << int(Qt::AscendingOrder);
        QTest::newRow(name + " descending") << column << int(Qt::DescendingOrder);
    }
}

void TestPoolTableModel::typedSortMatchesTheSortRole() {
    // PoolSortProxy compares rows directly; the order must be the one the SortRole gives.
    QFETCH(int, column);
    QFETCH(int, order);
    PoolTableModel model;
    QList<PoolTableModel::Row> rows;
    for (int i = 0; i < 60; ++i) {
        PoolTableModel::Row row;
        row.member = "m" + QByteArray::number((i * 37) % 60);
        row.count = double((i * 7) % 13);
        row.evicted = i % 9 == 0;
        row.share = double((i * 5) % 11) / 11.0;
        row.rate = i % 4 == 0 ? -1.0 : double((i * 3) % 7);
        row.debt = double(i % 3);
        if (i % 5 != 0)
            row.lastChangeMs = qint64((i * 11) % 17) * 1000;
        rows.append(row);
    }
    model.setRows(rows, 0);
    PoolSortProxy typed(&model);
    QSortFilterProxyModel byRole;
    byRole.setSourceModel(&model);
    byRole.setSortRole(PoolTableModel::SortRole);
    typed.sort(column, Qt::SortOrder(order));
    byRole.sort(column, Qt::SortOrder(order));
    QCOMPARE(typed.rowCount(), byRole.rowCount());
    for (int row = 0; row < typed.rowCount(); ++row)
        QCOMPARE(typed.index(row, column).data(PoolTableModel::SortRole),
                 byRole.index(row, column).data(PoolTableModel::SortRole));
}

void TestPoolTableModel::sameMembersUpdateInPlace() {
    PoolTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows(PoolTableModel::buildRows(snapshot({{"a", 1}, {"b", 2}, {"c", 3}}, {{"e", 9}}),
                                            nullptr, nullptr),
                  0);
    const int rowOfA = model.rowOf("a");
    const int rowOfE = model.rowOf("e");
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    // The same members in another order (a now has the highest count): values change in place,
    // and the member column is left out of the change, so a proxy sorted by member stays put.
    model.setRows(PoolTableModel::buildRows(snapshot({{"a", 9}, {"b", 2}, {"c", 3}}, {{"e", 9}}),
                                            nullptr, nullptr),
                  0);
    QCOMPARE(inserted.count() + removed.count() + reset.count(), 0);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().column(), int(PoolTableModel::Member) + 1);
    QCOMPARE(model.rowOf("a"), rowOfA);
    QCOMPARE(model.rowAt(rowOfA).count, 9.0);
    QCOMPARE(model.rowOf("e"), rowOfE);
    QVERIFY(model.rowAt(rowOfE).evicted);

    // As many rows but not the same members (c left, d came): rows move, nothing is lost.
    model.setRows(PoolTableModel::buildRows(snapshot({{"a", 9}, {"b", 2}, {"d", 0}}, {{"e", 9}}),
                                            nullptr, nullptr),
                  0);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE_LT(model.rowOf("c"), 0);
    QCOMPARE_GE(model.rowOf("d"), 0);
    QCOMPARE(model.rowOf("a"), rowOfA);
    QCOMPARE(model.poolMemberCount(), 3);
    QCOMPARE(model.evictedCount(), 1);
}

void TestPoolTableModel::rankRowsOfUnfollowedMembersHaveNoRate() {
    // A big pool: the tracker follows only the charted members; a row read by rank for the
    // screen is "–", not a rate of 0.
    RateTracker rates(10000);
    rates.record(0, {{"top", 100}});
    rates.record(1000, {{"top", 110}});
    const QList<RankedMember> ranked{{0, "low", 5}, {1, "top", 110}};
    const auto rows = PoolTableModel::buildRankRows(ranked, 0, 5, 110, &rates, nullptr);
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[0].rate, -1.0);
    QCOMPARE(rows[1].rate, 10.0);
    PoolTableModel model;
    model.setSummary(2, 0, rows, {}, 0);
    QCOMPARE(cell(model, 0, PoolTableModel::Rate), QStringLiteral("–"));
    QCOMPARE(cell(model, 1, PoolTableModel::Rate), QStringLiteral("10.0"));
    QCOMPARE(model.index(0, PoolTableModel::Rate).data(PoolTableModel::RawRole).toString(),
             QString());
}

void TestPoolTableModel::bigChangeResetsOnce() {
    PoolTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QList<QPair<QByteArray, double>> first, second;
    for (int i = 0; i < 500; ++i) {
        first.append({"old" + QByteArray::number(i), double(i)});
        second.append({"new" + QByteArray::number(i), double(i)});
    }
    model.setRows(PoolTableModel::buildRows(snapshot(first), nullptr, nullptr), 0);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    model.setRows(PoolTableModel::buildRows(snapshot(second), nullptr, nullptr), 0);
    QCOMPARE(reset.count(), 1);
    QCOMPARE(removed.count(), 0);
    QCOMPARE(model.rowCount(), 500);
}

QTEST_MAIN(TestPoolTableModel)
#include "tst_pooltablemodel.moc"
