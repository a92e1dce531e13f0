#include "pools/PoolsPanel.h"

#include "catalog/PoolCatalogReader.h"
#include "pools/PoolsTableModel.h"
#include "i18n/LeftToRight.h"

#include <QLocale>
#include <QTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace poolscope {

PoolsPanel::PoolsPanel(QWidget *parent)
    : QWidget(parent)
    , m_reader(new PoolCatalogReader(this))
    , m_model(new PoolsTableModel(this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_status(new QLabel(tr("Connect to see every pool on the server or cluster."), this))
    , m_refresh(new QPushButton(tr("Refresh"), this))
    , m_timer(new QTimer(this)) {
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(PoolsTableModel::SortRole);
    m_view->setModel(m_sorted);
    // Keys, nodes and figures keep their left-to-right order in a right-to-left window.
    i18n::keepColumnsLeftToRight(
        m_view, {PoolsTableModel::Key, PoolsTableModel::Node, PoolsTableModel::Size,
                 PoolsTableModel::Minimum, PoolsTableModel::Median, PoolsTableModel::Maximum,
                 PoolsTableModel::Spread, PoolsTableModel::Evicted, PoolsTableModel::Rate});
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(PoolsTableModel::Key, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setTabKeyNavigation(false); // Tab leaves the table; arrows move within it
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(PoolsTableModel::Key, QHeaderView::Stretch);
    m_view->setToolTip(tr("Double-click a pool to watch it"));
    m_refresh->setEnabled(false);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_status, 1);
    bar->addWidget(m_refresh);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (isVisible()) // a closed or hidden panel costs the servers nothing
            refresh();
    });
    connect(m_refresh, &QPushButton::clicked, this, &PoolsPanel::refresh);
    connect(m_view, &QTableView::activated, this, &PoolsPanel::openRow);
    connect(
        m_reader, &PoolCatalogReader::catalogRead, this, [this](const QList<PoolOverview> &pools) {
            m_model->setPools(pools);
            QSet<QString> nodes;
            for (const PoolOverview &pool : pools)
                nodes.insert(pool.node);
            // Two counts in one sentence: each a plural phrase of its own, placed whole.
            m_status->setText(
                tr("%1 on %2, read at %3",
                   "%1: how many pools (sorted sets of proxies), %2: how many Redis nodes, %3: a "
                   "time")
                    .arg(tr("%n pool(s)", nullptr, int(pools.size())),
                         tr("%n node(s)", "Redis servers", int(nodes.size())),
                         QLocale().toString(QTime::currentTime(), QLocale::LongFormat)));
            m_view->resizeColumnsToContents();
        });
    connect(m_reader, &PoolCatalogReader::readFailed, this, [this](const Failure &failure) {
        m_status->setText(tr("Could not read the pools: %1").arg(failure.text));
    });
}

PoolsPanel::~PoolsPanel() = default;

void PoolsPanel::setEndpoint(const Endpoint &endpoint) {
    if (m_endpoint && *m_endpoint == endpoint) { // a reconnect to the same place
        refresh();
        return;
    }
    m_endpoint = endpoint;
    m_reader->setTarget(endpoint);
    m_model->setPools({});
    m_status->setText(tr("Reading the pools of %1…").arg(endpoint.toDisplayString()));
    m_refresh->setEnabled(true);
    m_timer->start();
    if (isVisible())
        refresh();
}

void PoolsPanel::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    refresh(); // nothing is read while the panel is closed
}

void PoolsPanel::refresh() {
    m_reader->read();
}

QString PoolsPanel::statusText() const {
    return m_status->text();
}

void PoolsPanel::openRow(const QModelIndex &index) {
    if (!index.isValid())
        return;
    Q_EMIT poolOpened(m_sorted->data(index, PoolsTableModel::KeyRole).toByteArray());
}

} // namespace poolscope
