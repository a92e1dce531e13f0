// The watched pool's state lives in the session, below the widgets: the pins exist once (a
// session with no widget can be pinned; a pin asked for in the window reaches the table, the
// chart, the history and the recording through the session alone), the mode is one value with
// one signal, and the key's problems are decided in the session on the server's codes; a pause
// breaks the lines. Against real redis-servers (the pause against a scripted feed), offscreen.
#include "MainWindowFixture.h"
#include "ScriptedFeed.h"

#include "chart/ChartPanel.h"
#include "history/PoolHistory.h"
#include "recording/RecordingReader.h"
#include "session/SessionRecorder.h"

#include <QAction>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

QByteArray memberAt(int i) {
    return "m" + QByteArray::number(i).rightJustified(2, '0');
}

QList<QByteArray> recordedMembers(const QString &path) {
    QString error;
    const auto reader = RecordingReader::open(path, &error);
    return reader ? reader->members() : QList<QByteArray>();
}

} // namespace

class TestSessionState : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pinsWithoutAnyWidget();
    void pinFromTheWindowReachesEveryConsumer();
    void pinsReachHistoryAndRecorderWithNoWidget();
    void modeFollowsTheConnection();
    void keyProblemsDecidedInTheSession();
    void pauseBreaksTheLines();
};

// No server, no widget: the session alone holds the pins and says when they change.
void TestSessionState::pinsWithoutAnyWidget() {
    PoolSession session;
    QSignalSpy changed(&session, &PoolSession::pinsChanged);
    session.pin({"b", "a"});
    QCOMPARE(changed.size(), 1);
    QCOMPARE(session.pins(), (QList<QByteArray>{"a", "b"}));
    QCOMPARE(changed.constLast().at(0).value<QList<QByteArray>>(), session.pins());
    session.pin({"a"}); // no change, no signal
    QCOMPARE(changed.size(), 1);
    session.togglePins({"a", "c"}); // not all pinned: pins
    QCOMPARE(session.pins(), (QList<QByteArray>{"a", "b", "c"}));
    session.togglePins({"a", "c"}); // all pinned: unpins
    QCOMPARE(session.pins(), QList<QByteArray>{"b"});
    session.unpin({"b"});
    QVERIFY(session.pins().isEmpty());
    QVERIFY(!session.isPinned("b"));
    session.setPins({"x"});
    QVERIFY(session.isPinned("x"));
    QCOMPARE(changed.size(), 5);
}

