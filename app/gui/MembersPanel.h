#pragma once

#include <QByteArray>
#include <QList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace poolscope {

class PoolSession;
class PoolTableModel;

// The members table: filter field, sortable multi-select table of the pool and its evicted
// members, and an empty state that says what to do. Feeds the model from the session.
class MembersPanel : public QWidget {
    Q_OBJECT

public:
    explicit MembersPanel(PoolSession *session, QWidget *parent = nullptr);
    ~MembersPanel() override;

    PoolTableModel *model() const { return m_model; }
    QSortFilterProxyModel *proxyModel() const { return m_proxy; }
    QTableView *tableView() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }

    // Selected members, split by state, in the table's current order.
    QList<QByteArray> selectedPoolMembers() const;
    QList<QByteArray> selectedEvictedMembers() const;
    QList<QByteArray> selectedMembers() const;
    // Selects exactly these members (and scrolls to the first).
    void selectMembers(const QList<QByteArray> &members);
    void focusFilter();
    // What the empty state says now (empty when the table has rows).
    QString emptyStateText() const;
    // Adds actions to the table's context menu (evict, restore, pin...).
    void setContextActions(const QList<QAction *> &actions);

Q_SIGNALS:
    void selectionChanged();
    void memberActivated(const QByteArray &member);

private:
    void refreshFromSession();
    void updateEmptyState();

    PoolSession *m_session;
    PoolTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QLabel *m_summary;
    QStackedWidget *m_stack;
    QTableView *m_view;
    QLabel *m_empty;
};

} // namespace poolscope
