// The dashboard on a real redis-server: connect, evict, restore (flood or not), forecast, a test
// allocation on an empty pool. What the widgets show of a poll, the question before evicting
// several and the empty pool's texts need no server: tst_scripteddashboard.

#include "actions/PoolActions.h"
#include "actions/RestoreDialog.h"
#include "actions/TestAllocationDialog.h"
#include "connection/StatusBarPanel.h"
#include "events/EventsPanel.h"
#include "chart/ChartPanel.h"
#include "fairness/FairnessPanel.h"
#include "connection/ConnectionBar.h"
#include "load/LoadRunner.h"

#include "MainWindowFixture.h"

#include <algorithm>

#include <QComboBox>
#include <QPushButton>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

// Allocations at a steady rate in the background, like workers would.
std::unique_ptr<LoadRunner> startLoad(testing::RedisFixture &redis, double rate) {
    auto runner = std::make_unique<LoadRunner>();
    LoadSpec spec;
    spec.endpoint = redis.endpoint();
    spec.poolKey = kKey;
    spec.workers = 1;
    spec.duration = 120s;
    spec.ratePerSecond = rate;
    if (!runner->start(spec))
        return nullptr;
    return runner;
}

double othersMinimum(const PoolObservation &observation, const QByteArray &member) {
    double minimum = std::numeric_limits<double>::infinity();
    for (const PoolMember &m : observation.snapshot.members)
        if (m.member != member)
            minimum = std::min(minimum, m.count);
    return minimum;
}

std::optional<double> countIn(const PoolObservation &observation, const QByteArray &member) {
    for (const PoolMember &m : observation.snapshot.members)
        if (m.member == member)
            return m.count;
    return std::nullopt;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void connectShowsSeededMembers();
    void evictMovesMemberAndMarksChart();
    void restoreFlood_data();
    void restoreFlood();
    void forecastMatchesWhatHappens();
    void testAllocationOnEmptyPool();
};

void TestMainWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
}

void TestMainWindow::connectShowsSeededMembers() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"192.0.2.10:8080", "198.51.100.7:3128", "203.0.113.5:1080"}, 7);
    Dashboard d;
    QVERIFY(d.connectTo(redis));
    QTRY_COMPARE(d.model()->rowCount(), 3);
    QVERIFY(d.row("198.51.100.7:3128"));
    QCOMPARE(d.row("198.51.100.7:3128")->count, 7.0);
    QVERIFY(!d.row("198.51.100.7:3128")->evicted);
    QCOMPARE(d.window.fairnessPanel()->valueText(FairnessPanel::Field::Members),
             QStringLiteral("3"));
    QCOMPARE(d.window.fairnessPanel()->valueText(FairnessPanel::Field::Spread),
             QStringLiteral("0"));
    QTRY_VERIFY(d.window.statusPanel()->versionText().startsWith(QStringLiteral("Redis ")));
    QVERIFY(d.window.statusPanel()->roundTripText().startsWith(QStringLiteral("rtt ")));
    QVERIFY(d.window.statusPanel()->sizeText().startsWith(QStringLiteral("3 ")));
    QVERIFY(d.window.statusPanel()->stateText().contains(QStringLiteral("onnected")));
    QTRY_COMPARE(d.window.chartPanel()->frame().members().size(), 3);
    QVERIFY(d.window.membersPanel()->emptyStateText().isEmpty());
    // The URL shown never carries a password, and the connection is remembered without one.
    QVERIFY(!d.window.connectionBar()->urlBox()->currentText().contains(QStringLiteral("****")));
}

void TestMainWindow::evictMovesMemberAndMarksChart() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(4), 5);
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    QTRY_COMPARE(d.model()->rowCount(), 4);
    QVERIFY(!d.actions()->evictAction()->isEnabled()); // nothing selected
    QVERIFY(d.actions()->evictAction()->toolTip().contains(QStringLiteral("select")));

    d.window.membersPanel()->selectMembers({"m1"});
    QVERIFY(d.actions()->evictAction()->isEnabled());
    QVERIFY(!d.actions()->restoreAction()->isEnabled());
    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    d.actions()->evictAction()->trigger();
    QVERIFY(evicted.wait(5000));
    QTRY_VERIFY(d.row("m1") && d.row("m1")->evicted);
    QCOMPARE(d.row("m1")->count, 5.0); // the saved count
    QCOMPARE(redis.run({"ZSCORE", kKey, "m1"}).type, RedisReply::Type::Nil);
    QTRY_VERIFY(d.window.chartPanel()->frame().markerLabels().contains(
        QStringLiteral("evict m1 (saved 5)")));
    QVERIFY(d.window.eventsPanel()->entryText(0).contains(QStringLiteral("evict m1")));

    // The evicted row is selectable and restorable; Ctrl+R's action is now enabled.
    d.window.membersPanel()->selectMembers({"m1"});
    QVERIFY(d.actions()->restoreAction()->isEnabled());
    QVERIFY(!d.actions()->evictAction()->isEnabled());
}