// A big pool (more members than the history and the recorder keep whole, fewer lines than it
// has members): the middle member is kept by nobody until it is pinned from the window; then the
// table marks it, the chart draws it, the history follows it and the recording holds it, with no
// widget passing the pins on.
void TestSessionState::pinFromTheWindowReachesEveryConsumer() {
    RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    for (int i = 0; i < 40; ++i)
        redis.makePool(kKey, {memberAt(i)}, 10 * i);
    const QByteArray middle = memberAt(20);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    PoolHistory::Limits limits;
    limits.maxTrackedMembers = 4;
    PoolSession session(limits);
    MainWindow window(&session);
    window.actions()->setConfirmFunction([](const QString &, const QString &) { return true; });
    window.chartPanel()->setMaxIndividualSeries(2);
    SessionRecorder recorder(&session); // the window is not told about it: it needs no wiring
    recorder.setDirectory(dir.path());
    recorder.setWholePoolLimit(4);
    window.show();
    session.setPollInterval(100ms);
    QSignalSpy observed(&session, &PoolSession::observationApplied);
    session.connectTo(redis.endpoint(), kKey);
    QVERIFY(observed.wait(10000));
    QTRY_COMPARE_WITH_TIMEOUT(window.membersPanel()->model()->rowCount(), 40, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!recorder.recordingPath().isEmpty(), 10000);
    window.chartPanel()->refreshNow();
    QVERIFY(!window.chartPanel()->frame().members().contains(middle));
    const auto middleSeries = [&] {
        return session.history().series(middle, 0, std::numeric_limits<qint64>::max()).size();
    };
    QCOMPARE(middleSeries(), 0);

    QSignalSpy pins(&session, &PoolSession::pinsChanged);
    window.membersPanel()->selectMembers({middle});
    window.actions()->pinAction()->trigger();
    QCOMPARE(pins.size(), 1);
    QCOMPARE(session.pins(), QList<QByteArray>{middle});

    PoolTableModel *model = window.membersPanel()->model();
    const QModelIndex cell = model->index(model->rowOf(middle), PoolTableModel::Member);
    QVERIFY(cell.data(PoolTableModel::PinnedRole).toBool());
    QVERIFY(cell.data().toString().startsWith(QStringLiteral("⚑")));
    QVERIFY(window.actions()->pinAction()->isChecked());
    for (int i = 0; i < 3; ++i) // the polls after the pin: the history and the recorder take it
        QVERIFY(observed.wait(10000));
    window.chartPanel()->refreshNow();
    QVERIFY(window.chartPanel()->frame().members().contains(middle));
    QCOMPARE_GT(middleSeries(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(recordedMembers(recorder.recordingPath()).contains(middle), 10000);
    // A member nobody pinned stays out of the recording (the recorder keeps ends and pins only).
    QVERIFY(!recordedMembers(recorder.recordingPath()).contains(memberAt(19)));

    // Unpinned from the session: the table follows, with no widget in between.
    session.unpin({middle});
    QVERIFY(!cell.data(PoolTableModel::PinnedRole).toBool());
    QVERIFY(!window.actions()->pinAction()->isChecked());
}

// No widget at all (nothing charted): a pool read whole but bigger than the history and the
// recorder keep whole; a pin alone makes the history follow the middle member and the recorder
// keep it. (The poller reading pinned members of a pool too big to read whole: tst_summarymode.)
void TestSessionState::pinsReachHistoryAndRecorderWithNoWidget() {
    RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    for (int i = 0; i < 40; ++i)
        redis.makePool(kKey, {memberAt(i)}, 10 * i);
    const QByteArray middle = memberAt(20);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    PoolHistory::Limits limits;
    limits.maxTrackedMembers = 4;
    PoolSession session(limits);
    SessionRecorder recorder(&session);
    recorder.setDirectory(dir.path());
    recorder.setWholePoolLimit(4);
    session.setPollInterval(100ms);
    QSignalSpy observed(&session, &PoolSession::observationApplied);
    session.connectTo(redis.endpoint(), kKey);
    QVERIFY(observed.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(!recorder.recordingPath().isEmpty(), 10000);
    session.pin({middle});
    for (int i = 0; i < 3; ++i)
        QVERIFY(observed.wait(10000));
    QCOMPARE_GT(session.history().series(middle, 0, std::numeric_limits<qint64>::max()).size(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(recordedMembers(recorder.recordingPath()).contains(middle), 10000);
    QVERIFY(!recordedMembers(recorder.recordingPath()).contains(memberAt(19)));
}

// One mode, one signal: idle, live, stale when the server dies after a good poll, live again,
// stale when left with figures; outage when no poll ever answered; idle when that is left.
void TestSessionState::modeFollowsTheConnection() {
    RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.makePool(kKey, {"a", "b"}, 1);
    PoolSession session;
    session.setPollInterval(100ms);
    QCOMPARE(session.mode(), SessionMode::Idle);
    QSignalSpy modes(&session, &PoolSession::modeChanged);
    QSignalSpy observed(&session, &PoolSession::observationApplied);
    session.connectTo(redis.endpoint(), kKey);
    QCOMPARE(session.mode(), SessionMode::Live);
    QVERIFY(observed.wait(10000));
    QCOMPARE(session.mode(), SessionMode::Live);

    redis.server().killHard();
    QVERIFY(modes.wait(10000));
    QCOMPARE(session.mode(), SessionMode::Stale);
    QVERIFY(session.isStale());
    QString error;
    QVERIFY2(redis.server().start(&error), qPrintable(error));
    QVERIFY(observed.wait(10000));
    QCOMPARE(session.mode(), SessionMode::Live);
    session.disconnectFromServer();
    QCOMPARE(session.mode(), SessionMode::Stale); // the last poll's figures stay on screen
    QCOMPARE(modes.constLast().at(0).value<SessionMode>(), SessionMode::Stale);

    // Nothing answers at all: an outage with no figures, then nothing watched.
    PoolSession unanswered;
    QSignalSpy unansweredModes(&unanswered, &PoolSession::modeChanged);
    Endpoint dead = redis.endpoint();
    redis.server().killHard();
    unanswered.connectTo(dead, kKey);
    QTRY_COMPARE_WITH_TIMEOUT(unanswered.mode(), SessionMode::Outage, 10000);
    QVERIFY(!unanswered.isStale());
    unanswered.disconnectFromServer();
    QCOMPARE(unanswered.mode(), SessionMode::Idle);
    QCOMPARE(unansweredModes.size(), 3); // live, outage, idle
}

// The key's problem is the session's: missing (Seed stays on: a seed creates it), another type
// (Seed and Test allocations off, saying why), gone with the first good poll.
void TestSessionState::keyProblemsDecidedInTheSession() {
    RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    Dashboard d;
    QSignalSpy problems(&d.session, &PoolSession::keyProblemChanged);
    QVERIFY(d.connectTo(redis));
    QCOMPARE(d.session.keyProblem().kind, KeyProblem::Kind::Missing);
    QVERIFY(d.session.keyProblem().text.contains(QString::fromUtf8(kKey)));
    QTRY_VERIFY(d.session.canWrite());
    QVERIFY(d.actions()->seedAction()->isEnabled());

    redis.run({"SET", kKey, "a string"});
    QTRY_COMPARE_WITH_TIMEOUT(d.session.keyProblem().kind, KeyProblem::Kind::WrongType, 10000);
    QVERIFY(d.session.keyProblem().blocksPoolCommands());
    QVERIFY(!d.actions()->seedAction()->isEnabled());
    QVERIFY(!d.actions()->testAllocationsAction()->isEnabled());
    QVERIFY2(d.actions()->seedAction()->toolTip().contains(d.session.keyProblem().text),
             qPrintable(d.actions()->seedAction()->toolTip()));

    redis.run({"DEL", kKey});
    redis.makePool(kKey, {"a"}, 0);
    QTRY_VERIFY_WITH_TIMEOUT(d.session.keyProblem().isNone(), 10000);
    QVERIFY(d.actions()->seedAction()->isEnabled());
    QCOMPARE(problems.constLast().at(0).value<KeyProblem>().kind, KeyProblem::Kind::None);
}

QTEST_MAIN(TestSessionState)
// Nothing is read while paused: after Resume the lines start again instead of joining straight
// across the pause (in difference mode that drew values nobody saw), as after an outage.
void TestSessionState::pauseBreaksTheLines() {
    auto [feed, script] = ScriptedFeed::make();
    PoolSession session(std::move(feed));
    const QTemporaryDir socketDir;
    session.connectTo(ScriptedFeed::nowhere(socketDir.path()), kKey);
    script->answerConnected();
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - 10000;
    script->answerPoll({{"a", 1}, {"b", 1}}, {}, start);
    script->answerPoll({{"a", 2}, {"b", 1}}, {}, start + 1000);
    session.setPaused(true);
    QCOMPARE(session.history().events(0, start + 20000).size(), 0); // a pause alone marks nothing
    session.setPaused(false);
    const qint64 resumed = session.history().latestTimeMs() + 1;
    script->answerPoll({{"a", 9}, {"b", 9}}, {}, start + 15000);

    const QList<HistoryEvent> events = session.history().events(0, start + 20000);
    QCOMPARE(events.size(), 1);
    QCOMPARE(events[0].kind, HistoryEvent::Kind::Gap);
    QCOMPARE(events[0].label, QStringLiteral("polling paused"));
    QCOMPARE_GE(events[0].timeMs, resumed);
    const QList<HistoryPoint> line = session.history().series("a", 0, start + 20000);
    QVERIFY(std::any_of(line.cbegin(), line.cend(),
                        [](const HistoryPoint &point) { return std::isnan(point.count); }));
    QCOMPARE(line.constLast(), (HistoryPoint{start + 15000, 9}));
}

#include "tst_sessionstate.moc"
