#include "overview/OverviewWindow.h"

#include "overview/OverviewDelegate.h"
#include "overview/OverviewExport.h"
#include "overview/OverviewModel.h"
#include "overview/OverviewPoller.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace poolscope {

OverviewWindow::OverviewWindow(ProfileStore *store, SecretStore *secrets, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_store(store)
    , m_secrets(secrets)
    , m_poller(new OverviewPoller(this))
    , m_model(new OverviewModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_groups(new QComboBox(this))
    , m_filter(new QLineEdit(this))
    , m_refresh(new QPushButton(tr("&Refresh"), this))
    , m_export(new QToolButton(this))
    , m_pages(new QStackedWidget(this))
    , m_empty(new QLabel(this))
    , m_table(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_detail(new QLabel(this)) {
    setObjectName(QStringLiteral("overviewWindow"));
    setWindowTitle(tr("Overview of every pool – poolscope"));
    resize(1100, 480);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(OverviewModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    auto *groupLabel = new QLabel(tr("&Connections:"), this);
    groupLabel->setBuddy(m_groups);
    m_groups->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_filter->setPlaceholderText(tr("Filter rows: connection, pool, status…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Shows only the rows with this text in any column (Ctrl+F)"));
    auto *find = new QShortcut(QKeySequence::Find, this);
    connect(find, &QShortcut::activated, m_filter, [this] {
        m_filter->setFocus(Qt::ShortcutFocusReason);
        m_filter->selectAll();
    });
    m_refresh->setToolTip(tr("Reads every server now (F5)"));
    m_refresh->setShortcut(QKeySequence::Refresh);
    m_export->setText(tr("&Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto *exportMenu = new QMenu(m_export);
    exportMenu->addAction(tr("Rows shown as CSV…"), this,
                          [this] { exportWithChooser(Format::Csv); });
    exportMenu->addAction(tr("Rows shown as JSON…"), this,
                          [this] { exportWithChooser(Format::Json); });
    m_export->setMenu(exportMenu);

    auto *top = new QHBoxLayout;
    top->addWidget(groupLabel);
    top->addWidget(m_groups);
    top->addWidget(m_filter, 1);
    top->addWidget(m_refresh);
    top->addWidget(m_export);

    m_table->setModel(m_proxy);
    m_table->setItemDelegate(new OverviewDelegate(m_table));
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(OverviewModel::Connection, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnHidden(OverviewModel::Node, true);
    m_table->setColumnHidden(OverviewModel::Group, true);
    // Whether a row is read, and since when, next to its name; the reason (long) at the end.
    QHeaderView *header = m_table->horizontalHeader();
    const QList<int> order = {OverviewModel::Connection,     OverviewModel::EnvironmentColumn,
                              OverviewModel::Pool,           OverviewModel::Status,
                              OverviewModel::LastPoll,       OverviewModel::Members,
                              OverviewModel::Evicted,        OverviewModel::Minimum,
                              OverviewModel::Median,         OverviewModel::Maximum,
                              OverviewModel::Spread,         OverviewModel::Jain,
                              OverviewModel::AllocationRate, OverviewModel::RateTrend,
                              OverviewModel::SpreadTrend,    OverviewModel::HealthUp,
                              OverviewModel::HealthDown,     OverviewModel::Guard,
                              OverviewModel::Alerts,         OverviewModel::Why};
    for (int visual = 0; visual < order.size(); ++visual)
        header->moveSection(header->visualIndex(order[visual]), visual);
    header->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setWhatsThis(tr("Every pool of the chosen connections. Enter or a double click "
                             "opens the pool in the main window."));

    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_empty->setMargin(24);
    m_pages->addWidget(m_table);
    m_pages->addWidget(m_empty);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_pages, 1);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_detail);
    layout->addWidget(m_summary);

    connect(m_poller, &OverviewPoller::rowsChanged, this, [this] {
        m_model->setRows(m_poller->rows());
        updateSummary();
    });
    // A keychain's answer for a connection the overview asked about: read again (the password is
    // then in the store's memory), once for every answer that came at the same time.
    if (m_secrets)
        connect(m_secrets, &SecretStore::secretRead, this,
                [this](const QString &name, transport::SecretKind kind) {
                    if (kind != transport::SecretKind::RedisPassword ||
                        !m_keychainAsked.contains(name) || m_reloadQueued)
                        return;
                    m_reloadQueued = true;
                    QMetaObject::invokeMethod(
                        this,
                        [this] {
                            m_reloadQueued = false;
                            reload();
                        },
                        Qt::QueuedConnection);
                });
    // The default alert rules judged on each row's readings, after every server's answer (or
    // failure): the alerts column.
    connect(m_poller, &OverviewPoller::serverPolled, this, [this] {
        const QList<OverviewAlerts::Verdict> verdicts =
            m_alertJudge.evaluate(m_poller->rows(), QDateTime::currentMSecsSinceEpoch());
        for (const OverviewAlerts::Verdict &verdict : verdicts)
            m_poller->setActiveAlerts(verdict.connection, verdict.pool, verdict.firing);
    });
    // Fitted once every server has answered (or failed) the first time; the person's widths are
    // kept afterwards.
    connect(m_poller, &OverviewPoller::roundCompleted, this, [this] {
        if (m_fitted || m_model->rowCount() == 0)
            return;
        m_fitted = true;
        m_table->resizeColumnsToContents();
    });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setFilterFixedString(text);
        updateSummary();
    });
    connect(m_groups, &QComboBox::activated, this, [this] { reload(); });
    connect(m_refresh, &QPushButton::clicked, m_poller, &OverviewPoller::pollNow);
    connect(m_table, &QAbstractItemView::activated, this, &OverviewWindow::openRow);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &OverviewWindow::updateDetail);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this, &OverviewWindow::updateDetail);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &OverviewWindow::updateDetail);

    m_chooseFile = [this](const QString &caption, const QString &suggested, const QString &filter) {
        return QFileDialog::getSaveFileName(this, caption, suggested, filter);
    };
    reload();
}

