#include "connection/ConnectionsDialog.h"

#include "connection/ConnectionEditDialog.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "session/WriteLock.h"
#include "transport/Transport.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace poolscope {

ConnectionsDialog::ConnectionsDialog(ProfileStore *store, SecretStore *secrets,
                                     const ConnectionProfile &newTemplate, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
    , m_secrets(secrets)
    , m_template(newTemplate)
    , m_list(new QTreeWidget(this))
    , m_details(new QLabel(this))
    , m_keychain(new QLabel(this))
    , m_error(new QLabel(this))
    , m_new(new QPushButton(tr("New..."), this))
    , m_editButton(new QPushButton(tr("Edit..."), this))
    , m_duplicate(new QPushButton(tr("Duplicate..."), this))
    , m_delete(new QPushButton(tr("Delete"), this))
    , m_connect(new QPushButton(tr("Connect"), this)) {
    setWindowTitle(tr("Connections"));
    setObjectName(QStringLiteral("connectionsDialog"));
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(this, tr("Delete connection"), question,
                                     QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::No) == QMessageBox::Yes;
    };
    m_edit = [](ConnectionEditDialog &editor) { return editor.exec() == QDialog::Accepted; };

    m_list->setObjectName(QStringLiteral("connectionList"));
    m_list->setMinimumWidth(260);
    m_list->setColumnCount(2);
    m_list->setHeaderLabels({tr("Connection"), tr("Environment")});
    m_list->setRootIsDecorated(true);
    m_list->setUniformRowHeights(true);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setMinimumWidth(320);
    m_keychain->setWordWrap(true);
    m_keychain->setAlignment(Qt::AlignBottom | Qt::AlignLeft);
    // Room for its three lines: the wrapped text changes after the layout first measured it.
    m_keychain->setMinimumHeight(m_keychain->fontMetrics().lineSpacing() * 3 + 4);
    m_keychain->setObjectName(QStringLiteral("keychainStatus"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    m_error->hide();
    m_connect->setDefault(true);
    m_delete->setShortcut(QKeySequence::Delete);

    auto *buttons = new QVBoxLayout;
    for (QPushButton *button : {m_new, m_editButton, m_duplicate, m_delete})
        buttons->addWidget(button);
    buttons->addStretch();
    buttons->addWidget(m_connect);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *top = new QHBoxLayout;
    top->addWidget(m_list, 2);
    auto *right = new QVBoxLayout;
    right->addWidget(m_details, 1);
    right->addWidget(m_keychain);
    top->addLayout(right, 3);
    top->addLayout(buttons);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(m_error);
    layout->addWidget(close);

    connect(m_new, &QPushButton::clicked, this, &ConnectionsDialog::createNew);
    connect(m_editButton, &QPushButton::clicked, this, &ConnectionsDialog::editSelected);
    connect(m_duplicate, &QPushButton::clicked, this, &ConnectionsDialog::duplicateSelected);
    connect(m_delete, &QPushButton::clicked, this, &ConnectionsDialog::deleteSelected);
    connect(m_connect, &QPushButton::clicked, this, &ConnectionsDialog::connectSelected);
    // A folder's double click opens or closes it; a connection's connects.
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this] {
        if (!selectedName().isEmpty())
            connectSelected();
    });
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] {
        updateButtons();
        showDetails();
    });
    connect(m_secrets, &SecretStore::availabilityKnown, this,
            &ConnectionsDialog::updateKeychainLabel);
    m_secrets->probe();
    updateKeychainLabel();
    reload();
    resize(820, 420);
}

ConnectionsDialog::~ConnectionsDialog() = default;

QString ConnectionsDialog::selectedName() const {
    const QTreeWidgetItem *item = m_list->currentItem();
    return item ? item->data(0, Qt::UserRole).toString() : QString();
}

int ConnectionsDialog::connectionCount() const {
    int count = 0;
    for (QTreeWidgetItemIterator it(m_list); *it; ++it)
        if (!(*it)->data(0, Qt::UserRole).toString().isEmpty())
            ++count;
    return count;
}

