#pragma once

#include "profiles/ConnectionProfile.h"

#include <functional>

#include <QDialog>

class QLabel;
class QTreeWidget;
class QPushButton;

namespace poolscope {

class ConnectionEditDialog;
class ProfileStore;
class SecretStore;

// File > Connections...: the saved connections (a tree: groups as folders, each connection with
// its environment's colour), with New, Edit, Duplicate, Delete (asked first)
// and Connect. Profiles go to the ProfileStore (never a secret); a password typed in the editor
// goes to the SecretStore (keychain, or memory only when there is none: the dialog says which).
class ConnectionsDialog : public QDialog {
    Q_OBJECT

public:
    ConnectionsDialog(ProfileStore *store, SecretStore *secrets,
                      const ConnectionProfile &newTemplate, QWidget *parent = nullptr);
    ~ConnectionsDialog() override;

    // For tests: answers "delete NAME?" (default: a message box), and receives each editor before
    // it runs (default: exec()); returns whether it was accepted.
    using ConfirmFunction = std::function<bool(const QString &question)>;
    using EditFunction = std::function<bool(ConnectionEditDialog &editor)>;
    void setConfirmFunction(ConfirmFunction confirm) { m_confirm = std::move(confirm); }
    void setEditFunction(EditFunction edit) { m_edit = std::move(edit); }

    // Groups as folders, connections inside (or at the top without a group); a connection's
    // item holds its name in Qt::UserRole, a folder's holds none.
    QTreeWidget *tree() const { return m_list; }
    int connectionCount() const;
    QLabel *keychainLabel() const { return m_keychain; }
    QPushButton *newButton() const { return m_new; }
    QPushButton *editButton() const { return m_editButton; }
    QPushButton *duplicateButton() const { return m_duplicate; }
    QPushButton *deleteButton() const { return m_delete; }
    QPushButton *connectButton() const { return m_connect; }
    QString selectedName() const;
    void select(const QString &name);

Q_SIGNALS:
    void connectRequested(const poolscope::ConnectionProfile &profile);

private:
    void reload(const QString &selected = {});
    void updateButtons();
    void updateKeychainLabel();
    void showDetails();
    // Runs the editor; previousName empty: a new connection.
    void edit(const ConnectionProfile &start, const QString &previousName);
    void createNew();
    void editSelected();
    void duplicateSelected();
    void deleteSelected();
    void connectSelected();

    ProfileStore *m_store;
    SecretStore *m_secrets;
    ConnectionProfile m_template;
    QTreeWidget *m_list;
    QLabel *m_details;
    QLabel *m_keychain;
    QLabel *m_error;
    QPushButton *m_new;
    QPushButton *m_editButton;
    QPushButton *m_duplicate;
    QPushButton *m_delete;
    QPushButton *m_connect;
    ConfirmFunction m_confirm;
    EditFunction m_edit;
};

} // namespace poolscope
