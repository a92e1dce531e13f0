// poolscope-cli through an SSH tunnel (--ssh): stats, allocate, a load run and watch; an unknown
// host key refused, then accepted and recorded with --ssh-accept-new; a changed host key refused;
// usage errors. One sshd, one ssh-agent and one Redis are shared by the test cases; each CLI run
// gets HOME (and SSH_AUTH_SOCK) in its environment.
#include "RedisFixture.h"
#include "SshFixture.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

QByteArray readFile(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestSshCli : public QObject {
    Q_OBJECT

private:
    SshFixture m_ssh;
    std::unique_ptr<RedisFixture> m_tcp;

    QStringList cliTarget(const QString &destination = {}) const {
        return {QStringLiteral("--url"),
                QStringLiteral("redis://127.0.0.1:%1").arg(m_tcp->endpoint().port),
                QStringLiteral("--ssh"), destination.isEmpty() ? m_ssh.destination() : destination};
    }
    CliRun cli(const QStringList &arguments, const QString &home = {}, bool withAgent = true) {
        return runProgram(QStringLiteral(POOLSCOPE_CLI_PATH), arguments, {}, 60000,
                          m_ssh.environment(home.isEmpty() ? m_ssh.home() : home, withAgent));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_ssh.start(), qPrintable(m_ssh.error()));
        RedisServerOptions tcp;
        tcp.useTcp = true;
        m_tcp = std::make_unique<RedisFixture>(tcp);
        QVERIFY2(m_tcp->start(), qPrintable(m_tcp->error()));
    }

    void cliStatsAndAllocate() {
        m_tcp->makePool("cli", documentationMembers(3));
        const CliRun stats =
            cli(cliTarget() + QStringList{QStringLiteral("--key"), QStringLiteral("cli"),
                                          QStringLiteral("--json"), QStringLiteral("stats")});
        QVERIFY2(stats.exitCode == 0, stats.err.constData());
        QCOMPARE(QJsonDocument::fromJson(stats.out).object().value(QStringLiteral("size")).toInt(),
                 3);
        const CliRun allocate =
            cli(cliTarget(QStringLiteral("bastion")) +
                QStringList{QStringLiteral("--key"), QStringLiteral("cli"),
                            QStringLiteral("allocate"), QStringLiteral("-n"), QStringLiteral("3")});
        QVERIFY2(allocate.exitCode == 0, allocate.err.constData());
        QCOMPARE(allocate.out.trimmed().split('\n').size(), 3);
        QCOMPARE(sumOfScores(*m_tcp, "cli"), 3.0);
    }

    void cliLoadRun() {
        m_tcp->makePool("cli-load", documentationMembers(5));
        const CliRun run =
            cli(cliTarget() + QStringList{QStringLiteral("--key"), QStringLiteral("cli-load"),
                                          QStringLiteral("--json"), QStringLiteral("allocate"),
                                          QStringLiteral("-n"), QStringLiteral("5000"),
                                          QStringLiteral("--workers"), QStringLiteral("8"),
                                          QStringLiteral("--pipeline"), QStringLiteral("8")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(report.value(QStringLiteral("allocated")).toInteger(), 5000);
        QCOMPARE(report.value(QStringLiteral("unknown")).toInteger(), 0);
        QCOMPARE(sumOfScores(*m_tcp, "cli-load"), 5000.0);
    }

    void cliWatch() {
        m_tcp->makePool("watched", documentationMembers(4), 1);
        const CliRun run =
            cli(cliTarget() + QStringList{QStringLiteral("--key"), QStringLiteral("watched"),
                                          QStringLiteral("--json"), QStringLiteral("watch"),
                                          QStringLiteral("--interval"), QStringLiteral("100"),
                                          QStringLiteral("--duration"), QStringLiteral("1")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QVERIFY2(lines.size() >= 3, run.out.constData());
        const QJsonObject last = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(last.value(QStringLiteral("size")).toInteger(), 4);
    }

    // The CLI asks nobody: an unknown host key is refused with one line saying how to accept
    // it; --ssh-accept-new trusts and records it, and later runs need no flag.
    void cliUnknownHostKey() {
        const QString home = m_ssh.makeHome(QStringLiteral("home-cli-new"));
        const QStringList stats = cliTarget() + QStringList{QStringLiteral("stats")};
        const CliRun refused = cli(stats, home);
        QCOMPARE(refused.exitCode, 1);
        const QString line = QString::fromUtf8(refused.err.trimmed());
        QVERIFY2(
            line.contains(QStringLiteral("host key of 127.0.0.1:%1 is unknown").arg(m_ssh.port())),
            qPrintable(line));
        QVERIFY2(line.contains(m_ssh.hostKeyFingerprint()), qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("--ssh-accept-new")), qPrintable(line));
        QVERIFY2(!line.contains(u'\n'), qPrintable(line));
        QVERIFY(!QFile::exists(home + QStringLiteral("/.ssh/known_hosts")));

        const CliRun accepted = cli(stats + QStringList{QStringLiteral("--ssh-accept-new")}, home);
        QVERIFY2(accepted.exitCode == 0, accepted.err.constData());
        const QByteArray recorded = readFile(home + QStringLiteral("/.ssh/known_hosts"));
        QVERIFY2(recorded.contains(QStringLiteral("[127.0.0.1]:%1").arg(m_ssh.port()).toUtf8()),
                 recorded.constData());
        const CliRun again = cli(stats, home);
        QVERIFY2(again.exitCode == 0, again.err.constData());
    }

    // A changed host key is refused, with or without --ssh-accept-new, and known_hosts stays.
    void cliChangedHostKey() {
        const QString home =
            m_ssh.makeHome(QStringLiteral("home-cli-changed"), m_ssh.changedKnownHostsLine());
        const QByteArray before = readFile(home + QStringLiteral("/.ssh/known_hosts"));
        for (const bool acceptNew : {false, true}) {
            QStringList arguments = cliTarget() + QStringList{QStringLiteral("stats")};
            if (acceptNew)
                arguments << QStringLiteral("--ssh-accept-new");
            const CliRun run = cli(arguments, home);
            QCOMPARE(run.exitCode, 1);
            const QString line = QString::fromUtf8(run.err.trimmed());
            QVERIFY2(line.contains(QStringLiteral("has CHANGED")), qPrintable(line));
            QVERIFY2(line.contains(m_ssh.hostKeyFingerprint()), qPrintable(line));
            QVERIFY2(
                line.contains(QStringLiteral("ssh-keygen -R \"[127.0.0.1]:%1\"").arg(m_ssh.port())),
                qPrintable(line));
        }
        QCOMPARE(readFile(home + QStringLiteral("/.ssh/known_hosts")), before);
    }

    void cliUsageErrors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("key without ssh")
            << QStringList{QStringLiteral("--ssh-key"), QStringLiteral("/dev/null")}
            << "--ssh-key needs --ssh";
        QTest::newRow("accept without ssh")
            << QStringList{QStringLiteral("--ssh-accept-new")} << "--ssh-accept-new needs --ssh";
        QTest::newRow("bad destination")
            << QStringList{QStringLiteral("--ssh"), QStringLiteral("host:0")}
            << "bad --ssh \"host:0\"";
        QTest::newRow("missing key")
            << QStringList{QStringLiteral("--ssh"), QStringLiteral("bastion"),
                           QStringLiteral("--ssh-key"), QStringLiteral("/nonexistent/key")}
            << "--ssh-key /nonexistent/key: no such file";
    }
    void cliUsageErrors() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const CliRun run = cli(arguments + QStringList{QStringLiteral("stats")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestSshCli)
#include "tst_sshcli.moc"
