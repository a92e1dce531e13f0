// Controls that must act on what the user meant, in the whole
// window against real redis-servers, offscreen: the row order holds under the pointer and the
// selection, every eviction is confirmed by name, the pool field reconnects only on a real
// change and follows the pool shown, "back to the previous pool", test allocations on a key that
// is no pool, a cancelled run's progress, a refused password, pin markers and recent keys.

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

using namespace poolscope;
using namespace std::chrono_literals;

namespace {

const QByteArray kKey = "proxies";

struct Dashboard {
    PoolSession session;
    MainWindow window{&session};

    bool connectTo(testing::RedisFixture &redis, const QByteArray &key = kKey) {
        session.setPollInterval(100ms);
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.connectTo(redis.endpoint(), key);
        return observed.wait(10000);
    }
    MembersPanel *members() const { return window.membersPanel(); }
    PoolActions *actions() const { return window.actions(); }
    ConnectionBar *bar() const { return window.connectionBar(); }
    QStringList shownOrder() const {
        QStringList order;
        const QSortFilterProxyModel *proxy = members()->proxyModel();
        for (int r = 0; r < proxy->rowCount(); ++r)
            order << proxy->index(r, 0).data(PoolTableModel::MemberRole).toString();
        return order;
    }
    double shownCount(const QByteArray &member) const {
        const int row = members()->model()->rowOf(member);
        return row < 0 ? -1 : members()->model()->rowAt(row).count;
    }
    // Waits until the table has taken at least `polls` more polls.
    bool waitPolls(int polls) {
        QSignalSpy refreshed(members(), &MembersPanel::refreshed);
        while (refreshed.count() < polls)
            if (!refreshed.wait(5000))
                return false;
        return true;
    }
};

QString saveShot(QWidget *widget, const QString &name) {
    QCoreApplication::sendPostedEvents(); // pending layouts (a toolbar item just shown)
    QCoreApplication::processEvents();
    const QString path =
        QDir::temp().filePath(QStringLiteral("poolscope-controls-%1.png").arg(name));
    widget->grab().save(path);
    return path;
}

// Answers the next modal QMessageBox (as a user would) once it is up: records its text and
// presses the button with the given role. Returns immediately; call before the modal opens.
void answerNextMessageBox(QString *text, QMessageBox::StandardButton button) {
    // Polls for the box from inside its own event loop; the timer (owned by the application, so
    // never leaked) goes once it has answered.
    auto *poll = new QTimer(QCoreApplication::instance());
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, text, button] {
        QWidget *modal = QApplication::activeModalWidget();
        if (!modal)
            return;
        poll->stop();
        poll->deleteLater();
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            *text = box->text();
            box->button(button)->click();
            return;
        }
        // The eviction's question with its reason field: the same buttons.
        *text = modal->findChild<QLabel *>()->text();
        modal->findChild<QDialogButtonBox *>()
            ->button(QDialogButtonBox::StandardButton(int(button)))
            ->click();
    });
    poll->start();
}

} // namespace

class TestControls : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init() { QSettings().clear(); }
    void selectionHoldsRowOrder();
    void pointerOverTableHoldsRowOrder();
    void evictionIsConfirmedByName();
    void keyFieldReconnectsOnlyOnChange();
    void scenarioPoolShowsInFieldAndBackReturns();
    void testAllocationsOffForNonPoolKey();
    void cancelledRunShowsWhereItStopped();
    void naiveModeDoesNotStick();
    void wrongPasswordStopsAndAsks();
    void passwordSlot_data();
    void passwordSlot();
    void passwordRetryKeepsSettings();
    void pinnedRowsAreMarked();
    void recentKeysAreOnlyPools();
};

void TestControls::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
}

