// The dashboard through an SSH tunnel: the --ssh options on its command line, a status bar that
// names the tunnel ("connected · via ssh bastion") against a real sshd and redis-server started
// by the test, and the connection bar keeping the tunnel for a URL typed into it.

#include "MainWindow.h"
#include "transport/UserPrompts.h"
#include "connection/ConnectionBar.h"
#include "connection/StatusBarPanel.h"
#include "chart/ChartPanel.h"
#include "members/MembersPanel.h"
#include "session/PoolSession.h"
#include "startup/AppOptions.h"

#include "RedisFixture.h"
#include "SshFixture.h"

#include <QComboBox>
#include <QtTest>

using namespace poolscope;
using namespace std::chrono_literals;

class TestSshDashboard : public QObject {
    Q_OBJECT

private:
    testing::SshFixture m_ssh;
    std::unique_ptr<testing::RedisFixture> m_redis;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(m_ssh.start(), qPrintable(m_ssh.error()));
        RedisServerOptions options;
        options.useTcp = true;
        m_redis = std::make_unique<testing::RedisFixture>(options);
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
        m_redis->makePool("proxies", {"192.0.2.1:8080", "192.0.2.2:8080"}, 3);
        qputenv("HOME", m_ssh.home().toLocal8Bit()); // its .ssh: known_hosts and "bastion"
        qputenv("SSH_AUTH_SOCK", m_ssh.agentSocket().toLocal8Bit());
    }

    void commandLine_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error"); // empty: accepted
        QTest::newRow("every option") << QStringList{"--url",           "redis://10.1.2.3:6379",
                                                     "--ssh",           "ops@bastion:2222",
                                                     "--ssh-key",       "KEY",
                                                     "--ssh-accept-new"}
                                      << QString();
        QTest::newRow("alias alone")
            << QStringList{"--url", "unix:///run/redis.sock", "--ssh", "bastion"} << QString();
        QTest::newRow("--ssh with the embedded server")
            << QStringList{"--ssh", "bastion"}
            << QStringLiteral("--ssh needs a server (--url or REDIS_URL)");
        QTest::newRow("--ssh-key without --ssh")
            << QStringList{"--url", "redis://localhost", "--ssh-key", "KEY"}
            << QStringLiteral("--ssh-key needs --ssh");
        QTest::newRow("bad destination")
            << QStringList{"--url", "redis://localhost", "--ssh", "ops@"}
            << QStringLiteral("bad --ssh \"ops@\": no host");
    }
    void commandLine() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        for (QString &argument : arguments)
            if (argument == QLatin1String("KEY"))
                argument = m_ssh.path(QStringLiteral("keys/id_plain"));
        const AppOptionsResult result = parseAppOptions(
            QStringList{QStringLiteral("poolscope")} + arguments, {}, QStringLiteral("1"));
        if (!error.isEmpty()) {
            QVERIFY2(result.error.startsWith(error), qPrintable(result.error));
            return;
        }
        QVERIFY2(result.options, qPrintable(result.error));
        const int at = int(arguments.indexOf(QStringLiteral("--ssh")));
        QCOMPARE(result.options->ssh.destination, arguments.at(at + 1));
        QCOMPARE(result.options->ssh.acceptNewHostKey,
                 arguments.contains(QStringLiteral("--ssh-accept-new")));
    }

    void statusBarNamesTheTunnel() {
        PoolSession session;
        MainWindow window(&session);
        session.setPollInterval(100ms);
        Endpoint endpoint = m_redis->endpoint();
        endpoint.ssh.destination = QStringLiteral("bastion");
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.connectTo(endpoint, "proxies");
        QVERIFY(observed.wait(10000));
        QTRY_VERIFY2(window.statusPanel()->stateText().endsWith(
                         QStringLiteral("connected · via ssh bastion")),
                     qPrintable(window.statusPanel()->stateText()));
    }

    // A refusal that trying again cannot change (here the host key changed) stops the dashboard
    // there: disconnected with the reason, rather than reconnecting every few seconds to a
    // bastion that may lock the account out after so many failures.
    void refusalStopsReconnecting() {
        const QByteArray home = qgetenv("HOME");
        qputenv("HOME",
                m_ssh.makeHome(QStringLiteral("home-changed"), m_ssh.changedKnownHostsLine())
                    .toLocal8Bit());
        PoolSession session;
        MainWindow window(&session);
        Endpoint endpoint = m_redis->endpoint();
        endpoint.ssh.destination = m_ssh.destination();
        QSignalSpy states(&session, &PoolSession::stateChanged);
        session.connectTo(endpoint, "proxies");
        QTRY_VERIFY_WITH_TIMEOUT(!states.isEmpty() &&
                                     states.constLast().at(0).value<ConnectionState>() ==
                                         ConnectionState::Disconnected,
                                 10000);
        qputenv("HOME", home);
        const QString detail = states.constLast().at(1).toString();
        QVERIFY2(detail.contains(QStringLiteral("has CHANGED")), qPrintable(detail));
        for (const QList<QVariant> &state : std::as_const(states))
            QVERIFY(state.at(0).value<ConnectionState>() != ConnectionState::Reconnecting);
        QCOMPARE(window.connectionBar()->connectAction()->text(), QStringLiteral("Connect"));
        // The members panel says so, not "connected, but reading fails".
        QTRY_VERIFY(window.membersPanel()->emptyStateText().startsWith(
            QStringLiteral("Not connected: cannot connect")));
        QTRY_COMPARE(window.chartPanel()->frame().placeholder,
                     QStringLiteral("Not connected (the events panel says why)"));
        // Into the build tree: a test run never changes the checkout.
        const QString shots =
            QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QDir().mkpath(shots);
        window.resize(1360, 860);
        QVERIFY(window.grab().save(shots + QStringLiteral("/ssh-refused.png")));
    }

    // A reconnect refused (the host key changed since) after the pool was read: the members
    // panel says it is not connected, not that there is no pool.
    void refusedReconnectIsNotAMissingPool() {
        PoolSession session;
        MainWindow window(&session);
        session.setPollInterval(100ms);
        Endpoint endpoint = m_redis->endpoint();
        endpoint.ssh.destination = m_ssh.destination();
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.connectTo(endpoint, "proxies");
        QVERIFY(observed.wait(10000));
        const QByteArray home = qgetenv("HOME");
        qputenv("HOME",
                m_ssh.makeHome(QStringLiteral("home-changed-later"), m_ssh.changedKnownHostsLine())
                    .toLocal8Bit());
        QSignalSpy states(&session, &PoolSession::stateChanged);
        session.connectTo(endpoint, "proxies"); // the same target again: a reconnect
        QTRY_VERIFY_WITH_TIMEOUT(!states.isEmpty() &&
                                     states.constLast().at(0).value<ConnectionState>() ==
                                         ConnectionState::Disconnected,
                                 10000);
        qputenv("HOME", home);
        QVERIFY(session.latestObservation());
        QTRY_VERIFY2(
            window.membersPanel()->emptyStateText().startsWith(QStringLiteral("Not connected")),
            qPrintable(window.membersPanel()->emptyStateText()));
        QVERIFY2(!window.membersPanel()->emptyStateText().contains(QStringLiteral("No pool")),
                 qPrintable(window.membersPanel()->emptyStateText()));
    }

    // An unknown host key, declined: the reason names what to do in the dashboard (Trust, the
    // connection's check box), not the command line's --ssh-accept-new.
    void unknownHostKeyNamesTheDashboardControls() {
        const QByteArray home = qgetenv("HOME");
        qputenv("HOME", m_ssh.makeHome(QStringLiteral("home-unknown")).toLocal8Bit());
        transport::setHostKeyPrompter([](const transport::HostKeyQuestion &) { return false; });
        PoolSession session;
        MainWindow window(&session);
        Endpoint endpoint = m_redis->endpoint();
        endpoint.ssh.destination = m_ssh.destination();
        QSignalSpy states(&session, &PoolSession::stateChanged);
        session.connectTo(endpoint, "proxies");
        QTRY_VERIFY_WITH_TIMEOUT(!states.isEmpty() &&
                                     states.constLast().at(0).value<ConnectionState>() ==
                                         ConnectionState::Disconnected,
                                 10000);
        transport::setHostKeyPrompter({});
        qputenv("HOME", home);
        const QString detail = states.constLast().at(1).toString();
        QVERIFY2(detail.contains(QStringLiteral("choose Trust")) &&
                     detail.contains(QStringLiteral("Accept and record an unknown host key")),
                 qPrintable(detail));
        QVERIFY2(!detail.contains(QStringLiteral("--ssh")), qPrintable(detail));
    }

    // A URL typed into the bar of a dashboard started with --ssh goes through the same tunnel:
    // never dialled directly from this machine.
    void typedUrlKeepsTheTunnel() {
        PoolSession session;
        MainWindow window(&session);
        Endpoint endpoint = m_redis->endpoint();
        endpoint.ssh.destination = QStringLiteral("bastion");
        window.connectionBar()->setTarget(endpoint, "proxies");
        window.connectionBar()->urlBox()->setEditText(QStringLiteral("redis://10.9.8.7:6379/1"));
        const std::optional<Endpoint> typed = window.connectionBar()->currentEndpoint();
        QVERIFY(typed);
        QCOMPARE(typed->host, QStringLiteral("10.9.8.7"));
        QCOMPARE(typed->ssh.destination, QStringLiteral("bastion"));
        // After a refused Redis password the bar forgets the target, not the tunnel.
        window.connectionBar()->askForPassword(endpoint, QStringLiteral("WRONGPASS"));
        window.connectionBar()->urlBox()->setEditText(QStringLiteral("redis://:pw@10.9.8.7:6379"));
        const std::optional<Endpoint> retyped = window.connectionBar()->currentEndpoint();
        QVERIFY(retyped);
        QCOMPARE(retyped->ssh.destination, QStringLiteral("bastion"));
    }
};

QTEST_MAIN(TestSshDashboard)
#include "tst_sshdashboard.moc"
