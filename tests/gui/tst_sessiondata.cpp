// The data the dashboard shows, against a real redis-server, offscreen: one history sample per
// poll, each pool's history kept across switches, outages breaking the lines and marking the
// figures stale, outside resets reported, an honest total, errors that clear with their cause,
// headlines that follow the pool, and one joint forecast per restore. Screenshots go to
// <build>/tests/screenshots/sessiondata-*.png.

#include "MainWindow.h"
#include "actions/RestoreDialog.h"
#include "chart/ChartPanel.h"
#include "connection/StatusBarPanel.h"
#include "events/EventsPanel.h"
#include "fairness/FairnessPanel.h"
#include "members/MembersPanel.h"
#include "members/PoolTableModel.h"
#include "session/Forecast.h"
#include "session/PoolSession.h"

#include "MainWindowFixture.h"
#include "RedisFixture.h"

#include <algorithm>
#include <cmath>

#include <QDateTime>
#include <QDir>
#include <QLabel>
#include <QtTest>

using namespace poolscope;
using namespace std::chrono_literals;

namespace {

using testing::kKey;
using testing::names;

// The main window tests' dashboard, at a size the screenshots read well, with the events list and
// screenshots at hand.
struct Dashboard : testing::Dashboard {
    Dashboard() { window.resize(1200, 800); }
    QStringList events() const {
        QStringList texts;
        for (int row = 0; row < window.eventsPanel()->entryCount(); ++row)
            texts.append(window.eventsPanel()->entryText(row));
        return texts;
    }
    // A screenshot of the whole window after the panels have taken the latest poll.
    QString screenshot(const QString &name) {
        window.chartPanel()->refreshNow();
        QCoreApplication::processEvents();
        const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QDir().mkpath(dir);
        const QString path = dir + QStringLiteral("/sessiondata-%1.png").arg(name);
        window.grab().save(path, "PNG");
        return path;
    }
};

bool anyContains(const QStringList &texts, const QString &part) {
    return std::any_of(texts.cbegin(), texts.cend(),
                       [&](const QString &text) { return text.contains(part); });
}

// Points of the member's series that are line breaks (NaN) and that are values.
int breaksIn(const QList<HistoryPoint> &points) {
    return int(std::count_if(points.cbegin(), points.cend(),
                             [](const HistoryPoint &p) { return std::isnan(p.count); }));
}

} // namespace

class TestSessionData : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void onePointPerPollForThirtySeconds();
    void switchingPoolsKeepsEachHistory();
    void outageBreaksLinesMarksStaleAndReportsVanishedPool();
    void outsideChangesAreReported_data();
    void outsideChangesAreReported();
    void totalDoesNotFallOnEviction();
    void wrongTypeErrorClearsOnGoodKey();
    void scanErrorClearsAfterRecovery();
    void authErrorClearsAfterLogin();
    void stringKeySaysWhyNothingIsShown();
    void shrunkPoolHeadlinesFollow();
    void multiMemberRestoreLogsTheJointForecast();
};

void TestSessionData::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
}

// Item 1: a poll every second for 30 s leaves one history point per completed poll, at the poll's
// time, about a second apart (before the fix about one in five was merged into its neighbour).
void TestSessionData::onePointPerPollForThirtySeconds() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(3), 0);
    PoolSession session;
    QList<qint64> pollTimes;
    connect(&session, &PoolSession::observationApplied, this,
            [&](const PoolObservation &observation) { pollTimes.append(observation.timeMs); });
    session.setPollInterval(1000ms);
    session.connectTo(redis.endpoint(), kKey);
    // 31 polls span 30 s; each one also moves a count so every point differs from the last.
    QSignalSpy observed(&session, &PoolSession::observationApplied);
    while (pollTimes.size() < 31) {
        QVERIFY(observed.wait(5000));
        redis.run({"ZINCRBY", kKey, "1", "m0"});
    }
    const QList<HistoryPoint> points =
        session.history().series("m0", pollTimes.constFirst(), pollTimes.constLast());
    QList<qint64> pointTimes;
    for (const HistoryPoint &point : points)
        pointTimes.append(point.timeMs);
    QCOMPARE(pointTimes, pollTimes);
    for (qsizetype i = 1; i < pointTimes.size(); ++i) {
        const qint64 spacing = pointTimes[i] - pointTimes[i - 1];
        QVERIFY2(
            spacing >= 900 && spacing <= 1500,
            qPrintable(QStringLiteral("poll %1: %2 ms after the one before").arg(i).arg(spacing)));
    }
    const qint64 span = pointTimes.constLast() - pointTimes.constFirst();
    QVERIFY2(span >= 30000 && span < 33000, qPrintable(QString::number(span)));
}