// Item 6: under load the table sorted by count re-sorts every poll; a selected row must stay
// where it is (and selected), until the selection is gone.
void TestControls::selectionHoldsRowOrder() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"m0", "m1", "m2", "m3"}, 0);
    redis.run({"ZADD", kKey, "40", "m0", "30", "m1", "20", "m2", "10", "m3"});
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    d.members()->tableView()->sortByColumn(PoolTableModel::Count, Qt::DescendingOrder);
    QTRY_COMPARE(d.shownOrder(), (QStringList{"m0", "m1", "m2", "m3"}));

    d.members()->selectMembers({"m1"});
    QVERIFY(d.members()->isOrderFrozen());
    QVERIFY(d.members()->frozenOrderHint().contains(QStringLiteral("selected")));
    // m3 becomes the busiest: a live sort would move it to the top, m1 down.
    redis.run({"ZADD", kKey, "100", "m3"});
    QTRY_COMPARE(d.shownCount("m3"), 100.0);
    QVERIFY(d.waitPolls(2));
    QCOMPARE(d.shownOrder(), (QStringList{"m0", "m1", "m2", "m3"}));
    QCOMPARE(d.members()->selectedMembers(), QList<QByteArray>{"m1"});
    const QModelIndex current = d.members()->tableView()->currentIndex();
    QCOMPARE(current.data(PoolTableModel::MemberRole).toByteArray(), QByteArray("m1"));
    qInfo() << "screenshot" << saveShot(d.members(), QStringLiteral("order-held"));

    // Re-sort on demand keeps the selection on m1 wherever it goes.
    d.members()->resortNow();
    QCOMPARE(d.shownOrder(), (QStringList{"m3", "m0", "m1", "m2"}));
    QCOMPARE(d.members()->selectedMembers(), QList<QByteArray>{"m1"});
    redis.run({"ZADD", kKey, "200", "m2"});
    QTRY_COMPARE(d.shownCount("m2"), 200.0);
    QCOMPARE(d.shownOrder(), (QStringList{"m3", "m0", "m1", "m2"}));

    // No selection, pointer elsewhere: the order follows the counts again.
    d.members()->tableView()->clearSelection();
    QVERIFY(!d.members()->isOrderFrozen());
    QTRY_COMPARE(d.shownOrder(), (QStringList{"m2", "m3", "m0", "m1"}));
}

void TestControls::pointerOverTableHoldsRowOrder() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"a", "b", "c"}, 0);
    redis.run({"ZADD", kKey, "3", "a", "2", "b", "1", "c"});
    Dashboard d;
    d.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d.window));
    QVERIFY(d.connectTo(redis));
    d.members()->tableView()->sortByColumn(PoolTableModel::Count, Qt::DescendingOrder);
    QTRY_COMPARE(d.shownOrder(), (QStringList{"a", "b", "c"}));

    QWidget *viewport = d.members()->tableView()->viewport();
    QEnterEvent enter(QPointF(5, 5), viewport->mapToGlobal(QPointF(5, 5)),
                      viewport->mapToGlobal(QPointF(5, 5)));
    QCoreApplication::sendEvent(viewport, &enter); // what the window system sends
    QVERIFY(d.members()->isOrderFrozen());
    QVERIFY(d.members()->frozenOrderHint().contains(QStringLiteral("pointer")));
    redis.run({"ZADD", kKey, "50", "c"});
    QTRY_COMPARE(d.shownCount("c"), 50.0);
    QVERIFY(d.waitPolls(2));
    QCOMPARE(d.shownOrder(), (QStringList{"a", "b", "c"}));
    qInfo() << "screenshot" << saveShot(&d.window, QStringLiteral("pointer-hold-window"));

    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(viewport, &leave);
    QVERIFY(!d.members()->isOrderFrozen());
    QTRY_COMPARE(d.shownOrder(), (QStringList{"c", "a", "b"}));
}

