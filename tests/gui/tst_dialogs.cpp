// The write dialogs against a real redis-server: the seed preview and flood warning, the live
// restore forecast, and test allocations (count, naive mode, cancel, empty pool). The reset
// scenario is in tst_resetscenario.cpp.

#include "session/DisplayFormat.h"
#include "session/PoolSession.h"
#include "actions/RestoreDialog.h"
#include "actions/SeedDialog.h"
#include "actions/TestAllocationDialog.h"
#include "pool/PoolOperations.h"

#include "RedisFixture.h"
#include "SessionWait.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryFile>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

double scoreOf(testing::RedisFixture &redis, const QByteArray &key, const QByteArray &member) {
    return redis.run({"ZSCORE", key, member}).text.toDouble();
}

// With POOLSCOPE_SHOTS set to a folder, saves a screenshot of widget there (for a look by eye).
void saveShot(QWidget &widget, const char *name) {
    const QString dir = qEnvironmentVariable("POOLSCOPE_SHOTS");
    if (!dir.isEmpty())
        widget.grab().save(QDir(dir).filePath(QString::fromLatin1(name)));
}

} // namespace

class TestDialogs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void seedPreviewsThenWrites();
    void seedForecastsTheFlood();
    void seedPreselectsThePoolMinimum();
    void seedNamesThePoolAndStaysCurrent();
    void seedListsCollapsedDuplicates();
    void bigListIsReadInTheBackground();
    void restoreForecastIsLive();
    void restoreAboveTheMaximumWarnsOfStarvation();
    void starvationForecast_data();
    void starvationForecast();
    void testAllocationsCountEveryOne();
    void naiveModeCountsCollisions();
    void cancelStopsARun();
    void emptyPoolSaysSo();
};

void TestDialogs::seedPreviewsThenWrites() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("proxies", {"192.0.2.1:80"}, 100);
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "proxies"));

    SeedDialog dialog(&session);
    dialog.setText(QStringLiteral("192.0.2.1:80\n"
                                  "http://192.0.2.2:8080\n"
                                  "not a proxy at all\n"
                                  "socks5://198.51.100.3:1080\n"
                                  "198.51.100.4:99999\n"));
    const EligibilityReport &report = dialog.report();
    QCOMPARE(report.accepted.size(), 3);
    QCOMPARE(report.rejected.size(), 2);
    QCOMPARE(report.rejected[0].lineNumber, 3);
    QCOMPARE(report.rejected[1].lineNumber, 5);
    for (const RejectedLine &line : report.rejected)
        QVERIFY(!line.reason.isEmpty());
    QCOMPARE(dialog.newMemberCount(), 2);
    // A preview writes nothing.
    QCOMPARE(redis.run({"ZCARD", "proxies"}).integer, 1);

    dialog.setStartAtPoolMinimum(true);
    QVERIFY(dialog.seedButton()->isEnabled());
    QSignalSpy done(&dialog, &SeedDialog::seedDone);
    QVERIFY(dialog.startSeed());
    QVERIFY(done.wait(10000));
    QCOMPARE(redis.run({"ZCARD", "proxies"}).integer, 3);
    QCOMPARE(scoreOf(redis, "proxies", "192.0.2.2:8080"), 100.0);
    QCOMPARE(scoreOf(redis, "proxies", "socks5://198.51.100.3:1080"), 100.0);
    QVERIFY(dialog.summaryText().contains(QStringLiteral("2 added")));
}

void TestDialogs::seedForecastsTheFlood() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("proxies", {"192.0.2.1:80", "192.0.2.9:80"}, 100);
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "proxies"));

    SeedDialog dialog(&session);
    dialog.setText(QStringLiteral("192.0.2.2:80\n192.0.2.3:80\n"));
    dialog.setStartCount(QStringLiteral("0"));
    QVERIFY2(dialog.forecastText().contains(QStringLiteral("Flood warning")),
             qPrintable(dialog.forecastText()));
    QVERIFY2(dialog.forecastText().contains(QStringLiteral("next ~200 allocations")),
             qPrintable(dialog.forecastText()));
    dialog.setStartCount(QStringLiteral("100"));
    QVERIFY(!dialog.forecastText().contains(QStringLiteral("Flood")));
    dialog.setStartCount(QStringLiteral("-3"));
    QVERIFY(!dialog.seedButton()->isEnabled());
    QVERIFY(dialog.seedButton()->toolTip().contains(QStringLiteral("negative")));
    dialog.setStartAtPoolMinimum(true);
    QVERIFY(dialog.forecastText().contains(QStringLiteral("no flood")));
}