void ConnectionsDialog::select(const QString &name) {
    for (QTreeWidgetItemIterator it(m_list); *it; ++it)
        if ((*it)->data(0, Qt::UserRole).toString() == name) {
            m_list->setCurrentItem(*it);
            return;
        }
}

void ConnectionsDialog::reload(const QString &selected) {
    m_list->clear();
    // Groups as folders (sorted, before the connections without one); each connection with
    // its environment's colour.
    QMap<QString, QTreeWidgetItem *> folders;
    QList<QTreeWidgetItem *> loose;
    for (const QString &name : m_store->names()) {
        const ProfileLoadResult loaded = m_store->load(name);
        const QString group = loaded.ok() ? loaded.profile->group : QString();
        const Environment environment =
            loaded.ok() ? loaded.profile->environment : Environment::None;
        auto *item = new QTreeWidgetItem({name, environmentLabel(environment)});
        item->setData(0, Qt::UserRole, name);
        if (const QColor colour = environmentColor(environment); colour.isValid()) {
            QPixmap swatch(12, 12);
            swatch.fill(colour);
            item->setIcon(0, QIcon(swatch));
            item->setForeground(1, colour);
        }
        if (group.isEmpty()) {
            loose << item;
            continue;
        }
        QTreeWidgetItem *&folder = folders[group];
        if (!folder) {
            folder = new QTreeWidgetItem({group});
            folder->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            QFont bold = folder->font(0);
            bold.setBold(true);
            folder->setFont(0, bold);
        }
        folder->addChild(item);
    }
    QStringList groups = folders.keys();
    groups.sort(Qt::CaseInsensitive);
    for (const QString &group : groups)
        m_list->addTopLevelItem(folders.value(group));
    m_list->addTopLevelItems(loose);
    m_list->expandAll();
    m_list->resizeColumnToContents(0);
    if (!selected.isEmpty())
        select(selected);
    if (selectedName().isEmpty())
        for (QTreeWidgetItemIterator it(m_list); *it; ++it)
            if (!(*it)->data(0, Qt::UserRole).toString().isEmpty()) {
                m_list->setCurrentItem(*it);
                break;
            }
    updateButtons();
    showDetails();
}

void ConnectionsDialog::updateButtons() {
    const bool any = !selectedName().isEmpty();
    for (QPushButton *button : {m_editButton, m_duplicate, m_delete, m_connect})
        button->setEnabled(any);
}

void ConnectionsDialog::updateKeychainLabel() {
    switch (m_secrets->availability()) {
    case SecretStore::Availability::Available:
        m_keychain->setText(tr("Secrets of connections that remember them are kept "
                               "in the keychain, the others in memory only, until "
                               "poolscope exits. None is ever written to the "
                               "settings file."));
        break;
    case SecretStore::Availability::Unavailable:
        m_keychain->setText(tr("No keychain here (%1): passwords and passphrases are "
                               "asked for each time and kept in memory only, until "
                               "poolscope exits.")
                                .arg(m_secrets->unavailableReason()));
        break;
    case SecretStore::Availability::Unknown:
        m_keychain->setText(tr("Looking for a keychain..."));
        break;
    }
}

