// The dashboard's side of a team's pool, against real servers the test starts: what the CLI does
// appears live in the Events panel with its actor and reason, an emptied pool fires its alert in
// the session and in the Alerts panel, and the alert rules dialog saves into the connection.
#include "MainWindowFixture.h"
#include "actions/ReasonField.h"
#include "actions/RestoreDialog.h"
#include "alerts/AlertRulesDialog.h"
#include "audit/AuditTrail.h"
#include "audit/AuditView.h"
#include "session/AuditSearch.h"
#include "client/RedisConnection.h"
#include "alerts/AlertsPanel.h"
#include "events/EventsPanel.h"
#include "profiles/ProfileStore.h"
#include "session/PoolAlerts.h"
#include "session/PoolHealth.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLineEdit>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

// The events shown, newest first, as one text per entry.
QStringList eventTexts(const EventsPanel *panel) {
    QStringList texts;
    for (int row = 0; row < panel->entryCount(); ++row)
        texts << panel->entryText(row);
    return texts;
}

bool anyContains(const QStringList &texts, const QStringList &parts) {
    for (const QString &text : texts) {
        bool all = true;
        for (const QString &part : parts)
            all = all && text.contains(part);
        if (all)
            return true;
    }
    return false;
}

QStringList cliBase(const RedisFixture &redis, const QByteArray &key) {
    return {QStringLiteral("--url"), redis.url(), QStringLiteral("--key"), QString::fromUtf8(key)};
}

} // namespace