OverviewWindow::~OverviewWindow() = default;

void OverviewWindow::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    m_table->setFocus(Qt::OtherFocusReason);
}

QString OverviewWindow::group() const {
    return m_groups->currentData().toString();
}

void OverviewWindow::setGroup(const QString &group) {
    const int index = m_groups->findData(group);
    if (index >= 0)
        m_groups->setCurrentIndex(index);
    reload();
}

void OverviewWindow::fillGroups() {
    const QString current = group();
    QStringList groups;
    for (const QString &name : m_store->names()) {
        const ProfileLoadResult loaded = m_store->load(name);
        if (loaded.ok() && !loaded.profile->group.isEmpty() &&
            !groups.contains(loaded.profile->group))
            groups << loaded.profile->group;
    }
    groups.sort(Qt::CaseInsensitive);
    m_groups->clear();
    m_groups->addItem(tr("Every saved connection"), QString());
    for (const QString &name : groups)
        m_groups->addItem(tr("Group %1").arg(name), name);
    m_groups->setCurrentIndex(std::max(0, m_groups->findData(current)));
}

void OverviewWindow::reload() {
    fillGroups();
    const QString chosenGroup = group();
    QList<OverviewConnection> connections;
    for (const QString &name : m_store->names()) {
        const ProfileLoadResult loaded = m_store->load(name);
        if (!loaded.ok()) {
            if (!chosenGroup.isEmpty())
                continue; // its group cannot be read
            OverviewConnection damaged;
            damaged.name = name;
            damaged.problem = loaded.error;
            connections << damaged;
            continue;
        }
        const ConnectionProfile &profile = *loaded.profile;
        if (!chosenGroup.isEmpty() && profile.group != chosenGroup)
            continue;
        OverviewConnection connection = OverviewConnection::fromProfile(profile);
        if (connection.problem.isEmpty() && profile.needsPassword) {
            // Only a password given in this run: the overview never asks on its own.
            if (const std::optional<QString> password =
                    m_secrets ? m_secrets->inMemory(name, transport::SecretKind::RedisPassword)
                              : std::nullopt) {
                connection.endpoint.password = *password;
            } else if (profile.rememberSecrets && m_secrets &&
                       m_secrets->availability() != SecretStore::Availability::Unavailable &&
                       !m_keychainAsked.contains(name)) {
                // Read from the keychain as Connect reads it; polled once it has answered.
                m_keychainAsked.insert(name);
                m_secrets->read(name, transport::SecretKind::RedisPassword);
                connection.problem = tr("reading its password from the keychain…");
                connection.problemKind = RedisError::Kind::Authentication;
            } else {
                connection.problem = tr("needs a password: connect to it once (File ▸ "
                                        "Connections…) and the overview reads it too");
                connection.problemKind = RedisError::Kind::Authentication;
            }
        }
        connections << connection;
    }
    m_connectionCount = int(connections.size());
    m_poller->setConnections(connections);
    m_model->setRows(m_poller->rows());

    if (m_store->names().isEmpty()) {
        m_empty->setText(
            tr("No saved connections yet.\n\nAdd one with File ▸ Connections… (Ctrl+Shift+O): "
               "New, then the server's URL and the pool key. Scripts can add them with "
               "“poolscope-cli profile add NAME --url URL”. The overview then lists every pool "
               "of every saved connection."));
        m_pages->setCurrentWidget(m_empty);
    } else if (connections.isEmpty()) {
        m_empty->setText(tr("No saved connection is in this group."));
        m_pages->setCurrentWidget(m_empty);
    } else {
        m_pages->setCurrentWidget(m_table);
    }
    updateSummary();
}

