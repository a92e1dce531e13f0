#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace poolscope {

class AuditSearch;
class PoolSession;
struct AuditEntry;

// The Audit view (Pool > Audit trail…): the watched pool's audit trail over its whole length,
// newest first, filtered by member, actor and action, read page by page off the GUI thread
// (AuditSearch), and exported to CSV as shown.
class AuditView : public QDialog {
    Q_OBJECT

public:
    enum Column { Time, Action, Members, Count, Actor, Reason, ColumnCount };

    explicit AuditView(PoolSession *session, QWidget *parent = nullptr);
    ~AuditView() override;

    // Reads the trail again with the filters as they are.
    void search();
    // Writes the rows shown to a CSV file; empty on success, else why not.
    QString exportCsv(const QString &path) const;

    QLineEdit *memberFilter() const { return m_member; }
    QLineEdit *actorFilter() const { return m_actor; }
    QComboBox *actionFilter() const { return m_action; }
    QTreeWidget *table() const { return m_table; }
    AuditSearch *searcher() const { return m_search; }

private:
    void addEntries(const QList<AuditEntry> &entries);
    void chooseExportFile();

    PoolSession *m_session;
    AuditSearch *m_search;
    QLineEdit *m_member;
    QLineEdit *m_actor;
    QComboBox *m_action;
    QPushButton *m_searchButton;
    QPushButton *m_exportButton;
    QTreeWidget *m_table;
    QLabel *m_status;
};

} // namespace poolscope