// A non-empty pool preselects its minimum; nothing says "no flood" before a list is loaded.
void TestDialogs::seedPreselectsThePoolMinimum() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("proxies", {"192.0.2.1:80", "192.0.2.9:80"}, 7172);
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "proxies"));

    SeedDialog dialog(&session);
    QVERIFY(dialog.startsAtPoolMinimum());
    QVERIFY2(!dialog.forecastText().contains(QStringLiteral("no flood")),
             qPrintable(dialog.forecastText()));
    dialog.setStartCount(QStringLiteral("0"));
    QVERIFY2(!dialog.forecastText().contains(QStringLiteral("no flood")),
             qPrintable(dialog.forecastText()));
    dialog.setText(QStringLiteral("192.0.2.2:80\n"));
    QVERIFY2(dialog.forecastText().contains(QStringLiteral("Flood warning")),
             qPrintable(dialog.forecastText()));

    // Opened before the first poll: the minimum is preselected once the pool has been read, and
    // nothing is promised before.
    PoolSession later;
    later.setPollInterval(100ms);
    SeedDialog early(&later);
    early.setText(QStringLiteral("192.0.2.2:80\n"));
    QVERIFY(!early.startsAtPoolMinimum());
    QVERIFY2(!early.forecastText().contains(QStringLiteral("no flood")),
             qPrintable(early.forecastText()));
    later.connectTo(redis.endpoint(), "proxies");
    QTRY_VERIFY_WITH_TIMEOUT(early.startsAtPoolMinimum(), 10000);

    // An empty pool keeps the count (0): there is no minimum to start at.
    redis.run({"DEL", "proxies"});
    PoolSession empty;
    QVERIFY(connectAndWait(empty, redis, "proxies"));
    SeedDialog fresh(&empty);
    QVERIFY(!fresh.startsAtPoolMinimum());
}

// Issue 12 item 18: members that occur more than once are listed with where they occur.
void TestDialogs::seedListsCollapsedDuplicates() {
    PoolSession session; // the preview needs no server
    SeedDialog dialog(&session);
    dialog.setText(QStringLiteral("192.0.2.1:80\n"
                                  "192.0.2.2:80\n"
                                  "192.0.2.1:80\n"
                                  "socks5://bob:pw@192.0.2.3:1080\n"
                                  "192.0.2.1:80\n"
                                  "socks5://bob:pw@192.0.2.3:1080\n"));
    QCOMPARE(dialog.report().accepted.size(), 3);
    QTreeWidget *duplicates = dialog.duplicatesList();
    QCOMPARE(duplicates->topLevelItemCount(), 2);
    const QTreeWidgetItem *first = duplicates->topLevelItem(0);
    QCOMPARE(first->text(0), QStringLiteral("1"));
    QCOMPARE(first->text(1), QStringLiteral("192.0.2.1:80"));
    QCOMPARE(first->text(2), QStringLiteral("3"));
    QCOMPARE(first->text(3), QStringLiteral("3, 5"));
    // Masked like every other member shown.
    QCOMPARE(duplicates->topLevelItem(1)->text(1),
             QStringLiteral("socks5://bob:****~30c952@192.0.2.3:1080"));
    const auto *tabs = dialog.findChild<QTabWidget *>(QStringLiteral("previewTabs"));
    QCOMPARE(tabs->tabText(2), QStringLiteral("Duplicates (2)"));
    dialog.resize(640, 560);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.findChild<QTabWidget *>(QStringLiteral("previewTabs"))->setCurrentIndex(2);
    saveShot(dialog, "seed-dialog-duplicates.png");
}

