#include "connection/ConnectionEditDialog.h"

#include <QAction>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

namespace poolscope {

ConnectionEditDialog::ConnectionEditDialog(const ConnectionProfile &profile, bool keychainAvailable,
                                           const QString &noKeychainReason, SaveFunction save,
                                           QWidget *parent)
    : QDialog(parent)
    , m_save(std::move(save))
    , m_original(profile)
    , m_name(new QLineEdit(profile.name, this))
    , m_url(new QLineEdit(profile.url, this))
    , m_password(new QLineEdit(this))
    , m_needsPassword(new QCheckBox(tr("The server needs a password"), this))
    , m_ca(fileField(tr("system CAs")))
    , m_serverName(new QLineEdit(profile.tls.serverName, this))
    , m_cert(fileField(tr("none")))
    , m_key(fileField(tr("in the certificate file")))
    , m_insecure(new QCheckBox(tr("Do not verify the server (insecure)"), this))
    , m_insecureWarning(new QLabel(this))
    , m_sshDestination(new QLineEdit(profile.ssh.destination, this))
    , m_sshKey(fileField(tr("ssh-agent, then ~/.ssh/config")))
    , m_sshAcceptNew(new QCheckBox(tr("Accept and record an unknown host key"), this))
    , m_poolKey(new QLineEdit(QString::fromUtf8(profile.poolKey), this))
    , m_interval(new QSpinBox(this))
    , m_remember(new QCheckBox(tr("Remember secrets in the keychain"), this))
    , m_error(new QLabel(this)) {
    setWindowTitle(profile.name.isEmpty() ? tr("New connection") : tr("Edit connection"));
    setObjectName(QStringLiteral("connectionEditDialog"));
    m_url->setPlaceholderText(QStringLiteral("rediss://redis.example:6380/0"));
    m_url->setToolTip(tr("redis://, rediss:// (TLS) or unix:// URL, without a "
                         "password: passwords are never saved in the settings file"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("asked when connecting if left empty"));
    m_needsPassword->setChecked(profile.needsPassword);
    m_ca->setText(profile.tls.caFile);
    m_serverName->setPlaceholderText(tr("the URL's host"));
    m_cert->setText(profile.tls.certFile);
    m_key->setText(profile.tls.keyFile);
    m_insecure->setChecked(profile.tls.insecure);
    m_insecureWarning->setText(
        tr("Warning: anyone between poolscope and the server can read and change the traffic, "
           "password included. The status bar will say \"TLS, NOT verified\"."));
    m_insecureWarning->setWordWrap(true);
    m_insecureWarning->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    m_sshDestination->setPlaceholderText(tr("[user@]bastion[:port] or a Host alias"));
    m_sshKey->setText(profile.ssh.keyFile);
    m_sshAcceptNew->setChecked(profile.ssh.acceptNewHostKey);
    m_interval->setRange(int(kMinPollInterval.count()), int(kMaxPollInterval.count()));
    m_interval->setSuffix(tr(" ms"));
    m_interval->setSingleStep(250);
    m_interval->setValue(int(profile.pollInterval.count()));
    m_remember->setChecked(keychainAvailable && profile.rememberSecrets);
    m_remember->setEnabled(keychainAvailable);
    auto *keychainNote = new QLabel(this);
    keychainNote->setWordWrap(true);
    if (!keychainAvailable) {
        const QString why =
            tr("No keychain here (%1): secrets are asked for each time and kept in "
               "memory only, until poolscope exits.")
                .arg(noKeychainReason.isEmpty() ? tr("no Secret Service") : noKeychainReason);
        keychainNote->setText(why);
        m_remember->setToolTip(why);
    } else {
        keychainNote->setText(tr("Unchecked: secrets are kept in memory only, until "
                                 "poolscope exits."));
    }
    m_error->setObjectName(QStringLiteral("connectionError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b71c1c; font-weight: bold;"));
    m_error->hide();

    auto *general = new QFormLayout;
    general->addRow(tr("Name"), m_name);
    general->addRow(tr("URL"), m_url);
    general->addRow(QString(), m_needsPassword);
    general->addRow(tr("Password"), m_password);
    general->addRow(tr("Pool key"), m_poolKey);
    general->addRow(tr("Poll every"), m_interval);

    auto *tlsBox = new QGroupBox(tr("TLS (rediss://)"), this);
    auto *tls = new QFormLayout(tlsBox);
    tls->addRow(tr("CA file"), m_ca);
    tls->addRow(tr("Server name"), m_serverName);
    tls->addRow(tr("Client certificate"), m_cert);
    tls->addRow(tr("Client key"), m_key);
    tls->addRow(QString(), m_insecure);
    tls->addRow(m_insecureWarning);

    auto *sshBox = new QGroupBox(tr("SSH tunnel"), this);
    auto *ssh = new QFormLayout(sshBox);
    ssh->addRow(tr("Through"), m_sshDestination);
    ssh->addRow(tr("Key file"), m_sshKey);
    ssh->addRow(QString(), m_sshAcceptNew);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectionEditDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectionEditDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(general);
    layout->addWidget(tlsBox);
    layout->addWidget(sshBox);
    layout->addWidget(m_remember);
    layout->addWidget(keychainNote);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(m_insecure, &QCheckBox::toggled, this, &ConnectionEditDialog::updateWarnings);
    connect(m_password, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (!text.isEmpty())
            m_needsPassword->setChecked(true);
    });
    updateWarnings();
    setMinimumWidth(560);
}

QLineEdit *ConnectionEditDialog::fileField(const QString &placeholder) {
    auto *field = new QLineEdit(this);
    field->setPlaceholderText(placeholder);
    QAction *browse = field->addAction(style()->standardIcon(QStyle::SP_DirOpenIcon),
                                       QLineEdit::TrailingPosition);
    browse->setToolTip(tr("Choose a file"));
    connect(browse, &QAction::triggered, this, [this, field] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Choose a file"), field->text());
        if (!file.isEmpty())
            field->setText(file);
    });
    return field;
}

