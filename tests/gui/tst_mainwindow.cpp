// The whole dashboard against a real redis-server, offscreen: connect and see the pool, evict
// (with its chart marker), restore with zero (the flood) or min (no flood), the restore forecast
// against what then happens, read-only and disconnected modes, exports, pool key discovery, and
// screenshots of the demo and of an evict/restore flow that must not be blank.

#include "chart/ChartPanel.h"
#include "connection/ConnectionBar.h"
#include "session/DemoDriver.h"
#include "events/EventsPanel.h"
#include "fairness/FairnessPanel.h"
#include "MainWindow.h"
#include "members/MembersPanel.h"
#include "actions/PoolActions.h"
#include "session/PoolSession.h"
#include "members/PoolTableModel.h"
#include "actions/RestoreDialog.h"
#include "actions/SeedDialog.h"
#include "connection/StatusBarPanel.h"
#include "actions/TestAllocationDialog.h"
#include "load/LoadRunner.h"
#include "pool/PoolOperations.h"

#include "RedisFixture.h"

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
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace std::chrono_literals;

namespace {

const QByteArray kKey = "proxies";

QList<QByteArray> names(int count, const char *prefix = "m") {
    QList<QByteArray> members;
    for (int i = 0; i < count; ++i)
        members.append(prefix + QByteArray::number(i));
    return members;
}

// A window over a session, connected to the fixture, polling fast.
struct Dashboard {
    PoolSession session;
    MainWindow window{&session};

    explicit Dashboard(bool readOnly = false) {
        session.setReadOnly(readOnly);
        // Every eviction asks first (tst_controls drives the real question); here the answer
        // is yes unless a test says otherwise.
        window.actions()->setConfirmFunction([](const QString &, const QString &) { return true; });
    }
    bool connectTo(testing::RedisFixture &redis, const QByteArray &key = kKey) {
        session.setPollInterval(100ms);
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.connectTo(redis.endpoint(), key);
        return observed.wait(10000);
    }
    PoolTableModel *model() const { return window.membersPanel()->model(); }
    const PoolTableModel::Row *row(const QByteArray &member) const {
        const int index = model()->rowOf(member);
        return index < 0 ? nullptr : &model()->rowAt(index);
    }
    PoolActions *actions() const { return window.actions(); }
};

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

class TestMainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void connectShowsSeededMembers();
    void evictMovesMemberAndMarksChart();
    void evictSeveralAsksFirst();
    void restoreFlood_data();
    void restoreFlood();
    void forecastMatchesWhatHappens();
    void emptyPoolHasHelpfulStates();
    void readOnlyDisablesEveryWriteControl();
    void disconnectedDisablesWrites();
    void poolKeysAreOffered();
    void exportsWriteFiles();
    void keyboardShortcuts();
    void demoScreenshotsAreNotBlank();
    void stalledServerKeepsWindowResponsive_data();
    void stalledServerKeepsWindowResponsive();
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
    QTRY_COMPARE(d.window.chartPanel()->chartedMembers().size(), 3);
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
    QTRY_VERIFY(
        d.window.chartPanel()->markerLabels().contains(QStringLiteral("evict m1 (saved 5)")));
    QVERIFY(d.window.eventsPanel()->entryText(0).contains(QStringLiteral("evict m1")));

    // The evicted row is selectable and restorable; Ctrl+R's action is now enabled.
    d.window.membersPanel()->selectMembers({"m1"});
    QVERIFY(d.actions()->restoreAction()->isEnabled());
    QVERIFY(!d.actions()->evictAction()->isEnabled());
}

void TestMainWindow::evictSeveralAsksFirst() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(4), 1);
    Dashboard d;
    QVERIFY(d.connectTo(redis));
    QTRY_COMPARE(d.model()->rowCount(), 4);
    int questions = 0;
    bool answer = false;
    d.actions()->setConfirmFunction([&](const QString &, const QString &question) {
        ++questions;
        return question.contains(QStringLiteral("2 members")) && answer;
    });
    d.window.membersPanel()->selectMembers({"m0", "m2"});
    QVERIFY(!d.actions()->evictSelected());
    QCOMPARE(questions, 1);
    QCOMPARE(redis.run({"ZCARD", kKey}).integer, 4);
    answer = true;
    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    QVERIFY(d.actions()->evictSelected());
    QVERIFY(evicted.wait(5000));
    QCOMPARE(redis.run({"ZCARD", kKey}).integer, 2);
    QTRY_COMPARE(d.model()->evictedCount(), 2);
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
        QVERIFY(d.row("m4")->debt > 400);
        QVERIFY(d.window.membersPanel()
                    ->model()
                    ->index(d.model()->rowOf("m4"), PoolTableModel::State)
                    .data()
                    .toString()
                    .contains(QStringLiteral("catching up")));
    } else {
        QVERIFY(d.row("m4")->debt <= 1);
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
            ->markerLabels()
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
    QVERIFY(last.timeMs - first.timeMs >= 1000);
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
    QVERIFY(qAbs(observedRun - forecast.allocations) <= 0.1 * forecast.allocations);
    QVERIFY(qAbs(observedSeconds - *forecast.seconds) <= 0.1 * *forecast.seconds);
}