void TestDialogs::seedNamesThePoolAndStaysCurrent() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("edge:pool", {"192.0.2.1:80", "192.0.2.9:80"}, 19);
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "edge:pool"));

    SeedDialog dialog(&session);
    dialog.resize(560, 600);
    // The target pool, in the title and in a label.
    QVERIFY2(dialog.windowTitle().contains(QStringLiteral("\"edge:pool\"")),
             qPrintable(dialog.windowTitle()));
    QVERIFY2(dialog.targetText().contains(QStringLiteral("edge:pool")),
             qPrintable(dialog.targetText()));

    dialog.setText(QStringLiteral("192.0.2.2:80\n"
                                  "socks5://alice:s3cret@proxy.example:1080\n"
                                  "this line is not a proxy and its reason is long enough to wrap\n"
                                  "198.51.100.4:99999\n"));
    QCOMPARE(dialog.report().accepted.size(), 2);
    QCOMPARE(dialog.report().rejected.size(), 2);
    // The preview masks proxy passwords.
    QTreeWidget *accepted = dialog.acceptedList();
    QCOMPARE(accepted->topLevelItem(1)->text(1),
             QStringLiteral("socks5://alice:****~1ec1c2@proxy.example:1080"));

    // Rejection reasons wrap in their column and are whole in every cell's tooltip.
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.findChild<QTabWidget *>(QStringLiteral("previewTabs"))->setCurrentIndex(1);
    QTreeWidget *rejected = dialog.rejectedList();
    QVERIFY(rejected->wordWrap());
    for (int i = 0; i < rejected->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = rejected->topLevelItem(i);
        const QString reason = dialog.report().rejected[i].reason;
        for (int column = 0; column < 3; ++column)
            QVERIFY2(item->toolTip(column).contains(reason), qPrintable(item->toolTip(column)));
        QCOMPARE(item->text(2), reason);
    }
    // The longest reason is wider than its column: its row grows instead of cutting it off.
    int longest = 0;
    for (int i = 1; i < rejected->topLevelItemCount(); ++i)
        if (dialog.report().rejected[i].reason.size() >
            dialog.report().rejected[longest].reason.size())
            longest = i;
    QTreeWidgetItem *item = rejected->topLevelItem(longest);
    const int needed = rejected->fontMetrics().horizontalAdvance(item->text(2));
    rejected->header()->resizeSection(1, rejected->viewport()->width() - 60 - needed / 2);
    QTRY_VERIFY(rejected->columnWidth(2) < needed);
    QTRY_VERIFY2(rejected->visualItemRect(item).height() >= 2 * rejected->fontMetrics().height(),
                 qPrintable(QString::number(rejected->visualItemRect(item).height())));
    saveShot(dialog, "seed-dialog-rejected.png");

    // Seed the two new members at 0, below the minimum 19: a flood forecast...
    dialog.setStartCount(QStringLiteral("0"));
    QVERIFY2(dialog.forecastText().contains(QStringLiteral("Flood warning")),
             qPrintable(dialog.forecastText()));
    QSignalSpy done(&dialog, &SeedDialog::seedDone);
    QVERIFY(dialog.startSeed());
    QVERIFY(done.wait(10000));
    // ... and afterwards the dialog speaks of the pool as it is now: the members are in it, the
    // minimum is 0, and it does not claim that seeding at 0 "causes no flood".
    QTRY_VERIFY2_WITH_TIMEOUT(dialog.forecastText().contains(QStringLiteral("already")),
                              qPrintable(dialog.forecastText()), 5000);
    QVERIFY2(dialog.forecastText().contains(QStringLiteral("pool minimum now 0")),
             qPrintable(dialog.forecastText()));
    QVERIFY(!dialog.forecastText().contains(QStringLiteral("causes no flood")));
    QTRY_COMPARE(accepted->topLevelItem(0)->text(2), QStringLiteral("already in the pool"));
    QCOMPARE(accepted->topLevelItem(1)->text(2), QStringLiteral("already in the pool"));
    dialog.findChild<QTabWidget *>(QStringLiteral("previewTabs"))->setCurrentIndex(0);
    saveShot(dialog, "seed-dialog-after-seed.png");
    // With the pool's own members counted again (Reset members...), the flood forecast is back.
    redis.run({"ZINCRBY", "edge:pool", "19", "192.0.2.2:80"});
    redis.run({"ZINCRBY", "edge:pool", "19", "socks5://alice:s3cret@proxy.example:1080"});
    QTRY_VERIFY2_WITH_TIMEOUT(dialog.forecastText().contains(QStringLiteral("pool minimum now 19")),
                              qPrintable(dialog.forecastText()), 5000);
}

