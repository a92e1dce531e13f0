#include "MembersPanel.h"

#include "PoolSession.h"
#include "PoolTableModel.h"

#include <QAction>
#include <QDateTime>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace poolscope {

MembersPanel::MembersPanel(PoolSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(new PoolTableModel(&session->colors(), this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTableView(m_stack))
    , m_empty(new QLabel(m_stack)) {
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(PoolTableModel::SortRole);
    m_proxy->setFilterKeyColumn(PoolTableModel::Member);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setDynamicSortFilter(true);

    m_filter->setPlaceholderText(QStringLiteral("Filter members… (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(QStringLiteral("Show only members whose id contains this text"));
    m_summary->setToolTip(QStringLiteral("Rows shown / members in the pool and evicted"));

    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(PoolTableModel::Member, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->setToolTip(QString());
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(PoolTableModel::Member, digit * 26);
    m_view->setColumnWidth(PoolTableModel::Count, digit * 9);
    m_view->setColumnWidth(PoolTableModel::Share, digit * 8);
    m_view->setColumnWidth(PoolTableModel::Rate, digit * 8);
    m_view->setColumnWidth(PoolTableModel::State, digit * 22);
    m_view->setColumnWidth(PoolTableModel::Debt, digit * 7);

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(16);
    m_empty->setStyleSheet(QStringLiteral("color: palette(mid); font-size: 11pt;"));
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_empty);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_filter, 1);
    top->addWidget(m_summary);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_stack, 1);

    connect(m_filter, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    connect(m_filter, &QLineEdit::textChanged, this, &MembersPanel::updateEmptyState);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MembersPanel::selectionChanged);
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        Q_EMIT memberActivated(index.data(PoolTableModel::MemberRole).toByteArray());
    });
    connect(m_session, &PoolSession::observationApplied, this, &MembersPanel::refreshFromSession);
    connect(m_session, &PoolSession::targetChanged, this, [this] {
        m_model->clear();
        updateEmptyState();
    });
    connect(m_session, &PoolSession::stateChanged, this, &MembersPanel::updateEmptyState);
    updateEmptyState();
}

MembersPanel::~MembersPanel() = default;

void MembersPanel::refreshFromSession() {
    const auto &observation = m_session->latestObservation();
    if (!observation)
        return;
    m_model->setRows(PoolTableModel::buildRows(observation->snapshot, &m_session->rates(),
                                               &m_session->history()),
                     QDateTime::currentMSecsSinceEpoch());
    updateEmptyState();
}

QString MembersPanel::emptyStateText() const {
    if (m_model->rowCount() > 0)
        return m_proxy->rowCount() == 0
                   ? QStringLiteral("No member matches \"%1\".").arg(m_filter->text())
                   : QString();
    if (!m_session->hasTarget())
        return QStringLiteral("Not connected. Enter a Redis URL and a pool key above, then "
                              "Connect.");
    if (m_session->state() == ConnectionState::Reconnecting)
        return QStringLiteral("Cannot reach %1: retrying. The events panel says why.")
            .arg(m_session->endpoint().toDisplayString());
    if (!m_session->latestObservation())
        return QStringLiteral("Connecting to %1…").arg(m_session->endpoint().toDisplayString());
    if (m_session->isReadOnly())
        return QStringLiteral("No pool at \"%1\" yet. (Read-only: another process has to seed "
                              "it.)")
            .arg(QString::fromUtf8(m_session->poolKey()));
    return QStringLiteral("No pool at \"%1\" yet: Seed… (Ctrl+N) to add proxies.")
        .arg(QString::fromUtf8(m_session->poolKey()));
}

void MembersPanel::updateEmptyState() {
    const QString text = emptyStateText();
    const bool empty = m_model->rowCount() == 0;
    m_empty->setText(text);
    m_stack->setCurrentWidget(empty ? static_cast<QWidget *>(m_empty) : m_view);
    m_summary->setText(empty ? QString()
                             : QStringLiteral("%1 shown · %2 in pool · %3 evicted")
                                   .arg(m_proxy->rowCount())
                                   .arg(m_model->poolMemberCount())
                                   .arg(m_model->evictedCount()));
}

QList<QByteArray> MembersPanel::selectedMembers() const {
    QList<QByteArray> members;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows(PoolTableModel::Member);
    QList<QModelIndex> sorted(rows.begin(), rows.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &index : sorted)
        members.append(index.data(PoolTableModel::MemberRole).toByteArray());
    return members;
}

QList<QByteArray> MembersPanel::selectedPoolMembers() const {
    QList<QByteArray> members;
    for (const QByteArray &member : selectedMembers()) {
        const int row = m_model->rowOf(member);
        if (row >= 0 && !m_model->rowAt(row).evicted)
            members.append(member);
    }
    return members;
}

QList<QByteArray> MembersPanel::selectedEvictedMembers() const {
    QList<QByteArray> members;
    for (const QByteArray &member : selectedMembers()) {
        const int row = m_model->rowOf(member);
        if (row >= 0 && m_model->rowAt(row).evicted)
            members.append(member);
    }
    return members;
}

void MembersPanel::selectMembers(const QList<QByteArray> &members) {
    QItemSelection selection;
    QModelIndex first;
    for (const QByteArray &member : members) {
        const int row = m_model->rowOf(member);
        if (row < 0)
            continue;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        if (!index.isValid())
            continue;
        if (!first.isValid())
            first = index;
        selection.select(index, index.siblingAtColumn(PoolTableModel::ColumnCount - 1));
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect |
                                                    QItemSelectionModel::Rows);
    if (first.isValid()) {
        m_view->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
        m_view->scrollTo(first);
    }
}

void MembersPanel::focusFilter() {
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

void MembersPanel::setContextActions(const QList<QAction *> &actions) {
    for (QAction *action : m_view->actions())
        m_view->removeAction(action);
    m_view->addActions(actions);
}

} // namespace poolscope
