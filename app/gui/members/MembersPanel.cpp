#include "members/MembersPanel.h"

#include "session/PoolSession.h"
#include "members/PoolSortProxy.h"
#include "members/PoolTableModel.h"

#include <QAction>
#include <QDateTime>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollBar>
#include <QElapsedTimer>
#include <QEvent>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace poolscope {

MembersPanel::MembersPanel(PoolSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(new PoolTableModel(&session->colors(), this))
    , m_proxy(new PoolSortProxy(m_model, this))
    , m_filter(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTableView(m_stack))
    , m_empty(new QLabel(m_stack))
    , m_frozenHint(new QLabel(this)) {
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

    m_frozenHint->setObjectName(QStringLiteral("frozenOrderHint"));
    m_frozenHint->setTextFormat(Qt::RichText);
    m_frozenHint->setStyleSheet(QStringLiteral("color: #8d6e00;"));
    m_frozenHint->setToolTip(QStringLiteral(
        "Rows keep their places while the pointer is over the table or rows are selected, so "
        "the row you aim at stays the row you click. Counts still update. Re-sort now, or move "
        "the pointer away and clear the selection."));
    m_frozenHint->hide();
    connect(m_frozenHint, &QLabel::linkActivated, this, &MembersPanel::resortNow);
    m_view->viewport()->installEventFilter(this);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_filter, 1);
    top->addWidget(m_frozenHint);
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
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MembersPanel::updateOrderFreeze);
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        Q_EMIT memberActivated(index.data(PoolTableModel::MemberRole).toByteArray());
    });
    m_visibleRowsTimer.setSingleShot(true);
    m_visibleRowsTimer.setInterval(100);
    connect(&m_visibleRowsTimer, &QTimer::timeout, this, &MembersPanel::requestVisibleRows);
    const auto scheduleVisibleRows = [this] {
        if (m_summaryView)
            m_visibleRowsTimer.start();
    };
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, scheduleVisibleRows);
    // The range changes with the viewport's height (resizes) and with the row count.
    connect(m_view->verticalScrollBar(), &QScrollBar::rangeChanged, this, scheduleVisibleRows);
    // The table is refreshed in an event of its own, after the other panels: a 10,000-row update
    // then never adds to their time in one stretch of the event loop, and polls that arrive
    // together are applied once.
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(0);
    connect(&m_refreshTimer, &QTimer::timeout, this, &MembersPanel::refreshFromSession);
    connect(m_session, &PoolSession::observationApplied, this, [this] { m_refreshTimer.start(); });
    connect(m_session, &PoolSession::targetChanged, this, [this] {
        m_refreshTimer.stop();
        setSummaryView(false);
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
    QElapsedTimer clock;
    clock.start();
    applyObservation(*observation);
    m_lastRefreshMs = double(clock.nsecsElapsed()) / 1e6;
    Q_EMIT refreshed();
}

bool MembersPanel::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_view->viewport() &&
        (event->type() == QEvent::Enter || event->type() == QEvent::Leave)) {
        m_pointerOverTable = event->type() == QEvent::Enter;
        updateOrderFreeze();
    }
    return QWidget::eventFilter(watched, event);
}

void MembersPanel::updateOrderFreeze() {
    const bool selected = m_view->selectionModel()->hasSelection();
    const bool freeze = !m_summaryView && (m_pointerOverTable || selected);
    if (freeze != m_orderFrozen) {
        m_orderFrozen = freeze;
        // Off: the proxy sorts once now, then again on every change.
        m_proxy->setDynamicSortFilter(!freeze);
    }
    m_frozenHint->setVisible(freeze);
    if (freeze)
        m_frozenHint->setText(frozenOrderHint() +
                              QStringLiteral(" · <a href=\"resort\">re-sort now</a>"));
}

QString MembersPanel::frozenOrderHint() const {
    if (!m_orderFrozen)
        return {};
    return m_view->selectionModel()->hasSelection()
               ? QStringLiteral("‖ order held: rows selected")
               : QStringLiteral("‖ order held: pointer over the table");
}

void MembersPanel::resortNow() {
    m_proxy->sort(m_proxy->sortColumn(), m_proxy->sortOrder());
}

