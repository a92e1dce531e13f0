// The connection's controls in the whole window against real redis-servers, offscreen: the pool
// field reconnects only on a real change and follows the pool shown, "back to the previous pool",
// a refused password (not retried, the URL field asks, settings kept) and recent keys.

#include "actions/PoolActions.h"
#include "actions/ResetScenarioDialog.h"
#include "actions/TestAllocationDialog.h"
#include "chart/ChartPanel.h"
#include "connection/ConnectionBar.h"
#include "connection/StatusBarPanel.h"
#include "MainWindow.h"
#include "members/MembersPanel.h"
#include "members/PoolTableModel.h"
#include "session/PoolSession.h"

#include "RedisFixture.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QDialogButtonBox>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QtTest>

#include "ControlsDashboard.h"

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

class TestConnectionControls : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init() { QSettings().clear(); }
    void keyFieldReconnectsOnlyOnChange();
    void scenarioPoolShowsInFieldAndBackReturns();
    void wrongPasswordStopsAndAsks();
    void passwordSlot_data();
    void passwordSlot();
    void passwordRetryKeepsSettings();
    void recentKeysAreOnlyPools();
};

void TestConnectionControls::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
}

// Item 7: focus leaving the key field (a click elsewhere, the dropdown closed, Ctrl+T) is no
// change of key and must not reconnect; picking another key does.
void TestConnectionControls::keyFieldReconnectsOnlyOnChange() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"a", "b"}, 1);
    redis.makePool("other", {"c"}, 1);
    Dashboard d;
    d.session.setPollInterval(100ms);
    d.window.show();
    QVERIFY(QTest::qWaitForWindowActive(&d.window));
    ConnectionBar *bar = d.bar();
    bar->urlBox()->setEditText(redis.endpoint().toDisplayString());
    bar->setPoolKeys({QStringLiteral("other"), QString::fromUtf8(kKey)});
    QCOMPARE(bar->keyBox()->currentIndex(), 0); // "other": the typed key is another item
    QLineEdit *keyEdit = bar->keyBox()->lineEdit();
    keyEdit->setFocus();
    keyEdit->setText(QString::fromUtf8(kKey));
    QSignalSpy observed(&d.session, &PoolSession::observationApplied);
    QTest::keyClick(keyEdit, Qt::Key_Return);
    QVERIFY(observed.wait(10000));
    QCOMPARE(d.session.poolKey(), kKey);
    QTRY_VERIFY(d.session.isConnected());

    QSignalSpy retargeted(&d.session, &PoolSession::targetChanged);
    // Enter again on the same key, then a click on the chart (the field loses focus).
    QTest::keyClick(keyEdit, Qt::Key_Return);
    d.window.chartPanel()->setFocus(Qt::MouseFocusReason);
    QVERIFY(!keyEdit->hasFocus());
    QCOMPARE(retargeted.count(), 0);
    // The dropdown opened and closed with Escape.
    keyEdit->setFocus();
    bar->keyBox()->showPopup();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    bar->keyBox()->hidePopup();
    // Ctrl+T: the test allocations dialog takes the focus.
    keyEdit->setFocus();
    d.actions()->testAllocationsAction()->trigger();
    QVERIFY(d.actions()->testAllocationDialog());
    d.actions()->testAllocationDialog()->activateWindow();
    d.actions()->testAllocationDialog()->setFocus();
    d.actions()->testAllocationDialog()->close();
    QVERIFY(d.waitPolls(3));
    QCOMPARE(retargeted.count(), 0);
    QCOMPARE(d.session.poolKey(), kKey);

    // A real change of key still switches at once.
    bar->keyBox()->setCurrentIndex(bar->keyBox()->findText(QStringLiteral("other")));
    Q_EMIT bar->keyBox()->activated(bar->keyBox()->currentIndex());
    QCOMPARE(retargeted.count(), 1);
    QCOMPARE(d.session.poolKey(), QByteArray("other"));
}