class TestTeamDashboard : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void cliActionsAppearLiveWithActorAndReason_data() {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("evict") << QStringList{QStringLiteral("evict"), QStringLiteral("m1"),
                                              QStringLiteral("--yes")}
                               << QStringList{QStringLiteral("evicted m1")};
        QTest::newRow("restore") << QStringList{QStringLiteral("restore"), QStringLiteral("m3"),
                                                QStringLiteral("--policy"), QStringLiteral("min")}
                                 << QStringList{QStringLiteral("restored m3")};
    }
    void cliActionsAppearLiveWithActorAndReason() {
        QFETCH(QStringList, command);
        QFETCH(QStringList, expected);
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.makePool(kKey, names(4), 3);
        // An evicted member to restore.
        CliRun run =
            runCli(cliBase(redis, kKey) + QStringList{QStringLiteral("evict"), QStringLiteral("m3"),
                                                      QStringLiteral("--yes")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        Dashboard d;
        QSignalSpy read(&d.session.health(), &PoolHealth::healthRead);
        QVERIFY(d.connectTo(redis));
        QVERIFY(read.wait(10000)); // the trail's place is known: what follows is news
        // What was done before the dashboard watched is the Audit view's, not the panel's.
        QVERIFY(
            !anyContains(eventTexts(d.window.eventsPanel()), {QStringLiteral("poolscope-cli")}));

        const QString reason = QStringLiteral("ticket OPS-%1").arg(QTest::currentDataTag());
        run = runCli(cliBase(redis, kKey) + command +
                     QStringList{QStringLiteral("--reason"), reason});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QTRY_VERIFY_WITH_TIMEOUT(
            anyContains(eventTexts(d.window.eventsPanel()),
                        expected + QStringList{reason, QStringLiteral("poolscope-cli")}),
            10000);
        // Once, however often the trail is read.
        for (int i = 0; i < 3; ++i)
            QVERIFY(read.wait(10000));
        int shown = 0;
        for (const QString &text : eventTexts(d.window.eventsPanel()))
            shown += text.contains(reason) ? 1 : 0;
        QCOMPARE(shown, 1);
    }

    void emptiedPoolFiresAndResolves() {
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.makePool(kKey, names(8)); // more than "few members" counts
        Dashboard d;
        QVERIFY(d.connectTo(redis));
        // Pool empty alone: the other rules may be pending for reasons of their own (no
        // allocations here), and resolving at the first poll that sees members again.
        AlertRule empty = AlertRule::defaults(AlertKind::PoolEmpty);
        empty.keepFiringMs = 0;
        const AlertRuleSet rules{{empty}};
        d.session.alerts().setRules(rules);
        QVERIFY(d.session.alerts().active().isEmpty());
        QSignalSpy fired(&d.session.alerts(), &PoolAlerts::alertFired);
        QSignalSpy resolved(&d.session.alerts(), &PoolAlerts::alertResolved);

        redis.run({"DEL", kKey});
        QVERIFY(fired.wait(10000));
        const auto transition = fired.constFirst().constFirst().value<AlertTransition>();
        QCOMPARE(transition.rule.kind, AlertKind::PoolEmpty);
        QCOMPARE(d.session.alerts().worstFiring(), std::optional(AlertSeverity::Critical));
        QTreeWidget *table = d.window.alertsPanel()->table();
        QTRY_COMPARE(table->topLevelItemCount(), 1);
        QCOMPARE(table->topLevelItem(0)->text(0), alertRuleTitle(AlertKind::PoolEmpty));
        QCOMPARE(table->topLevelItem(0)->text(1), QStringLiteral("firing"));
        QVERIFY(anyContains(eventTexts(d.window.eventsPanel()),
                            {QStringLiteral("alert fired"), QStringLiteral("Pool empty")}));
        bool marked = false;
        for (const HistoryEvent &event :
             d.session.history().events(0, QDateTime::currentMSecsSinceEpoch() + 1))
            marked = marked || event.label.contains(QStringLiteral("Pool empty"));
        QVERIFY(marked);

        redis.makePool(kKey, names(8));
        QVERIFY(resolved.wait(10000));
        QTRY_COMPARE(table->topLevelItemCount(), 0);
        QVERIFY(anyContains(eventTexts(d.window.eventsPanel()),
                            {QStringLiteral("alert resolved"), QStringLiteral("Pool empty")}));
        QCOMPARE(fired.size(), 1);
    }

    // The reason typed in the eviction question and in the restore dialog reaches the trail, and
    // an empty one records none.
    void dialogReasonsReachTheTrail() {
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.makePool(kKey, names(6), 2);
        Dashboard d;
        QVERIFY(d.connectTo(redis));
        const QString evictReason = QStringLiteral("flaky since 03:10, OPS-9");
        QString asked;
        d.actions()->setReasonConfirmFunction(
            [&](const QString &, const QString &question) -> std::optional<QString> {
                asked = question;
                return evictReason;
            });
        d.window.membersPanel()->selectMembers({"m4"});
        QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
        d.actions()->evictAction()->trigger();
        QVERIFY(evicted.wait(5000));
        QVERIFY(asked.contains(QStringLiteral("m4")));

        QTRY_VERIFY(d.row("m4") && d.row("m4")->evicted);
        d.window.membersPanel()->selectMembers({"m4"});
        RestoreDialog *dialog = d.actions()->openRestoreDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->reasonField());
        dialog->reasonField()->setText(QStringLiteral("  fixed upstream  "));
        QSignalSpy restored(&d.session, &PoolSession::membersRestored);
        dialog->restoreButton()->click();
        QVERIFY(restored.wait(5000));

        // A question answered without a reason (the old ConfirmFunction) records none.
        d.actions()->setConfirmFunction([](const QString &, const QString &) { return true; });
        d.window.membersPanel()->selectMembers({"m5"});
        d.actions()->evictAction()->trigger();
        QVERIFY(evicted.wait(5000));

        auto connection = redis.connect();
        AuditTrail trail(*connection, PoolKeys(kKey));
        const QList<AuditEntry> entries = trail.after({}, 10);
        QCOMPARE(entries.size(), 3);
        QCOMPARE(entries[0].action, AuditAction::Evict);
        QCOMPARE(entries[0].reason, evictReason);
        QCOMPARE(entries[1].action, AuditAction::Restore);
        QCOMPARE(entries[1].reason, QStringLiteral("fixed upstream"));
        QCOMPARE(entries[2].action, AuditAction::Evict);
        QCOMPARE(entries[2].reason, QString());
    }

    // The Audit view reads the whole trail off the GUI thread, filters by member, actor and action,
    // and exports what it shows.
    void auditViewFiltersAndExports_data() {
        QTest::addColumn<QString>("member");
        QTest::addColumn<QString>("actor");
        QTest::addColumn<QString>("action");
        QTest::addColumn<int>("rows");
        QTest::newRow("all") << QString() << QString() << QString() << 4;
        QTest::newRow("member m2") << QStringLiteral("m2") << QString() << QString() << 2;
        QTest::newRow("the cli") << QString() << QStringLiteral("poolscope-cli") << QString() << 4;
        QTest::newRow("no such actor")
            << QString() << QStringLiteral("nobody-here") << QString() << 0;
        QTest::newRow("restores") << QString() << QString() << QStringLiteral("restore") << 1;
    }
    void auditViewFiltersAndExports() {
        QFETCH(QString, member);
        QFETCH(QString, actor);
        QFETCH(QString, action);
        QFETCH(int, rows);
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.makePool(kKey, names(6), 1);
        for (const QStringList &command :
             {QStringList{QStringLiteral("evict"), QStringLiteral("m1"), QStringLiteral("--yes")},
              QStringList{QStringLiteral("evict"), QStringLiteral("m2"), QStringLiteral("--yes")},
              QStringList{QStringLiteral("evict"), QStringLiteral("m3"), QStringLiteral("--yes")},
              QStringList{QStringLiteral("restore"), QStringLiteral("m2"),
                          QStringLiteral("--policy"), QStringLiteral("min"),
                          QStringLiteral("--reason"), QStringLiteral("back, \"fixed\"")}}) {
            const CliRun run = runCli(cliBase(redis, kKey) + command);
            QVERIFY2(run.exitCode == 0, run.err.constData());
        }
        Dashboard d;
        QVERIFY(d.connectTo(redis));
        AuditView view(&d.session);
        view.memberFilter()->setText(member);
        view.actorFilter()->setText(actor);
        if (!action.isEmpty())
            view.actionFilter()->setCurrentIndex(view.actionFilter()->findText(action));
        QSignalSpy finished(view.searcher(), &AuditSearch::searchFinished);
        view.search();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.constLast().at(1).toBool(), true);
        QCOMPARE(view.table()->topLevelItemCount(), rows);
        if (rows == 0)
            return;
        // Newest first.
        if (action.isEmpty() && member.isEmpty())
            QCOMPARE(view.table()->topLevelItem(0)->text(AuditView::Action),
                     QStringLiteral("restore"));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.csv"));
        QCOMPARE(view.exportCsv(path), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), rows + 1);
        QVERIFY(lines[0].startsWith("Time,Action,Members,Count,Actor,Reason"));
        if (action == u"restore")
            QVERIFY2(lines[1].endsWith(",\"back, \"\"fixed\"\"\""), lines[1].constData());
    }

    void rulesDialogSavesIntoTheConnection() {
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.makePool(kKey, names(3));
        // A profiles file of its own: other tests may use the test settings at the same time.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("profiles.ini"));
        ProfileStore store(file);
        ConnectionProfile profile;
        profile.name = QStringLiteral("team pool");
        profile.url = redis.url();
        profile.poolKey = kKey;
        QCOMPARE(store.save(profile), QString());

        Dashboard d;
        QVERIFY(d.connectTo(redis));
        AlertsPanel own(&d.session, &store);
        AlertsPanel *panel = &own;
        panel->useProfile(profile.name);
        QCOMPARE(d.session.alerts().rules(), AlertRuleSet::defaults());
        panel->editRules();
        auto *dialog = panel->findChild<AlertRulesDialog *>();
        QVERIFY(dialog);
        QTableWidget *table = dialog->table();
        int smallRow = -1;
        for (int row = 0; row < table->rowCount(); ++row)
            if (table->item(row, AlertRulesDialog::Rule)->text() ==
                alertRuleTitle(AlertKind::PoolSmall))
                smallRow = row;
        QCOMPARE_GE(smallRow, 0);
        auto *minimum = table->cellWidget(smallRow, AlertRulesDialog::Thresholds)
                            ->findChild<QDoubleSpinBox *>(QStringLiteral("minMembers"));
        QVERIFY(minimum);
        minimum->setValue(40);
        QMetaObject::invokeMethod(dialog, [dialog] {
            dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        });
        QTRY_VERIFY(!panel->findChild<AlertRulesDialog *>());

        const ProfileLoadResult loaded = ProfileStore(file).load(profile.name);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const AlertRuleSet saved = loaded.profile->alertRulesFor(kKey);
        QCOMPARE(saved, d.session.alerts().rules());
        bool found = false;
        for (const AlertRule &rule : saved.rules)
            if (rule.kind == AlertKind::PoolSmall) {
                QCOMPARE(rule.parameter("minMembers"), 40.0);
                found = true;
            }
        QVERIFY(found);
        // Three members, fewer than 40: the new rule is the one judged (pending for its "for").
        d.session.alerts().evaluateNow();
        bool pending = false;
        for (const AlertStatus &status : d.session.alerts().active())
            pending = pending || status.rule.kind == AlertKind::PoolSmall;
        QVERIFY(pending);
    }
};

QTEST_MAIN(TestTeamDashboard)
#include "tst_teamdashboard.moc"
