// The dashboard read-only, disconnected, stalled; pool keys, exports, shortcuts, screenshots.

#include "actions/PoolActions.h"
#include "actions/RestoreDialog.h"
#include "actions/SeedDialog.h"
#include "actions/TestAllocationDialog.h"
#include "chart/ChartPanel.h"
#include "connection/ConnectionBar.h"
#include "connection/StatusBarPanel.h"
#include "events/EventsPanel.h"
#include "session/DemoDriver.h"
#include "pool/PoolOperations.h"

#include "MainWindowFixture.h"

#include <algorithm>
#include <thread>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

QString screenshotDir() {
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir;
}

// Not blank: many colours, and a good part of the pixels differ from the most common one.
void checkNotBlank(const QImage &image, int minimumColours) {
    QVERIFY(!image.isNull());
    QHash<QRgb, int> histogram;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            ++histogram[image.pixel(x, y)];
    int background = 0;
    int total = 0;
    for (int count : histogram) {
        background = std::max(background, count);
        total += count;
    }
    QVERIFY2(histogram.size() >= minimumColours,
             qPrintable(QStringLiteral("%1 colours").arg(histogram.size())));
    const double foreground = 1.0 - double(background) / double(total);
    QVERIFY2(foreground > 0.15, qPrintable(QStringLiteral("foreground %1").arg(foreground)));
}

// Pixels of this colour (within a small tolerance) in the image's left `widthFraction`.
int pixelsNear(const QImage &image, const QColor &color, double widthFraction = 1.0) {
    int count = 0;
    const int width = int(image.width() * widthFraction);
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < width; ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (qAbs(pixel.red() - color.red()) < 24 && qAbs(pixel.green() - color.green()) < 24 &&
                qAbs(pixel.blue() - color.blue()) < 24)
                ++count;
        }
    return count;
}

} // namespace

class TestMainWindowModes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void readOnlyDisablesEveryWriteControl();
    void disconnectedDisablesWrites();
    void poolKeysAreOffered();
    void exportsWriteFiles();
    void keyboardShortcuts();
    void demoScreenshotsAreNotBlank();
    void stalledServerKeepsWindowResponsive_data();
    void stalledServerKeepsWindowResponsive();
};

void TestMainWindowModes::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
}

void TestMainWindowModes::readOnlyDisablesEveryWriteControl() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(3), 2);
    PoolOperations(redis.admin(), kKey).evict("m2");
    Dashboard d(true);
    QVERIFY(d.connectTo(redis));
    QTRY_COMPARE(d.model()->rowCount(), 3);

    for (const QList<QByteArray> &selection :
         {QList<QByteArray>{"m0"}, QList<QByteArray>{"m2"}, QList<QByteArray>{"m0", "m2"}}) {
        d.window.membersPanel()->selectMembers(selection);
        for (QAction *action : d.actions()->writeActions()) {
            QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
            QVERIFY2(action->toolTip().contains(QStringLiteral("read-only")),
                     qPrintable(action->toolTip()));
        }
    }
    QVERIFY(!d.actions()->openSeedDialog());
    QVERIFY(!d.actions()->openRestoreDialog());
    QVERIFY(!d.actions()->openTestAllocationDialog());
    QVERIFY(!d.actions()->evictSelected());
    QVERIFY(!d.session.evict({"m0"}));
    QVERIFY(!d.session.restore({"m2"}, RestorePolicy::Zero, 0));
    QVERIFY(!d.session.seed({"192.0.2.1:80"}, SeedOptions{}));

    // The dialogs themselves refuse too, should anything open them.
    SeedDialog seed(&d.session);
    seed.setText(QStringLiteral("192.0.2.1:80\n"));
    QVERIFY(!seed.seedButton()->isEnabled());
    QVERIFY(seed.seedButton()->toolTip().contains(QStringLiteral("read-only")));
    QVERIFY(!seed.startSeed());
    RestoreDialog restore(&d.session, {"m2"});
    QVERIFY(!restore.restoreButton()->isEnabled());
    TestAllocationDialog test(&d.session);
    QVERIFY(!test.startButton()->isEnabled());
    QVERIFY(!test.start());

    // Nothing was written; watching still works.
    QCOMPARE(redis.run({"ZCARD", kKey}).integer, 2);
    QCOMPARE(redis.run({"ZSCORE", kKey, "m0"}).text, QByteArray("2"));
    QVERIFY(d.window.connectionBar()->pauseAction()->isEnabled());
    QVERIFY(d.actions()->refreshAction()->isEnabled());
    QVERIFY(d.window.statusPanel()->stateText().contains(QStringLiteral("read-only")));
}