// Item 8: the count-reset demo switches pools; the field says so, and Alt+Left goes back (also
// after the dialog is closed), and again forth.
void TestConnectionControls::scenarioPoolShowsInFieldAndBackReturns() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"a", "b"}, 0);
    Dashboard d;
    d.window.show();
    QVERIFY(QTest::qWaitForWindowActive(&d.window));
    QVERIFY(d.connectTo(redis));
    QCOMPARE(d.bar()->currentKey(), kKey);
    QVERIFY(!d.actions()->backAction()->isEnabled());

    ResetScenarioDialog *dialog = d.actions()->openResetScenarioDialog();
    QVERIFY(dialog);
    dialog->setMembers(4);
    dialog->setRate(100);
    dialog->setDurations(1, 1);
    QVERIFY(dialog->start());
    const QByteArray scenarioKey = d.session.poolKey();
    QVERIFY(scenarioKey != kKey);
    QCOMPARE(d.bar()->currentKey(), scenarioKey); // the field shows the pool shown
    QSignalSpy done(dialog, &ResetScenarioDialog::scenarioFinished);
    QSignalSpy failed(dialog, &ResetScenarioDialog::scenarioFailed);
    dialog->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isRunning(), 20000);
    dialog->close();
    QVERIFY(d.actions()->backAction()->isEnabled());
    QVERIFY(d.actions()->backAction()->toolTip().contains(QString::fromUtf8(kKey)));
    qInfo() << "screenshot" << saveShot(&d.window, QStringLiteral("scenario-pool-field"));
    for (QMenu *menu : d.window.findChildren<QMenu *>())
        if (menu->title() == QStringLiteral("&Pool"))
            qInfo() << "screenshot" << saveShot(menu, QStringLiteral("pool-menu-back"));

    d.window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&d.window));
    QTest::keyClick(d.members()->tableView(), Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(d.session.poolKey(), kKey);
    QCOMPARE(d.bar()->currentKey(), kKey);
    QTRY_VERIFY(d.session.latestObservation());
    // And forth again: the back entry names the scenario pool now.
    QVERIFY(d.actions()->backAction()->toolTip().contains(QString::fromUtf8(scenarioKey)));
    d.actions()->backAction()->trigger();
    QCOMPARE(d.session.poolKey(), scenarioKey);
    QCOMPARE(d.bar()->currentKey(), scenarioKey);
}