void TestDialogs::bigListIsReadInTheBackground() {
    // 120,000 lines (about 2 MB): parsed off the GUI thread, shown as its first 1,000 lines,
    // previewed and seeded whole.
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "proxies"));
    QTemporaryFile file;
    QVERIFY(file.open());
    const int lines = 120000;
    QByteArray content;
    for (int i = 0; i < lines; ++i)
        content += "198.51." + QByteArray::number(i / 250 % 250) + '.' +
                   QByteArray::number(i % 250) + ':' + QByteArray::number(1024 + i / 62500) + '\n';
    content += "not a proxy\n";
    QCOMPARE(file.write(content), content.size());
    file.close();

    SeedDialog dialog(&session);
    QSignalSpy previewed(&dialog, &SeedDialog::previewUpdated);
    QVERIFY(dialog.loadFile(file.fileName()));
    QVERIFY(dialog.isParsing());
    QVERIFY(!dialog.seedButton()->isEnabled());
    QVERIFY(dialog.seedButton()->toolTip().contains(QStringLiteral("still reading")));
    QVERIFY(!dialog.startSeed()); // nothing is written from a half-read list
    // The event loop keeps running while the list is read.
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, &ticker, [&ticks] { ++ticks; });
    ticker.start(5);
    QVERIFY(previewed.wait(30000));
    ticker.stop();
    QVERIFY(!dialog.isParsing());
    QVERIFY(dialog.showsExcerpt());
    QCOMPARE(dialog.report().accepted.size(), lines);
    QCOMPARE(dialog.report().rejected.size(), 1);
    QCOMPARE(dialog.report().rejected[0].lineNumber, lines + 1);
    QVERIFY2(dialog.summaryText().contains(QStringLiteral("120000 accepted")) ||
                 dialog.summaryText().contains(QStringLiteral("120,000 accepted")),
             qPrintable(dialog.summaryText()));
    qInfo("event loop ran %d times during the parse", ticks);
    const auto *tabs = dialog.findChild<QTabWidget *>(QStringLiteral("previewTabs"));
    QVERIFY(tabs);
    QVERIFY2(tabs->tabText(0).contains(QStringLiteral("listed")), qPrintable(tabs->tabText(0)));
    QCOMPARE(tabs->tabText(1), QStringLiteral("Rejected (1)"));
    // For a person to look at: the excerpt, the source line and the summary.
    dialog.resize(1000, 700);
    const QString shots = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(shots);
    QVERIFY(dialog.grab().save(shots + QStringLiteral("/seed-big-list.png")));

    dialog.setStartCount(QStringLiteral("0"));
    QVERIFY(dialog.seedButton()->isEnabled());
    QSignalSpy done(&dialog, &SeedDialog::seedDone);
    QVERIFY(dialog.startSeed());
    QVERIFY(done.wait(30000));
    QCOMPARE(redis.run({"ZCARD", "proxies"}).integer, qint64(lines));

    // Pasting text replaces the file: editable again, parsed at once when small.
    dialog.setText(QStringLiteral("192.0.2.7:80\n"));
    QVERIFY(!dialog.showsExcerpt());
    QVERIFY(!dialog.isParsing());
    QCOMPARE(dialog.report().accepted.size(), 1);
}

void TestDialogs::restoreForecastIsLive() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("proxies", {"m0", "m1", "m2", "m3"}, 50);
    PoolOperations(redis.admin(), "proxies").evict("m3");
    redis.run({"ZINCRBY", "proxies", "0", "m0"});
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "proxies"));

    RestoreDialog dialog(&session, {"m3"});
    dialog.setPolicy(RestorePolicy::Zero);
    QCOMPARE(dialog.forecast().allocations, 50.0);
    QVERIFY2(
        dialog.forecastText().contains(QStringLiteral("will receive the next ~50 allocations")),
        qPrintable(dialog.forecastText()));
    QCOMPARE(dialog.descriptionText(), restorePolicyDescription(RestorePolicy::Zero));
    dialog.setPolicy(RestorePolicy::Min);
    QCOMPARE(dialog.forecast().allocations, 0.0);
    QVERIFY(dialog.forecastText().startsWith(QStringLiteral("No flood")));
    dialog.setPolicy(RestorePolicy::Keep);
    QCOMPARE(dialog.forecast().allocations, 0.0); // saved 50 = the minimum

    // Live: the pool moves on, the forecast follows with the next poll.
    dialog.setPolicy(RestorePolicy::Zero);
    for (const char *member : {"m0", "m1", "m2"})
        redis.run({"ZINCRBY", "proxies", "10", member});
    QTRY_COMPARE_WITH_TIMEOUT(dialog.forecast().allocations, 60.0, 5000);
    QTRY_VERIFY(dialog.forecastText().contains(QStringLiteral("~60 allocations")));
    QVERIFY(dialog.restoreButton()->isEnabled());
}