// Item 2: a look at another pool costs nothing: coming back shows the first pool's lines and
// markers at once, before any new poll.
void TestSessionData::switchingPoolsKeepsEachHistory() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(4), 5);
    redis.makePool("other", names(3, "o"), 7);
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    QVERIFY(d.session.evict({"m1"}));
    QVERIFY(evicted.wait(5000));
    // Polls 100 ms apart share a 1 s slot: wait for a few points.
    QTRY_VERIFY_WITH_TIMEOUT(
        d.session.history().series("m0", 0, d.session.history().latestTimeMs()).size() >= 3, 10000);
    const qint64 left = d.session.history().latestTimeMs();
    const qsizetype pointsBefore = d.session.history().series("m0", 0, left).size();

    QVERIFY(d.connectTo(redis, "other"));
    QVERIFY2(!d.session.history().trackedMembers().contains("m0"),
             d.session.history().trackedMembers().join(' ').constData());
    d.window.chartPanel()->refreshNow();
    QVERIFY(!d.window.chartPanel()->frame().members().contains("m0"));

    // Back: no poll of "proxies" yet, and everything is there.
    d.session.setPollInterval(100ms);
    d.session.connectTo(redis.endpoint(), kKey);
    QCOMPARE(d.session.history().series("m0", 0, left).size(), pointsBefore);
    QVERIFY(d.session.history().trackedMembers().contains("m1"));
    d.window.chartPanel()->refreshNow();
    QVERIFY(d.window.chartPanel()->frame().members().contains("m0"));
    QCOMPARE_GE(d.window.chartPanel()->frame().pointCount("m0"), pointsBefore);
    QVERIFY(anyContains(d.window.chartPanel()->frame().markerLabels(), QStringLiteral("evict m1")));
    // The time away is a gap: the lines are not joined across it.
    QVERIFY(d.nextPoll());
    QVERIFY(d.nextPoll());
    QCOMPARE(breaksIn(d.session.history().series("m0", 0, d.session.history().latestTimeMs())), 1);
    QCOMPARE(d.session.history().series("o0", 0, left).size(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(
        d.session.history().series("m0", 0, d.session.history().latestTimeMs()).size() >=
            pointsBefore + 3,
        10000); // (a line after the gap for the screenshot)
    d.screenshot(QStringLiteral("back-to-first-pool"));
}

// Items 3 and 5: a server killed and restarted empty. During the outage every panel says its
// figures are stale (with the last good poll's time); after it the lines break where polls
// failed, and an event and a marker say the pool vanished.
void TestSessionData::outageBreaksLinesMarksStaleAndReportsVanishedPool() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(4), 9431);
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    // A few seconds of lines (one point a second) before the outage, for the screenshots.
    const auto pointsOfM0 = [&d] {
        return d.session.history().series("m0", 0, d.session.history().latestTimeMs()).size();
    };
    QTRY_VERIFY_WITH_TIMEOUT(pointsOfM0() >= 4, 10000);
    QVERIFY(d.window.fairnessPanel()->staleText().isEmpty());
    QVERIFY(!d.session.isStale());

    QSignalSpy stale(&d.session, &PoolSession::modeChanged);
    QSignalSpy failed(&d.session, &PoolSession::pollFailed);
    redis.server().killHard();
    QVERIFY(stale.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(failed.size() >= 6, 10000); // a few seconds of retries
    QVERIFY(d.session.isStale());
    const QString lastGood = QDateTime::fromMSecsSinceEpoch(d.session.lastGoodPollMs())
                                 .toString(QStringLiteral("HH:mm:ss"));
    QVERIFY2(d.window.fairnessPanel()->staleText().contains(lastGood),
             qPrintable(d.window.fairnessPanel()->staleText()));
    QVERIFY(d.window.membersPanel()->staleText().contains(lastGood));
    QTRY_VERIFY2(d.window.statusPanel()->sinceText().startsWith(QStringLiteral("stale")),
                 qPrintable(d.window.statusPanel()->sinceText()));
    const QLabel *rate = d.window.fairnessPanel()->findChild<QLabel *>(QStringLiteral("rateValue"));
    QVERIFY(rate && !rate->isEnabled()); // greyed out
    d.screenshot(QStringLiteral("outage-stale"));

    QString error;
    QVERIFY2(redis.server().start(&error), qPrintable(error)); // same socket, empty
    QVERIFY(d.nextPoll());
    QVERIFY(!d.session.isStale());
    QVERIFY(d.window.fairnessPanel()->staleText().isEmpty());
    QVERIFY(d.window.membersPanel()->staleText().isEmpty());
    QTRY_VERIFY2(anyContains(d.events(), QStringLiteral("pool vanished: 4 members gone")),
                 qPrintable(d.events().join(QLatin1Char('\n'))));
    QTRY_VERIFY(anyContains(d.window.chartPanel()->frame().markerLabels(),
                            QStringLiteral("pool vanished")));
    // The band does not slide from 9,431 down to 0: it breaks at the outage.
    const qint64 now = d.session.history().latestTimeMs();
    const QList<BandPoint> band = d.session.history().band(0, now);
    const auto breakAt = std::find_if(band.cbegin(), band.cend(),
                                      [](const BandPoint &p) { return std::isnan(p.median); });
    QVERIFY(breakAt != band.cend());
    QCOMPARE((breakAt - 1)->median, 9431.0);
    QCOMPARE((breakAt + 1)->median, 0.0);

    // The workers seed the pool again: the members' lines start afresh after a break.
    // (On a new connection: the fixture's own one died with the old server.)
    QCOMPARE(redis.connect()
                 ->command({"ZADD", kKey, "0", "m0", "0", "m1", "0", "m2", "0", "m3"})
                 .integer,
             4);
    QTRY_VERIFY_WITH_TIMEOUT(pointsOfM0() >= 8, 10000);
    // No error left over from the outage (the key scan after reconnecting included).
    QTRY_VERIFY_WITH_TIMEOUT(d.window.statusPanel()->currentMessage().isEmpty(), 3000);
    const QList<HistoryPoint> m0 = d.session.history().series("m0", 0, now + 60000);
    QCOMPARE(breaksIn(m0), 1);
    QCOMPARE(m0.constFirst().count, 9431.0);
    QCOMPARE(m0.constLast().count, 0.0);
    d.window.chartPanel()->setTimeWindow(ChartPanel::TimeWindow::FiveMinutes);
    d.screenshot(QStringLiteral("after-restart"));
    // The pool-wide band (drawn for big pools) breaks too.
    d.window.chartPanel()->setMaxIndividualSeries(2);
    d.window.chartPanel()->refreshNow();
    QVERIFY(d.window.chartPanel()->frame().bandShown);
    QCOMPARE(d.window.chartPanel()->frame().band.size(), 2); // before and after the outage
    d.screenshot(QStringLiteral("after-restart-band"));
}

