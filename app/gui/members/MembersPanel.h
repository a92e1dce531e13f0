#pragma once

#include <QByteArray>
#include <QList>
#include <QTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QComboBox;
class QStackedWidget;
class QTableView;

namespace poolscope {

class ElidedLabel;
class PoolSession;
class PoolTableModel;
struct PoolObservation;

// The members table: filter field, sortable multi-select table of the pool and its evicted
// members, and an empty state that says what to do. Feeds the model from the session.
//
// Big pools (summary mode) are shown lazily: one row per rank, but only the rows on screen (plus
// a screenful above and below) are read; scrolling tells the poller which ranks to read (after
// 100 ms of calm) and asks for a poll at once. Sorting is then fixed by rank (count ascending).
// The filter then becomes a search on the server (a substring filter would need every member's
// name, the whole read summary mode avoids): the member typed exactly and the members starting
// with the text are found in the background (PoolSession::setMemberSearch) and shown as the
// table's rows, to pin or evict; clearing the field goes back to the rows by rank.
class MembersPanel : public QWidget {
    Q_OBJECT

public:
    explicit MembersPanel(PoolSession *session, QWidget *parent = nullptr);
    ~MembersPanel() override;

    PoolTableModel *model() const { return m_model; }
    QSortFilterProxyModel *proxyModel() const { return m_proxy; }
    QTableView *tableView() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    // Filters the table by health: all, up, down, unknown, not checkable.
    QComboBox *healthFilterBox() const { return m_healthFilter; }

    // Selected members, split by state, in the table's current order.
    QList<QByteArray> selectedPoolMembers() const;
    QList<QByteArray> selectedEvictedMembers() const;
    QList<QByteArray> selectedMembers() const;
    // Selects exactly these members (and scrolls to the first).
    void selectMembers(const QList<QByteArray> &members);
    void focusFilter();
    // Summary mode: the rank range last asked of the poller (count 0: none yet).
    qint64 requestedFromRank() const { return m_requestedFrom; }
    int requestedRowCount() const { return m_requestedCount; }
    // Summary mode: the text being searched on the server (empty: the table shows ranks).
    QString searchText() const;
    // What the empty state says now (empty when the table has rows).
    QString emptyStateText() const;
    // "Stale: …" while polls fail (the rows are then greyed out), empty while they are live.
    QString staleText() const;
    // Adds actions to the table's context menu (evict, restore, pin...).
    void setContextActions(const QList<QAction *> &actions);
    // How long the last refresh from a poll took (model and proxy update), in ms.
    double lastRefreshMs() const { return m_lastRefreshMs; }
    // The row order is held while the pointer is over the table or rows are selected, so a row
    // never moves under the pointer or away from the keyboard; values still update. A hint says
    // so and offers to re-sort now; the order follows the sort again once both are over.
    bool isOrderFrozen() const { return m_orderFrozen; }
    QString frozenOrderHint() const;
    void resortNow();

Q_SIGNALS:
    void selectionChanged();
    // The table took the latest poll (it does so in an event of its own, after the session's).
    void refreshed();

private:
    void refreshFromSession();
    void applyObservation(const PoolObservation &observation);
    void updateEmptyState();
    void setSummaryView(bool summary);
    void requestVisibleRows();
    void updateOrderFreeze();
    bool eventFilter(QObject *watched, QEvent *event) override;
    void applyFilterText(const QString &text);
    void showSearchResult(const PoolObservation &observation);
    bool isSearching() const;
    // The members found are few: sortable like a small pool (count ascending at first).
    void setSearchSorting(bool on);
    void showStaleness();

    PoolSession *m_session;
    PoolTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QComboBox *m_healthFilter;
    ElidedLabel *m_summary; // one line, elided: it never widens the window
    QStackedWidget *m_stack;
    QTableView *m_view;
    QLabel *m_empty;
    QLabel *m_frozenHint;
    bool m_pointerOverTable = false;
    bool m_orderFrozen = false;
    QLabel *m_stale; // says when the rows are from the last good poll, so old figures never pass
                     // for live ones
    QTimer m_visibleRowsTimer; // debounces scrolling before the poller is told
    QTimer m_refreshTimer;     // zero-delay: the table's refresh runs in its own event
    QTimer m_searchTimer;      // debounces typing before a search is sent to the server
    double m_lastRefreshMs = 0;
    bool m_summaryView = false;
    bool m_searchSorting = false;
    qint64 m_requestedFrom = 0;
    int m_requestedCount = 0;
};

} // namespace poolscope