// Item 10: a refused password is not retried; the old version goes; the URL field asks.
void TestConnectionControls::wrongPasswordStopsAndAsks() {
    testing::RedisFixture open;
    QVERIFY2(open.start(), qPrintable(open.error()));
    RedisServerOptions options;
    options.useTcp = true;
    options.extraArguments = {QStringLiteral("--requirepass"), QStringLiteral("right-pw")};
    testing::RedisFixture secured(options);
    QVERIFY2(secured.start(), qPrintable(secured.error()));

    Dashboard d;
    d.window.show();
    QVERIFY(QTest::qWaitForWindowActive(&d.window));
    QVERIFY(d.connectTo(open));
    QTRY_VERIFY(d.window.statusPanel()->versionText().startsWith(QStringLiteral("Redis ")));

    const int port = secured.endpoint().port;
    QSignalSpy refused(&d.session, &PoolSession::authenticationFailed);
    d.bar()->urlBox()->setEditText(QStringLiteral("redis://:wrong-pw@127.0.0.1:%1/0").arg(port));
    d.bar()->requestConnect();
    QVERIFY(refused.wait(10000));
    QVERIFY2(refused.constFirst().at(0).toString().contains(QStringLiteral("WRONGPASS")),
             qPrintable(refused.constFirst().at(0).toString()));
    QCOMPARE(d.session.state(), ConnectionState::Disconnected);
    QVERIFY(!d.session.hasTarget());
    QVERIFY(d.window.statusPanel()->versionText().isEmpty());
    QVERIFY(d.window.statusPanel()->stateText().contains(QStringLiteral("disconnected")));
    // The field asks again: focus, a prompt, the refused password gone, a slot to type it into.
    const QString url = d.bar()->urlBox()->currentText();
    QCOMPARE(url, QStringLiteral("redis://:@127.0.0.1:%1/0").arg(port));
    QVERIFY(!url.contains(QStringLiteral("wrong-pw")));
    QVERIFY(d.bar()->urlBox()->hasFocus());
    QCOMPARE(d.bar()->urlBox()->lineEdit()->cursorPosition(),
             int(QStringLiteral("redis://:").size()));
    QVERIFY(d.bar()->passwordPrompt().contains(QStringLiteral("Password")));
    QCOMPARE(d.bar()->connectAction()->text(), QStringLiteral("Connect"));
    qInfo() << "screenshot" << saveShot(&d.window, QStringLiteral("wrong-password"));
    // No retrying: nothing happens any more until the user acts (the old code failed again
    // at least every 2 s, its longest backoff, each failure a pollFailed).
    QSignalSpy states(&d.session, &PoolSession::stateChanged);
    QSignalSpy failures(&d.session, &PoolSession::pollFailed);
    QVERIFY(!failures.wait(2500));
    QCOMPARE(states.count(), 0);
    QCOMPARE(refused.count(), 1);

    // Typing the password where the cursor is and Enter connects, masked again.
    QTest::keyClicks(d.bar()->urlBox()->lineEdit(), QStringLiteral("right-pw"));
    QSignalSpy observed(&d.session, &PoolSession::observationApplied);
    QTest::keyClick(d.bar()->urlBox()->lineEdit(), Qt::Key_Return);
    QVERIFY(observed.wait(10000));
    QVERIFY(d.session.isConnected());
    QVERIFY(d.bar()->passwordPrompt().isEmpty());
    QVERIFY(!d.bar()->urlBox()->currentText().contains(QStringLiteral("right-pw")));
    QTRY_VERIFY(d.window.statusPanel()->versionText().startsWith(QStringLiteral("Redis ")));

    // No password at all (NOAUTH) stops the same way.
    d.bar()->urlBox()->setEditText(QStringLiteral("redis://127.0.0.1:%1/0").arg(port));
    d.bar()->keyBox()->setEditText(QStringLiteral("other"));
    d.bar()->requestConnect();
    QVERIFY(refused.wait(10000));
    QVERIFY(refused.last().at(0).toString().contains(QStringLiteral("NOAUTH")));
    QCOMPARE(d.session.state(), ConnectionState::Disconnected);
}

// Item 10: the URL offered after a refused password keeps the user, drops the password and
// leaves the cursor in the empty slot; typing there gives a URL with the new password.
void TestConnectionControls::passwordSlot_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("offered");
    QTest::newRow("default user") << "redis://:old@127.0.0.1:7001/2"
                                  << "redis://:|@127.0.0.1:7001/2";
    QTest::newRow("ACL user") << "redis://alice:old@127.0.0.1:7001/0"
                              << "redis://alice:|@127.0.0.1:7001/0";
    QTest::newRow("unix socket") << "unix://:old@/tmp/r.sock?db=1"
                                 << "unix://:|@/tmp/r.sock?db=1";
}

void TestConnectionControls::passwordSlot() {
    QFETCH(QString, url);
    QFETCH(QString, offered);
    ConnectionBar bar;
    const EndpointParseResult parsed = parseEndpoint(url);
    QVERIFY2(parsed.ok(), qPrintable(parsed.error));
    bar.askForPassword(*parsed.endpoint, QStringLiteral("WRONGPASS"));
    QLineEdit *edit = bar.urlBox()->lineEdit();
    QString shown = edit->text();
    shown.insert(edit->cursorPosition(), QLatin1Char('|'));
    QCOMPARE(shown, offered);
    QVERIFY(!bar.passwordPrompt().isEmpty());
    QTest::keyClicks(edit, QStringLiteral("n3w"));
    const auto endpoint = bar.currentEndpoint();
    QVERIFY(endpoint);
    QCOMPARE(endpoint->password, QStringLiteral("n3w"));
    QCOMPARE(endpoint->username, parsed.endpoint->username);
    QCOMPARE(endpoint->database, parsed.endpoint->database);
}