void TestMainWindow::emptyPoolHasHelpfulStates() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    Dashboard d;
    QVERIFY(d.window.membersPanel()->emptyStateText().contains(QStringLiteral("Not connected")));
    QVERIFY(d.connectTo(redis));
    QTRY_VERIFY(d.window.membersPanel()->emptyStateText().contains(
        QStringLiteral("No pool at \"proxies\" yet: Seed…")));
    QTRY_COMPARE(d.window.chartPanel()->placeholderText(),
                 QStringLiteral("No pool at this key yet: Seed… to add proxies"));
    QVERIFY(d.actions()->seedAction()->isEnabled());

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

void TestMainWindow::readOnlyDisablesEveryWriteControl() {
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

void TestMainWindow::disconnectedDisablesWrites() {
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

void TestMainWindow::poolKeysAreOffered() {
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

void TestMainWindow::exportsWriteFiles() {
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
    QVERIFY(historyLines.size() > 3);
    QVERIFY(historyLines[1].endsWith(",3"));
    QFile table(dir.filePath(QStringLiteral("table.csv")));
    QVERIFY(table.open(QIODevice::ReadOnly));
    const QByteArray tableText = table.readAll();
    QVERIFY(tableText.startsWith("member,count,share,rate/s,state,debt,last change\n"));
    QVERIFY(tableText.contains("192.0.2.2:80,3,0.500000,"));
    // A path that cannot be written is reported, not thrown at the user in a box.
    QVERIFY(!d.actions()->exportTableCsv(QStringLiteral("/nonexistent-dir/x.csv")));
    QVERIFY(d.window.eventsPanel()->entryText(0).contains(QStringLiteral("cannot save")));
}

void TestMainWindow::keyboardShortcuts() {
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

    // Space pauses and resumes polling; Ctrl+F goes to the filter.
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Space);
    QVERIFY(d.session.isPaused());
    QTest::keyClick(table, Qt::Key_Space);
    QVERIFY(!d.session.isPaused());
    QTest::keyClick(table, Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(d.window.membersPanel()->filterEdit()->hasFocus());
    // Typing a space in the filter types a space, it does not pause.
    QTest::keyClicks(d.window.membersPanel()->filterEdit(), QStringLiteral("m 1"));
    QVERIFY(!d.session.isPaused());
    QCOMPARE(d.window.membersPanel()->filterEdit()->text(), QStringLiteral("m 1"));
}

void TestMainWindow::demoScreenshotsAreNotBlank() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    Dashboard d;
    d.window.resize(1360, 860);
    d.window.show();
    DemoDriver::Settings settings;
    settings.ratePerSecond = 100;
    DemoDriver demo(&d.session, settings);
    demo.setEnabled(true);
    QSignalSpy seeded(&demo, &DemoDriver::demoSeeded);
    d.session.setPollInterval(250ms);
    d.session.connectTo(redis.endpoint(), kKey);
    QVERIFY(seeded.wait(10000));
    const int demoMembers = int(DemoDriver::demoMembers().size());
    QVERIFY(demoMembers > 20);
    QTRY_COMPARE_WITH_TIMEOUT(d.model()->rowCount(), demoMembers, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(demo.isLoadRunning(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(d.session.rates().totalAllocations() > 300, 20000);
    // The history keeps one point per second: wait for a few seconds of lines.
    QTRY_VERIFY_WITH_TIMEOUT(
        d.window.chartPanel()->pointCount(d.window.chartPanel()->chartedMembers().value(0)) > 8,
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
    for (const QByteArray &charted : d.window.chartPanel()->chartedMembers())
        linePixels += pixelsNear(chart, d.session.colors().colorFor(charted), 0.7);
    QVERIFY2(linePixels > 200, qPrintable(QString::number(linePixels)));

    // Evict one member, restore it at zero: the markers and the flood show up.
    const QByteArray member = d.model()->rowAt(0).member;
    d.window.chartPanel()->pinMembers({member});
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
    const QStringList markers = d.window.chartPanel()->markerLabels();
    QVERIFY(markers.join(QLatin1Char('|')).contains(QStringLiteral("evict ")));
    QVERIFY(markers.join(QLatin1Char('|')).contains(QStringLiteral("restore ")));
    const QImage flowShot = d.window.grab().toImage();
    const QString flowPath = screenshotDir() + QStringLiteral("/evict-restore.png");
    QVERIFY(flowShot.save(flowPath));
    qInfo("saved %s", qPrintable(flowPath));
    checkNotBlank(flowShot, 150);
    demo.setEnabled(false);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"

// Fault test 4, at the window: while the server sleeps (DEBUG SLEEP) or refuses writes
// (CLIENT PAUSE WRITE), polls and a write time out or wait on worker threads; the GUI thread
// keeps turning, the status bar says what is wrong, and everything resumes afterwards.
void TestMainWindow::stalledServerKeepsWindowResponsive_data() {
    QTest::addColumn<QByteArrayList>("stall");
    QTest::addColumn<bool>("pollsFail");
    QTest::newRow("DEBUG SLEEP 2") << QByteArrayList{"DEBUG", "SLEEP", "2"} << true;
    QTest::newRow("CLIENT PAUSE 3000 WRITE")
        << QByteArrayList{"CLIENT", "PAUSE", "3000", "WRITE"} << false;
}

void TestMainWindow::stalledServerKeepsWindowResponsive() {
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
