// View ▸ Overview…: the pools of two real servers in one table (sorted, filtered, exported as
// shown), a killed server's rows saying unreachable with their last good poll and coming back,
// Enter asking for the pool, the empty state, and the menu entry that opens it from the window.
#include "MainWindowFixture.h"
#include "RedisFixture.h"

#include "overview/OverviewModel.h"
#include "overview/OverviewPoller.h"
#include "overview/OverviewWindow.h"
#include "connection/ConnectionsDialog.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

// The row shown for a pool of a connection, or -1.
int shownRow(const OverviewWindow &window, const QString &connection, const QByteArray &pool) {
    const QAbstractItemModel *shown = window.proxy();
    for (int row = 0; row < shown->rowCount(); ++row)
        if (shown->index(row, OverviewModel::Connection).data().toString() == connection &&
            shown->index(row, OverviewModel::Pool).data().toString() == QString::fromUtf8(pool))
            return row;
    return -1;
}

QString cell(const OverviewWindow &window, int row, OverviewModel::Column column) {
    return window.proxy()->index(row, column).data().toString();
}

RowState stateOf(const OverviewWindow &window, const QString &connection, const QByteArray &pool) {
    const int row = shownRow(window, connection, pool);
    return row < 0 ? RowState::Waiting
                   : RowState(window.proxy()
                                  ->index(row, OverviewModel::Connection)
                                  .data(OverviewModel::StateRole)
                                  .toInt());
}

} // namespace

class TestOverviewWindow : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    ConnectionProfile profile(const QString &name, const RedisFixture &redis, const QByteArray &key,
                              Environment environment) {
        ConnectionProfile saved;
        saved.name = name;
        saved.url = redis.url();
        saved.poolKey = key;
        saved.environment = environment;
        return saved;
    }