void TestMainWindowModes::disconnectedDisablesWrites() {
    Dashboard d;
    for (QAction *action : d.actions()->writeActions()) {
        QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
        QVERIFY2(action->toolTip().contains(QStringLiteral("not connected")),
                 qPrintable(action->toolTip()));
    }
    QVERIFY(!d.actions()->refreshAction()->isEnabled());
    QVERIFY(!d.window.connectionBar()->pauseAction()->isEnabled());

    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    QVERIFY(d.connectTo(redis));
    QTRY_VERIFY(d.actions()->seedAction()->isEnabled());
    d.session.disconnectFromServer();
    QTRY_VERIFY(!d.actions()->seedAction()->isEnabled());
    QVERIFY(d.actions()->seedAction()->toolTip().contains(QStringLiteral("not connected")));
}

void TestMainWindowModes::poolKeysAreOffered() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("pool:a", {"x"}, 1);
    redis.makePool("pool:b", {"y"}, 1);
    redis.run({"SET", "not-a-pool", "1"});
    Dashboard d;
    QVERIFY(d.connectTo(redis, "pool:a"));
    const auto offered = [&] {
        QStringList keys;
        for (int i = 0; i < d.window.connectionBar()->keyBox()->count(); ++i)
            keys << d.window.connectionBar()->keyBox()->itemText(i);
        return keys;
    };
    QTRY_VERIFY(offered().contains(QStringLiteral("pool:b")));
    QVERIFY(offered().contains(QStringLiteral("pool:a")));
    QVERIFY(!offered().contains(QStringLiteral("not-a-pool")));
}

void TestMainWindowModes::exportsWriteFiles() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"192.0.2.1:80", "192.0.2.2:80"}, 3);
    Dashboard d;
    QVERIFY(d.connectTo(redis));
    QTRY_COMPARE(d.model()->rowCount(), 2);
    QSignalSpy observed(&d.session, &PoolSession::observationApplied);
    QVERIFY(observed.wait(5000));
    QTemporaryDir dir;
    QVERIFY(d.actions()->exportChartPng(dir.filePath(QStringLiteral("chart.png"))));
    QVERIFY(!QImage(dir.filePath(QStringLiteral("chart.png"))).isNull());
    QVERIFY(d.actions()->exportHistoryCsv(dir.filePath(QStringLiteral("history.csv"))));
    QVERIFY(d.actions()->exportTableCsv(dir.filePath(QStringLiteral("table.csv"))));
    QFile history(dir.filePath(QStringLiteral("history.csv")));
    QVERIFY(history.open(QIODevice::ReadOnly));
    const QList<QByteArray> historyLines = history.readAll().split('\n');
    QCOMPARE(historyLines.constFirst(), QByteArray("time,member,count"));
    QCOMPARE_GT(historyLines.size(), 3);
    QVERIFY(historyLines[1].endsWith(",3"));
    QFile table(dir.filePath(QStringLiteral("table.csv")));
    QVERIFY(table.open(QIODevice::ReadOnly));
    const QByteArray tableText = table.readAll();
    QVERIFY(tableText.startsWith(
        "member,count,share,rate/s,state,debt,health,last change (ISO 8601 UTC)\n"));
    QVERIFY(tableText.contains("192.0.2.2:80,3,0.500000,"));
    // A path that cannot be written is reported, not thrown at the user in a box.
    QVERIFY(!d.actions()->exportTableCsv(QStringLiteral("/nonexistent-dir/x.csv")));
    QVERIFY(d.window.eventsPanel()->entryText(0).contains(QStringLiteral("cannot save")));
}