// Item 3: counts going down, or the pool going away, with no action of ours: an event and a
// marker each. Our own eviction is not reported.
void TestSessionData::outsideChangesAreReported_data() {
    QTest::addColumn<QList<QByteArray>>("command");
    QTest::addColumn<QString>("expected");
    QTest::newRow("ZADD lowers two counts")
        << QList<QByteArray>{"ZADD", kKey, "3", "m1", "4", "m2"}
        << QStringLiteral("counts went back by 193 allocations on 2 members (m1, m2)");
    QTest::newRow("ZREM of a member") << QList<QByteArray>{"ZREM", kKey, "m3"}
                                      << QStringLiteral("1 members left the pool without an "
                                                        "eviction here (m3)");
    QTest::newRow("DEL of the key")
        << QList<QByteArray>{"DEL", kKey} << QStringLiteral("pool vanished: 3 members gone");
    QTest::newRow("FLUSHALL") << QList<QByteArray>{"FLUSHALL"}
                              << QStringLiteral("pool vanished: 3 members gone");
}

void TestSessionData::outsideChangesAreReported() {
    QFETCH(QList<QByteArray>, command);
    QFETCH(QString, expected);
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(4), 100);
    Dashboard d;
    QVERIFY(d.connectTo(redis));
    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    QVERIFY(d.session.evict({"m0"}));
    QVERIFY(evicted.wait(5000));
    QVERIFY(d.nextPoll());
    QVERIFY(d.nextPoll());
    QVERIFY(!anyContains(d.events(), QStringLiteral("left the pool")));
    QVERIFY(!anyContains(d.events(), QStringLiteral("went back")));

    QVERIFY(redis.run(command).type != RedisReply::Type::Error);
    QVERIFY(d.nextPoll());
    QVERIFY(d.nextPoll());
    QVERIFY2(anyContains(d.events(), expected), qPrintable(d.events().join(QLatin1Char('\n'))));
    d.window.chartPanel()->refreshNow();
    QVERIFY(anyContains(d.window.chartPanel()->frame().markerLabels(), expected));
}