private Q_SLOTS:
    void initTestCase() {
        // Settings (saved connections) in a HOME of this test's own, never shared with others.
        QVERIFY(m_dir.isValid());
        qputenv("HOME", QFile::encodeName(m_dir.path()));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral(".config"))));
        qunsetenv("DBUS_SESSION_BUS_ADDRESS"); // no keychain
        QStandardPaths::setTestModeEnabled(true);
    }

    void emptyStateSaysHowToAddAConnection() {
        ProfileStore store(m_dir.filePath(QStringLiteral("empty.ini")));
        OverviewWindow window(&store, nullptr);
        QVERIFY(window.isEmptyStateShown());
        QVERIFY2(window.emptyLabel()->text().contains(QStringLiteral("File ▸ Connections…")),
                 qPrintable(window.emptyLabel()->text()));
        QVERIFY(window.emptyLabel()->text().contains(QStringLiteral("poolscope-cli profile add")));
        QCOMPARE(window.model()->rowCount(), 0);
    }

    void listsPoolsOfTwoServersAndAKilledServerRecovers() {
        RedisServerOptions tcp;
        tcp.useTcp = true;
        RedisFixture first(tcp);
        RedisFixture second(tcp);
        QVERIFY2(first.start(), qPrintable(first.error()));
        QVERIFY2(second.start(), qPrintable(second.error()));
        first.makePool("alpha", names(5), 2);
        second.makePool("beta", names(7), 1);
        second.makePool("gamma", names(3), 9);

        ProfileStore store(m_dir.filePath(QStringLiteral("two.ini")));
        QCOMPARE(store.save(profile(QStringLiteral("first"), first, "alpha", Environment::Staging)),
                 QString());
        ConnectionProfile production =
            profile(QStringLiteral("second"), second, "beta", Environment::Production);
        production.group = QStringLiteral("eu");
        QCOMPARE(store.save(production), QString());

        OverviewWindow window(&store, nullptr);
        QVERIFY(!window.isEmptyStateShown());
        window.poller()->setInterval(std::chrono::milliseconds(150));
        window.poller()->setMaxBackoff(std::chrono::milliseconds(600));
        window.reload();
        QTRY_VERIFY_WITH_TIMEOUT(shownRow(window, QStringLiteral("second"), "gamma") >= 0 &&
                                     stateOf(window, QStringLiteral("first"), "alpha") ==
                                         RowState::Ok,
                                 10000);
        QCOMPARE(stateOf(window, QStringLiteral("second"), "beta"), RowState::Ok);
        QCOMPARE(cell(window, shownRow(window, QStringLiteral("second"), "beta"),
                      OverviewModel::Members),
                 QStringLiteral("7"));
        QCOMPARE(window.proxy()
                     ->index(shownRow(window, QStringLiteral("second"), "beta"),
                             OverviewModel::Connection)
                     .data(OverviewModel::EnvironmentRole)
                     .toInt(),
                 int(Environment::Production));

        // Sorted by members, most first: beta (7), alpha (5), gamma (3).
        window.tableView()->sortByColumn(OverviewModel::Members, Qt::DescendingOrder);
        QCOMPARE(cell(window, 0, OverviewModel::Pool), QStringLiteral("beta"));
        QCOMPARE(cell(window, 2, OverviewModel::Pool), QStringLiteral("gamma"));

        // The filter, and an export of what it shows.
        QTest::keyClicks(window.filterField(), QStringLiteral("GAMMA"));
        QCOMPARE(window.proxy()->rowCount(), 1);
        const QString csvPath = m_dir.filePath(QStringLiteral("shown.csv"));
        QVERIFY(window.exportTo(csvPath, OverviewWindow::Format::Csv));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines.at(0).startsWith("connection,"));
        QVERIFY(lines.at(1).contains(",gamma,"));
        window.filterField()->clear();
        QCOMPARE(window.proxy()->rowCount(), 3);

        // One group only.
        window.setGroup(QStringLiteral("eu"));
        QTRY_COMPARE_WITH_TIMEOUT(window.proxy()->rowCount(), 2, 10000);
        QCOMPARE(shownRow(window, QStringLiteral("first"), "alpha"), -1);
        window.setGroup(QString());
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(window, QStringLiteral("first"), "alpha") == RowState::Ok,
                                 10000);

        // Killed: its row stays, says why, and keeps the time of its last good poll.
        const qint64 killedAt = QDateTime::currentMSecsSinceEpoch();
        first.server().killHard();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(window, QStringLiteral("first"), "alpha"),
                                  RowState::Unreachable, 10000);
        const int down = shownRow(window, QStringLiteral("first"), "alpha");
        QVERIFY2(cell(window, down, OverviewModel::Why)
                     .contains(QStringLiteral("127.0.0.1:%1").arg(first.endpoint().port)),
                 qPrintable(cell(window, down, OverviewModel::Why)));
        QVERIFY(!cell(window, down, OverviewModel::Status).isEmpty());
        QVERIFY(cell(window, down, OverviewModel::LastPoll) != QStringLiteral("never"));
        const qint64 lastGood = window.proxy()
                                    ->index(down, OverviewModel::LastPoll)
                                    .data(OverviewModel::SortRole)
                                    .toLongLong();
        QVERIFY(lastGood > 0 && lastGood <= killedAt);
        QCOMPARE(stateOf(window, QStringLiteral("second"), "beta"), RowState::Ok);
        window.tableView()->setCurrentIndex(window.proxy()->index(down, OverviewModel::Pool));
        QVERIFY2(window.detailLabel()->text().startsWith(QStringLiteral("first: ")),
                 qPrintable(window.detailLabel()->text()));

        // Back on its port: read again.
        QVERIFY(first.server().start());
        first.run({"PING"});
        first.makePool("alpha", names(6), 2);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(window, QStringLiteral("first"), "alpha"), RowState::Ok,
                                  10000);
        QTRY_COMPARE(cell(window, shownRow(window, QStringLiteral("first"), "alpha"),
                          OverviewModel::Members),
                     QStringLiteral("6"));

        // Enter asks for that pool.
        QSignalSpy open(&window, &OverviewWindow::poolOpenRequested);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const int gamma = shownRow(window, QStringLiteral("second"), "gamma");
        window.tableView()->setCurrentIndex(window.proxy()->index(gamma, OverviewModel::Pool));
        window.tableView()->setFocus();
        QTest::keyClick(window.tableView(), Qt::Key_Return);
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.at(0).at(0).toString(), QStringLiteral("second"));
        QCOMPARE(open.at(0).at(1).toByteArray(), QByteArray("gamma"));
    }

    // The alerts column: the default rules judged on each row's readings ("none" for a healthy
    // pool rather than unknown); a saved connection whose password is remembered is asked of the
    // keychain, and says it needs a password once the keychain (none here) has answered.
    void alertsColumnJudgedAndTheKeychainAsked() {
        RedisServerOptions tcp;
        tcp.useTcp = true;
        RedisFixture redis(tcp);
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.makePool("alpha", names(8), 2);
        ProfileStore store(m_dir.filePath(QStringLiteral("alerts.ini")));
        QCOMPARE(store.save(profile(QStringLiteral("plain"), redis, "alpha", Environment::None)),
                 QString());
        ConnectionProfile remembered =
            profile(QStringLiteral("remembered"), redis, "alpha", Environment::None);
        remembered.needsPassword = true;
        remembered.rememberSecrets = true;
        QCOMPARE(store.save(remembered), QString());
        SecretStore secrets;
        QSignalSpy asked(&secrets, &SecretStore::secretRead);

        OverviewWindow window(&store, &secrets);
        window.poller()->setInterval(std::chrono::milliseconds(150));
        window.reload();
        QTRY_COMPARE_WITH_TIMEOUT(
            cell(window, shownRow(window, QStringLiteral("plain"), "alpha"), OverviewModel::Alerts),
            OverviewModel::tr("none"), 10000);
        // The keychain was asked for that connection's password, and its answer (nothing: no
        // Secret Service here) read again.
        QTRY_VERIFY_WITH_TIMEOUT(!asked.isEmpty(), 10000);
        QCOMPARE(asked.first().at(0).toString(), QStringLiteral("remembered"));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.model()->rows().size() >= 2 &&
                std::any_of(window.model()->rows().cbegin(), window.model()->rows().cend(),
                            [](const OverviewRow &row) {
                                return row.connection == QStringLiteral("remembered") &&
                                       row.problem.contains(QStringLiteral("needs a password"));
                            }),
            10000);
        QCOMPARE(asked.size(), 1); // asked once, not at every reload
    }

    void connectionsDialogShowsGroupsAsFolders() {
        ProfileStore store(m_dir.filePath(QStringLiteral("tree.ini")));
        const auto add = [&](const QString &name, const QString &group, Environment environment) {
            ConnectionProfile saved;
            saved.name = name;
            saved.url = QStringLiteral("redis://127.0.0.1:1/0"); // never connected to here
            saved.group = group;
            saved.environment = environment;
            QCOMPARE(store.save(saved), QString());
        };
        add(QStringLiteral("eu-prod"), QStringLiteral("eu"), Environment::Production);
        add(QStringLiteral("eu-stage"), QStringLiteral("eu"), Environment::Staging);
        add(QStringLiteral("laptop"), QString(), Environment::None);
        SecretStore secrets;
        ConnectionsDialog dialog(&store, &secrets, ConnectionProfile());
        QTreeWidget *tree = dialog.tree();
        QCOMPARE(dialog.connectionCount(), 3);
        QCOMPARE(tree->topLevelItemCount(), 2);
        QTreeWidgetItem *folder = tree->topLevelItem(0);
        QCOMPARE(folder->text(0), QStringLiteral("eu"));
        QCOMPARE(folder->childCount(), 2);
        QVERIFY(folder->data(0, Qt::UserRole).toString().isEmpty());
        QCOMPARE(folder->child(0)->text(0), QStringLiteral("eu-prod"));
        QCOMPARE(folder->child(0)->text(1), QStringLiteral("Production"));
        QVERIFY(!folder->child(0)->icon(0).isNull());
        QCOMPARE(tree->topLevelItem(1)->text(0), QStringLiteral("laptop"));
        QVERIFY(tree->topLevelItem(1)->icon(0).isNull());
        // The first connection is chosen, not the folder; a folder chosen connects nothing.
        QCOMPARE(dialog.selectedName(), QStringLiteral("eu-prod"));
        QVERIFY(dialog.connectButton()->isEnabled());
        tree->setCurrentItem(folder);
        QVERIFY(!dialog.connectButton()->isEnabled());
        dialog.select(QStringLiteral("laptop"));
        QCOMPARE(dialog.selectedName(), QStringLiteral("laptop"));
    }

    void mainWindowOpensItAndConnectsToTheChosenPool() {
        RedisServerOptions tcp;
        tcp.useTcp = true;
        RedisFixture redis(tcp);
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.makePool("alpha", names(4), 1);
        redis.makePool("beta", names(2), 3);

        Dashboard dashboard;
        ProfileStore *store = dashboard.window.profileStore();
        QVERIFY2(store->fileName().startsWith(m_dir.path()), qPrintable(store->fileName()));
        QCOMPARE(store->names(), QStringList());
        QCOMPARE(store->save(profile(QStringLiteral("local"), redis, "alpha", Environment::None)),
                 QString());
        QVERIFY(dashboard.window.overviewAction());
        QVERIFY(!dashboard.window.overviewAction()->shortcut().isEmpty());
        dashboard.window.overviewAction()->trigger();
        OverviewWindow *overview = dashboard.window.findChild<OverviewWindow *>();
        QVERIFY(overview);
        QTRY_VERIFY_WITH_TIMEOUT(shownRow(*overview, QStringLiteral("local"), "beta") >= 0, 10000);

        QSignalSpy observed(&dashboard.session, &PoolSession::observationApplied);
        Q_EMIT overview->poolOpenRequested(QStringLiteral("local"), "beta");
        QTRY_COMPARE_WITH_TIMEOUT(dashboard.session.poolKey(), QByteArray("beta"), 10000);
        QCOMPARE(dashboard.window.connectedProfile(), QStringLiteral("local"));
        QVERIFY(observed.wait(10000));
        store->remove(QStringLiteral("local"));
    }
};

QTEST_MAIN(TestOverviewWindow)
#include "tst_overviewwindow.moc"
