// Proxy health in the dashboard, against one Redis server and loopback proxies started here
// (initTestCase): the Health column shows up / down / unknown / not checkable after "Check
// selected" and after another dashboard reads the health hash back; the table filters by health;
// a guard eviction run from the Guard panel becomes an event and a chart marker with its reason;
// the panel refuses to start while a CLI guard holds the lease.
#include "LoopbackProxies.h"
#include "MainWindowFixture.h"
#include "audit/AuditTrail.h"
#include "chart/ChartPanel.h"
#include "events/EventsPanel.h"
#include "health/GuardPanel.h"
#include "health/HealthTarget.h"
#include "members/HealthCell.h"
#include "pool/PoolKeys.h"
#include "recording/RecordingReader.h"
#include "session/PoolHealth.h"
#include "session/SessionRecorder.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QProcess>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace poolscope;
using namespace poolscope::testing;

class TestHealthPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void healthColumnShowsStates();
    void guardEvictionBecomesEventAndMarker();
    void panelRefusesWhileCliGuardHoldsLease();
    void guardEventsAreShownAndRecordedOnce();
    void cleanupTestCase();

private:
    QByteArray proxyMember(int i) const {
        return "127.0.0.1:" + QByteArray::number(m_proxies[size_t(i)]->port());
    }
    QString targetUrl() const {
        return QStringLiteral("http://127.0.0.1:%1/health").arg(m_target->port());
    }
    QString healthCell(Dashboard &d, const QByteArray &member, int role = Qt::DisplayRole) {
        const int row = d.model()->rowOf(member);
        return row < 0 ? QString()
                       : d.model()->index(row, PoolTableModel::Health).data(role).toString();
    }
    static int eventsContaining(Dashboard &d, const QString &text) {
        EventsPanel *events = d.window.eventsPanel();
        int count = 0;
        for (int i = 0; i < events->entryCount(); ++i)
            count += events->entryText(i).contains(text);
        return count;
    }
    static bool eventsContain(Dashboard &d, const QString &text) {
        return eventsContaining(d, text) > 0;
    }
    // The guard's actions shown in the Events panel.
    static int guardEvents(Dashboard &d) {
        return eventsContaining(d, QStringLiteral("guard evicted")) +
               eventsContaining(d, QStringLiteral("guard restored"));
    }

    RedisFixture m_redis;
    std::unique_ptr<LoopbackServer> m_target;
    std::vector<std::unique_ptr<LoopbackServer>> m_proxies;
    quint16 m_closedPort = 0;
};

void TestHealthPanel::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QVERIFY2(m_redis.start(), qPrintable(m_redis.error()));
    LoopbackServer::Options target;
    target.kind = LoopbackServer::Kind::HttpTarget;
    m_target = std::make_unique<LoopbackServer>(target);
    QVERIFY2(m_target->start(), qPrintable(m_target->error()));
    for (int i = 0; i < 5; ++i) {
        m_proxies.push_back(std::make_unique<LoopbackServer>(LoopbackServer::Options{}));
        QVERIFY2(m_proxies.back()->start(), qPrintable(m_proxies.back()->error()));
    }
    // A closed port: a proxy started and stopped again, its port refused from then on.
    LoopbackServer closed{LoopbackServer::Options{}};
    QVERIFY2(closed.start(), qPrintable(closed.error()));
    m_closedPort = closed.port();
    closed.stop();
}

void TestHealthPanel::cleanupTestCase() {
    m_proxies.clear();
    m_target.reset();
}

