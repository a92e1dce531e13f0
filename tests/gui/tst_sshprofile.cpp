// Saved connections over SSH tunnels, end to end: a connection saved in the Connections dialog
// with an SSH destination (a real sshd on loopback) in front of a TLS redis-server (client
// certificate with an encrypted key, a password) is connected from the dialog. The unknown host
// key is answered in ConnectionPrompter's dialog, the SSH key's passphrase (the key is not in the
// agent) and the TLS key's passphrase in SecretPrompter's real password dialog; the status bar
// names the tunnel and the verified TLS. Then `poolscope-cli --profile` of the same connection
// goes through the same tunnel (key via ssh-agent), and afterwards no secret (SSH key passphrase,
// SSH password, Redis password, TLS key passphrase) is in any file under the temporary HOME, the
// window title, the status bar, the events, or a child's command line. A declined SSH password
// is not asked again by the poller's reconnects, only when the person connects again.
// One temporary HOME (XDG dirs too, no D-Bus: no keychain), one sshd and one Redis for all cases.

#include "MainWindow.h"
#include "connection/ConnectionBar.h"
#include "connection/ConnectionEditDialog.h"
#include "connection/ConnectionPrompter.h"
#include "connection/ConnectionsDialog.h"
#include "connection/SecretPrompter.h"
#include "connection/StatusBarPanel.h"
#include "events/EventsPanel.h"
#include "profiles/ProfileStore.h"
#include "session/PoolSession.h"

#include "RedisFixture.h"
#include "SshFixture.h"
#include "TlsCertificates.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QPushButton>
#include <QApplication>
#include <QDirIterator>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using transport::SecretKind;

namespace {

const QString kRedisPassword = QStringLiteral("sshgui-Redis-Secret-5170");
const QString kTlsPassphrase = QStringLiteral("test-only");     // of client-encrypted.key
const QString kSshPassphrase = QStringLiteral("correct horse"); // of the fixture's keys/id_secret
const QString kSshPassword = QStringLiteral("sshgui-Wrong-SSH-Password-8813");
const QString kConnection = QStringLiteral("behind bastion");

QByteArray readAll(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Every process descended from this one, with its command line.
QStringList descendantCommandLines() {
    QHash<qint64, qint64> parents;
    QHash<qint64, QString> lines;
    QDirIterator processes(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (processes.hasNext()) {
        const QString dir = processes.next();
        bool isPid = false;
        const qint64 pid = QFileInfo(dir).fileName().toLongLong(&isPid);
        if (!isPid)
            continue;
        const QByteArray stat = readAll(dir + QStringLiteral("/stat"));
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1)
            parents.insert(pid, fields.at(1).toLongLong());
        lines.insert(
            pid, QString::fromUtf8(readAll(dir + QStringLiteral("/cmdline")).replace('\0', ' ')));
    }
    QStringList found;
    const qint64 self = QCoreApplication::applicationPid();
    for (auto it = parents.cbegin(); it != parents.cend(); ++it) {
        qint64 ancestor = it.value();
        for (int depth = 0; depth < 16 && ancestor > 1 && ancestor != self; ++depth)
            ancestor = parents.value(ancestor, 0);
        if (ancestor == self)
            found << lines.value(it.key());
    }
    return found;
}

} // namespace

class TestSshProfile : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_home;
    QTemporaryDir m_keys;
    SshFixture m_ssh;
    TlsCertificates m_certificates;
    std::unique_ptr<RedisFixture> m_tls; // requirepass, client certificate required
    std::unique_ptr<PoolSession> m_session;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<ConnectionPrompter> m_hostKeys;
    QStringList m_cliStderr;
    QStringList m_unexpectedQuestions;

    QString cert(const char *file) const { return m_certificates.path(QLatin1String(file)); }
    QString encryptedKey() const { return m_keys.filePath(QStringLiteral("enc.key")); }