void ConnectionEditDialog::updateWarnings() {
    m_insecureWarning->setVisible(m_insecure->isChecked());
}

ConnectionProfile ConnectionEditDialog::profile() const {
    // From the profile edited: what the dialog has no field for (group, environment) is kept.
    ConnectionProfile profile = m_original;
    profile.name = m_name->text().trimmed();
    profile.url = m_url->text().trimmed();
    profile.tls.caFile = m_ca->text().trimmed();
    profile.tls.serverName = m_serverName->text().trimmed();
    profile.tls.certFile = m_cert->text().trimmed();
    profile.tls.keyFile = m_key->text().trimmed();
    profile.tls.insecure = m_insecure->isChecked();
    const EndpointParseResult parsed = parseEndpoint(profile.url);
    profile.tls.enabled = parsed.ok() && parsed.endpoint->tls.enabled;
    profile.ssh.destination = m_sshDestination->text().trimmed();
    profile.ssh.keyFile = m_sshKey->text().trimmed();
    profile.ssh.acceptNewHostKey = m_sshAcceptNew->isChecked();
    profile.poolKey = m_poolKey->text().trimmed().toUtf8();
    profile.pollInterval = std::chrono::milliseconds(m_interval->value());
    profile.needsPassword = m_needsPassword->isChecked() || !m_password->text().isEmpty();
    profile.rememberSecrets = m_remember->isEnabled() && m_remember->isChecked();
    return profile;
}

QString ConnectionEditDialog::password() const {
    return m_password->text();
}

void ConnectionEditDialog::accept() {
    const QString problem = m_save ? m_save(profile()) : checkProfile(profile());
    if (!problem.isEmpty()) {
        m_error->setText(problem);
        m_error->show();
        return;
    }
    QDialog::accept();
}

} // namespace poolscope