// Item 6: one member is confirmed too, by name; several are listed. The real QMessageBox.
void TestControls::evictionIsConfirmedByName() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"45.76.1.1:8080", "45.76.1.2:8080", "45.76.1.3:8080", "45.76.1.4:80"}, 3);
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    QTRY_COMPARE(d.members()->model()->rowCount(), 4);

    d.members()->selectMembers({"45.76.1.2:8080"});
    QString asked;
    answerNextMessageBox(&asked, QMessageBox::Cancel);
    d.actions()->evictAction()->trigger(); // Delete
    QVERIFY2(asked.contains(QStringLiteral("Evict 45.76.1.2:8080?")), qPrintable(asked));
    QCOMPARE(redis.run({"ZSCORE", kKey, "45.76.1.2:8080"}).type, RedisReply::Type::String);

    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    answerNextMessageBox(&asked, QMessageBox::Yes);
    d.actions()->evictAction()->trigger();
    QVERIFY(evicted.wait(5000));
    QCOMPARE(redis.run({"ZSCORE", kKey, "45.76.1.2:8080"}).type, RedisReply::Type::Nil);

    d.members()->selectMembers({"45.76.1.1:8080", "45.76.1.3:8080", "45.76.1.4:80"});
    QString several;
    d.actions()->setConfirmFunction([&](const QString &, const QString &question) {
        several = question;
        return false;
    });
    QVERIFY(!d.actions()->evictSelected());
    for (const char *member : {"45.76.1.1:8080", "45.76.1.3:8080", "45.76.1.4:80"})
        QVERIFY2(several.contains(QString::fromLatin1(member)), qPrintable(several));
    // The count, as the window says it in its language (a plural): the question's first line.
    const QString count =
        PoolActions::tr(
            "Evict these %n member(s)?\n\n%1\n\nThey get no allocations until restored; "
            "their counts are saved.",
            nullptr, 3)
            .section(u'\n', 0, 0);
    QVERIFY2(several.startsWith(count), qPrintable(several));
}

// Item 7: focus leaving the key field (a click elsewhere, the dropdown closed, Ctrl+T) is no
// change of key and must not reconnect; picking another key does.
void TestControls::keyFieldReconnectsOnlyOnChange() {
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
void TestControls::scenarioPoolShowsInFieldAndBackReturns() {
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

// Item 9: a key holding a string is no pool: Test allocations (and Seed) are off, saying why.
void TestControls::testAllocationsOffForNonPoolKey() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.run({"SET", "plain", "a string"});
    redis.makePool(kKey, {"a"}, 0);
    Dashboard d;
    d.window.show();
    d.session.setPollInterval(100ms);
    QSignalSpy failed(&d.session, &PoolSession::pollFailed);
    d.session.connectTo(redis.endpoint(), "plain");
    QVERIFY(failed.wait(10000));
    QAction *test = d.actions()->testAllocationsAction();
    QTRY_VERIFY(!test->isEnabled());
    QVERIFY2(test->toolTip().contains(QStringLiteral("not a sorted set")),
             qPrintable(test->toolTip()));
    QVERIFY(!d.actions()->seedAction()->isEnabled());
    QVERIFY(!d.actions()->openTestAllocationDialog());
    qInfo() << "screenshot" << saveShot(&d.window, QStringLiteral("string-key"));
    // The reason as the user sees it: the toolbar button's tooltip.
    for (QToolButton *button : d.window.findChildren<QToolButton *>()) {
        if (button->defaultAction() != test)
            continue;
        QToolTip::showText(button->mapToGlobal(button->rect().center()), test->toolTip(), button);
        for (QWidget *top : QApplication::topLevelWidgets())
            if (top->inherits("QTipLabel") && top->isVisible())
                qInfo() << "screenshot" << saveShot(top, QStringLiteral("string-key-tooltip"));
        QToolTip::hideText();
    }

    QVERIFY(d.connectTo(redis, kKey));
    QTRY_VERIFY(test->isEnabled());
    QVERIFY(!test->toolTip().contains(QStringLiteral("not a sorted set")));
}

// Item 9: Cancel at ~1 s of a 30 s run leaves the bar where it stopped, not at 100%.
void TestControls::cancelledRunShowsWhereItStopped() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"a", "b", "c"}, 0);
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    TestAllocationDialog *dialog = d.actions()->openTestAllocationDialog();
    QVERIFY(dialog);
    dialog->setDuration(30);
    dialog->setRate(200);
    QVERIFY(dialog->start());
    QTRY_VERIFY_WITH_TIMEOUT(dialog->progressValue() >= 800, 10000); // ms of the run
    QSignalSpy finished(dialog, &TestAllocationDialog::runFinished);
    dialog->cancel();
    QVERIFY(finished.wait(10000));
    QVERIFY(dialog->lastReport()->cancelled);
    QCOMPARE(dialog->progressMaximum(), 30000);
    QVERIFY2(dialog->progressValue() < 15000, qPrintable(QString::number(dialog->progressValue())));
    QVERIFY2(dialog->progressText().startsWith(QStringLiteral("stopped at ")),
             qPrintable(dialog->progressText()));
    QVERIFY(dialog->progressText().contains(QStringLiteral("of 30")));
    qInfo() << "screenshot" << saveShot(dialog, QStringLiteral("cancelled-run"));
}