void TestHealthPanel::healthColumnShowsStates() {
    const QByteArray key = "health-column";
    const QByteArray up = proxyMember(0);
    const QByteArray failing = proxyMember(1);
    const QByteArray withSecret =
        "http://bob:topsecret@127.0.0.1:" + QByteArray::number(m_closedPort);
    const QByteArray documentation = "192.0.2.10:8080"; // never probed: not checkable
    const QByteArray neverChecked = proxyMember(2);
    m_redis.makePool(key, {up, failing, withSecret, documentation, neverChecked}, 10);
    m_proxies[1]->setFailing(true);
    const int acceptedBefore = m_proxies[2]->accepted();

    Dashboard d;
    QVERIFY(d.connectTo(m_redis, key));
    QTRY_COMPARE(d.model()->rowCount(), 5);
    QCOMPARE(healthCell(d, up), QStringLiteral("unknown"));

    // Check selected (Ctrl+K) asks for the target once and remembers it.
    QStringList asked;
    d.actions()->setAskTargetFunction([&](const QString &) {
        asked << targetUrl();
        return targetUrl();
    });
    d.window.membersPanel()->selectMembers({up, failing, withSecret, documentation});
    QTRY_VERIFY(d.actions()->checkSelectedAction()->isEnabled());
    QCOMPARE(d.actions()->checkSelectedAction()->shortcut(),
             QKeySequence(QStringLiteral("Ctrl+K")));
    QSignalSpy checked(&d.session.health(), &PoolHealth::checkFinished);
    d.actions()->checkSelectedAction()->trigger();
    QVERIFY(checked.wait(20000));
    QCOMPARE(checked.constLast().at(0).toLongLong(), 1); // up
    QCOMPARE(checked.constLast().at(1).toLongLong(), 2); // down
    QCOMPARE(checked.constLast().at(2).toLongLong(), 1); // not checkable
    QCOMPARE(asked.size(), 1);
    QCOMPARE(savedHealthTargetUrl(), targetUrl());
    // The Guard panel shows the target just saved (it was empty when the window opened).
    QCOMPARE(d.window.guardPanel()->targetEdit()->text(), targetUrl());

    // The check's results show at once; another dashboard reads the same from the health hash.
    QVERIFY2(healthCell(d, up).startsWith(QStringLiteral("up · ")), qPrintable(healthCell(d, up)));
    {
        Dashboard other;
        QSignalSpy read(&other.session.health(), &PoolHealth::healthRead);
        QVERIFY(other.connectTo(m_redis, key));
        QTRY_COMPARE(other.model()->rowCount(), 5);
        QVERIFY(read.wait(10000) || !read.isEmpty());
        for (Dashboard *shown : {&d, &other}) {
            QVERIFY2(healthCell(*shown, up).startsWith(QStringLiteral("up · ")),
                     qPrintable(healthCell(*shown, up)));
            QVERIFY(healthCell(*shown, up).endsWith(QStringLiteral(" ms")));
            QCOMPARE(healthCell(*shown, failing), QStringLiteral("down · unexpected-status"));
            QCOMPARE(healthCell(*shown, withSecret), QStringLiteral("down · refused"));
            QCOMPARE(healthCell(*shown, documentation), QStringLiteral("not checkable"));
            QCOMPARE(healthCell(*shown, neverChecked), QStringLiteral("unknown"));
            const QString tip = healthCell(*shown, withSecret, Qt::ToolTipRole);
            QVERIFY2(tip.contains(QStringLiteral("Last error")), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("1 consecutive failures")), qPrintable(tip));
            QVERIFY2(!tip.contains(QStringLiteral("topsecret")), qPrintable(tip));
            QVERIFY(healthCell(*shown, documentation, Qt::ToolTipRole)
                        .contains(QStringLiteral("not-checkable")));
        }
    }
    QCOMPARE(m_proxies[2]->accepted(), acceptedBefore); // not selected, not probed

    // A second check of the same member carries the counts on; the target is not asked again.
    d.window.membersPanel()->selectMembers({withSecret});
    QTRY_VERIFY(d.actions()->checkSelectedAction()->isEnabled());
    d.actions()->checkSelectedAction()->trigger();
    QVERIFY(checked.wait(20000));
    QCOMPARE(asked.size(), 1);
    QTRY_VERIFY(healthCell(d, withSecret, Qt::ToolTipRole)
                    .contains(QStringLiteral("2 consecutive failures")));

    // The filter by health.
    QComboBox *filter = d.window.membersPanel()->healthFilterBox();
    QSortFilterProxyModel *shown = d.window.membersPanel()->proxyModel();
    const auto showOnly = [&](HealthState state) {
        filter->setCurrentIndex(filter->findData(int(state)));
    };
    showOnly(HealthState::Down);
    QCOMPARE(shown->rowCount(), 2);
    showOnly(HealthState::Up);
    QCOMPARE(shown->rowCount(), 1);
    QCOMPARE(shown->index(0, 0).data(PoolTableModel::MemberRole).toByteArray(), up);
    showOnly(HealthState::Unknown);
    QCOMPARE(shown->rowCount(), 1);
    showOnly(HealthState::NotCheckable);
    QCOMPARE(shown->rowCount(), 1);
    d.window.membersPanel()->filterEdit()->setText(QStringLiteral("127.0.0.1"));
    QCOMPARE(shown->rowCount(), 0);
    QCOMPARE(d.window.membersPanel()->emptyStateText(),
             QStringLiteral("No member matches \"127.0.0.1\" and is not checkable (health "
                            "filter)."));
    d.window.membersPanel()->filterEdit()->clear();
    filter->setCurrentIndex(0);
    QCOMPARE(shown->rowCount(), 5);
    m_proxies[1]->setFailing(false);
}