// Item 4: the total is the sum of the counts now, says so, and shows what the evicted members
// took with them, so an eviction does not look like allocations going away.
void TestSessionData::totalDoesNotFallOnEviction() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(5), 100);
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    FairnessPanel *fairness = d.window.fairnessPanel();
    QCOMPARE(fairness->valueText(FairnessPanel::Field::Total), QStringLiteral("500"));
    const QLabel *title = fairness->findChild<QLabel *>(QStringLiteral("totalTitle"));
    QVERIFY(title);
    QVERIFY(!title->text().contains(QStringLiteral("Allocations")));
    QVERIFY(title->text().contains(QStringLiteral("now")));

    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    QVERIFY(d.session.evict({"m0", "m1"}));
    QVERIFY(evicted.wait(5000));
    QTRY_COMPARE(fairness->valueText(FairnessPanel::Field::Total),
                 QStringLiteral("300 (500 with the 2 evicted)"));
    d.screenshot(QStringLiteral("total-with-evicted"));
}

// Item 11: a WRONGTYPE error goes when a good key is watched.
void TestSessionData::wrongTypeErrorClearsOnGoodKey() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(3), 1);
    redis.run({"SET", "text", "not a pool"});
    Dashboard d;
    d.session.setPollInterval(100ms);
    QSignalSpy failed(&d.session, &PoolSession::pollFailed);
    d.session.connectTo(redis.endpoint(), "text");
    QVERIFY(failed.wait(10000));
    QVERIFY2(d.window.statusPanel()->currentMessage().contains(QStringLiteral("not a sorted set")),
             qPrintable(d.window.statusPanel()->currentMessage()));
    QVERIFY(d.connectTo(redis));
    QTRY_VERIFY_WITH_TIMEOUT(d.window.statusPanel()->currentMessage().isEmpty(), 2000);
    QVERIFY(d.window.statusPanel()->errorText().isEmpty());
}

// Item 11: a failed key scan's error goes once the server is back.
void TestSessionData::scanErrorClearsAfterRecovery() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(3), 1);
    Dashboard d;
    QVERIFY(d.connectTo(redis));
    redis.server().killHard();
    QSignalSpy commandFailed(&d.session, &PoolSession::commandFailed);
    d.session.findPoolKeys();
    QVERIFY(commandFailed.wait(10000));
    QCOMPARE(commandFailed.constLast().at(0).toString(), QStringLiteral("scan"));
    QVERIFY(!d.window.statusPanel()->currentMessage().isEmpty());
    QString error;
    QVERIFY2(redis.server().start(&error), qPrintable(error));
    QVERIFY(d.nextPoll());
    QTRY_VERIFY_WITH_TIMEOUT(d.window.statusPanel()->currentMessage().isEmpty(), 2000);
}

// Item 11: an authentication error goes once the password is given.
void TestSessionData::authErrorClearsAfterLogin() {
    RedisServerOptions options;
    options.extraArguments = {QStringLiteral("--requirepass"), QStringLiteral("s3cret-pw")};
    testing::RedisFixture redis(options);
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    Dashboard d;
    d.session.setPollInterval(100ms);
    // A refused login is not retried (a retry cannot help, and may lock the user out): the
    // session reports it once.
    QSignalSpy failed(&d.session, &PoolSession::authenticationFailed);
    d.session.connectTo(redis.endpoint(), kKey);
    QVERIFY(failed.wait(10000));
    QVERIFY(!d.window.statusPanel()->currentMessage().isEmpty());
    Endpoint withPassword = redis.endpoint();
    withPassword.password = QStringLiteral("s3cret-pw");
    QSignalSpy observed(&d.session, &PoolSession::observationApplied);
    d.session.connectTo(withPassword, kKey);
    QVERIFY(observed.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(d.window.statusPanel()->currentMessage().isEmpty(), 2000);
}

// Item 12: a key that is not a sorted set: the chart and the members panel say why nothing is
// shown (not "waiting" or "connecting" while the status bar says connected), and the time axis
// does not span a week of nothing.
void TestSessionData::stringKeySaysWhyNothingIsShown() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.run({"SET", "text", "not a pool"});
    Dashboard d;
    d.window.show();
    d.window.chartPanel()->setTimeWindow(ChartPanel::TimeWindow::Everything);
    d.session.setPollInterval(100ms);
    QSignalSpy failed(&d.session, &PoolSession::pollFailed);
    d.session.connectTo(redis.endpoint(), "text");
    QVERIFY(failed.wait(10000));
    QVERIFY(d.session.isConnected());
    d.window.chartPanel()->refreshNow();
    QVERIFY2(
        d.window.chartPanel()->frame().placeholder.contains(QStringLiteral("not a sorted set")),
        qPrintable(d.window.chartPanel()->frame().placeholder));
    QVERIFY2(d.window.membersPanel()->emptyStateText().contains(QStringLiteral("not a sorted set")),
             qPrintable(d.window.membersPanel()->emptyStateText()));
    QVERIFY2(d.window.chartPanel()->frame().time.spanMs() <= 60000,
             qPrintable(QString::number(d.window.chartPanel()->frame().time.spanMs())));
    d.screenshot(QStringLiteral("string-key"));
}