void MembersPanel::applyObservation(const PoolObservation &observation) {
    if (observation.summaryMode) {
        const bool entering = !m_summaryView;
        setSummaryView(true);
        const PoolSummary &summary = observation.summary;
        const double lowest = summary.quantile(0.0);
        const double secondLowest = summary.bottom.size() > 1 ? summary.bottom[1].count : lowest;
        m_model->setSummary(
            summary.size, observation.visibleFrom,
            PoolTableModel::buildRankRows(observation.visibleRows, observation.stats.total, lowest,
                                          secondLowest, &m_session->rates(), &m_session->history()),
            PoolTableModel::buildEvictedRows(observation.snapshot.evicted, &m_session->history()),
            QDateTime::currentMSecsSinceEpoch());
        if (entering)
            requestVisibleRows(); // the first rows at once, not after the debounce
        updateEmptyState();
        return;
    }
    setSummaryView(false);
    // A model reset (most of the pool replaced) drops the selection: put it back on the same
    // members, wherever their rows are now.
    const QList<QByteArray> selected =
        m_view->selectionModel()->hasSelection() ? selectedMembers() : QList<QByteArray>{};
    m_model->setRows(
        PoolTableModel::buildRows(observation.snapshot, &m_session->rates(), &m_session->history()),
        QDateTime::currentMSecsSinceEpoch());
    if (!selected.isEmpty() && !m_view->selectionModel()->hasSelection())
        selectMembers(selected);
    updateEmptyState();
}

void MembersPanel::setSummaryView(bool summary) {
    if (summary == m_summaryView)
        return;
    m_summaryView = summary;
    m_requestedFrom = 0;
    m_requestedCount = 0;
    if (summary) {
        // Before the model switches: sorting a million rows on every poll would freeze the view.
        m_filter->clear();
        m_view->setSortingEnabled(false);
        m_proxy->setDynamicSortFilter(false);
        m_orderFrozen = false; // not a hold: summary rows stay in rank order
        m_proxy->sort(-1);
        m_view->horizontalHeader()->setSortIndicatorShown(false);
        m_filter->setEnabled(false);
        m_filter->setPlaceholderText(QStringLiteral("Filter off for big pools (summary mode)"));
        m_filter->setToolTip(QStringLiteral(
            "This pool is read in summary mode: only the rows on screen are read, so a filter "
            "by part of a name (which needs every member) is off, and rows stay in rank order "
            "(count ascending: the next to be allocated first). Pin members to the chart to "
            "watch them by name."));
    } else {
        m_visibleRowsTimer.stop();
        m_filter->setEnabled(true);
        m_filter->setPlaceholderText(QStringLiteral("Filter members… (Ctrl+F)"));
        m_filter->setToolTip(QStringLiteral("Show only members whose id contains this text"));
        m_view->horizontalHeader()->setSortIndicatorShown(true);
        m_proxy->setDynamicSortFilter(true);
        m_orderFrozen = false;
        m_view->setSortingEnabled(true);
        m_view->sortByColumn(PoolTableModel::Member, Qt::AscendingOrder);
    }
    updateOrderFreeze();
}

void MembersPanel::requestVisibleRows() {
    if (!m_summaryView)
        return;
    const int rowHeight = std::max(1, m_view->verticalHeader()->defaultSectionSize());
    const int visible = std::max(20, m_view->viewport()->height() / rowHeight + 1);
    const int proxyFirst = std::max(0, m_view->rowAt(0));
    const QModelIndex source = m_proxy->mapToSource(m_proxy->index(proxyFirst, 0));
    const int first = source.isValid() ? source.row() : 0;
    const int margin = visible; // a screenful above and below: small scrolls need no read
    const qint64 from = std::max(0, first - margin);
    const int count = visible + 2 * margin;
    if (from == m_requestedFrom && count == m_requestedCount)
        return;
    m_requestedFrom = from;
    m_requestedCount = count;
    m_session->setVisibleRows(from, count);
    m_session->pollNow();
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
    if (!empty && m_summaryView) {
        m_summary->setText(QStringLiteral("%1 in pool, by rank (summary mode) · %2 evicted")
                               .arg(QLocale().toString(m_model->poolMemberCount()))
                               .arg(m_model->evictedCount()));
        return;
    }
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
    for (const QModelIndex &index : sorted) {
        const QByteArray member = index.data(PoolTableModel::MemberRole).toByteArray();
        if (!member.isEmpty()) // a big pool's row not read yet
            members.append(member);
    }
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
