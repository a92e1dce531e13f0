#pragma once

#include "endpoint/Endpoint.h"

#include <optional>

#include <QByteArray>
#include <QWidget>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace poolscope {

class PoolCatalogReader;
class PoolsTableModel;

// Every pool on the server or cluster at a glance, the way HAProxy's stats page lists every
// backend: node (shard), size, min/median/max, spread, evicted members and allocation rate,
// refreshed every few seconds while shown and a server is chosen. Double-clicking (or Enter on) a
// row opens that pool in the dashboard. Read on a thread of its own (PoolCatalogReader).
class PoolsPanel : public QWidget {
    Q_OBJECT

public:
    static constexpr int kRefreshMs = 3000;

    explicit PoolsPanel(QWidget *parent = nullptr);
    ~PoolsPanel() override;

    // Starts reading this server or cluster (an empty-host endpoint is never set).
    void setEndpoint(const Endpoint &endpoint);
    void refresh();

    PoolsTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QString statusText() const;

Q_SIGNALS:
    void poolOpened(const QByteArray &poolKey);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void openRow(const QModelIndex &index);

    PoolCatalogReader *m_reader;
    PoolsTableModel *m_model;
    QSortFilterProxyModel *m_sorted;
    QTableView *m_view;
    QLabel *m_status;
    QPushButton *m_refresh;
    QTimer *m_timer;
    std::optional<Endpoint> m_endpoint;
};

} // namespace poolscope