    // Saves a connection through the dialog's editor, as a person fills it in.
    void save(const QString &name, const QString &sshKey, const QString &destination = {}) {
        ConnectionsDialog *dialog = m_window->showConnections();
        QString refusal = QStringLiteral("editor not shown");
        dialog->setEditFunction([&](ConnectionEditDialog &editor) {
            editor.nameField()->setText(name);
            // An address, not "localhost": the SSH host resolves the name, and a machine without
            // /etc/hosts (a bare chroot, as in CI) cannot.
            editor.urlField()->setText(
                QStringLiteral("rediss://127.0.0.1:%1/0").arg(m_tls->endpoint().port));
            editor.passwordField()->setText(kRedisPassword);
            editor.poolKeyField()->setText(QStringLiteral("tunnelled-pool"));
            editor.caField()->setText(cert("ca.pem"));
            editor.certField()->setText(cert("client.pem"));
            editor.keyField()->setText(encryptedKey());
            editor.sshField()->setText(destination.isEmpty() ? m_ssh.destination() : destination);
            editor.sshKeyField()->setText(sshKey);
            editor.sshAcceptNewBox()->setChecked(false);
            editor.insecureBox()->setChecked(false);
            editor.accept();
            refusal = editor.errorLabel()->text();
            return editor.result() == QDialog::Accepted;
        });
        dialog->newButton()->click();
        QVERIFY2(refusal.isEmpty(), qPrintable(refusal));
        QVERIFY(m_window->profileStore()->names().contains(name));
        dialog->close();
    }

    void connectFromDialog(const QString &name) {
        const QPointer<ConnectionsDialog> dialog = m_window->showConnections();
        dialog->select(name);
        QVERIFY(dialog->connectButton()->isEnabled());
        dialog->connectButton()->click();
        if (dialog)
            dialog->close();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_home.isValid() && m_keys.isValid());
        for (const auto &[name, dir] :
             {std::pair{"HOME", QString()}, std::pair{"XDG_CONFIG_HOME", QStringLiteral(".config")},
              std::pair{"XDG_DATA_HOME", QStringLiteral(".local/share")},
              std::pair{"XDG_CACHE_HOME", QStringLiteral(".cache")},
              std::pair{"XDG_STATE_HOME", QStringLiteral(".local/state")}}) {
            const QString path = dir.isEmpty() ? m_home.path() : m_home.filePath(dir);
            QVERIFY(QDir().mkpath(path));
            qputenv(name, QFile::encodeName(path));
        }
        qunsetenv("DBUS_SESSION_BUS_ADDRESS"); // no Secret Service, as in CI
        qunsetenv("SSH_AUTH_SOCK");            // the dashboard's run: the key is not in an agent
        QVERIFY2(m_ssh.start(), qPrintable(m_ssh.error()));
        QVERIFY2(m_certificates.create(), qPrintable(m_certificates.error()));
        QVERIFY(QFile::copy(cert("client-encrypted.key"), encryptedKey()));
        m_tls = std::make_unique<RedisFixture>(m_certificates.clientAuthServer(kRedisPassword));
        QVERIFY2(m_tls->start(), qPrintable(m_tls->error()));
        Endpoint admin = m_tls->endpoint();
        admin.password = kRedisPassword;
        auto connection = RedisConnection::open(admin);
        for (const char *member : {"198.51.100.7:3128", "198.51.100.8:3128", "198.51.100.9:3128"})
            connection->commandOrThrow({"ZADD", "tunnelled-pool", "2", member});