// Item 9: the naive race demo is never what the dialog opens with.
void TestControls::naiveModeDoesNotStick() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"a"}, 0);
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    TestAllocationDialog *dialog = d.actions()->openTestAllocationDialog();
    QVERIFY(dialog);
    dialog->setAtomic(false);
    QVERIFY(!dialog->spec().atomic);
    dialog->close();
    QCOMPARE(d.actions()->openTestAllocationDialog(), dialog);
    QVERIFY(dialog->spec().atomic);
}

// Item 10: a refused password is not retried; the old version goes; the URL field asks.
void TestControls::wrongPasswordStopsAndAsks() {
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
    QVERIFY(d.bar()->connectAction()->text() == QStringLiteral("Connect"));
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
void TestControls::passwordSlot_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("offered");
    QTest::newRow("default user") << "redis://:old@127.0.0.1:7001/2"
                                  << "redis://:|@127.0.0.1:7001/2";
    QTest::newRow("ACL user") << "redis://alice:old@127.0.0.1:7001/0"
                              << "redis://alice:|@127.0.0.1:7001/0";
    QTest::newRow("unix socket") << "unix://:old@/tmp/r.sock?db=1"
                                 << "unix://:|@/tmp/r.sock?db=1";
}

void TestControls::passwordSlot() {
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
void TestControls::passwordRetryKeepsSettings() {
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

// Item 20: pinned rows carry a marker, and the pin action says what it will do.
void TestControls::pinnedRowsAreMarked() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"a", "b"}, 0);
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    QTRY_COMPARE(d.members()->model()->rowCount(), 2);
    QAction *pin = d.actions()->pinAction();
    d.members()->selectMembers({"a"});
    QCOMPARE(pin->text(), QStringLiteral("Pin to chart"));
    QVERIFY(!pin->isChecked());
    pin->trigger();
    QVERIFY(d.session.isPinned("a"));
    QCOMPARE(pin->text(), QStringLiteral("Unpin from chart"));
    QVERIFY(pin->isChecked());
    PoolTableModel *model = d.members()->model();
    const QModelIndex a = model->index(model->rowOf("a"), PoolTableModel::Member);
    QVERIFY(a.data(PoolTableModel::PinnedRole).toBool());
    QVERIFY(a.data().toString().startsWith(QStringLiteral("⚑")));
    QVERIFY(a.siblingAtColumn(PoolTableModel::State)
                .data()
                .toString()
                .contains(QStringLiteral("pinned")));
    const QModelIndex b = model->index(model->rowOf("b"), PoolTableModel::Member);
    QCOMPARE(b.data().toString(), QStringLiteral("b"));
    // The selection decides: b is not pinned, so the action pins; a again, it unpins.
    d.members()->selectMembers({"b"});
    QCOMPARE(pin->text(), QStringLiteral("Pin to chart"));
    d.members()->selectMembers({"a"});
    qInfo() << "screenshot" << saveShot(&d.window, QStringLiteral("pinned-row"));
    pin->trigger();
    QVERIFY(!d.session.isPinned("a"));
    QCOMPARE(pin->text(), QStringLiteral("Pin to chart"));
    QVERIFY(!a.data(PoolTableModel::PinnedRole).toBool());
}

// Item 20: only keys that were read as pools join the recent keys.
void TestControls::recentKeysAreOnlyPools() {
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

QTEST_MAIN(TestControls)
#include "tst_controls.moc"
