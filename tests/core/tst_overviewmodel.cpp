// The overview's pure logic, without a server (the real-server side is tst_overview): how
// readings and failures change the rows (OverviewTable), the bounded trend, the table model
// (identity across updates, sorting by raw values, its words) and the CSV / JSON export.
#include "overview/OverviewExport.h"
#include "overview/OverviewModel.h"
#include "overview/OverviewTable.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonObject>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace poolscope;

namespace {

OverviewConnection connection(const QString &name, QList<QByteArray> pinned = {}) {
    OverviewConnection c;
    c.name = name;
    c.group = QStringLiteral("eu");
    c.environment = Environment::Staging;
    c.pinnedPools = std::move(pinned);
    return c;
}

PoolReading pool(const QByteArray &key, qint64 size, double min, double max,
                 const QString &node = QStringLiteral("10.0.0.1:6379")) {
    PoolReading reading;
    reading.key = key;
    reading.figures.key = key;
    reading.figures.node = node;
    reading.figures.size = size;
    reading.figures.minimum = min;
    reading.figures.median = (min + max) / 2;
    reading.figures.maximum = max;
    reading.guardKnown = true;
    return reading;
}

ServerReading readingOf(qint64 timeMs, QList<PoolReading> pools) {
    ServerReading reading;
    reading.timeMs = timeMs;
    reading.pools = std::move(pools);
    return reading;
}

const OverviewRow *find(const QList<OverviewRow> &rows, const QString &connection,
                        const QByteArray &key) {
    for (const OverviewRow &row : rows)
        if (row.connection == connection && row.pool == key && !row.placeholder)
            return &row;
    return nullptr;
}

OverviewRow row(const QString &connection, const QByteArray &key, qint64 members) {
    OverviewRow r;
    r.connection = connection;
    r.pool = key;
    r.hasFigures = true;
    r.members = members;
    r.state = RowState::Ok;
    r.lastGoodPollMs = 1000;
    return r;
}

} // namespace

class TestOverviewModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void trendKeepsOnlyTheLastPoints() {
        TrendRing ring;
        for (int i = 0; i < TrendRing::kCapacity + 10; ++i)
            ring.append({i, double(i), double(2 * i)});
        QCOMPARE(ring.size(), TrendRing::kCapacity);
        const QList<TrendPoint> points = ring.points();
        QCOMPARE(points.first().timeMs, 10);
        QCOMPARE(points.last().timeMs, TrendRing::kCapacity + 9);
        for (qsizetype i = 1; i < points.size(); ++i)
            QCOMPARE(points[i].timeMs, points[i - 1].timeMs + 1);
    }

    void rowsFollowReadingsAndFailures() {
        OverviewTable table;
        table.reset(
            {{connection(QStringLiteral("a"), {"x"}), connection(QStringLiteral("b"), {"p2"})}});
        QCOMPARE(table.rows().size(), 2);
        QCOMPARE(table.rows().first().state, RowState::Waiting);

        PoolReading p1 = pool("p1", 10, 1, 5);
        p1.figures.jainIndex = 0.9;
        p1.figures.allocationRate = 12.5;
        PoolReading x = pool("x", 0, 0, 0);
        x.isPool = false;
        x.notPoolReason = QStringLiteral("no such key");
        table.applyReading(0, readingOf(1000, {p1, pool("p2", 3, 0, 0), x}));
        QList<OverviewRow> rows = table.rows();
        QCOMPARE(rows.size(), 3); // a/p1, a/x, b/p2: no placeholder left
        QVERIFY(find(rows, "a", "p1"));
        QVERIFY(!find(rows, "a", "p1")->pinned); // nobody pinned it: the first connection's
        QVERIFY(find(rows, "b", "p2") && find(rows, "b", "p2")->pinned);
        QCOMPARE(find(rows, "a", "x")->state, RowState::NotAPool);
        QCOMPARE(find(rows, "a", "p1")->jainIndex, std::optional<double>(0.9));
        QCOMPARE(find(rows, "a", "p1")->group, QStringLiteral("eu"));
        QCOMPARE(find(rows, "a", "p1")->trend.size(), 1);

        // The server fails: figures kept, rate gone, why and when said.
        table.applyFailure(0,
                           {RedisError::Kind::Connection, QStringLiteral("refused"), false, 2000});
        rows = table.rows();
        const OverviewRow *down = find(rows, "a", "p1");
        QCOMPARE(down->state, RowState::Unreachable);
        QCOMPARE(down->problem, QStringLiteral("refused"));
        QCOMPARE(down->members, 10);
        QCOMPARE(down->lastGoodPollMs, 1000);
        QVERIFY(!down->allocationRate);
        QCOMPARE(down->trend.size(), 1); // no point for a reading that did not happen

        // Back, without p1: its row goes; p2's keeps its trend.
        table.applyReading(0, readingOf(3000, {pool("p2", 4, 1, 1), x}));
        rows = table.rows();
        QVERIFY(!find(rows, "a", "p1"));
        QCOMPARE(find(rows, "b", "p2")->trend.size(), 2);
        QCOMPARE(find(rows, "b", "p2")->state, RowState::Ok);
        QCOMPARE(find(rows, "b", "p2")->lastGoodPollMs, 3000);
    }

    void aPrimaryThatCannotBeReadKeepsItsPools() {
        OverviewTable table;
        table.reset({{connection(QStringLiteral("c"))}});
        table.applyReading(
            0, readingOf(1000, {pool("p1", 5, 0, 1, "n1:1"), pool("p2", 5, 0, 1, "n2:2")}));
        ServerReading partial = readingOf(2000, {pool("p1", 6, 0, 1, "n1:1")});
        partial.unreadNodes = {{QStringLiteral("n2:2"), RedisError::Kind::Timeout,
                                QStringLiteral("no reply within 1000 ms")}};
        table.applyReading(0, partial);
        const QList<OverviewRow> rows = table.rows();
        const OverviewRow *kept = find(rows, "c", "p2");
        QVERIFY(kept);
        QCOMPARE(kept->state, RowState::NodeUnreachable);
        QCOMPARE(kept->errorKind, RedisError::Kind::Timeout);
        QVERIFY(kept->problem.contains(QStringLiteral("n2:2")));
        QCOMPARE(kept->lastGoodPollMs, 1000);
        QCOMPARE(find(rows, "c", "p1")->lastGoodPollMs, 2000);
    }

    void connectionsWithoutPoolsStillShow() {
        OverviewTable table;
        table.reset({{connection(QStringLiteral("a")), connection(QStringLiteral("b"))},
                     {connection(QStringLiteral("empty"))}});
        table.applyFailure(1, {RedisError::Kind::Connection, QStringLiteral("refused"), false, 5});
        table.applyReading(0, readingOf(1000, {pool("p", 1, 0, 0)}));
        QList<OverviewRow> rows = table.rows();
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[1].connection, QStringLiteral("b"));
        QVERIFY(rows[1].placeholder);
        QVERIFY(rows[1].problem.contains(QStringLiteral("\"a\"")));
        QCOMPARE(rows[2].connection, QStringLiteral("empty"));
        QCOMPARE(rows[2].state, RowState::Unreachable);
        QCOMPARE(rows[2].lastGoodPollMs, 0);
        table.applyReading(1, readingOf(2000, {}));
        rows = table.rows();
        QCOMPARE(rows[2].state, RowState::Ok);
        QCOMPARE(rows[2].problem, QStringLiteral("no pools found"));
        QVERIFY(table.setAlerts(QStringLiteral("a"), "p", {QStringLiteral("spread high")}));
        QVERIFY(!table.setAlerts(QStringLiteral("a"), "nope", {}));
        QCOMPARE(table.rows().first().alerts, QStringList{QStringLiteral("spread high")});
    }

    void modelKeepsRowsByIdentity() {
        OverviewModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows({row("a", "p1", 1), row("a", "p2", 2), row("b", "p3", 3)});
        QCOMPARE(model.rowCount(), 3);
        const QPersistentModelIndex p2(model.index(1, OverviewModel::Members));
        // p1 gone, p4 new, the rest in another order.
        model.setRows({row("b", "p3", 30), row("b", "p4", 4), row("a", "p2", 20)});
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(p2.isValid());
        QCOMPARE(p2.row(), 2);
        QCOMPARE(p2.data(OverviewModel::SortRole).toLongLong(), 20);
        QCOMPARE(model.index(0, OverviewModel::Pool).data().toString(), QStringLiteral("p3"));
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    void sortsByRawValues() {
        OverviewModel model;
        OverviewRow unknown = row("a", "none", 0);
        unknown.hasFigures = false;
        model.setRows({row("a", "p1", 900), row("a", "p2", 10000), unknown, row("a", "p3", 50)});
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(OverviewModel::SortRole);
        proxy.sort(OverviewModel::Members, Qt::DescendingOrder);
        QStringList order;
        for (int i = 0; i < proxy.rowCount(); ++i)
            order << proxy.index(i, OverviewModel::Pool).data().toString();
        // By number, not by text ("900" > "50" > "10000"); the unknown at one end.
        order.removeAll(QStringLiteral("none"));
        QCOMPARE(order, (QStringList{"p2", "p1", "p3"}));
        QVERIFY(proxy.index(0, OverviewModel::Pool).data() == QStringLiteral("none") ||
                proxy.index(3, OverviewModel::Pool).data() == QStringLiteral("none"));
        proxy.setFilterKeyColumn(OverviewModel::Pool);
        proxy.setFilterFixedString(QStringLiteral("p1"));
        QCOMPARE(proxy.rowCount(), 1);
        // What is shown is what is exported: the filtered, sorted rows.
        QCOMPARE(overviewJson(proxy).size(), 1);
    }

    void wordsSayWhatIsKnown() {
        OverviewRow big = row("a", "big", 20000);
        big.allocationRate = 12.5;
        big.rateEstimated = true;
        QCOMPARE(OverviewModel::displayText(big, OverviewModel::Jain), QStringLiteral("unknown"));
        QCOMPARE(OverviewModel::displayText(big, OverviewModel::AllocationRate),
                 QLocale().toString(12.5, 'f', 1).prepend(u'~'));
        big.guardKnown = true;
        QCOMPARE(OverviewModel::displayText(big, OverviewModel::Guard), QStringLiteral("none"));
        OverviewRow waiting;
        waiting.connection = QStringLiteral("w");
        waiting.placeholder = true;
        QCOMPARE(OverviewModel::displayText(waiting, OverviewModel::Members),
                 QStringLiteral("\u2014"));
        QCOMPARE(OverviewModel::displayText(waiting, OverviewModel::LastPoll),
                 QStringLiteral("never"));
        QCOMPARE(OverviewModel::displayText(waiting, OverviewModel::Status),
                 QStringLiteral("waiting"));
        QCOMPARE(OverviewModel::sparkline({0.0, std::nullopt, 4.0, 8.0}),
                 QStringLiteral("\u2581 \u2585\u2588"));
    }

    void exportCarriesRawValues() {
        OverviewRow odd = row("a", "we,\"ird", 7);
        odd.jainIndex = 0.5;
        odd.trend.append({1, 2.5, 1});
        odd.trend.append({2, std::nullopt, 3});
        OverviewRow down = row("b", "p", 3);
        down.state = RowState::Unreachable;
        down.errorKind = RedisError::Kind::Timeout;
        down.problem = QStringLiteral("no reply");
        OverviewModel model;
        model.setRows({odd, down});
        // The view's sparkline reads the points themselves.
        QCOMPARE(model.index(0, OverviewModel::RateTrend)
                     .data(OverviewModel::TrendRole)
                     .value<QList<TrendPoint>>(),
                 odd.trend.points());
        const QList<QByteArray> lines = overviewCsv(model).split('\n');
        QCOMPARE(lines.size(), 4); // header, two rows, the final line end
        QVERIFY(lines[0].startsWith("connection,group,environment,pool,node,members,"));
        QVERIFY2(lines[1].contains(",\"we,\"\"ird\",,7,"), lines[1]);
        QVERIFY2(lines[1].contains(",0.5,"), lines[1]);
        QVERIFY2(lines[1].contains(",2.5 ,1 3,"), lines[1]);

        const QJsonArray rows = overviewJson(model);
        QCOMPARE(rows.size(), 2);
        const QJsonObject first = rows[0].toObject();
        QCOMPARE(first.size(), int(OverviewModel::ColumnCount));
        for (int column = 0; column < OverviewModel::ColumnCount; ++column)
            QVERIFY(first.contains(OverviewModel::columnKey(OverviewModel::Column(column))));
        QVERIFY(first.value(QStringLiteral("allocations_per_s")).isNull());
        QCOMPARE(first.value(QStringLiteral("allocations_per_s_trend")).toArray(),
                 (QJsonArray{2.5, QJsonValue()}));
        const QJsonObject second = rows[1].toObject();
        QCOMPARE(second.value(QStringLiteral("state")).toString(), QStringLiteral("unreachable"));
        QCOMPARE(second.value(QStringLiteral("error_kind")).toString(), QStringLiteral("timeout"));
        QCOMPARE(second.value(QStringLiteral("why")).toString(), QStringLiteral("no reply"));
    }
};

QTEST_GUILESS_MAIN(TestOverviewModel)
#include "tst_overviewmodel.moc"