void TestMainWindowModes::keyboardShortcuts() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(3), 1);
    Dashboard d;
    d.window.show();
    QVERIFY(QTest::qWaitForWindowActive(&d.window));
    QVERIFY(d.connectTo(redis));
    QTRY_COMPARE(d.model()->rowCount(), 3);
    QTableView *table = d.window.membersPanel()->tableView();
    table->setFocus();

    // F5 polls now, even with a long interval.
    d.session.setPollInterval(10s);
    QSignalSpy observed(&d.session, &PoolSession::observationApplied);
    QTest::keyClick(table, Qt::Key_F5);
    QVERIFY(observed.wait(3000));

    // Delete evicts the selection.
    d.window.membersPanel()->selectMembers({"m0"});
    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    QTest::keyClick(table, Qt::Key_Delete);
    QVERIFY(evicted.wait(5000));
    QTRY_VERIFY(d.row("m0") && d.row("m0")->evicted);

    // Ctrl+R opens the restore dialog for the selected evicted member.
    d.window.membersPanel()->selectMembers({"m0"});
    QTest::keyClick(table, Qt::Key_R, Qt::ControlModifier);
    QTRY_VERIFY(d.window.findChild<RestoreDialog *>());
    RestoreDialog *restore = d.window.findChild<RestoreDialog *>();
    QCOMPARE(restore->members(), QList<QByteArray>{"m0"});
    restore->reject();

    // Ctrl+Shift+Space pauses and resumes polling; Space alone does not (it belongs to the
    // focused widget); Ctrl+L goes to the address field; Ctrl+F goes to the filter.
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Space);
    QVERIFY(!d.session.isPaused());
    QTest::keyClick(table, Qt::Key_Space, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(d.session.isPaused());
    QTest::keyClick(table, Qt::Key_Space, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(!d.session.isPaused());
    QTest::keyClick(table, Qt::Key_L, Qt::ControlModifier);
    QTRY_VERIFY(d.window.connectionBar()->findChild<QComboBox *>()->hasFocus() ||
                d.window.connectionBar()->findChild<QComboBox *>()->lineEdit()->hasFocus());
    table->setFocus();
    QTest::keyClick(table, Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(d.window.membersPanel()->filterEdit()->hasFocus());
    // Typing a space in the filter types a space, it does not pause.
    QTest::keyClicks(d.window.membersPanel()->filterEdit(), QStringLiteral("m 1"));
    QVERIFY(!d.session.isPaused());
    QCOMPARE(d.window.membersPanel()->filterEdit()->text(), QStringLiteral("m 1"));
}

void TestMainWindowModes::demoScreenshotsAreNotBlank() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    Dashboard d;
    d.window.resize(1360, 860);
    d.window.show();
    DemoDriver::Settings settings;
    settings.ratePerSecond = 100;
    DemoDriver demo(&d.session, redis.endpoint(), settings);
    demo.setEnabled(true);
    QSignalSpy seeded(&demo, &DemoDriver::demoSeeded);
    d.session.setPollInterval(250ms);
    d.session.connectTo(redis.endpoint(), kKey);
    QVERIFY(seeded.wait(10000));
    const int demoMembers = int(DemoDriver::demoMembers().size());
    QCOMPARE_GT(demoMembers, 20);
    QTRY_COMPARE_WITH_TIMEOUT(d.model()->rowCount(), demoMembers, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(demo.isLoadRunning(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(d.session.rates().totalAllocations() > 300, 20000);
    // The history keeps one point per second: wait for a few seconds of lines.
    QTRY_VERIFY_WITH_TIMEOUT(d.window.chartPanel()->frame().pointCount(
                                 d.window.chartPanel()->frame().members().value(0)) > 8,
                             20000);

    d.window.chartPanel()->refreshNow();
    const QImage demoShot = d.window.grab().toImage();
    const QString demoPath = screenshotDir() + QStringLiteral("/demo.png");
    QVERIFY(demoShot.save(demoPath));
    qInfo("saved %s", qPrintable(demoPath));
    checkNotBlank(demoShot, 150);
    // The plot (left of the legend) has lines in the members' colours; they overlap, as a fair
    // pool rises evenly.
    const QImage chart = d.window.chartPanel()->grabChart().toImage();
    int linePixels = 0;
    for (const QByteArray &charted : d.window.chartPanel()->frame().members())
        linePixels += pixelsNear(chart, d.session.colors().colorFor(charted), 0.7);
    QVERIFY2(linePixels > 200, qPrintable(QString::number(linePixels)));

    // Evict one member, restore it at zero: the markers and the flood show up.
    const QByteArray member = d.model()->rowAt(0).member;
    d.session.pin({member});
    d.window.membersPanel()->selectMembers({member});
    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    d.actions()->evictAction()->trigger();
    QVERIFY(evicted.wait(5000));
    QTRY_VERIFY_WITH_TIMEOUT(d.session.poolMinimum().value_or(0) >=
                                 d.model()->rowAt(d.model()->rowOf(member)).count + 10,
                             20000);
    QTRY_VERIFY(d.row(member) && d.row(member)->evicted);
    d.window.membersPanel()->selectMembers({member});
    QSignalSpy restored(&d.session, &PoolSession::membersRestored);
    QVERIFY(d.session.restore({member}, RestorePolicy::Zero, 0));
    QVERIFY(restored.wait(5000));
    QTRY_VERIFY_WITH_TIMEOUT(d.row(member) && !d.row(member)->evicted && d.row(member)->debt == 0,
                             20000);
    d.window.chartPanel()->refreshNow();
    const QStringList markers = d.window.chartPanel()->frame().markerLabels();
    QVERIFY(markers.join(QLatin1Char('|')).contains(QStringLiteral("evict ")));
    QVERIFY(markers.join(QLatin1Char('|')).contains(QStringLiteral("restore ")));
    const QImage flowShot = d.window.grab().toImage();
    const QString flowPath = screenshotDir() + QStringLiteral("/evict-restore.png");
    QVERIFY(flowShot.save(flowPath));
    qInfo("saved %s", qPrintable(flowPath));
    checkNotBlank(flowShot, 150);
    demo.setEnabled(false);
}

// Fault test 4, at the window: while the server sleeps (DEBUG SLEEP) or refuses writes
// (CLIENT PAUSE WRITE), polls and a write time out or wait on worker threads; the GUI thread
// keeps turning, the status bar says what is wrong, and everything resumes afterwards.
void TestMainWindowModes::stalledServerKeepsWindowResponsive_data() {
    QTest::addColumn<QByteArrayList>("stall");
    QTest::addColumn<bool>("pollsFail");
    QTest::newRow("DEBUG SLEEP 2") << QByteArrayList{"DEBUG", "SLEEP", "2"} << true;
    QTest::newRow("CLIENT PAUSE 3000 WRITE")
        << QByteArrayList{"CLIENT", "PAUSE", "3000", "WRITE"} << false;
}

void TestMainWindowModes::stalledServerKeepsWindowResponsive() {
    QFETCH(QByteArrayList, stall);
    QFETCH(bool, pollsFail);
    RedisServerOptions options;
    options.extraArguments = {QStringLiteral("--enable-debug-command"), QStringLiteral("local")};
    testing::RedisFixture redis(options);
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(5), 1);
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    QTRY_COMPARE(d.model()->rowCount(), 5);

    auto staller = redis.connect(QStringLiteral("test-staller"));
    std::thread stallThread([&] { staller->command(RedisCommand(stall.begin(), stall.end())); });
    // A write during the stall: it waits on the writer's thread, not on this one.
    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    QSignalSpy failed(&d.session, &PoolSession::commandFailed);
    d.window.membersPanel()->selectMembers({"m0"});
    d.actions()->evictAction()->trigger();
    QSignalSpy pollFailures(&d.session, &PoolSession::pollFailed);

    QElapsedTimer clock;
    clock.start();
    qint64 longestGap = 0;
    qint64 last = 0;
    while (clock.elapsed() < 2500) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        longestGap = std::max(longestGap, clock.elapsed() - last);
        last = clock.elapsed();
    }
    stallThread.join();
    // Generous for offscreen painting under sanitizers; a blocked GUI thread would show 2-3 s.
    QVERIFY2(longestGap < 500, qPrintable(QString::number(longestGap)));
    if (pollsFail) {
        QVERIFY(!pollFailures.isEmpty());
        QVERIFY2(pollFailures.first().at(0).toString().contains(QStringLiteral("no reply")),
                 qPrintable(pollFailures.first().at(0).toString()));
    }
    // Everything resumes: the poller reconnects, the write either went through after the stall
    // or was reported, never silently dropped.
    QTRY_VERIFY_WITH_TIMEOUT(d.session.isConnected(), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(!evicted.isEmpty() || !failed.isEmpty(), 15000);
    const bool inPool = !redis.run({"ZSCORE", kKey, "m0"}).isNil();
    QCOMPARE(inPool, evicted.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(
        d.window.statusPanel()->stateText().contains(QStringLiteral("onnected")), 15000);
}

QTEST_MAIN(TestMainWindowModes)
#include "tst_mainwindowmodes.moc"