void TestMainWindow::restoreFlood_data() {
    QTest::addColumn<int>("policy");
    QTest::addColumn<bool>("floods");
    QTest::newRow("zero floods") << int(RestorePolicy::Zero) << true;
    QTest::newRow("min does not") << int(RestorePolicy::Min) << false;
}

void TestMainWindow::restoreFlood() {
    QFETCH(int, policy);
    QFETCH(bool, floods);
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(5), 300);
    Dashboard d;
    d.session.setRateWindowMs(1000);
    QVERIFY(d.connectTo(redis));
    auto load = startLoad(redis, 200);
    QVERIFY(load);
    QTRY_VERIFY_WITH_TIMEOUT(d.session.poolRatePerSecond() > 120, 10000);

    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    QVERIFY(d.session.evict({"m4"}));
    QVERIFY(evicted.wait(5000));
    // Let the others run ahead: a restore at zero then floods for ~600 allocations (~3 s).
    QTRY_VERIFY_WITH_TIMEOUT(d.session.poolMinimum().value_or(0) >= 600, 20000);

    // The share of m4 in every poll whose whole rate window lies after the restore.
    QList<double> shares;
    qint64 restoredAt = 0;
    connect(&d.session, &PoolSession::observationApplied, &d.session,
            [&](const PoolObservation &observation) {
                if (restoredAt == 0 || observation.timeMs < restoredAt + 1100 ||
                    observation.timeMs > restoredAt + 2500)
                    return;
                const auto *row = d.row("m4");
                double total = 0;
                for (int i = 0; i < d.model()->rowCount(); ++i)
                    total += d.model()->rowAt(i).rate;
                if (row && total > 0)
                    shares.append(row->rate / total);
            });
    QSignalSpy restored(&d.session, &PoolSession::membersRestored);
    QVERIFY(d.session.restore({"m4"}, RestorePolicy(policy), 0));
    QVERIFY(restored.wait(5000));
    restoredAt = QDateTime::currentMSecsSinceEpoch();
    QTRY_VERIFY(d.row("m4") && !d.row("m4")->evicted);
    if (floods) {
        QCOMPARE_GT(d.row("m4")->debt, 400);
        QVERIFY(d.window.membersPanel()
                    ->model()
                    ->index(d.model()->rowOf("m4"), PoolTableModel::State)
                    .data()
                    .toString()
                    .contains(QStringLiteral("catching up")));
    } else {
        QCOMPARE_LE(d.row("m4")->debt, 1);
    }
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentMSecsSinceEpoch() > restoredAt + 2600, 5000);
    QVERIFY2(shares.size() >= 3, qPrintable(QString::number(shares.size())));
    const double lowest = *std::min_element(shares.cbegin(), shares.cend());
    const double highest = *std::max_element(shares.cbegin(), shares.cend());
    qInfo("m4's share of the allocations in the polls after the restore: %.2f .. %.2f", lowest,
          highest);
    if (floods)
        QVERIFY2(lowest > 0.9, "the restored member takes (almost) every allocation");
    else
        QVERIFY2(highest < 0.5, "the restored member takes about its fair share");
    QTRY_VERIFY(
        d.window.chartPanel()
            ->frame()
            .markerLabels()
            .join(QLatin1Char('\n'))
            .contains(
                QStringLiteral("restore m4 (%1)").arg(restorePolicyName(RestorePolicy(policy)))));
    load->cancel();
}