void TestHealthPanel::guardEvictionBecomesEventAndMarker() {
    const QByteArray key = "health-guard";
    QList<QByteArray> members;
    for (int i = 0; i < 5; ++i)
        members << proxyMember(i);
    m_redis.makePool(key, members, 100);
    const QByteArray failing = proxyMember(3);
    for (auto &proxy : m_proxies)
        proxy->setFailing(false);
    m_proxies[3]->setFailing(true);

    Dashboard d;
    d.window.resize(1360, 860);
    d.window.show();
    QVERIFY(d.connectTo(m_redis, key, std::chrono::milliseconds(200)));
    QTRY_COMPARE(d.model()->rowCount(), 5);

    GuardPanel *panel = d.window.guardPanel();
    panel->targetEdit()->setText(targetUrl());
    panel->fallBox()->setValue(2);
    panel->riseBox()->setValue(2);
    panel->intervalBox()->setValue(0.3);
    QSignalSpy started(panel, &GuardPanel::guardStarted);
    QSignalSpy rounds(panel, &GuardPanel::roundFinished);
    QString error;
    QVERIFY2(panel->start(&error), qPrintable(error));
    QVERIFY(started.wait(10000));
    QVERIFY2(panel->stateText().contains(QStringLiteral("holding the lease")),
             qPrintable(panel->stateText()));
    QVERIFY(!m_redis.run({"GET", PoolKeys(key).guardLease()}).isNil());

    // Two failed rounds (fall 2): evicted, and the event and marker say why.
    QTRY_VERIFY2_WITH_TIMEOUT(d.row(failing) && d.row(failing)->evicted,
                              qPrintable(panel->lastRoundText() + u'\n' + panel->stateText()),
                              15000);
    const QString evicted = QStringLiteral("guard evicted %1").arg(QString::fromUtf8(failing));
    QTRY_VERIFY_WITH_TIMEOUT(eventsContain(d, evicted), 10000);
    QVERIFY(eventsContain(d, QStringLiteral("2 consecutive failed checks")));
    const auto marked = [&] {
        for (const ChartMarker &marker : d.window.chartPanel()->frame().markers)
            if (marker.kind == HistoryEvent::Kind::Evict && marker.label.startsWith(evicted) &&
                marker.label.contains(QStringLiteral("consecutive failed checks")))
                return true;
        return false;
    };
    QTRY_VERIFY(marked());
    // It came from the pool's audit trail, where the eviction names the dashboard's guard.
    const QList<AuditEntry> trail = AuditTrail(m_redis.admin(), PoolKeys(key)).after({}, 10);
    QVERIFY(!trail.isEmpty());
    QCOMPARE(trail.constFirst().action, AuditAction::Evict);
    QVERIFY2(trail.constFirst().actor.program.startsWith(u"poolscope dashboard"),
             qPrintable(trail.constFirst().actorText()));
    QVERIFY(!trail.constFirst().guardId.isEmpty());
    QCOMPARE(m_redis.run({"EXISTS", PoolKeys(key).guardEvents()}).integer, 0);
    QTRY_VERIFY(rounds.count() >= 2);
    QVERIFY(panel->lastRoundText().contains(QStringLiteral("evicted")));
    // The others stay; the health column shows the failing one down.
    for (int i : {0, 1, 2, 4})
        QVERIFY(d.row(proxyMember(i)) && !d.row(proxyMember(i))->evicted);
    QTRY_VERIFY(healthCell(d, failing).startsWith(QStringLiteral("down")));
    QTRY_VERIFY(healthCell(d, proxyMember(0)).startsWith(QStringLiteral("up")));

    // The screenshot: health column, the eviction marker with its reason, the guard panel.
    for (QDockWidget *dock : d.window.findChildren<QDockWidget *>())
        if (dock->objectName() == QStringLiteral("guardDock")) {
            QVERIFY(dock->isHidden()); // closed until asked for
            dock->toggleViewAction()->trigger();
            QVERIFY(dock->isVisible());
        }
    QCoreApplication::processEvents(); // the raised dock lays out before the grab
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    QVERIFY(d.window.grab().save(dir + QStringLiteral("/health-guard.png")));

    // Healthy again: restored after two good rounds; the event has the trail's count and policy.
    m_proxies[3]->setFailing(false);
    QTRY_VERIFY_WITH_TIMEOUT(
        eventsContain(d, QStringLiteral("guard restored %1: 2 consecutive successful checks; "
                                        "restored at count 100 (policy min)")
                             .arg(QString::fromUtf8(failing))),
        15000);

    QSignalSpy stopped(panel, &GuardPanel::guardStopped);
    panel->stop();
    QCOMPARE(stopped.count(), 1);
    // The lease is released on stop.
    QTRY_VERIFY(m_redis.run({"GET", PoolKeys(key).guardLease()}).isNil());
    m_proxies[3]->setFailing(false);
}

