// A saved connection marked production, opened from the main window against a real server: it
// opens locked (banner, status bar, every write refused, the test allocations too), one click
// unlocks writes for this session only, and destructive writes still need the pool's name typed
// (several evictions, a restore at zero, the count-reset demo). Another connection chosen locks
// again; a staging one is only labelled.
#include "MainWindowFixture.h"
#include "RedisFixture.h"

#include "actions/ResetScenarioDialog.h"
#include "actions/RestoreDialog.h"
#include "actions/TestAllocationDialog.h"
#include "actions/TypedConfirmDialog.h"
#include "connection/ConnectionBar.h"
#include "connection/EnvironmentBanner.h"
#include "profiles/ProfileStore.h"
#include "session/WriteLock.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

class TestProductionLock : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<RedisFixture> m_redis;

    void save(MainWindow &window, const QString &name, Environment environment) {
        ConnectionProfile profile;
        profile.name = name;
        profile.url = m_redis->url();
        profile.poolKey = kKey;
        profile.environment = environment;
        profile.pollInterval = std::chrono::milliseconds(100);
        window.profileStore()->remove(name);
        QCOMPARE(window.profileStore()->save(profile), QString());
    }
    static bool open(Dashboard &d, const QString &name) {
        QSignalSpy observed(&d.session, &PoolSession::observationApplied);
        return d.window.connectProfile(name) && observed.wait(10000);
    }
    double count(const QByteArray &member) {
        const RedisReply reply = m_redis->run({"ZSCORE", kKey, member});
        return reply.isNil() ? -1 : reply.toDouble();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("HOME", QFile::encodeName(m_dir.path()));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral(".config"))));
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        QStandardPaths::setTestModeEnabled(true);
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }
    void init() {
        m_redis->run({"FLUSHALL"});
        m_redis->makePool(kKey, names(6), 5);
    }

    void productionOpensLockedAndOneClickUnlocks() {
        Dashboard d;
        save(d.window, QStringLiteral("prod"), Environment::Production);
        QVERIFY(open(d, QStringLiteral("prod")));
        QVERIFY(d.session.writeLock().isLocked());
        QVERIFY(!d.session.canWrite());
        QCOMPARE(d.session.writeBlockReason(), WriteLock::lockedReason());
        EnvironmentBanner *banner = d.window.environmentBanner();
        QVERIFY(!banner->isHidden());
        QVERIFY2(banner->statusLabel()->text().contains(QStringLiteral("locked")),
                 qPrintable(banner->statusLabel()->text()));
        QVERIFY(!d.actions()->evictAction()->isEnabled());
        QVERIFY(!d.actions()->testAllocationsAction()->isEnabled());
        QVERIFY(!d.actions()->openTestAllocationDialog());
        QVERIFY(!d.actions()->openSeedDialog());

        // A write asked for anyway is refused: nothing reaches the server.
        QVERIFY(!d.session.evict({"m0"}));
        QCOMPARE(count("m0"), 5.0);

        // One click: unlocked for this session, and said so.
        QSignalSpy availability(&d.session, &PoolSession::writeAvailabilityChanged);
        banner->lockButton()->click();
        QVERIFY(!d.session.writeLock().isLocked());
        QVERIFY(d.session.canWrite());
        QVERIFY(!availability.isEmpty() && availability.last().at(0).toBool());
        QVERIFY2(banner->statusLabel()->text().contains(QStringLiteral("unlocked")),
                 qPrintable(banner->statusLabel()->text()));
        QVERIFY(d.window.environmentBanner()->unlockAction()->isChecked());
        const auto selectM0 = [&] {
            d.window.membersPanel()->selectMembers({"m0"});
            return d.window.membersPanel()->selectedPoolMembers().size() == 1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(selectM0(), 10000);
        QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
        d.actions()->evictAction()->trigger(); // one member: the ordinary question
        QVERIFY(evicted.wait(5000));
        QCOMPARE(count("m0"), -1.0);

        // Choosing the connection again locks it again.
        QVERIFY(open(d, QStringLiteral("prod")));
        QVERIFY(d.session.writeLock().isLocked());
        QVERIFY(!d.session.canWrite());
    }

    void destructiveWritesNeedThePoolNameTyped() {
        Dashboard d;
        save(d.window, QStringLiteral("prod"), Environment::Production);
        QVERIFY(open(d, QStringLiteral("prod")));
        d.session.writeLock().unlock();
        QStringList asked;
        bool answer = false;
        d.actions()->setTypedConfirmFunction(
            [&](const QString &, const QString &, const QString &expected) {
                asked << expected;
                return answer;
            });

        // Several members: typed, and nothing evicted when it was not.
        // Selected once the first poll's rows are in the table (a slow machine polls later).
        const auto selectTwo = [&] {
            d.window.membersPanel()->selectMembers({"m1", "m2"});
            return d.window.membersPanel()->selectedPoolMembers().size() == 2;
        };
        QTRY_VERIFY_WITH_TIMEOUT(selectTwo(), 10000);
        QVERIFY(!d.actions()->evictSelected());
        QCOMPARE(asked, QStringList{QString::fromUtf8(kKey)});
        QCOMPARE(count("m1"), 5.0);
        answer = true;
        QSignalSpy evicted(&d.session, &PoolSession::membersEvicted);
        QVERIFY(d.actions()->evictSelected());
        QVERIFY(evicted.wait(5000));
        QCOMPARE(count("m1"), -1.0);

        // Restore at zero: typed; refused, nothing restored.
        QTRY_VERIFY_WITH_TIMEOUT(d.row("m1") && d.row("m1")->evicted, 10000);
        answer = false;
        asked.clear();
        d.window.membersPanel()->selectMembers({"m1"});
        RestoreDialog *restore = d.actions()->openRestoreDialog();
        QVERIFY(restore);
        restore->setPolicy(RestorePolicy::Zero);
        restore->accept();
        QCOMPARE(asked.size(), 1);
        QCOMPARE(count("m1"), -1.0);
        answer = true;
        d.window.membersPanel()->selectMembers({"m1"});
        restore = d.actions()->openRestoreDialog();
        QVERIFY(restore);
        restore->setPolicy(RestorePolicy::Zero);
        QSignalSpy restored(&d.session, &PoolSession::membersRestored);
        restore->accept();
        QVERIFY(restored.wait(5000));
        QCOMPARE(count("m1"), 0.0);

        // The count-reset demo: not started without the name.
        answer = false;
        asked.clear();
        ResetScenarioDialog *scenario = d.actions()->openResetScenarioDialog();
        QVERIFY(scenario);
        QVERIFY(!scenario->start());
        QCOMPARE(asked.size(), 1);
        QVERIFY(!scenario->isRunning());
        scenario->close();
    }

    void typedDialogConfirmsOnlyTheExactName() {
        TypedConfirmDialog dialog(QStringLiteral("t"), QStringLiteral("q"),
                                  QStringLiteral("proxies"));
        QVERIFY(!dialog.confirmButton()->isEnabled());
        QTest::keyClicks(dialog.field(), QStringLiteral("proxie"));
        QVERIFY(!dialog.confirmButton()->isEnabled());
        QTest::keyClicks(dialog.field(), QStringLiteral("s"));
        QVERIFY(dialog.confirmButton()->isEnabled());
        QTest::keyClicks(dialog.field(), QStringLiteral(" "));
        QVERIFY(!dialog.confirmButton()->isEnabled());
    }

    void stagingIsLabelledNotLocked() {
        Dashboard d;
        save(d.window, QStringLiteral("stage"), Environment::Staging);
        QVERIFY(open(d, QStringLiteral("stage")));
        QVERIFY(!d.session.writeLock().isLocked());
        QVERIFY(d.session.canWrite());
        QVERIFY(!d.window.environmentBanner()->isHidden());
        QVERIFY(d.window.environmentBanner()->lockButton()->isHidden());
    }

    void typedUrlAfterProductionHasNoEnvironment() {
        Dashboard d;
        save(d.window, QStringLiteral("prod"), Environment::Production);
        QVERIFY(open(d, QStringLiteral("prod")));
        QVERIFY(!d.session.canWrite());
        QSignalSpy observed(&d.session, &PoolSession::observationApplied);
        Q_EMIT d.window.connectionBar()->connectRequested(m_redis->endpoint(), kKey);
        QVERIFY(observed.wait(10000));
        QCOMPARE(d.session.writeLock().environment(), Environment::None);
        QVERIFY(d.session.canWrite());
        QVERIFY(d.window.environmentBanner()->isHidden());
    }
};

QTEST_MAIN(TestProductionLock)
#include "tst_productionlock.moc"
