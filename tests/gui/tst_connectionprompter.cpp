// The dashboard's prompter (connection/ConnectionPrompter): a worker thread's question for a
// secret of any kind or for trusting an SSH host key becomes a dialog on the GUI thread, and its
// answer goes back to the worker; questions still open when the prompter goes are declined, and
// a question asked on the GUI thread itself is declined at once instead of deadlocking.
#include "connection/ConnectionPrompter.h"

#include <future>
#include <thread>

#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace poolscope;
using transport::HostKeyQuestion;
using transport::SecretKind;
using transport::SecretRequest;

Q_DECLARE_METATYPE(SecretKind)

class TestConnectionPrompter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void secretAskedInADialog_data() {
        QTest::addColumn<SecretKind>("kind");
        QTest::addColumn<QString>("subject");
        QTest::addColumn<QString>("label");
        QTest::newRow("redis password") << SecretKind::RedisPassword << "redis://db:6379/0"
                                        << "Password for the Redis server redis://db:6379/0:";
        QTest::newRow("tls key") << SecretKind::TlsKeyPassphrase << "/keys/client.key"
                                 << "Passphrase of the TLS client key /keys/client.key:";
        QTest::newRow("ssh key") << SecretKind::SshKeyPassphrase << "/keys/id_ed25519"
                                 << "Passphrase of the SSH key /keys/id_ed25519:";
        QTest::newRow("ssh password") << SecretKind::SshPassword << "ops@bastion"
                                      << "SSH password for ops@bastion:";
    }
    void secretAskedInADialog() {
        QFETCH(SecretKind, kind);
        QFETCH(QString, subject);
        QFETCH(QString, label);
        // Declared before the prompter: a failed check destroys the prompter first, which
        // declines the open question, so the future's destructor never waits for an answer.
        std::future<std::optional<QString>> answer;
        QWidget window;
        ConnectionPrompter prompter(&window);
        QSignalSpy opened(&prompter, &ConnectionPrompter::dialogOpened);
        const SecretRequest request{kind, subject, {}};
        answer =
            std::async(std::launch::async, [request] { return transport::askSecret(request); });
        QVERIFY(opened.wait(10000));
        auto *dialog = qobject_cast<QInputDialog *>(opened.first().at(0).value<QWidget *>());
        QVERIFY(dialog);
        QCOMPARE(dialog->labelText(), label);
        QCOMPARE(dialog->textEchoMode(), QLineEdit::Password);
        QVERIFY(dialog->isVisible());
        dialog->setTextValue(QStringLiteral("s3cret"));
        dialog->accept();
        QCOMPARE(answer.get(), std::optional<QString>(QStringLiteral("s3cret")));
    }

    void retryReasonLeadsTheLabel() {
        const SecretRequest request{SecretKind::SshPassword, QStringLiteral("ops@bastion"),
                                    QStringLiteral("wrong password")};
        QCOMPARE(ConnectionPrompter::secretLabel(request),
                 QStringLiteral("Wrong password. SSH password for ops@bastion:"));
    }

    void cancelledSecretIsNoAnswer() {
        std::future<std::optional<QString>> answer; // before the prompter, as above
        QWidget window;
        ConnectionPrompter prompter(&window);
        QSignalSpy opened(&prompter, &ConnectionPrompter::dialogOpened);
        answer = std::async(std::launch::async, [] {
            return transport::askSecret({SecretKind::SshKeyPassphrase, QStringLiteral("k"), {}});
        });
        QVERIFY(opened.wait(10000));
        qobject_cast<QDialog *>(opened.first().at(0).value<QWidget *>())->reject();
        QCOMPARE(answer.get(), std::nullopt);
    }

    void hostKeyAskedInADialog_data() {
        QTest::addColumn<bool>("trust");
        QTest::newRow("trusted") << true;
        QTest::newRow("cancelled") << false;
    }
    void hostKeyAskedInADialog() {
        QFETCH(bool, trust);
        std::future<bool> answer; // before the prompter, as above
        QWidget window;
        ConnectionPrompter prompter(&window);
        QSignalSpy opened(&prompter, &ConnectionPrompter::dialogOpened);
        const HostKeyQuestion question{QStringLiteral("bastion:2222"),
                                       QStringLiteral("ssh-ed25519"),
                                       QStringLiteral("SHA256:abcdefghijklmnop")};
        answer = std::async(std::launch::async,
                            [question] { return transport::askTrustHostKey(question); });
        QVERIFY(opened.wait(10000));
        auto *box = qobject_cast<QMessageBox *>(opened.first().at(0).value<QWidget *>());
        QVERIFY(box);
        for (const QString &part : {question.host, question.keyType, question.fingerprint})
            QVERIFY2(box->text().contains(part), qPrintable(box->text()));
        QAbstractButton *trustButton = nullptr;
        for (QAbstractButton *button : box->buttons())
            if (box->buttonRole(button) == QMessageBox::AcceptRole)
                trustButton = button;
        QVERIFY(trustButton);
        QCOMPARE(trustButton->text(), QStringLiteral("&Trust this key"));
        QCOMPARE(box->defaultButton(), box->button(QMessageBox::Cancel)); // Enter never trusts
        QCOMPARE(QKeySequence::mnemonic(trustButton->text()), QKeySequence(Qt::ALT | Qt::Key_T));
        (trust ? trustButton : box->button(QMessageBox::Cancel))->click();
        QCOMPARE(answer.get(), trust);
    }

    // Declined once, a host key is not asked about again (the poller's reconnects) until the
    // person asks to connect.
    void declinedHostKeyNotAskedAgainUntilForgotten() {
        QWidget window;
        ConnectionPrompter prompter(&window);
        QSignalSpy opened(&prompter, &ConnectionPrompter::dialogOpened);
        const HostKeyQuestion question{QStringLiteral("bastion"), QStringLiteral("ssh-ed25519"),
                                       QStringLiteral("SHA256:declined")};
        const auto askAndCancel = [&] {
            auto answer = std::async(std::launch::async,
                                     [question] { return transport::askTrustHostKey(question); });
            if (!opened.wait(10000))
                return true; // no dialog: a wrong "trusted" fails the caller's check
            qobject_cast<QMessageBox *>(opened.takeFirst().at(0).value<QWidget *>())
                ->button(QMessageBox::Cancel)
                ->click();
            return answer.get();
        };
        QCOMPARE(askAndCancel(), false);
        // From a worker, as a reconnect asks: answered without a dialog (nor an event loop).
        auto again = std::async(std::launch::async,
                                [question] { return transport::askTrustHostKey(question); });
        QCOMPARE(again.wait_for(std::chrono::seconds(10)), std::future_status::ready);
        QCOMPARE(again.get(), false);
        QCOMPARE(opened.size(), 0);
        prompter.forgetDeclinedHostKeys();
        QCOMPARE(askAndCancel(), false); // asked again
    }

    // The window closes while a worker waits for an answer: the worker is told "no".
    void openQuestionsDeclinedWhenThePrompterGoes() {
        auto prompter = std::make_unique<ConnectionPrompter>(nullptr);
        QSignalSpy opened(prompter.get(), &ConnectionPrompter::dialogOpened);
        auto secret = std::async(std::launch::async, [] {
            return transport::askSecret({SecretKind::SshPassword, QStringLiteral("x"), {}});
        });
        QVERIFY(opened.wait(10000));
        const QPointer<QWidget> dialog = opened.first().at(0).value<QWidget *>();
        prompter.reset();
        QCOMPARE(secret.get(), std::nullopt);
        QVERIFY(dialog.isNull()); // closed with the prompter
        // Uninstalled: nobody is asked any more.
        QCOMPARE(transport::askTrustHostKey({}), false);
    }

    void askedOnTheGuiThreadIsDeclined() {
        ConnectionPrompter prompter(nullptr);
        QCOMPARE(transport::askSecret({SecretKind::RedisPassword, QStringLiteral("x"), {}}),
                 std::nullopt);
    }
};

QTEST_MAIN(TestConnectionPrompter)
#include "tst_connectionprompter.moc"