// Restored above the pool maximum, a member gets nothing until the rest of the pool catches up:
// a warning as clear as a flood's (red, with its length), not a green "joins the rotation".
void TestDialogs::restoreAboveTheMaximumWarnsOfStarvation() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    QList<QByteArray> members;
    for (int i = 0; i < 10; ++i)
        members.append("m" + QByteArray::number(i));
    redis.makePool("proxies", members, 2500);
    PoolOperations(redis.admin(), "proxies").evict("m9");
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "proxies"));

    RestoreDialog dialog(&session, {"m9"});
    dialog.setPolicy(RestorePolicy::Start);
    dialog.setStartCount(QStringLiteral("5000"));
    QCOMPARE(dialog.forecast().allocations, 0.0);          // no flood...
    QCOMPARE(dialog.starvation().allocations, 9 * 2500.0); // ... but a wait for 9 x 2,500
    const QString text = dialog.forecastText();
    QVERIFY2(text.contains(QStringLiteral("Starvation warning")), qPrintable(text));
    QVERIFY2(text.contains(formatCount(22500)), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("joins the rotation")), qPrintable(text));
    const auto *label = dialog.findChild<QLabel *>(QStringLiteral("forecastLabel"));
    QVERIFY(label);
    QVERIFY2(label->styleSheet().contains(QStringLiteral("#c62828")),
             qPrintable(label->styleSheet()));
    // At the minimum: no wait, no warning.
    dialog.setPolicy(RestorePolicy::Min);
    QCOMPARE(dialog.starvation().allocations, 0.0);
    QVERIFY(dialog.forecastText().startsWith(QStringLiteral("No flood")));
    // Done anyway: the event says so too, as a warning.
    QSignalSpy logged(&session, &PoolSession::messageLogged);
    QSignalSpy restored(&session, &PoolSession::membersRestored);
    QVERIFY(session.restore({"m9"}, RestorePolicy::Start, 5000));
    QVERIFY(restored.wait(10000));
    bool warned = false;
    for (const QList<QVariant> &entry : std::as_const(logged)) {
        const LogEntry log = entry.at(0).value<LogEntry>();
        warned = warned || (log.kind == u"restore" && log.severity == LogSeverity::Warning &&
                            log.text.contains(QStringLiteral("Starvation warning")));
    }
    QVERIFY(warned);
}

void TestDialogs::starvationForecast_data() {
    QTest::addColumn<QList<double>>("joins");
    QTest::addColumn<QList<double>>("counts"); // empty: a big pool read as a summary
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("allocations");
    QTest::addColumn<bool>("atLeast");
    QTest::addColumn<double>("seconds"); // -1: no time estimate
    const QList<double> pool{10, 20, 30};
    QTest::newRow("above the maximum")
        << QList<double>{40} << pool << 100.0 << 60.0 << false << 0.6;
    QTest::newRow("between") << QList<double>{25} << pool << 0.0 << 20.0 << false << -1.0;
    QTest::newRow("at the minimum") << QList<double>{10} << pool << 100.0 << 0.0 << false << -1.0;
    QTest::newRow("below: a flood, no wait")
        << QList<double>{0} << pool << 1.0 << 0.0 << false << -1.0;
    QTest::newRow("lowest of several")
        << QList<double>{50, 40} << pool << 0.0 << 60.0 << false << -1.0;
    QTest::newRow("summary above the maximum")
        << QList<double>{40} << QList<double>{} << 30.0 << 60.0 << false << 2.0;
    QTest::newRow("summary between")
        << QList<double>{25} << QList<double>{} << 0.0 << 15.0 << true << -1.0;
}

