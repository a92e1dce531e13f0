#pragma once

#include "profiles/ConnectionProfile.h"

#include <functional>

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace poolscope {

// Edits one saved connection: name, URL, TLS (CA file, server name, client certificate and key,
// insecure with a warning), SSH (destination, key file, accept new host keys), pool key, poll
// interval, whether the server needs a password, and whether its secrets are remembered in the
// keychain (disabled, with the reason, when there is none). The password typed here is never
// part of the profile: password() hands it to the caller for the keychain or memory.
class ConnectionEditDialog : public QDialog {
    Q_OBJECT

public:
    // save: stores the profile and returns an error to show, or "" (then the dialog closes).
    using SaveFunction = std::function<QString(const ConnectionProfile &)>;

    ConnectionEditDialog(const ConnectionProfile &profile, bool keychainAvailable,
                         const QString &noKeychainReason, SaveFunction save,
                         QWidget *parent = nullptr);

    ConnectionProfile profile() const;
    QString password() const;

    QLineEdit *nameField() const { return m_name; }
    QLineEdit *urlField() const { return m_url; }
    QLineEdit *passwordField() const { return m_password; }
    QLineEdit *caField() const { return m_ca; }
    QLineEdit *keyField() const { return m_key; }
    QLineEdit *certField() const { return m_cert; }
    QLineEdit *sshField() const { return m_sshDestination; }
    QLineEdit *sshKeyField() const { return m_sshKey; }
    QCheckBox *sshAcceptNewBox() const { return m_sshAcceptNew; }
    QLineEdit *poolKeyField() const { return m_poolKey; }
    QCheckBox *insecureBox() const { return m_insecure; }
    QCheckBox *rememberBox() const { return m_remember; }
    QLabel *errorLabel() const { return m_error; }

    void accept() override;

private:
    QLineEdit *fileField(const QString &placeholder);
    void updateWarnings();

    SaveFunction m_save;
    ConnectionProfile m_original; // the profile edited: its fields without a field here stay
    QLineEdit *m_name;
    QLineEdit *m_url;
    QLineEdit *m_password;
    QCheckBox *m_needsPassword;
    QLineEdit *m_ca;
    QLineEdit *m_serverName;
    QLineEdit *m_cert;
    QLineEdit *m_key;
    QCheckBox *m_insecure;
    QLabel *m_insecureWarning;
    QLineEdit *m_sshDestination;
    QLineEdit *m_sshKey;
    QCheckBox *m_sshAcceptNew;
    QLineEdit *m_poolKey;
    QSpinBox *m_interval;
    QCheckBox *m_remember;
    QLabel *m_error;
};

} // namespace poolscope
