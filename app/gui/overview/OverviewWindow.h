#pragma once

#include "overview/OverviewAlerts.h"

#include <functional>

#include <QByteArray>
#include <QSet>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace poolscope {

class OverviewModel;
class OverviewPoller;
class ProfileStore;
class SecretStore;

// View ▸ Overview…: every pool on every saved connection (or one group of them) in one table,
// read by OverviewPoller on its own threads (one connection per server, backoff for servers that
// fail). Sortable, filtered by a text, exported as shown (CSV, JSON); Enter or a double click asks
// the main window to open that pool. Unreachable servers stay as rows saying why, with the time
// of their last good poll.
class OverviewWindow : public QWidget {
    Q_OBJECT

public:
    OverviewWindow(ProfileStore *store, SecretStore *secrets, QWidget *parent = nullptr);
    ~OverviewWindow() override;

    // Reads the saved connections again and starts polling the chosen ones afresh.
    void reload();
    // "" for every saved connection, or a group's name.
    void setGroup(const QString &group);
    QString group() const;

    OverviewPoller *poller() const { return m_poller; }
    OverviewModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *tableView() const { return m_table; }
    QLineEdit *filterField() const { return m_filter; }
    QComboBox *groupChoice() const { return m_groups; }
    QLabel *emptyLabel() const { return m_empty; }
    QLabel *detailLabel() const { return m_detail; }
    bool isEmptyStateShown() const;

    enum class Format { Csv, Json };
    // What is shown (filter and order), to a file; false with a message in the summary line.
    bool exportTo(const QString &path, Format format);
    using SaveFileFunction = std::function<QString(
        const QString &caption, const QString &suggestedName, const QString &filter)>;
    void setSaveFileFunction(SaveFileFunction choose) { m_chooseFile = std::move(choose); }

Q_SIGNALS:
    // Enter or a double click on a row: the saved connection and the pool (empty: the
    // connection's own row, no pool known).
    void poolOpenRequested(const QString &connection, const QByteArray &pool);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void openRow(const QModelIndex &index);
    void updateSummary();
    // The current row's problem in full (the Why column is narrow), with its last good poll.
    void updateDetail();
    void fillGroups();
    void exportWithChooser(Format format);

    ProfileStore *m_store;
    SecretStore *m_secrets;
    OverviewPoller *m_poller;
    OverviewModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QComboBox *m_groups;
    QLineEdit *m_filter;
    QPushButton *m_refresh;
    QToolButton *m_export;
    QStackedWidget *m_pages;
    QLabel *m_empty;
    QTableView *m_table;
    QLabel *m_summary;
    QLabel *m_detail;
    QString m_message;
    int m_connectionCount = 0;
    bool m_fitted = false;
    SaveFileFunction m_chooseFile;
    OverviewAlerts m_alertJudge;
    QSet<QString> m_keychainAsked; // saved connections whose password was asked of the keychain
    bool m_reloadQueued = false;
};

} // namespace poolscope
