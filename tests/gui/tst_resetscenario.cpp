// The reset scenario dialog against a real redis-server: evict and restore under load with each
// restore policy, the forecast, the chart's marks, the way back to the previous pool, its own
// writes not taken for outside changes, and the demo load coming back however the pool is left.

#include "actions/ResetScenarioDialog.h"
#include "chart/ChartPanel.h"
#include "pool/PoolOperations.h"
#include "session/DemoDriver.h"
#include "session/PoolSession.h"

#include "MainWindowFixture.h"
#include "RedisFixture.h"
#include "SessionWait.h"

#include <QPushButton>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

double sumOfCounts(RedisFixture &redis, const QByteArray &key) {
    const RedisReply reply = redis.run({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    double sum = 0;
    for (qsizetype i = 1; i < reply.elements.size(); i += 2)
        sum += reply.elements.at(i).text.toDouble();
    return sum;
}

} // namespace

class TestResetScenario : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void resetScenario_data();
    void resetScenario();
    void resetScenarioIsOursAndTheDemoComesBack();
};

void TestResetScenario::resetScenario_data() {
    QTest::addColumn<int>("policy");
    QTest::newRow("zero") << int(RestorePolicy::Zero);
    QTest::newRow("min") << int(RestorePolicy::Min);
}

void TestResetScenario::resetScenario() {
    QFETCH(int, policy);
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("proxies", {"192.0.2.1:80", "192.0.2.2:80"}, 0);
    PoolSession session;
    ChartPanel chart(&session);
    DemoDriver demo(&session, redis.endpoint());
    demo.setEnabled(true);
    QVERIFY(connectAndWait(session, redis, "proxies"));
    QTRY_VERIFY_WITH_TIMEOUT(demo.isLoadRunning(), 10000);

    ResetScenarioDialog dialog(&session, &demo);
    dialog.setPolicy(RestorePolicy(policy));
    dialog.setMembers(5);
    dialog.setRate(300);
    dialog.setDurations(3, 2);
    QSignalSpy finished(&dialog, &ResetScenarioDialog::scenarioFinished);
    QVERIFY(dialog.start());
    // The dashboard watches the scenario's pool; the demo's load pauses so it measures cleanly.
    QCOMPARE(session.poolKey(), QByteArray("poolscope:reset-demo"));
    QVERIFY(!demo.isEnabled());
    QVERIFY(dialog.isRunning());
    QVERIFY(!dialog.startButton()->isEnabled());
    QVERIFY(finished.wait(30000));
    const ResetScenarioReport &report = *dialog.lastReport();
    if (RestorePolicy(policy) == RestorePolicy::Zero) {
        QCOMPARE_GT(report.forecastRun, 10);
        QCOMPARE_GE(report.longestRun, report.forecastRun - 1);
    } else {
        QCOMPARE_LE(report.longestRun, 2);
    }
    QVERIFY2(dialog.resultText().contains(QStringLiteral("forecast: the next ~")),
             qPrintable(dialog.resultText()));
    // The chart marks the scenario's evict and restore.
    QTRY_VERIFY(
        chart.frame().markerLabels().join(QLatin1Char('|')).contains(QStringLiteral("evict ")));
    QTRY_VERIFY(
        chart.frame().markerLabels().join(QLatin1Char('|')).contains(QStringLiteral("restore ")));
    // Back to the previous pool, with the demo load again.
    QVERIFY(dialog.backButton()->isEnabled());
    dialog.backButton()->click();
    QCOMPARE(session.poolKey(), QByteArray("proxies"));
    QVERIFY(demo.isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(demo.isLoadRunning(), 10000);
}

// The scenario's own writes (a fresh pool replacing the last run's, the eviction, the restore) are
// not "outside changes"; leaving its pool by any way, not only "Back", brings the demo load back:
// here the dialog is closed and Alt+Left pressed on the window.
void TestResetScenario::resetScenarioIsOursAndTheDemoComesBack() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool("proxies", {"192.0.2.1:80", "192.0.2.2:80"}, 0);
    Dashboard d;
    DemoDriver demo(&d.session, redis.endpoint());
    d.actions()->setDemoDriver(&demo);
    demo.setEnabled(true);
    d.window.show();
    QVERIFY(d.connectTo(redis, "proxies"));
    QTRY_VERIFY_WITH_TIMEOUT(demo.isLoadRunning(), 10000);
    QStringList warnings;
    connect(&d.session, &PoolSession::messageLogged, this, [&warnings](const LogEntry &entry) {
        if (entry.kind == u"pool")
            warnings << entry.text;
    });

    ResetScenarioDialog *dialog = d.actions()->openResetScenarioDialog();
    QVERIFY(dialog);
    dialog->setPolicy(RestorePolicy::Zero);
    dialog->setMembers(5);
    dialog->setRate(300);
    dialog->setDurations(1, 1);
    QSignalSpy finished(dialog, &ResetScenarioDialog::scenarioFinished);
    for (int run = 0; run < 2; ++run) { // the second replaces the first run's pool
        QVERIFY(dialog->start());
        QVERIFY(finished.wait(30000));
        QVERIFY(!demo.isEnabled());
    }
    // Polls after the end compare with a pool the scenario wrote: still ours.
    QVERIFY(d.connectTo(redis, "poolscope:reset-demo"));
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));

    // Closed, then back to the pool with Alt+Left on the window, not the dialog's button. The
    // window takes the focus back, as a window manager gives it when a dialog closes.
    dialog->close();
    d.window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&d.window));
    QVERIFY(!demo.isEnabled());
    const double before = sumOfCounts(redis, "proxies");
    QTest::keyClick(&d.window, Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(d.session.poolKey(), QByteArray("proxies"));
    QVERIFY(d.session.endpoint() == redis.endpoint());
    QVERIFY(demo.isEnabled());
    QVERIFY(demo.isOnDemoServer());
    QTRY_VERIFY_WITH_TIMEOUT(demo.isLoadRunning(), 10000);
    // The load allocates on the demo's server again.
    QTRY_VERIFY_WITH_TIMEOUT(sumOfCounts(redis, "proxies") >= before + 10, 10000);
}

QTEST_MAIN(TestResetScenario)
#include "tst_resetscenario.moc"
