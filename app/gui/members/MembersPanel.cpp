#include "members/MembersPanel.h"

#include "ElidedLabel.h"
#include "session/PoolHealth.h"
#include "session/PoolSession.h"
#include "members/PoolSortProxy.h"
#include "members/PoolTableModel.h"
#include "i18n/LeftToRight.h"

#include <algorithm>

#include <QAction>
#include <QComboBox>
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
#include <QFocusEvent>
#include <QTableView>
#include <QVBoxLayout>

namespace poolscope {

MembersPanel::MembersPanel(PoolSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(new PoolTableModel(&session->colors(), this))
    , m_proxy(new PoolSortProxy(m_model, this))
    , m_filter(new QLineEdit(this))
    , m_healthFilter(new QComboBox(this))
    , m_summary(new ElidedLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTableView(m_stack))
    , m_empty(new QLabel(m_stack))
    , m_frozenHint(new QLabel(this))
    , m_stale(new QLabel(this)) {
    // The Health column shows the session's records, read below the widget line.
    m_model->setHealthSource(&session->health());
    m_model->setPinSource(session);
    connect(&session->health(), &PoolHealth::recordsChanged, m_model,
            &PoolTableModel::healthChanged);
    m_proxy->setFilterKeyColumn(PoolTableModel::Member);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setDynamicSortFilter(true);

    m_filter->setPlaceholderText(tr("Filter members… (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Show only members whose id contains this text"));

    m_view->setModel(m_proxy);
    // Right to left: ids and figures keep their order, phrases take their own first letter's.
    i18n::keepColumnsLeftToRight(m_view, {PoolTableModel::Member, PoolTableModel::Count,
                                          PoolTableModel::Share, PoolTableModel::Rate,
                                          PoolTableModel::Debt});
    i18n::keepColumnsFirstStrong(
        m_view, {PoolTableModel::State, PoolTableModel::Health, PoolTableModel::LastChange});
    i18n::keepLeftToRight(m_filter); // member ids are typed here
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(PoolTableModel::Member, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    // Tab leaves the table (arrows move within it): with tab navigation on, Tab walked every
    // cell, scrolling sideways, and never reached the rest of the window.
    m_view->setTabKeyNavigation(false);
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
    m_view->setColumnWidth(PoolTableModel::State, digit * 16);
    m_view->setColumnWidth(PoolTableModel::Debt, digit * 7);
    m_view->setColumnWidth(PoolTableModel::Health,
                           digit * 18); // every column fits at the default size

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(16);
    m_empty->setStyleSheet(QStringLiteral("color: palette(mid); font-size: 11pt;"));
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_empty);

    m_frozenHint->setObjectName(QStringLiteral("frozenOrderHint"));
    m_frozenHint->setTextFormat(Qt::RichText);
    m_frozenHint->setStyleSheet(QStringLiteral("color: #8d6e00;"));
    m_frozenHint->setToolTip(
        tr("Rows keep their places while the pointer is over the table or rows are selected, so "
           "the row you aim at stays the row you click. Counts still update. Re-sort now, or move "
           "the pointer away and clear the selection."));
    m_frozenHint->hide();
    m_healthFilter->setObjectName(QStringLiteral("healthFilter"));
    m_healthFilter->addItem(tr("Any health"), -1);
    for (const HealthState state :
         {HealthState::Up, HealthState::Down, HealthState::Unknown, HealthState::NotCheckable})
        m_healthFilter->addItem(tr("Health: %1").arg(healthStateText(state)), int(state));
    m_healthFilter->setToolTip(tr("Show only members in this health state"));
    connect(m_healthFilter, &QComboBox::currentIndexChanged, this, [this] {
        const int state = m_healthFilter->currentData().toInt();
        static_cast<PoolSortProxy *>(m_proxy)->setHealthFilter(
            state < 0 ? std::nullopt : std::optional<HealthState>(HealthState(state)));
        updateEmptyState();
    });

    connect(m_frozenHint, &QLabel::linkActivated, this, &MembersPanel::resortNow);
    m_view->viewport()->installEventFilter(this);
    m_view->installEventFilter(this);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_filter, 1);
    top->addWidget(m_healthFilter);
    top->addWidget(m_frozenHint);
    top->addWidget(m_summary);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    m_stale->setWordWrap(true);
    m_stale->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_stale->setVisible(false);
    layout->addWidget(m_stale);
    layout->addWidget(m_stack, 1);
    connect(m_session, &PoolSession::modeChanged, this, &MembersPanel::showStaleness);
    connect(m_session, &PoolSession::modeChanged, this, &MembersPanel::updateEmptyState);
    connect(m_session, &PoolSession::pollFailed, this, &MembersPanel::updateEmptyState);

    connect(m_filter, &QLineEdit::textChanged, this, &MembersPanel::applyFilterText);
    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(250);
    connect(&m_searchTimer, &QTimer::timeout, this, [this] {
        if (m_summaryView)
            m_session->setMemberSearch(m_filter->text().trimmed().toUtf8());
        m_refreshTimer.start();
    });
    connect(m_session, &PoolSession::memberSearchUpdated, this, [this] { m_refreshTimer.start(); });
    connect(m_session, &PoolSession::credentialsShownChanged, m_model,
            &PoolTableModel::setCredentialsShown);
    m_model->setCredentialsShown(m_session->credentialsShown());
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MembersPanel::selectionChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MembersPanel::updateOrderFreeze);
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
    // Reached from the keyboard (Tab, Ctrl+F then Tab), the table selects the row under its
    // cursor, or the first one: the actions (Delete, Ctrl+R, Ctrl+P) then have a member to act
    // on, as the highlighted row promises.
    if (watched == m_view && event->type() == QEvent::FocusIn &&
        static_cast<QFocusEvent *>(event)->reason() != Qt::MouseFocusReason &&
        !m_view->selectionModel()->hasSelection() && m_proxy->rowCount() > 0) {
        const QModelIndex current = m_view->currentIndex().isValid()
                                        ? m_view->currentIndex()
                                        : m_proxy->index(0, PoolTableModel::Member);
        m_view->selectionModel()->setCurrentIndex(current, QItemSelectionModel::ClearAndSelect |
                                                               QItemSelectionModel::Rows);
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
        m_frozenHint->setText(
            tr("%1 · <a href=\"resort\">re-sort now</a>", "%1: why the rows' order is held")
                .arg(frozenOrderHint()));
}

QString MembersPanel::frozenOrderHint() const {
    if (!m_orderFrozen)
        return {};
    return m_view->selectionModel()->hasSelection() ? tr("‖ order held: rows selected")
                                                    : tr("‖ order held: pointer over the table");
}

void MembersPanel::resortNow() {
    m_proxy->sort(m_proxy->sortColumn(), m_proxy->sortOrder());
}

void MembersPanel::applyFilterText(const QString &text) {
    if (!m_summaryView) {
        m_proxy->setFilterFixedString(text);
        updateEmptyState();
        return;
    }
    m_searchTimer.start();
}

QString MembersPanel::searchText() const {
    return m_summaryView ? m_filter->text().trimmed() : QString();
}

bool MembersPanel::isSearching() const {
    return !searchText().isEmpty();
}

void MembersPanel::showSearchResult(const PoolObservation &observation) {
    const QByteArray text = searchText().toUtf8();
    const auto &search = m_session->memberSearch();
    QList<RankedMember> found;
    if (search && search->text == text) {
        for (const PoolMember &member : search->matches)
            found.append({search->exactFound && member.member == search->exact.member
                              ? search->exact.rank
                              : -1,
                          member.member, member.count});
    }
    QList<EvictedMember> evicted; // the evicted members listed with the poll, by prefix
    for (const EvictedMember &member : observation.snapshot.evicted)
        if (member.member.startsWith(text))
            evicted.append(member);
    const PoolSummary &summary = observation.summary;
    const double lowest = summary.quantile(0.0);
    const double secondLowest = summary.bottom.size() > 1 ? summary.bottom[1].count : lowest;
    QList<PoolTableModel::Row> rows =
        PoolTableModel::buildRankRows(found, observation.stats.total, lowest, secondLowest,
                                      &m_session->rates(), &m_session->history());
    rows.append(PoolTableModel::buildEvictedRows(evicted, &m_session->history()));
    m_model->setRows(rows, QDateTime::currentMSecsSinceEpoch());
    setSearchSorting(true);
    updateEmptyState();
}

void MembersPanel::setSearchSorting(bool on) {
    if (on == m_searchSorting)
        return;
    m_searchSorting = on;
    m_view->horizontalHeader()->setSortIndicatorShown(on);
    m_proxy->setDynamicSortFilter(on);
    m_view->setSortingEnabled(on);
    if (on)
        m_view->sortByColumn(PoolTableModel::Count, Qt::AscendingOrder);
    else
        m_proxy->sort(-1); // back to rank order
}

void MembersPanel::applyObservation(const PoolObservation &observation) {
    if (observation.summaryMode) {
        const bool entering = !m_summaryView;
        setSummaryView(true);
        if (isSearching()) {
            showSearchResult(observation);
            return;
        }
        setSearchSorting(false);
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
    m_model->setLiveRows(observation.snapshot, &m_session->rates(), &m_session->history(),
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
        m_proxy->setFilterFixedString(QString());
        m_view->setSortingEnabled(false);
        m_proxy->setDynamicSortFilter(false);
        m_orderFrozen = false; // not a hold: summary rows stay in rank order
        m_proxy->sort(-1);
        m_view->horizontalHeader()->setSortIndicatorShown(false);
        m_filter->setPlaceholderText(
            tr("Find a member or the start of its id… (Ctrl+F, searched on the server)"));
        m_filter->setToolTip(tr(
            "This pool is read in summary mode: only the rows on screen are read, and rows stay "
            "in rank order (count ascending: the next to be allocated first). Type a member's id "
            "or its start (case-sensitive): the server looks the member up by name and scans for "
            "ids starting with the text in the background, a few small pages at a time; the "
            "members found become the table's rows, to pin or evict. Clear the field to go back "
            "to the rows by rank."));
    } else {
        m_searchSorting = false;
        m_visibleRowsTimer.stop();
        m_searchTimer.stop();
        if (m_session->memberSearch())
            m_session->setMemberSearch({});
        m_filter->setPlaceholderText(tr("Filter members… (Ctrl+F)"));
        m_filter->setToolTip(tr("Show only members whose id contains this text"));
        m_view->horizontalHeader()->setSortIndicatorShown(true);
        m_proxy->setDynamicSortFilter(true);
        m_orderFrozen = false;
        m_view->setSortingEnabled(true);
        m_view->sortByColumn(PoolTableModel::Member, Qt::AscendingOrder);
        m_proxy->setFilterFixedString(m_filter->text()); // typed as a search: a filter again
    }
    updateOrderFreeze();
}

void MembersPanel::requestVisibleRows() {
    if (!m_summaryView || isSearching())
        return; // the rows shown are the members found, not ranks
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

void MembersPanel::showStaleness() {
    const bool stale = m_session->isStale();
    m_stale->setText(stale ? tr("Stale: no good poll since %1. Counts, rates and "
                                "\"last change\" are from then.")
                                 .arg(QDateTime::fromMSecsSinceEpoch(m_session->lastGoodPollMs())
                                          .toString(QStringLiteral("HH:mm:ss")))
                           : QString());
    m_stale->setVisible(stale);
    // Greyed out: the rows' text in the colour of disabled text.
    QPalette palette = m_view->palette();
    palette.setColor(QPalette::Text, stale ? palette.color(QPalette::Disabled, QPalette::Text)
                                           : QPalette().color(QPalette::Active, QPalette::Text));
    m_view->setPalette(palette);
}

QString MembersPanel::staleText() const {
    return m_stale->isVisibleTo(this) ? m_stale->text() : QString();
}

QString MembersPanel::emptyStateText() const {
    if (isSearching() && m_model->rowCount() == 0) {
        const auto &search = m_session->memberSearch();
        if (!search || search->text != searchText().toUtf8())
            return tr("Searching the pool for \"%1\"…").arg(searchText());
        if (!search->error.isEmpty())
            return tr("The search for \"%1\" failed: %2")
                .arg(searchText(), m_session->displayText(search->error));
        if (!search->complete)
            return tr("Searching the pool for \"%1\"… (%2 pages read)")
                .arg(searchText(), QLocale().toString(search->pagesRead));
        return tr("No member is or starts with \"%1\" (the whole pool was searched; "
                  "ids are case-sensitive).")
            .arg(searchText());
    }
    if (m_model->rowCount() > 0 && m_proxy->rowCount() == 0 && m_healthFilter->currentIndex() > 0)
        return m_filter->text().isEmpty()
                   ? tr("No member is %1 (health filter).")
                         .arg(healthStateText(HealthState(m_healthFilter->currentData().toInt())))
                   : tr("No member matches \"%1\" and is %2 (health filter).")
                         .arg(m_filter->text(),
                              healthStateText(HealthState(m_healthFilter->currentData().toInt())));
    if (m_model->rowCount() > 0)
        return m_proxy->rowCount() == 0 ? tr("No member matches \"%1\".").arg(m_filter->text())
                                        : QString();
    if (!m_session->hasTarget())
        return tr("Not connected. Enter a Redis URL and a pool key above, then "
                  "Connect.");
    if (m_session->state() == ConnectionState::Reconnecting)
        return tr("Cannot reach %1: retrying. The events panel says why.")
            .arg(m_session->endpoint().toDisplayString());
    // Stopped on a refusal that retrying cannot change (a declined or changed SSH host key, a
    // failed login): nothing was read, and nothing will be until the person connects again.
    if (m_session->state() == ConnectionState::Disconnected && !m_session->latestObservation() &&
        !m_session->pollFailure().isEmpty())
        return tr("Not connected: %1\nConnect tries again.").arg(m_session->pollFailure());
    if (!m_session->latestObservation() && !m_session->pollFailure().isEmpty())
        return tr("Connected, but reading \"%1\" fails: %2")
            .arg(QString::fromUtf8(m_session->poolKey()), m_session->pollFailure());
    if (!m_session->latestObservation())
        return tr("Connecting to %1…").arg(m_session->endpoint().toDisplayString());
    // Seen before, not live now: the pool may well exist, so never "no pool".
    if (m_session->isStale() || m_session->state() != ConnectionState::Connected) {
        const QString since =
            QDateTime::fromMSecsSinceEpoch(m_session->lastGoodPollMs()).toString(u"HH:mm:ss");
        return m_session->pollFailure().isEmpty()
                   ? tr("Not connected to %1: \"%2\" was last read at %3.\nConnect tries again.")
                         .arg(m_session->endpoint().toDisplayString(),
                              QString::fromUtf8(m_session->poolKey()), since)
                   : tr("Not connected: %1\n\"%2\" was last read at %3. Connect tries again.")
                         .arg(m_session->pollFailure(), QString::fromUtf8(m_session->poolKey()),
                              since);
    }
    if (m_session->isReadOnly())
        return tr("No pool at \"%1\" yet. (Read-only: another process has to seed "
                  "it.)")
            .arg(QString::fromUtf8(m_session->poolKey()));
    return tr("No pool at \"%1\" yet: Seed… (Ctrl+N) to add proxies.")
        .arg(QString::fromUtf8(m_session->poolKey()));
}

void MembersPanel::updateEmptyState() {
    const QString text = emptyStateText();
    const bool empty = m_model->rowCount() == 0;
    m_empty->setText(text);
    m_stack->setCurrentWidget(empty ? static_cast<QWidget *>(m_empty) : m_view);
    if (isSearching()) {
        const auto &search = m_session->memberSearch();
        QString state = tr("searching…");
        if (search && search->text == searchText().toUtf8())
            state = search->truncated ? tr("first %1 found: type more to narrow")
                                            .arg(QLocale().toString(MemberSearch::kMaxMatches))
                    : search->complete
                        ? tr("whole pool searched")
                        : tr("searching… %Ln page(s)", nullptr, int(search->pagesRead));
        m_summary->setFullText(
            tr("%1 found for \"%2\" · %3")
                .arg(QLocale().toString(m_model->rowCount()), searchText(), state));
        return;
    }
    if (!empty && m_summaryView) {
        m_summary->setFullText(tr("%1 in pool, by rank (summary mode) · %2 evicted")
                                   .arg(QLocale().toString(m_model->poolMemberCount()),
                                        QLocale().toString(m_model->evictedCount())));
        return;
    }
    m_summary->setFullText(empty ? QString()
                                 : tr("%1 shown · %2 in pool · %3 evicted")
                                       .arg(QLocale().toString(m_proxy->rowCount()),
                                            QLocale().toString(m_model->poolMemberCount()),
                                            QLocale().toString(m_model->evictedCount())));
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