void TestMainWindow::forecastMatchesWhatHappens() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(5), 300);
    Dashboard d;
    d.session.setRateWindowMs(3000);
    QVERIFY(d.connectTo(redis));
    auto load = startLoad(redis, 200);
    QVERIFY(load);
    QTRY_VERIFY_WITH_TIMEOUT(d.session.rates().coveredMs() >= 2500 &&
                                 qAbs(d.session.poolRatePerSecond() - 200) < 20,
                             15000);

    d.window.membersPanel()->selectMembers({"m4"});
    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    d.actions()->evictAction()->trigger();
    QVERIFY(evicted.wait(5000));
    QTRY_VERIFY_WITH_TIMEOUT(d.session.poolMinimum().value_or(0) >= 600, 20000);
    QTRY_VERIFY(d.row("m4") && d.row("m4")->evicted);

    d.window.membersPanel()->selectMembers({"m4"});
    RestoreDialog *dialog = d.actions()->openRestoreDialog();
    QVERIFY(dialog);
    dialog->setPolicy(RestorePolicy::Zero);
    const FloodForecast forecast = dialog->forecast();
    QVERIFY(forecast.seconds);
    QVERIFY2(dialog->forecastText().contains(QStringLiteral("will receive the next ~")),
             qPrintable(dialog->forecastText()));

    struct Sample {
        qint64 timeMs;
        double count;
        double othersMinimum;
    };
    QList<Sample> samples;
    connect(&d.session, &PoolSession::observationApplied, &d.session,
            [&](const PoolObservation &observation) {
                if (const auto count = countIn(observation, "m4"))
                    samples.append({observation.timeMs, *count, othersMinimum(observation, "m4")});
            });
    QSignalSpy restored(&d.session, &PoolSession::membersRestored);
    dialog->restoreButton()->click();
    QVERIFY(restored.wait(5000));
    const qint64 restoredAt = QDateTime::currentMSecsSinceEpoch();
    const double minimumBefore = restored.constFirst().at(1).toDouble();
    QTRY_VERIFY_WITH_TIMEOUT(!samples.isEmpty() &&
                                 samples.constLast().count >= samples.constLast().othersMinimum,
                             20000);
    load->cancel();

    // The flood: the polls in which m4 was still below the others. During it the others must
    // stand still (every allocation went to m4), and m4 must then have caught up.
    QList<Sample> flood;
    for (const Sample &sample : samples) {
        // Against the baseline, not the moving minimum: once caught up, m4 sorts last among
        // equal counts and is often seen one below the others, which is rotation, not flood.
        if (sample.count >= minimumBefore - 1)
            break;
        flood.append(sample);
    }
    QVERIFY2(flood.size() >= 3, qPrintable(QString::number(flood.size())));
    for (const Sample &sample : flood)
        QVERIFY2(sample.othersMinimum - minimumBefore <= 2,
                 qPrintable(QStringLiteral("others moved by %1 during the flood")
                                .arg(sample.othersMinimum - minimumBefore)));
    const Sample &first = flood.constFirst();
    const Sample &last = flood.constLast();
    QCOMPARE_GE(last.timeMs - first.timeMs, 1000);
    // m4 rose from 0 to the others' minimum while they stood still: that is the run. When it
    // got there follows from the flood's own pace (robust to a poll that comes late).
    const double observedRun = last.othersMinimum;
    const double floodRate =
        (last.count - first.count) * 1000.0 / double(last.timeMs - first.timeMs);
    const double caughtUpAt =
        double(last.timeMs) + (last.othersMinimum - last.count) / floodRate * 1000.0;
    const double observedSeconds = (caughtUpAt - double(restoredAt)) / 1000.0;
    qInfo("forecast: next ~%.0f allocations in %.2f s; observed: %.0f allocations in %.2f s "
          "(%lld polls during the flood)",
          forecast.allocations, *forecast.seconds, observedRun, observedSeconds,
          qint64(flood.size()));
    QCOMPARE_LE(qAbs(observedRun - forecast.allocations), 0.1 * forecast.allocations);
    QCOMPARE_LE(qAbs(observedSeconds - *forecast.seconds), 0.1 * *forecast.seconds);
}

void TestMainWindow::testAllocationOnEmptyPool() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    Dashboard d;
    QVERIFY(d.connectTo(redis));
    // A key the server does not have reads as an empty pool.
    QTRY_VERIFY(d.window.membersPanel()->emptyStateText().contains(
        QStringLiteral("No pool at \"proxies\" yet: Seed…")));

    TestAllocationDialog *dialog = d.actions()->openTestAllocationDialog();
    QVERIFY(dialog);
    dialog->setCount(3);
    dialog->setWorkers(1);
    QSignalSpy finished(dialog, &TestAllocationDialog::runFinished);
    QVERIFY(dialog->start());
    QVERIFY(finished.wait(10000));
    QVERIFY2(dialog->resultText().startsWith(QStringLiteral("pool is empty: no proxy allocated")),
             qPrintable(dialog->resultText()));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