// A refused password keeps what the URL cannot hold: the --tls-* settings, the sentinel password
// and the tunnel. The retry used to go out without them (no CA file, so an unknown CA).
void TestConnectionControls::passwordRetryKeepsSettings() {
    EndpointParseResult parsed = parseEndpoint(QStringLiteral("rediss://:old@127.0.0.1:7001/0"));
    QVERIFY2(parsed.ok(), qPrintable(parsed.error));
    Endpoint refused = *parsed.endpoint;
    refused.tls.caFile = QStringLiteral("/etc/poolscope/ca.pem");
    refused.tls.serverName = QStringLiteral("redis.internal");
    refused.ssh.destination = QStringLiteral("ops@127.0.0.1:2222");
    refused.ssh.keyFile = QStringLiteral("/home/ops/.ssh/id_ed25519");
    ConnectionBar bar;
    bar.setTarget(refused, "pool");
    bar.askForPassword(refused, QStringLiteral("WRONGPASS"));
    QTest::keyClicks(bar.urlBox()->lineEdit(), QStringLiteral("n3w"));
    auto endpoint = bar.currentEndpoint();
    QVERIFY(endpoint);
    QCOMPARE(endpoint->password, QStringLiteral("n3w"));
    QCOMPARE(endpoint->tls.caFile, refused.tls.caFile);
    QCOMPARE(endpoint->tls.serverName, refused.tls.serverName);
    QCOMPARE(endpoint->ssh, refused.ssh);

    parsed = parseEndpoint(QStringLiteral("redis+sentinel://:old@127.0.0.1:26379/mymaster"));
    QVERIFY2(parsed.ok(), qPrintable(parsed.error));
    Endpoint sentinel = *parsed.endpoint;
    sentinel.sentinelPassword = QStringLiteral("s3ntinel");
    bar.askForPassword(sentinel, QStringLiteral("WRONGPASS"));
    QTest::keyClicks(bar.urlBox()->lineEdit(), QStringLiteral("n3w"));
    endpoint = bar.currentEndpoint();
    QVERIFY(endpoint);
    QCOMPARE(endpoint->password, QStringLiteral("n3w"));
    QCOMPARE(endpoint->sentinelPassword, QStringLiteral("s3ntinel"));
}

// Item 20: only keys that were read as pools join the recent keys.
void TestConnectionControls::recentKeysAreOnlyPools() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"a"}, 0);
    redis.run({"SET", "plain", "x"});
    Dashboard d;
    const auto recentKeys = [] {
        return QSettings().value(QStringLiteral("connection/recentKeys")).toStringList();
    };
    const auto offered = [&] {
        QStringList keys;
        for (int i = 0; i < d.bar()->keyBox()->count(); ++i)
            keys << d.bar()->keyBox()->itemText(i);
        return keys;
    };
    QVERIFY(d.connectTo(redis, "proxis")); // a typo: no such key
    QVERIFY(d.waitPolls(2));
    QSignalSpy failed(&d.session, &PoolSession::pollFailed);
    d.session.connectTo(redis.endpoint(), "plain");
    QVERIFY(failed.wait(10000));
    QVERIFY(d.connectTo(redis, kKey));
    QTRY_COMPARE(recentKeys(), QStringList{QString::fromUtf8(kKey)});
    QVERIFY(!offered().contains(QStringLiteral("proxis")));
    QVERIFY(!recentKeys().contains(QStringLiteral("plain")));
}

QTEST_MAIN(TestConnectionControls)
#include "tst_connectioncontrols.moc"