bool OverviewWindow::isEmptyStateShown() const {
    return m_pages->currentWidget() == m_empty;
}

void OverviewWindow::updateSummary() {
    const QLocale locale;
    QString text =
        tr("%1 of %2 rows shown · %3 connections, each server read every %4 s")
            .arg(locale.toString(m_proxy->rowCount()), locale.toString(m_model->rowCount()),
                 locale.toString(m_connectionCount),
                 locale.toString(double(m_poller->interval().count()) / 1000.0, 'g', 3));
    if (!m_message.isEmpty())
        text += QStringLiteral(" · ") + m_message;
    m_summary->setText(text);
}

void OverviewWindow::updateDetail() {
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    if (!current.isValid() || current.row() >= m_model->rows().size()) {
        m_detail->clear();
        return;
    }
    const OverviewRow &row = m_model->rows().at(current.row());
    if (row.problem.isEmpty()) {
        m_detail->clear();
        return;
    }
    m_detail->setText(tr("%1: %2 · last good poll: %3")
                          .arg(row.connection, row.problem,
                               OverviewModel::displayText(row, OverviewModel::LastPoll)));
}

void OverviewWindow::openRow(const QModelIndex &index) {
    if (!index.isValid())
        return;
    const QModelIndex source = m_proxy->mapToSource(index);
    const OverviewRow &row = m_model->rows().at(source.row());
    Q_EMIT poolOpenRequested(row.connection, row.placeholder ? QByteArray() : row.pool);
}

bool OverviewWindow::exportTo(const QString &path, Format format) {
    const QByteArray data =
        format == Format::Csv
            ? overviewCsv(*m_proxy)
            : QJsonDocument(overviewJson(*m_proxy)).toJson(QJsonDocument::Indented);
    QSaveFile file(path);
    const bool ok =
        file.open(QIODevice::WriteOnly) && file.write(data) == data.size() && file.commit();
    m_message = ok ? tr("%1 rows written to %2").arg(QLocale().toString(m_proxy->rowCount()), path)
                   : tr("could not write %1: %2").arg(path, file.errorString());
    updateSummary();
    return ok;
}

void OverviewWindow::exportWithChooser(Format format) {
    const QString path =
        format == Format::Csv
            ? m_chooseFile(tr("Export the overview as CSV"), QStringLiteral("overview.csv"),
                           tr("CSV files (*.csv)"))
            : m_chooseFile(tr("Export the overview as JSON"), QStringLiteral("overview.json"),
                           tr("JSON files (*.json)"));
    if (!path.isEmpty())
        exportTo(path, format);
}

} // namespace poolscope