void TestHealthPanel::panelRefusesWhileCliGuardHoldsLease() {
    const QByteArray key = "health-lease";
    m_redis.makePool(key, {proxyMember(0), proxyMember(1)}, 5);
    QProcess cli;
    cli.start(QStringLiteral(POOLSCOPE_CLI_PATH),
              {QStringLiteral("--url"), m_redis.url(), QStringLiteral("--key"),
               QString::fromUtf8(key), QStringLiteral("guard"), QStringLiteral("--target"),
               targetUrl(), QStringLiteral("--interval"), QStringLiteral("0.2")});
    QVERIFY(cli.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(!m_redis.run({"GET", PoolKeys(key).guardLease()}).isNil(), 10000);

    Dashboard d;
    QVERIFY(d.connectTo(m_redis, key));
    GuardPanel *panel = d.window.guardPanel();
    panel->targetEdit()->setText(targetUrl());
    QSignalSpy refused(panel, &GuardPanel::guardRefused);
    QSignalSpy started(panel, &GuardPanel::guardStarted);
    QVERIFY(panel->start());
    QVERIFY(refused.wait(10000));
    const QString message = refused.constFirst().at(0).toString();
    QVERIFY2(message.contains(QStringLiteral("another guard")), qPrintable(message));
    QVERIFY(!panel->isRunning());
    QCOMPARE(started.count(), 0);
    QVERIFY(panel->stateText().contains(QStringLiteral("holds the lease")));
    QVERIFY(eventsContain(d, QStringLiteral("another guard")));

    ::kill(pid_t(cli.processId()), SIGINT); // Ctrl+C to its pid: it releases its lease
    QVERIFY(cli.waitForFinished(10000));
    // With the lease free, the panel starts.
    QTRY_VERIFY_WITH_TIMEOUT(m_redis.run({"GET", PoolKeys(key).guardLease()}).isNil(), 10000);
    QVERIFY(panel->start());
    QVERIFY(started.wait(10000));
    panel->stop();
}

// The guard's events are read again on every reconnect (and by every new session): each is shown,
// marked and recorded once, by its stream entry id.
void TestHealthPanel::guardEventsAreShownAndRecordedOnce() {
    const QByteArray key = "guard-replay";
    m_redis.makePool(key, {"m0", "m1", "m2"}, 10);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const QByteArray stream = PoolKeys(key).guardEvents();
    m_redis.run({"XADD", stream, "*", "t", QByteArray::number(now - 2000), "kind", "evict",
                 "member", "m1", "reason", "2 consecutive failed checks"});
    m_redis.run({"XADD", stream, "*", "t", QByteArray::number(now - 1000), "kind", "restore",
                 "member", "m1", "reason", "2 consecutive successful checks"});
    QTemporaryDir recordings;
    QVERIFY(recordings.isValid());
    const auto countIn = [](const QList<RecordingEvent> &events, RecordingEventKind kind) {
        return std::count_if(events.cbegin(), events.cend(),
                             [kind](const RecordingEvent &event) { return event.kind == kind; });
    };
    const auto recorded = [&](const QString &path) {
        QString error;
        const auto reader = RecordingReader::open(path, &error);
        return reader ? reader->events(0, now + 3'600'000) : QList<RecordingEvent>();
    };
    QString path;
    {
        Dashboard d;
        SessionRecorder recorder(&d.session);
        recorder.setDirectory(recordings.path());
        PoolHealth *health = &d.session.health();
        QVERIFY(d.connectTo(m_redis, key));
        QTRY_COMPARE(guardEvents(d), 2);
        path = recorder.recordingPath();
        QVERIFY(!path.isEmpty());
        for (int reconnect = 0; reconnect < 3; ++reconnect) {
            QSignalSpy read(health, &PoolHealth::healthRead);
            QVERIFY(d.connectTo(m_redis, key)); // the same pool again
            QVERIFY(read.wait(10000));
            QVERIFY(read.count() >= 2 || read.wait(10000)); // a whole read after the reconnect
        }
        // A new event after the reconnects is shown.
        m_redis.run({"XADD", stream, "*", "t", QByteArray::number(now), "kind", "evict", "member",
                     "m2", "reason", "2 consecutive failed checks"});
        QTRY_VERIFY(eventsContain(d, QStringLiteral("guard evicted m2")));
        int evictMarkers = 0;
        for (const ChartMarker &marker : d.window.chartPanel()->frame().markers)
            evictMarkers += marker.label.startsWith(QStringLiteral("guard evicted m1"));
        QCOMPARE(evictMarkers, 1);
        int evictLines = 0;
        EventsPanel *events = d.window.eventsPanel();
        for (int i = 0; i < events->entryCount(); ++i)
            evictLines += events->entryText(i).contains(QStringLiteral("guard evicted m1"));
        QCOMPARE(evictLines, 1);
        QTRY_COMPARE(countIn(recorded(path), RecordingEventKind::Evict), 2);
        QCOMPARE(countIn(recorded(path), RecordingEventKind::Restore), 1);
    }
    // The next session reads the same past events again: the file keeps one of each.
    {
        Dashboard d;
        SessionRecorder recorder(&d.session);
        recorder.setDirectory(recordings.path());
        QSignalSpy past(&recorder, &SessionRecorder::pastLoaded);
        QVERIFY(d.connectTo(m_redis, key));
        QTRY_COMPARE(guardEvents(d), 3);
        QTRY_COMPARE_WITH_TIMEOUT(past.count(), 2, 10000); // the overview, then every frame
        QCOMPARE(recorder.recordingPath(), path);
        // Read from the stream and from the recording: one marker.
        d.window.chartPanel()->setTimeWindow(ChartPanel::TimeWindow::Everything);
        d.window.chartPanel()->refreshNow();
        int markers = 0;
        for (const ChartMarker &marker : d.window.chartPanel()->frame().markers)
            markers += marker.label.startsWith(QStringLiteral("guard evicted m1"));
        QCOMPARE(markers, 1);
        // Something recorded after the guard events: once it is in the file, they were handled.
        d.session.addHistoryEvent(HistoryEvent::Kind::Note, {}, QStringLiteral("after"));
        const auto hasAfter = [&] {
            const QList<RecordingEvent> events = recorded(path);
            return std::any_of(events.cbegin(), events.cend(),
                               [](const RecordingEvent &e) { return e.label == u"after"; });
        };
        QTRY_VERIFY(hasAfter());
        QCOMPARE(countIn(recorded(path), RecordingEventKind::Evict), 2);
        QCOMPARE(countIn(recorded(path), RecordingEventKind::Restore), 1);
    }
    // The recording's past first, the stream after: still one marker.
    PoolSession session;
    auto past = std::make_unique<PoolHistory>();
    past->record(now - 3000, {{"m1", 10}});
    past->addEvent(
        {now - 2000, HistoryEvent::Kind::Evict, "m1", QStringLiteral("guard evicted m1")});
    past->record(now, {{"m0", 10}});
    session.adoptRecordedPast(std::move(past));
    session.addHistoryEvent(HistoryEvent::Kind::Evict, "m1", QStringLiteral("guard evicted m1"),
                            now - 2000, "1-0");
    QCOMPARE(session.history().events(0, now).size(), 1);
}

QTEST_MAIN(TestHealthPanel)
#include "tst_healthpanel.moc"