// Item 12: after the pool shrank, the headlines count the pool as it is; a line hidden in one
// pool is not counted as hidden in another.
void TestSessionData::shrunkPoolHeadlinesFollow() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(22), 10);
    redis.makePool("other", names(3, "o"), 1);
    Dashboard d;
    d.window.show();
    d.window.chartPanel()->setMaxIndividualSeries(5); // 22 members: the band is drawn
    // Counts, not differences from the median (the default for a pool this fair).
    d.window.chartPanel()->setValueMode(ChartPanel::ValueMode::Cumulative);
    QVERIFY(d.connectTo(redis));
    d.window.chartPanel()->refreshNow();
    QCOMPARE(d.window.chartPanel()->frame().bandName, QStringLiteral("pool min–max (22)"));
    QList<QByteArray> gone;
    for (int i = 12; i < 22; ++i)
        gone.append("m" + QByteArray::number(i));
    QList<QByteArray> zrem{"ZREM", kKey};
    zrem.append(gone);
    QCOMPARE(redis.run(zrem).integer, 10);
    // The poll under way when the members left may still count them: wait for one that read after.
    QTRY_COMPARE_WITH_TIMEOUT(d.session.latestObservation()->stats.size, qint64(12), 10000);
    d.window.chartPanel()->refreshNow();
    QCOMPARE(d.window.chartPanel()->frame().bandName, QStringLiteral("pool min–max (12)"));
    QVERIFY2(d.window.chartPanel()->frame().caption.startsWith(QStringLiteral("12 members")),
             qPrintable(d.window.chartPanel()->frame().caption));
    QCOMPARE(d.window.fairnessPanel()->valueText(FairnessPanel::Field::Members),
             QStringLiteral("12"));
    d.screenshot(QStringLiteral("shrunk-pool"));

    d.window.chartPanel()->setMaxIndividualSeries(ChartPanel::kDefaultMaxIndividualSeries);
    const QByteArray charted = d.window.chartPanel()->frame().members().constFirst();
    d.window.chartPanel()->toggleSeriesVisible(charted);
    QVERIFY(d.window.chartPanel()->frame().caption.contains(QStringLiteral("1 hidden")));
    QVERIFY(d.connectTo(redis, "other"));
    d.window.chartPanel()->refreshNow();
    QVERIFY2(!d.window.chartPanel()->frame().caption.contains(QStringLiteral("hidden")),
             qPrintable(d.window.chartPanel()->frame().caption));
}

// Item 14: restoring two members logs one event with the forecast the dialog showed (they share
// the flood), not one "this member will receive…" per member.
void TestSessionData::multiMemberRestoreLogsTheJointForecast() {
    testing::RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, names(5), 1000);
    Dashboard d;
    d.window.show();
    QVERIFY(d.connectTo(redis));
    QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
    QVERIFY(d.session.evict({"m0", "m1"}));
    QVERIFY(evicted.wait(5000));
    QVERIFY(d.nextPoll());

    RestoreDialog dialog(&d.session, {"m0", "m1"});
    dialog.setPolicy(RestorePolicy::Zero);
    const QString said = dialog.forecastText().section(QLatin1Char('\n'), 0, 0);
    QVERIFY2(said.contains(QStringLiteral("These 2 members will receive the next ~2")),
             qPrintable(said));
    QSignalSpy restored(&d.session, &PoolSession::membersRestored);
    QVERIFY(d.session.restore(dialog.members(), dialog.policy(), dialog.startCount()));
    QVERIFY(restored.wait(5000));
    QStringList restoreEntries;
    for (const QString &text : d.events())
        if (text.contains(QStringLiteral("restore")))
            restoreEntries.append(text);
    QCOMPARE(restoreEntries.size(), 1);
    QVERIFY2(restoreEntries.constFirst().contains(said), qPrintable(restoreEntries.constFirst()));
    QVERIFY(!anyContains(restoreEntries, QStringLiteral("This member will receive")));
    // The chart still marks each member's restore.
    QTRY_COMPARE(
        d.window.chartPanel()->frame().markerLabels().filter(QStringLiteral("restore")).size(), 2);
    d.screenshot(QStringLiteral("joint-restore"));
}

QTEST_MAIN(TestSessionData)
#include "tst_sessiondata.moc"
