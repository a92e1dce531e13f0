// The members table's natural order of proxy ids (MemberOrder.h), and the sort proxy using it:
// IPv4 by octets, then port; IPv6 by groups; names with numbers as numbers.

#include "members/MemberOrder.h"
#include "members/PoolSortProxy.h"
#include "members/PoolTableModel.h"

#include "ProxyIdRows.h"

#include <algorithm>

#include <QtTest>

using namespace poolscope;

class TestMemberOrder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pairs_data();
    void pairs();
    void sortsAList();
    void proxySortsMembersNaturally();
    void tenThousandRowsSortNaturally();
};

void TestMemberOrder::pairs_data() {
    QTest::addColumn<QByteArray>("first");
    QTest::addColumn<QByteArray>("second");
    // first < second, strictly.
    QTest::newRow("octet 1 before 10")
        << QByteArray("45.76.1.1:8080") << QByteArray("45.76.1.10:8080");
    QTest::newRow("octet 2 before 10, bare") << QByteArray("10.0.0.2") << QByteArray("10.0.0.10");
    QTest::newRow("octet 9 before 100") << QByteArray("9.1.1.1:1") << QByteArray("100.1.1.1:1");
    QTest::newRow("host before port") << QByteArray("45.76.1.1:9999") << QByteArray("45.76.1.2:80");
    QTest::newRow("port numeric") << QByteArray("45.76.1.1:808") << QByteArray("45.76.1.1:8080");
    QTest::newRow("port 80 before 443") << QByteArray("1.2.3.4:80") << QByteArray("1.2.3.4:443");
    QTest::newRow("no port first") << QByteArray("1.2.3.4") << QByteArray("1.2.3.4:1");
    QTest::newRow("scheme and credentials set aside")
        << QByteArray("socks5://zed:pw@45.76.1.2:1080") << QByteArray("http://al:pw@45.76.1.10:80");
    QTest::newRow("same host and port: by scheme text")
        << QByteArray("http://45.76.1.1:80") << QByteArray("socks5://45.76.1.1:80");
    QTest::newRow("IPv4 before IPv6") << QByteArray("255.255.255.255:1") << QByteArray("[::1]:1");
    QTest::newRow("IPv6 groups numeric")
        << QByteArray("[2001:db8::2]:80") << QByteArray("[2001:db8::10]:80");
    QTest::newRow("IPv6 hex groups")
        << QByteArray("[2001:db8::9]:80") << QByteArray("[2001:db8::a]:80");
    QTest::newRow("IPv6 gap expanded")
        << QByteArray("[2001:db8::1:0]:80") << QByteArray("[2001:db8:0:0:0:0:2:0]:80");
    QTest::newRow("IPv6 port") << QByteArray("[::1]:80") << QByteArray("[::1]:8080");
    QTest::newRow("bare IPv6") << QByteArray("fe80::2") << QByteArray("fe80::10");
    QTest::newRow("IPv6 before names") << QByteArray("[ffff::1]:1") << QByteArray("a.example:1");
    QTest::newRow("names: digits as numbers") << QByteArray("m2") << QByteArray("m10");
    QTest::newRow("names: proxy-9 before proxy-10")
        << QByteArray("proxy-9.example:80") << QByteArray("proxy-10.example:80");
    QTest::newRow("names ignore case") << QByteArray("Alpha:80") << QByteArray("beta:80");
    QTest::newRow("name then port") << QByteArray("gw.example:80") << QByteArray("gw.example:3128");
    QTest::newRow("leading zeros") << QByteArray("n007") << QByteArray("n8");
    QTest::newRow("not an address: 256 is no octet")
        << QByteArray("1.2.3.4:1") << QByteArray("1.2.3.256:1");
}

void TestMemberOrder::pairs() {
    QFETCH(QByteArray, first);
    QFETCH(QByteArray, second);
    QVERIFY2(compareMembersNaturally(first, second) < 0, first + " < " + second);
    QVERIFY2(compareMembersNaturally(second, first) > 0, second + " > " + first);
    QCOMPARE(compareMembersNaturally(first, first), 0);
}

void TestMemberOrder::sortsAList() {
    QList<QByteArray> members{"45.76.1.10:8080", "45.76.1.1:8080", "45.76.1.2:3128", "45.76.1.1:80",
                              "[::1]:80",        "proxy10:80",     "proxy9:80",      "8.8.4.4:53"};
    std::sort(members.begin(), members.end(), memberNaturallyLess);
    const QList<QByteArray> expected{"8.8.4.4:53",     "45.76.1.1:80",    "45.76.1.1:8080",
                                     "45.76.1.2:3128", "45.76.1.10:8080", "[::1]:80",
                                     "proxy9:80",      "proxy10:80"};
    QCOMPARE(members, expected);
}

void TestMemberOrder::proxySortsMembersNaturally() {
    PoolTableModel model;
    QList<PoolTableModel::Row> rows;
    for (const char *member : {"45.76.1.10:80", "45.76.1.1:80", "45.76.1.2:80"}) {
        PoolTableModel::Row row;
        row.member = member;
        rows.append(row);
    }
    model.setRows(rows, 0);
    PoolSortProxy proxy(&model);
    proxy.sort(PoolTableModel::Member, Qt::AscendingOrder);
    QStringList shown;
    for (int r = 0; r < proxy.rowCount(); ++r)
        shown << proxy.index(r, PoolTableModel::Member).data().toString();
    QCOMPARE(shown, (QStringList{"45.76.1.1:80", "45.76.1.2:80", "45.76.1.10:80"}));
}

// The table sorts by member by default and again when a held order is released. Its speed
// against sorting as text is bench/member_sort.sh's (docs/benchmarks.md).
void TestMemberOrder::tenThousandRowsSortNaturally() {
    PoolTableModel model;
    model.setRows(testing::proxyIdRows(10000), 0);
    PoolSortProxy proxy(&model);
    proxy.sort(PoolTableModel::Member, Qt::AscendingOrder);
    QCOMPARE(proxy.rowCount(), 10000);
    for (int r = 1; r < proxy.rowCount(); ++r)
        QVERIFY(!memberNaturallyLess(
            proxy.index(r, 0).data(PoolTableModel::MemberRole).toByteArray(),
            proxy.index(r - 1, 0).data(PoolTableModel::MemberRole).toByteArray()));
}

QTEST_MAIN(TestMemberOrder)
#include "tst_memberorder.moc"