        m_session = std::make_unique<PoolSession>();
        m_window = std::make_unique<MainWindow>(m_session.get());
        // As the dashboard's main() sets them up: host keys asked by ConnectionPrompter, secrets
        // by the window's SecretPrompter; a connect by the person asks about declined ones again.
        m_hostKeys = std::make_unique<ConnectionPrompter>(
            m_window.get(), nullptr, ConnectionPrompter::Questions::HostKeysOnly);
        connect(m_window.get(), &MainWindow::connectionRequested, m_hostKeys.get(),
                &ConnectionPrompter::forgetDeclinedHostKeys);
        m_window->resize(1360, 860);
        m_window->show();
    }

    // The connection through the tunnel: host key trusted in its dialog, both passphrases typed
    // into the password dialog, the Redis password (typed in the editor) from memory.
    void connectThroughTunnel() {
        save(kConnection, m_ssh.path(QStringLiteral("keys/id_secret")));
        if (QTest::currentTestFailed())
            return;
        const ProfileLoadResult saved = m_window->profileStore()->load(kConnection);
        QVERIFY2(saved.ok(), qPrintable(saved.error));
        QCOMPARE(saved.profile->ssh.destination, m_ssh.destination());
        QVERIFY(saved.profile->needsPassword);

        QStringList questions;
        QString hostKeyText;
        QTimer answerer;
        connect(&answerer, &QTimer::timeout, this, [&] {
            QWidget *modal = QApplication::activeModalWidget();
            if (auto *box = qobject_cast<QMessageBox *>(modal)) {
                hostKeyText = box->text();
                for (QAbstractButton *button : box->buttons())
                    if (box->buttonRole(button) == QMessageBox::AcceptRole)
                        button->click();
            } else if (auto *input = qobject_cast<QInputDialog *>(modal)) {
                questions << input->labelText();
                QCOMPARE(input->textEchoMode(), QLineEdit::Password);
                input->setTextValue(input->labelText().contains(QLatin1String("SSH key"))
                                        ? kSshPassphrase
                                        : kTlsPassphrase);
                input->accept();
            }
        });
        answerer.start(50);
        QSignalSpy observed(m_session.get(), &PoolSession::observationApplied);
        QSignalSpy asked(m_window->secretPrompter(), &SecretPrompter::personAsked);
        connectFromDialog(kConnection);
        QVERIFY(observed.wait(30000));
        answerer.stop();

        QVERIFY2(hostKeyText.contains(m_ssh.hostKeyFingerprint()), qPrintable(hostKeyText));
        QStringList askedFor;
        for (const QList<QVariant> &question : asked)
            askedFor << QString::number(int(question.at(0).value<SecretKind>())) + u' ' +
                            question.at(1).toString();
        // The two passphrases, once each; the password was kept in memory.
        QVERIFY2(asked.size() == 2, qPrintable(askedFor.join(QStringLiteral("; "))));
        QCOMPARE(asked.at(0).at(0).value<SecretKind>(), SecretKind::SshKeyPassphrase);
        QCOMPARE(asked.at(1).at(0).value<SecretKind>(), SecretKind::TlsKeyPassphrase);
        QCOMPARE(questions.size(), 2);
        QVERIFY2(questions.at(0).contains(m_ssh.path(QStringLiteral("keys/id_secret"))),
                 qPrintable(questions.at(0)));
        QVERIFY2(questions.at(1).contains(encryptedKey()), qPrintable(questions.at(1)));
        QCOMPARE(m_session->poolKey(), QByteArray("tunnelled-pool"));
        QCOMPARE(m_session->latestObservation()->snapshot.members.size(), 3);
        const QString expected =
            QStringLiteral("via ssh %1, TLS, verified").arg(m_ssh.destination());
        QTRY_VERIFY2_WITH_TIMEOUT(m_window->statusPanel()->stateText().endsWith(expected),
                                  qPrintable(m_window->statusPanel()->stateText()), 5000);
        // The trusted key was recorded in HOME's known_hosts.
        const QByteArray knownHosts = readAll(m_home.filePath(QStringLiteral(".ssh/known_hosts")));
        QVERIFY2(knownHosts.contains(QStringLiteral("[127.0.0.1]:%1").arg(m_ssh.port()).toUtf8()),
                 knownHosts.constData());
        QVERIFY(observed.wait(5000));
        // Into the build tree: a test run never changes the checkout (docs/ holds a copy).
        const QString shot =
            QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QDir().mkpath(shot);
        QVERIFY(m_window->grab().save(shot + QStringLiteral("/saved-connection-ssh.png")));
    }

    // poolscope-cli --profile of the same connection: through the tunnel (the key via the agent,
    // the host key known from the dashboard's run), the secrets from files.
    void cliProfileGoesThroughTheTunnel() {
        const QString passwordFile = m_keys.filePath(QStringLiteral("password"));
        const QString passphraseFile = m_keys.filePath(QStringLiteral("passphrase"));
        QFile password(passwordFile);
        QVERIFY(password.open(QIODevice::WriteOnly));
        password.write(kRedisPassword.toUtf8() + '\n');
        password.close();
        QVERIFY(password.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QFile passphrase(passphraseFile);
        QVERIFY(passphrase.open(QIODevice::WriteOnly));
        passphrase.write(kTlsPassphrase.toUtf8() + '\n');
        passphrase.close();
        QVERIFY(passphrase.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const QStringList arguments{QStringLiteral("--profile"),
                                    kConnection,
                                    QStringLiteral("--password-file"),
                                    passwordFile,
                                    QStringLiteral("--tls-key-passphrase-file"),
                                    passphraseFile,
                                    QStringLiteral("--json"),
                                    QStringLiteral("stats")};
        const QString sshdLog = m_ssh.path(QStringLiteral("sshd.log"));
        const qsizetype loginsBefore = readAll(sshdLog).count("Accepted publickey");
        const CliRun stats = runProgram(QStringLiteral(POOLSCOPE_CLI_PATH), arguments, {}, 60000,
                                        m_ssh.environment(m_home.path(), true));
        m_cliStderr << QString::fromUtf8(stats.err) << QString::fromUtf8(stats.out);
        QVERIFY2(stats.exitCode == 0, stats.err.constData());
        QCOMPARE(QJsonDocument::fromJson(stats.out).object().value(QStringLiteral("size")).toInt(),
                 3);
        // Through the tunnel: sshd's log shows the session the CLI opened (a publickey login).
        const QByteArray log = readAll(sshdLog);
        QVERIFY2(log.count("Accepted publickey") > loginsBefore, log.constData());
        // Without the agent and without a terminal, the encrypted key cannot be used: the CLI
        // says so in one line rather than connecting some other way.
        const CliRun noAgent = runProgram(QStringLiteral(POOLSCOPE_CLI_PATH), arguments, {}, 60000,
                                          m_ssh.environment(m_home.path(), false));
        m_cliStderr << QString::fromUtf8(noAgent.err);
        QVERIFY(noAgent.exitCode != 0);
        QVERIFY2(noAgent.err.contains("passphrase"), noAgent.err.constData());
    }

    // An SSH login the server refused (wrong password, then declined) is not retried: a bastion
    // may lock the account out after a few failures. The dashboard stops, disconnected, and asks
    // nothing more; connecting again (the person) asks again.
    void declinedSshPasswordNotAskedByRetries() {
        save(QStringLiteral("password login"), m_ssh.path(QStringLiteral("keys/id_stranger")));
        if (QTest::currentTestFailed())
            return;
        QStringList questions;
        m_window->secretPrompter()->setAskFunction([&](const QString &, const QString &text) {
            questions << text;
            if (text.startsWith(QLatin1String("SSH password")))
                return std::optional<QString>(kSshPassword); // wrong: asked again, then declined
            return std::optional<QString>();
        });
        QSignalSpy failed(m_session.get(), &PoolSession::pollFailed);
        connectFromDialog(QStringLiteral("password login"));
        QTRY_VERIFY_WITH_TIMEOUT(questions.size() >= 2, 20000);
        QVERIFY2(questions.at(1).startsWith(QLatin1String("Wrong password. SSH password")),
                 qPrintable(questions.join(u'\n')));
        const qsizetype askedFirst = questions.size();
        QCOMPARE(askedFirst, 2);
        QTRY_VERIFY_WITH_TIMEOUT(failed.size() >= 1, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(m_session->state(), ConnectionState::Disconnected, 20000);
        QVERIFY2(failed.last().at(0).toString().contains(QLatin1String("authentication")),
                 qPrintable(failed.last().at(0).toString()));
        QCOMPARE(questions.size(), askedFirst);
        connectFromDialog(QStringLiteral("password login"));
        // Asked again: the password (wrong), then its retry (declined).
        QTRY_VERIFY_WITH_TIMEOUT(questions.size() >= askedFirst + 2, 20000);
        m_session->disconnectFromServer();
        // From here on no secret is expected: a question would be declined and fail the test.
        m_window->secretPrompter()->setAskFunction([this](const QString &, const QString &text) {
            m_unexpectedQuestions << text;
            return std::optional<QString>();
        });
    }

    // A host key declined in its dialog stops the connection there (no retries, so no more
    // dialogs); the person's next Connect of the saved connection asks again. ("127.1" is the same
    // sshd under a name known_hosts does not hold, and needs no /etc/hosts to resolve.)
    void declinedHostKeyAskedAgainOnConnect() {
        save(QStringLiteral("unknown host"), m_ssh.path(QStringLiteral("keys/id_plain")),
             QStringLiteral("%1@127.1:%2").arg(m_ssh.user()).arg(m_ssh.port()));
        if (QTest::currentTestFailed())
            return;
        QSignalSpy opened(m_hostKeys.get(), &ConnectionPrompter::dialogOpened);
        QSignalSpy failed(m_session.get(), &PoolSession::pollFailed);
        const auto decline = [&] {
            QVERIFY(opened.wait(20000));
            auto *box = qobject_cast<QMessageBox *>(opened.last().at(0).value<QWidget *>());
            QVERIFY(box);
            QVERIFY2(box->text().contains(m_ssh.hostKeyFingerprint()), qPrintable(box->text()));
            box->button(QMessageBox::Cancel)->click();
        };
        connectFromDialog(QStringLiteral("unknown host"));
        decline();
        if (QTest::currentTestFailed())
            return;
        QTRY_VERIFY_WITH_TIMEOUT(failed.size() >= 1, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(m_session->state(), ConnectionState::Disconnected, 20000);
        QCOMPARE(opened.size(), 1);
        QVERIFY2(failed.last().at(0).toString().contains(QLatin1String("is unknown")),
                 qPrintable(failed.last().at(0).toString()));
        connectFromDialog(QStringLiteral("unknown host"));
        decline();
        QCOMPARE(opened.size(), 2);
        m_session->disconnectFromServer();
        QVERIFY2(m_unexpectedQuestions.isEmpty(), qPrintable(m_unexpectedQuestions.join(u'\n')));
    }

    // The same question from two connections opening at once (the second arrives while the
    // first one's dialog runs its event loop): one dialog, both get its answer.
    void sameQuestionAskedOnce() {
        SecretPrompter *prompter = m_window->secretPrompter();
        prompter->setActiveConnection(QStringLiteral("two at once"), false);
        const transport::SecretRequest request{
            SecretKind::SshKeyPassphrase, QStringLiteral("/keys/id_shared"), {}};
        QList<std::optional<QString>> answers;
        int dialogs = 0;
        prompter->setAskFunction([&](const QString &, const QString &) {
            if (++dialogs == 1) // the second connection asks meanwhile
                prompter->askAsync(request,
                                   [&](std::optional<QString> answer) { answers << answer; });
            return std::optional<QString>(QStringLiteral("shared-answer"));
        });
        prompter->askAsync(request, [&](std::optional<QString> answer) { answers << answer; });
        QCOMPARE(dialogs, 1);
        QCOMPARE(answers.size(), 2);
        QCOMPARE(answers.at(0), std::optional<QString>(QStringLiteral("shared-answer")));
        QCOMPARE(answers.at(1), answers.at(0));
        prompter->setAskFunction([this](const QString &, const QString &text) {
            m_unexpectedQuestions << text;
            return std::optional<QString>();
        });
    }

    // After the GUI and CLI runs: no secret in the title, status bar, events, children's command
    // lines, the CLI's output, or any file under HOME (settings saved on close included).
    void noSecretAnywhere() {
        const QStringList secrets{kRedisPassword, kTlsPassphrase, kSshPassphrase, kSshPassword};
        QStringList seen{m_window->windowTitle(), m_window->statusPanel()->stateText(),
                         m_window->statusBar()->currentMessage()};
        for (int row = 0; row < m_window->eventsPanel()->entryCount(); ++row)
            seen << m_window->eventsPanel()->entryText(row);
        const QStringList children = descendantCommandLines();
        QVERIFY(!children.isEmpty()); // sshd, its sessions, redis-server
        seen << children << m_cliStderr;
        for (const QString &text : seen)
            for (const QString &secret : secrets)
                QVERIFY2(!text.contains(secret), qPrintable(text));
        m_window->close(); // writes the window's settings
        m_session->disconnectFromServer();
        QDirIterator files(m_home.path(), QDir::Files | QDir::Hidden | QDir::System,
                           QDirIterator::Subdirectories);
        int checked = 0;
        bool sawSettings = false;
        bool sawKnownHosts = false;
        while (files.hasNext()) {
            const QString path = files.next();
            const QByteArray content = readAll(path);
            ++checked;
            sawSettings = sawSettings || content.contains("tunnelled-pool");
            sawKnownHosts = sawKnownHosts || path.endsWith(QLatin1String("/.ssh/known_hosts"));
            for (const QString &secret : secrets)
                QVERIFY2(!content.contains(secret.toUtf8()), qPrintable(path));
        }
        QCOMPARE_GT(checked, 0);
        QVERIFY(sawSettings);
        QVERIFY(sawKnownHosts);
    }

    void cleanupTestCase() {
        m_hostKeys.reset();
        m_window.reset();
        m_session.reset();
        m_tls.reset();
    }
};

QTEST_MAIN(TestSshProfile)
#include "tst_sshprofile.moc"
