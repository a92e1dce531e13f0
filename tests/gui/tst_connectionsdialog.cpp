// File > Connections...: saving, editing, duplicating and deleting connections in the dialog, the
// editor's refusals, the keychain's absence said in the UI, and connecting from a saved connection
// to a real TLS server (client certificate with an encrypted key, a password) with the passphrase
// typed into the real password dialog. Afterwards: no secret in any file under the temporary
// HOME, the window title, the status bar, the events, or the command line of any child.
// One temporary HOME (XDG dirs too, no D-Bus: no keychain) and one TLS server for all cases.

#include "MainWindow.h"
#include "startup/LastConnection.h"
#include "connection/ConnectionEditDialog.h"
#include "connection/ConnectionsDialog.h"
#include "connection/SecretPrompter.h"
#include "connection/StatusBarPanel.h"
#include "events/EventsPanel.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "session/PoolSession.h"

#include "RedisFixture.h"
#include "TlsCertificates.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDirIterator>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

const QString kRedisPassword = QStringLiteral("gui-Redis-Secret-9931");
const QString kPassphrase = QStringLiteral("test-only"); // of client-encrypted.key
const QString kWrongPassword = QStringLiteral("gui-Wrong-Password-4242");

QByteArray readAll(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Children of this process, other than the given ones, with their command lines.
QStringList childCommandLines(const QList<qint64> &except) {
    QStringList lines;
    const QString self = QString::number(QCoreApplication::applicationPid());
    QDirIterator processes(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (processes.hasNext()) {
        const QString dir = processes.next();
        bool isPid = false;
        const qint64 pid = QFileInfo(dir).fileName().toLongLong(&isPid);
        if (!isPid || except.contains(pid))
            continue;
        const QByteArray stat = readAll(dir + QStringLiteral("/stat"));
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields.at(1) == self.toLatin1())
            lines << QString::fromUtf8(
                readAll(dir + QStringLiteral("/cmdline")).replace('\0', ' '));
    }
    return lines;
}

} // namespace

