// The Pools panel: every pool of a three-primary cluster (and of a plain server) with
// its node, size and counts; rates between readings; opening a pool switches the dashboard.
// Leaves a screenshot of the dashboard on the cluster in <build>/tests/screenshots.
#include "ClusterFixture.h"
#include "MainWindowFixture.h"

#include "pool/PoolOperations.h"
#include "pools/PoolsPanel.h"
#include "pools/PoolsTableModel.h"
#include "topology/HashSlot.h"

#include <limits>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QTableView>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

int rowOf(const PoolsTableModel &model, const QByteArray &key) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.pools()[row].key == key)
            return row;
    return -1;
}

} // namespace

class TestPoolsPanel : public QObject {
    Q_OBJECT

private:
    ClusterFixture m_cluster;
    QList<QByteArray> m_keys; // one pool per primary

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.error()));
        ConnectionOptions options;
        options.commandTimeout = std::chrono::milliseconds(10000);
        auto connection = RedisConnection::open(m_cluster.endpoint(), options);
        const QList<QByteArray> prefixes{"eu-west", "us-east", "ap-south"};
        for (int node = 0; node < m_cluster.size(); ++node) {
            m_keys.append(m_cluster.keyOn(node, prefixes[node], true));
            PoolOperations pool(*connection, m_keys.last());
            pool.seed(names(20 + 10 * node), {});
            for (int i = 0; i < 15 * (node + 1); ++i)
                pool.allocate();
        }
    }
    void cleanupTestCase() { m_keys.clear(); }

    void listsThePoolsOfEveryShardAndOpensOne() {
        Dashboard dashboard;
        QAbstractItemModelTester tester(dashboard.window.poolsPanel()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        dashboard.window.show();
        dashboard.session.setPollInterval(std::chrono::milliseconds(200));
        QSignalSpy observed(&dashboard.session, &PoolSession::observationApplied);
        dashboard.session.connectTo(m_cluster.endpoint(), m_keys[0]);
        QVERIFY(observed.wait(10000));

        PoolsPanel *panel = dashboard.window.poolsPanel();
        PoolsTableModel *model = panel->model();
        QVERIFY(!panel->isVisible()); // closed until asked for: it has read nothing
        QCOMPARE(model->rowCount(), 0);
        QDockWidget *dock = nullptr;
        for (QDockWidget *candidate : dashboard.window.findChildren<QDockWidget *>())
            if (candidate->widget() == panel)
                dock = candidate;
        QVERIFY(dock);
        dock->toggleViewAction()->trigger(); // View > Pools
        QVERIFY(panel->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), m_keys.size(), 10000);
        for (int node = 0; node < m_cluster.size(); ++node) {
            const int row = rowOf(*model, m_keys[node]);
            QCOMPARE_GE(row, 0);
            const auto cell = [&](int column) {
                return model->data(model->index(row, column)).toString();
            };
            QCOMPARE(cell(PoolsTableModel::Node),
                     QStringLiteral("127.0.0.1:%1").arg(m_cluster.node(node).endpoint().port));
            QCOMPARE(cell(PoolsTableModel::Size), QString::number(20 + 10 * node));
            QCOMPARE(cell(PoolsTableModel::Evicted), QStringLiteral("0"));
        }
        QVERIFY2(panel->statusText().contains(QStringLiteral("3 pool(s) on 3 node(s)")),
                 qPrintable(panel->statusText()));

        // Allocations on the third pool between two readings show as its rate.
        {
            ConnectionOptions options;
            auto connection = RedisConnection::open(m_cluster.endpoint(), options);
            PoolOperations pool(*connection, m_keys[2]);
            for (int i = 0; i < 200; ++i)
                pool.allocate();
        }
        panel->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(
            model->rowCount() == 3 &&
                model->pools()[rowOf(*model, m_keys[2])].allocationRate.value_or(0) > 0,
            10000);

        // The screenshot, the Pools tab in front.
        QCoreApplication::processEvents();
        const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QDir().mkpath(dir);
        QVERIFY(dashboard.window.grab().save(dir + QStringLiteral("/pools-panel-cluster.png")));

        // Opening a pool switches the dashboard to it.
        const int row = rowOf(*model, m_keys[1]);
        QTableView *view = panel->view();
        QModelIndex index;
        for (int r = 0; r < view->model()->rowCount(); ++r)
            if (view->model()->index(r, 0).data(PoolsTableModel::KeyRole).toByteArray() ==
                m_keys[1])
                index = view->model()->index(r, 0);
        QVERIFY(row >= 0 && index.isValid());
        Q_EMIT view->activated(index);
        QTRY_COMPARE_WITH_TIMEOUT(dashboard.session.poolKey(), m_keys[1], 10000);
        QVERIFY(observed.wait(10000));
    }

    void worksOnAPlainServer() {
        RedisFixture plain;
        QVERIFY2(plain.start(), qPrintable(plain.error()));
        plain.makePool("proxies", names(12), 3);
        plain.run({"ZADD", "leaderboard", "1.5", "alice"}); // not counts: not a pool
        plain.run({"SET", "other", "x"});
        PoolsPanel panel;
        panel.setEndpoint(plain.endpoint());
        panel.show();
        QTRY_COMPARE_WITH_TIMEOUT(panel.model()->rowCount(), 1, 10000);
        const PoolOverview &pool = panel.model()->pools().first();
        QCOMPARE(pool.key, QByteArray("proxies"));
        QCOMPARE(pool.size, 12);
        QCOMPARE(pool.minimum, 3.0);
        QCOMPARE(pool.median, 3.0);
        QCOMPARE(pool.maximum, 3.0);
        QCOMPARE(pool.countSum.value_or(-1), 36.0);
    }

    // A watched pool whose slot moves to another primary: the dashboard follows it and says in
    // its events which node it went to.
    void slotMoveOfTheWatchedPoolIsAnEvent() {
        const int source = 1;
        const int target = 2;
        const QByteArray key = m_cluster.keyOn(source, "moving", true);
        m_cluster.node(source).makePool(key, names(4));
        Dashboard dashboard;
        dashboard.session.setPollInterval(std::chrono::milliseconds(100));
        QSignalSpy observed(&dashboard.session, &PoolSession::observationApplied);
        dashboard.session.connectTo(m_cluster.endpoint(), key);
        QVERIFY(observed.wait(10000));

        RedisFixture &from = m_cluster.node(source);
        RedisFixture &to = m_cluster.node(target);
        const QByteArray slot = QByteArray::number(topology::hashSlot(key));
        const QByteArray fromId = from.run({"CLUSTER", "MYID"}).text;
        const QByteArray toId = to.run({"CLUSTER", "MYID"}).text;
        QCOMPARE(to.run({"CLUSTER", "SETSLOT", slot, "IMPORTING", fromId}).text, "OK");
        QCOMPARE(from.run({"CLUSTER", "SETSLOT", slot, "MIGRATING", toId}).text, "OK");
        QCOMPARE(from.run({"MIGRATE", "127.0.0.1", QByteArray::number(to.endpoint().port), "", "0",
                           "5000", "KEYS", key})
                     .text,
                 "OK");
        for (int i = 0; i < m_cluster.size(); ++i)
            QCOMPARE(m_cluster.node(i).run({"CLUSTER", "SETSLOT", slot, "NODE", toId}).text, "OK");
        const QString expected = QStringLiteral("moved from node 127.0.0.1:%1 to node 127.0.0.1:%2")
                                     .arg(from.endpoint().port)
                                     .arg(to.endpoint().port);
        const auto announced = [&dashboard, &expected] {
            for (const HistoryEvent &event :
                 dashboard.session.history().events(0, std::numeric_limits<qint64>::max()))
                if (event.label.contains(expected))
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(announced(), 15000);
        QVERIFY(dashboard.nextPoll()); // still watching, from the new owner
    }
};

QTEST_MAIN(TestPoolsPanel)
#include "tst_poolspanel.moc"