void ConnectionsDialog::showDetails() {
    m_error->hide();
    const QString name = selectedName();
    if (name.isEmpty()) {
        const QTreeWidgetItem *folder = m_list->currentItem();
        m_details->setText(folder ? tr("Group %1: %n connection(s)", nullptr, folder->childCount())
                                        .arg(folder->text(0).toHtmlEscaped())
                                  : tr("No saved connections yet: New... saves one."));
        return;
    }
    const ProfileLoadResult loaded = m_store->load(name);
    if (!loaded.ok()) {
        m_details->setText(loaded.error.toHtmlEscaped());
        return;
    }
    const ConnectionProfile &p = *loaded.profile;
    QString error;
    const std::optional<Endpoint> endpoint = profileEndpoint(p, &error);
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(p.name.toHtmlEscaped()) << p.url.toHtmlEscaped()
          << tr("Transport: %1%2")
                 .arg(endpoint ? transport::describeTransport(*endpoint) : error.toHtmlEscaped(),
                      p.ssh.enabled() ? tr(", via ssh %1").arg(p.ssh.destination.toHtmlEscaped())
                                      : QString())
          << tr("Pool key: %1").arg(QString::fromUtf8(p.poolKey).toHtmlEscaped())
          << tr("Poll every %1 ms").arg(QLocale().toString(qlonglong(p.pollInterval.count())));
    if (!p.group.isEmpty())
        lines << tr("Group: %1").arg(p.group.toHtmlEscaped());
    if (p.environment != Environment::None)
        lines << tr("Environment: <b><font color=\"%1\">%2</font></b>")
                     .arg(environmentColor(p.environment).name(), environmentLabel(p.environment));
    if (p.environment == Environment::Production)
        lines << tr("Opens with writes locked until unlocked for the session");
    if (p.needsPassword)
        lines << (p.rememberSecrets ? tr("Password: from the keychain")
                                    : tr("Password: asked when connecting"));
    m_details->setText(lines.join(QStringLiteral("<br>")));
}

void ConnectionsDialog::edit(const ConnectionProfile &start, const QString &previousName) {
    const bool keychain = m_secrets->availability() != SecretStore::Availability::Unavailable;
    ConnectionEditDialog editor(
        start, keychain, m_secrets->unavailableReason(),
        [this, previousName](const ConnectionProfile &profile) {
            return m_store->save(profile, previousName);
        },
        this);
    if (!m_edit(editor))
        return;
    const ConnectionProfile saved = editor.profile();
    if (!previousName.isEmpty() && previousName != saved.name)
        m_secrets->move(previousName, saved.name);
    if (!editor.password().isEmpty()) {
        if (saved.rememberSecrets)
            m_secrets->write(saved.name, transport::SecretKind::RedisPassword, editor.password());
        else
            m_secrets->keepInMemory(saved.name, transport::SecretKind::RedisPassword,
                                    editor.password());
    }
    reload(saved.name);
}

void ConnectionsDialog::createNew() {
    ConnectionProfile start = m_template;
    start.name.clear();
    edit(start, {});
}

void ConnectionsDialog::editSelected() {
    const ProfileLoadResult loaded = m_store->load(selectedName());
    if (!loaded.ok()) {
        m_error->setText(loaded.error);
        m_error->show();
        return;
    }
    edit(*loaded.profile, loaded.profile->name);
}

void ConnectionsDialog::duplicateSelected() {
    const ProfileLoadResult loaded = m_store->load(selectedName());
    if (!loaded.ok()) {
        m_error->setText(loaded.error);
        m_error->show();
        return;
    }
    ConnectionProfile copy = *loaded.profile;
    QString name = tr("%1 (copy)").arg(copy.name);
    for (int n = 2; m_store->contains(name); ++n)
        name = tr("%1 (copy %2)").arg(copy.name, QLocale().toString(n));

    copy.name = name;
    edit(copy, {});
}

void ConnectionsDialog::deleteSelected() {
    const QString name = selectedName();
    if (name.isEmpty() || !m_confirm(tr("Delete the saved connection \"%1\" and its secrets in the "
                                        "keychain?")
                                         .arg(name)))
        return;
    if (const QString problem = m_store->remove(name); !problem.isEmpty()) {
        m_error->setText(problem);
        m_error->show();
        return;
    }
    m_secrets->forget(name);
    reload();
}

void ConnectionsDialog::connectSelected() {
    const ProfileLoadResult loaded = m_store->load(selectedName());
    if (!loaded.ok()) {
        m_error->setText(loaded.error);
        m_error->show();
        return;
    }
    Q_EMIT connectRequested(*loaded.profile);
    accept();
}

} // namespace poolscope