class TestConnectionsDialog : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_home;
    QTemporaryDir m_keys;
    TlsCertificates m_certificates;
    std::unique_ptr<RedisFixture> m_tls; // requirepass, client certificate required
    std::unique_ptr<PoolSession> m_session;
    std::unique_ptr<MainWindow> m_window;

    QString cert(const char *file) const { return m_certificates.path(QLatin1String(file)); }
    QString url() const {
        return QStringLiteral("rediss://localhost:%1/0").arg(m_tls->endpoint().port);
    }
    QString shots() const {
        const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QDir().mkpath(dir);
        return dir;
    }
    // Fills the editor as a person would, then presses Save; returns whether it closed.
    static bool fill(ConnectionEditDialog &editor, const QMap<QString, QString> &fields) {
        for (auto it = fields.begin(); it != fields.end(); ++it) {
            QLineEdit *field = it.key() == QLatin1String("name")       ? editor.nameField()
                               : it.key() == QLatin1String("url")      ? editor.urlField()
                               : it.key() == QLatin1String("password") ? editor.passwordField()
                               : it.key() == QLatin1String("ca")       ? editor.caField()
                               : it.key() == QLatin1String("cert")     ? editor.certField()
                               : it.key() == QLatin1String("key")      ? editor.keyField()
                               : it.key() == QLatin1String("pool")     ? editor.poolKeyField()
                                                                       : nullptr;
            if (!field)
                return false;
            field->setText(it.value());
        }
        editor.accept();
        return editor.result() == QDialog::Accepted;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_home.isValid());
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
        QVERIFY2(m_certificates.create(), qPrintable(m_certificates.error()));
        m_tls = std::make_unique<RedisFixture>(m_certificates.clientAuthServer(kRedisPassword));
        QVERIFY2(m_tls->start(), qPrintable(m_tls->error()));
        Endpoint admin = m_tls->endpoint();
        admin.password = kRedisPassword;
        auto connection = RedisConnection::open(admin);
        for (const char *member : {"198.51.100.7:3128", "198.51.100.8:3128", "198.51.100.9:3128"})
            connection->commandOrThrow({"ZADD", "saved-pool", "4", member});

        m_session = std::make_unique<PoolSession>();
        m_window = std::make_unique<MainWindow>(m_session.get());
        m_window->resize(1360, 860);
        m_window->show();
    }

    void menuEntry() {
        QAction *action = m_window->connectionsAction();
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Connections..."));
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    }

    // New, a refused edit, Duplicate, Delete (asked first): all through the dialog's buttons.
    void manageConnections() {
        ConnectionsDialog *dialog = m_window->showConnections();
        QVERIFY(dialog->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->keychainLabel()->text().startsWith(QLatin1String("No keychain here")), 10000);
        QVERIFY(dialog->keychainLabel()->text().contains(QLatin1String("kept in memory only")));
        QCOMPARE(dialog->connectionCount(), 0);
        QVERIFY(!dialog->connectButton()->isEnabled());

        // A URL with a password is refused, with the reason in the editor.
        QString refusal;
        bool rememberEnabled = true;
        dialog->setEditFunction([&](ConnectionEditDialog &editor) {
            rememberEnabled = editor.rememberBox()->isEnabled();
            const bool closed =
                fill(editor, {{QStringLiteral("name"), QStringLiteral("prod tls")},
                              {QStringLiteral("url"), QStringLiteral("rediss://:%1@localhost:%2/0")
                                                          .arg(kRedisPassword)
                                                          .arg(m_tls->endpoint().port)}});
            refusal = editor.errorLabel()->text();
            return closed;
        });
        dialog->newButton()->click();
        QVERIFY(!rememberEnabled); // no keychain: disabled, with the reason
        QVERIFY2(refusal.contains(QLatin1String("holds a password")), qPrintable(refusal));
        QVERIFY(!refusal.contains(kRedisPassword));
        QCOMPARE(dialog->connectionCount(), 0);

        dialog->setEditFunction([&](ConnectionEditDialog &editor) {
            editor.insecureBox()->setChecked(false);
            const bool closed =
                fill(editor, {{QStringLiteral("name"), QStringLiteral("prod tls")},
                              {QStringLiteral("url"), url()},
                              {QStringLiteral("password"), kRedisPassword},
                              {QStringLiteral("pool"), QStringLiteral("saved-pool")},
                              {QStringLiteral("ca"), cert("ca.pem")},
                              {QStringLiteral("cert"), cert("client.pem")},
                              {QStringLiteral("key"), m_keys.filePath(QStringLiteral("enc.key"))}});
            refusal = editor.errorLabel()->text();
            editor.grab().save(shots() + QStringLiteral("/connection-editor.png"));
            return closed;
        });
        QVERIFY(
            QFile::copy(cert("client-encrypted.key"), m_keys.filePath(QStringLiteral("enc.key"))));
        refusal.clear();
        dialog->newButton()->click();
        QVERIFY2(refusal.isEmpty(), qPrintable(refusal));
        QCOMPARE(dialog->connectionCount(), 1);
        QCOMPARE(dialog->selectedName(), QStringLiteral("prod tls"));
        const ProfileLoadResult saved = m_window->profileStore()->load(QStringLiteral("prod tls"));
        QVERIFY2(saved.ok(), qPrintable(saved.error));
        QVERIFY(saved.profile->needsPassword);
        QVERIFY(saved.profile->tls.enabled);
        QCOMPARE(saved.profile->tls.keyFile, m_keys.filePath(QStringLiteral("enc.key")));
        QVERIFY(m_window->secretStore()->inMemory(QStringLiteral("prod tls"),
                                                  transport::SecretKind::RedisPassword));

        // Duplicate: the editor starts as a copy under a new name.
        QString duplicateName;
        dialog->setEditFunction([&](ConnectionEditDialog &editor) {
            duplicateName = editor.nameField()->text();
            editor.accept();
            return editor.result() == QDialog::Accepted;
        });
        dialog->duplicateButton()->click();
        QCOMPARE(duplicateName, QStringLiteral("prod tls (copy)"));
        QCOMPARE(dialog->connectionCount(), 2);

        // Delete asks first: no keeps it, yes deletes it.
        QString question;
        dialog->select(QStringLiteral("prod tls (copy)"));
        dialog->setConfirmFunction([&](const QString &asked) {
            question = asked;
            return false;
        });
        dialog->deleteButton()->click();
        QVERIFY(question.contains(QLatin1String("\"prod tls (copy)\"")));
        QCOMPARE(dialog->connectionCount(), 2);
        dialog->setConfirmFunction([](const QString &) { return true; });
        dialog->deleteButton()->click();
        QCOMPARE(dialog->connectionCount(), 1);
        QCOMPARE(m_window->profileStore()->names(), QStringList{QStringLiteral("prod tls")});

        dialog->select(QStringLiteral("prod tls"));
        dialog->resize(820, 420);
        QVERIFY(dialog->grab().save(shots() + QStringLiteral("/connections-dialog.png")));
        dialog->close();
    }

    // Connect from the saved connection: TLS verified, the password from memory, the key's
    // passphrase typed into the real password dialog (the worker waits; the GUI does not).
    void connectFromSavedConnection() {
        ConnectionsDialog *dialog = m_window->showConnections();
        dialog->select(QStringLiteral("prod tls"));
        int dialogsAnswered = 0;
        QString question;
        QTimer answerer;
        connect(&answerer, &QTimer::timeout, this, [&] {
            auto *input = qobject_cast<QInputDialog *>(QApplication::activeModalWidget());
            if (!input)
                return;
            question = input->labelText();
            QCOMPARE(input->textEchoMode(), QLineEdit::Password);
            input->setTextValue(kPassphrase);
            input->accept();
            ++dialogsAnswered;
        });
        answerer.start(50);
        QSignalSpy observed(m_session.get(), &PoolSession::observationApplied);
        QSignalSpy asked(m_window->secretPrompter(), &SecretPrompter::personAsked);
        dialog->connectButton()->click();
        QVERIFY(observed.wait(20000));
        answerer.stop();
        QCOMPARE(dialogsAnswered, 1);
        QCOMPARE(asked.size(), 1); // only the passphrase: the password was kept in memory
        QCOMPARE(asked.first().first().value<transport::SecretKind>(),
                 transport::SecretKind::TlsKeyPassphrase);
        QVERIFY2(question.contains(m_keys.filePath(QStringLiteral("enc.key"))),
                 qPrintable(question));
        QVERIFY2(question.contains(QLatin1String("kept in memory only")), qPrintable(question));
        QCOMPARE(m_session->poolKey(), QByteArray("saved-pool"));
        QCOMPARE(m_session->endpoint().tls.caFile, cert("ca.pem"));
        QTRY_VERIFY_WITH_TIMEOUT(
            m_window->statusPanel()->stateText().contains(QLatin1String("TLS, verified")), 5000);
        QVERIFY(observed.wait(5000));
        // The title names the saved connection, and it is the one reopened at the next start.
        QCOMPARE(m_window->connectedProfile(), QStringLiteral("prod tls"));
        QVERIFY2(
            m_window->windowTitle().startsWith(QStringLiteral("poolscope · prod tls · saved-pool")),
            qPrintable(m_window->windowTitle()));
        QCOMPARE(loadLastConnection().profile, QStringLiteral("prod tls"));
        QVERIFY(loadLastConnection().url.isEmpty()); // no URL of it kept beside the name
        QVERIFY(m_window->grab().save(shots() + QStringLiteral("/dashboard-saved-tls.png")));
    }

    // Editing a saved connection keeps what the dialog has no field for: a production
    // connection edited in the dashboard is still production, in its group.
    void editingKeepsGroupAndEnvironment() {
        ConnectionProfile saved;
        saved.name = QStringLiteral("prod eu");
        saved.url = QStringLiteral("redis://127.0.0.1:6379/0");
        saved.group = QStringLiteral("europe");
        saved.environment = Environment::Production;
        ConnectionEditDialog editor(saved, false, QStringLiteral("no keychain in tests"),
                                    [](const ConnectionProfile &) { return QString(); });
        editor.urlField()->setText(QStringLiteral("redis://127.0.0.1:6380/0"));
        const ConnectionProfile edited = editor.profile();
        QCOMPARE(edited.url, QStringLiteral("redis://127.0.0.1:6380/0"));
        QCOMPARE(edited.group, QStringLiteral("europe"));
        QCOMPARE(edited.environment, Environment::Production);
    }

    // --profile NAME: a name that is not saved is refused with the names that are.
    void unknownProfileIsNamed() {
        QString error;
        QVERIFY(!m_window->connectProfile(QStringLiteral("staging"), &error));
        QVERIFY2(error.contains(QStringLiteral("staging")) &&
                     error.contains(QStringLiteral("prod tls")),
                 qPrintable(error));
    }

    // A kept password the server refuses is not offered again: the next Connect asks the person,
    // saying why.
    void refusedPasswordIsAskedAgain() {
        m_window->secretStore()->keepInMemory(QStringLiteral("prod tls"),
                                              transport::SecretKind::RedisPassword, kWrongPassword);
        QSignalSpy refused(m_session.get(), &PoolSession::authenticationFailed);
        ConnectionsDialog *dialog = m_window->showConnections();
        dialog->select(QStringLiteral("prod tls"));
        dialog->connectButton()->click();
        QVERIFY(refused.wait(20000));
        QList<QString> questions;
        m_window->secretPrompter()->setAskFunction([&](const QString &, const QString &text) {
            questions << text;
            return std::optional<QString>(kRedisPassword);
        });
        QSignalSpy observed(m_session.get(), &PoolSession::observationApplied);
        dialog = m_window->showConnections();
        dialog->select(QStringLiteral("prod tls"));
        dialog->connectButton()->click();
        QVERIFY(observed.wait(20000));
        QCOMPARE(questions.size(), 1); // the password; the key's passphrase is still in memory
        QVERIFY2(questions.first().startsWith(QLatin1String("The server refused the password. ")),
                 qPrintable(questions.first()));
        m_window->secretPrompter()->setAskFunction(
            [prompter = m_window->secretPrompter()](const QString &title, const QString &text) {
                return prompter->askInDialog(title, text);
            });
    }

    // After the GUI run: no secret in the title, status bar, events, children's command lines, or
    // any file under HOME (settings saved on close included).
    void noSecretAnywhere() {
        const QStringList secrets{kRedisPassword, kPassphrase, kWrongPassword};
        for (const QString &secret : secrets) {
            QVERIFY(!m_window->windowTitle().contains(secret));
            QVERIFY(!m_window->statusPanel()->stateText().contains(secret));
            QVERIFY(!m_window->statusBar()->currentMessage().contains(secret));
            for (int row = 0; row < m_window->eventsPanel()->entryCount(); ++row)
                QVERIFY(!m_window->eventsPanel()->entryText(row).contains(secret));
        }
        const QStringList children = childCommandLines({m_tls->server().pid()});
        for (const QString &line : children)
            for (const QString &secret : secrets)
                QVERIFY2(!line.contains(secret), qPrintable(line));
        m_window->close(); // writes the window's settings
        m_session->disconnectFromServer();
        QDirIterator files(m_home.path(), QDir::Files | QDir::Hidden | QDir::System,
                           QDirIterator::Subdirectories);
        int checked = 0;
        bool sawSettings = false;
        while (files.hasNext()) {
            const QString path = files.next();
            const QByteArray content = readAll(path);
            ++checked;
            sawSettings = sawSettings || content.contains("connections");
            for (const QString &secret : secrets)
                QVERIFY2(!content.contains(secret.toUtf8()), qPrintable(path));
        }
        QCOMPARE_GT(checked, 0);
        QVERIFY(sawSettings);
    }

    void cleanupTestCase() {
        m_window.reset();
        m_session.reset();
        m_tls.reset();
    }
};

QTEST_MAIN(TestConnectionsDialog)
#include "tst_connectionsdialog.moc"
