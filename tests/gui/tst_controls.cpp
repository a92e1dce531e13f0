// Controls that must act on what the user meant, in the whole window against real redis-servers,
// offscreen: the row order holds under the pointer and the selection, every eviction is confirmed
// by name, test allocations on a key that is no pool, a cancelled run's progress, pin markers.
// (The pool field, passwords and recent keys: tst_connectioncontrols.)

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

class TestControls : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init() { QSettings().clear(); }
    void selectionHoldsRowOrder();
    void pointerOverTableHoldsRowOrder();
    void evictionIsConfirmedByName();
    void testAllocationsOffForNonPoolKey();
    void cancelledRunShowsWhereItStopped();
    void naiveModeDoesNotStick();
    void pinnedRowsAreMarked();
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

QTEST_MAIN(TestControls)
#include "tst_controls.moc"