void TestDialogs::starvationForecast() {
    QFETCH(QList<double>, joins);
    QFETCH(QList<double>, counts);
    QFETCH(double, rate);
    QFETCH(double, allocations);
    QFETCH(bool, atLeast);
    QFETCH(double, seconds);
    PoolLevels levels;
    levels.minimum = 10;
    levels.maximum = 30;
    levels.size = 3;
    levels.total = 60;
    levels.counts = counts;
    const StarvationForecast wait = forecastStarvation(joins, levels, rate);
    QCOMPARE(wait.allocations, allocations);
    QCOMPARE(wait.atLeast, atLeast);
    QCOMPARE(wait.seconds.value_or(-1), seconds);
    QCOMPARE(wait.text.isEmpty(), allocations <= 0);
    if (wait.seconds)
        QVERIFY2(wait.text.contains(formatSeconds(*wait.seconds)), qPrintable(wait.text));
}

void TestDialogs::testAllocationsCountEveryOne() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("proxies", {"m0", "m1", "m2", "m3", "m4"}, 0);
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "proxies"));

    TestAllocationDialog dialog(&session);
    dialog.setCount(500);
    dialog.setWorkers(4);
    dialog.setPipeline(8);
    QSignalSpy finished(&dialog, &TestAllocationDialog::runFinished);
    QVERIFY(dialog.start());
    QVERIFY(!dialog.startButton()->isEnabled());
    QVERIFY(dialog.cancelButton()->isEnabled());
    QVERIFY(finished.wait(30000));
    QCOMPARE(dialog.lastReport()->allocated, 500);
    QCOMPARE(sumOfScores(redis, "proxies"), 500.0);
    QVERIFY2(dialog.resultText().startsWith(QStringLiteral("allocated 500")),
             qPrintable(dialog.resultText()));
    QVERIFY(dialog.startButton()->isEnabled());
}

void TestDialogs::naiveModeCountsCollisions() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("proxies", {"m0", "m1", "m2", "m3", "m4"}, 0);
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "proxies"));

    TestAllocationDialog dialog(&session);
    dialog.setCount(2000);
    dialog.setWorkers(8);
    dialog.setAtomic(false);
    QVERIFY(!dialog.spec().atomic);
    QSignalSpy finished(&dialog, &TestAllocationDialog::runFinished);
    QVERIFY(dialog.start());
    QVERIFY(finished.wait(60000));
    QVERIFY(!dialog.lastReport()->atomic);
    QVERIFY2(dialog.resultText().contains(QStringLiteral("collisions")),
             qPrintable(dialog.resultText()));
}

void TestDialogs::cancelStopsARun() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("proxies", {"m0", "m1"}, 0);
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "proxies"));

    TestAllocationDialog dialog(&session);
    dialog.setDuration(60);
    dialog.setRate(200);
    dialog.setWorkers(2);
    QSignalSpy finished(&dialog, &TestAllocationDialog::runFinished);
    QVERIFY(dialog.start());
    QTRY_VERIFY_WITH_TIMEOUT(sumOfScores(redis, "proxies") > 20, 10000);
    dialog.cancel();
    QVERIFY(finished.wait(10000));
    QVERIFY(dialog.lastReport()->cancelled);
    QVERIFY(dialog.resultText().contains(QStringLiteral("cancelled")));
    // Exact accounting: what the report says is what the counts say.
    QCOMPARE_LE(qAbs(sumOfScores(redis, "proxies") - double(dialog.lastReport()->allocated)),
                double(dialog.lastReport()->unknown));
}

void TestDialogs::emptyPoolSaysSo() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    PoolSession session;
    QVERIFY(connectAndWait(session, redis, "nothing-here"));

    TestAllocationDialog dialog(&session);
    dialog.setCount(5);
    dialog.setWorkers(1);
    QSignalSpy finished(&dialog, &TestAllocationDialog::runFinished);
    QVERIFY(dialog.start());
    QVERIFY(finished.wait(10000));
    QCOMPARE(dialog.lastReport()->allocated, 0);
    QCOMPARE(dialog.lastReport()->empty, 5);
    QCOMPARE(dialog.lastReport()->errors(), 0);
    QVERIFY2(dialog.resultText().startsWith(QStringLiteral("pool is empty: no proxy allocated")),
             qPrintable(dialog.resultText()));
}

QTEST_MAIN(TestDialogs)
#include "tst_dialogs.moc"
