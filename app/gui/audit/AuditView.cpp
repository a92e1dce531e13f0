#include "audit/AuditView.h"

#include "session/AuditSearch.h"
#include "session/CsvExport.h"
#include "session/PoolSession.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QTextStream>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace poolscope {

namespace {

// An action as people read it; one of a newer version by its own name.
QString actionTitle(AuditAction action, const QString &name) {
    switch (action) {
    case AuditAction::Seed:
        return AuditView::tr("seed");
    case AuditAction::Evict:
        return AuditView::tr("evict");
    case AuditAction::Restore:
        return AuditView::tr("restore");
    case AuditAction::MigrateCompanion:
        return AuditView::tr("evicted hash moved");
    case AuditAction::Capped:
        return AuditView::tr("guard held back");
    case AuditAction::Uncapped:
        return AuditView::tr("guard no longer held back");
    case AuditAction::Other:
        break;
    }
    return name;
}

} // namespace

AuditView::AuditView(PoolSession *session, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_search(new AuditSearch(this))
    , m_member(new QLineEdit(this))
    , m_actor(new QLineEdit(this))
    , m_action(new QComboBox(this))
    , m_searchButton(new QPushButton(tr("&Search"), this))
    , m_exportButton(new QPushButton(tr("&Export CSV…"), this))
    , m_table(new QTreeWidget(this))
    , m_status(new QLabel(this)) {
    setObjectName(QStringLiteral("auditView"));
    setWindowTitle(
        tr("Audit trail: %1").arg(session->displayText(QString::fromUtf8(session->poolKey()))));
    m_member->setPlaceholderText(tr("part of a member id"));
    m_actor->setPlaceholderText(tr("user, host, program or guard"));
    m_action->addItem(tr("any action"));
    for (const AuditAction action : allAuditActions())
        m_action->addItem(actionTitle(action, auditActionName(action)), int(action));
    m_table->setObjectName(QStringLiteral("auditTable"));
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setColumnCount(ColumnCount);
    m_table->setHeaderLabels(
        {tr("Time"), tr("Action"), tr("Members"), tr("Count"), tr("Actor"), tr("Reason")});
    m_table->header()->setStretchLastSection(true);
    m_table->setAccessibleName(tr("Audit entries"));
    m_searchButton->setDefault(true);
    m_status->setWordWrap(true);

    auto *filters = new QFormLayout;
    filters->addRow(tr("&Member:"), m_member);
    filters->addRow(tr("Ac&tor:"), m_actor);
    filters->addRow(tr("Acti&on:"), m_action);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_exportButton, QDialogButtonBox::ActionRole);
    auto *top = new QHBoxLayout;
    top->addLayout(filters, 1);
    top->addWidget(m_searchButton, 0, Qt::AlignBottom);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    connect(m_searchButton, &QPushButton::clicked, this, &AuditView::search);
    connect(m_member, &QLineEdit::returnPressed, this, &AuditView::search);
    connect(m_actor, &QLineEdit::returnPressed, this, &AuditView::search);
    connect(m_exportButton, &QPushButton::clicked, this, &AuditView::chooseExportFile);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_search, &AuditSearch::entriesFound, this, &AuditView::addEntries);
    connect(m_search, &AuditSearch::searchFinished, this, [this](qint64 read, bool complete) {
        const QLocale locale;
        const QString found = tr("%n entry(ies) found", nullptr, m_table->topLevelItemCount());
        m_status->setText(
            complete ? tr("%1 among %2 read: the whole trail.").arg(found, locale.toString(read))
                     : tr("%1: stopped there, narrow the filters to see older ones.").arg(found));
        m_searchButton->setEnabled(true);
    });
    connect(m_search, &AuditSearch::searchFailed, this, [this](const Failure &failure) {
        m_status->setText(tr("The trail could not be read: %1").arg(failure.text));
        m_searchButton->setEnabled(true);
    });
    resize(960, 560);
    search();
}

AuditView::~AuditView() = default;

void AuditView::search() {
    m_table->clear();
    if (!m_session->hasTarget() || m_session->isShowingRecording()) {
        m_status->setText(tr("No live pool watched: there is no trail to read."));
        return;
    }
    AuditFilter filter;
    filter.member = m_member->text().trimmed();
    filter.actor = m_actor->text().trimmed();
    if (m_action->currentIndex() > 0)
        filter.actions = {AuditAction(m_action->currentData().toInt())};
    m_status->setText(tr("Reading the trail…"));
    m_searchButton->setEnabled(false);
    m_search->start(m_session->endpoint(), m_session->poolKey(), filter);
}

void AuditView::addEntries(const QList<AuditEntry> &entries) {
    const QLocale locale;
    QList<QTreeWidgetItem *> items;
    for (const AuditEntry &entry : entries) {
        QStringList members;
        for (const AuditMemberChange &change : entry.members)
            members << change.member;
        auto *item = new QTreeWidgetItem;
        item->setText(Time, locale.toString(QDateTime::fromMSecsSinceEpoch(entry.timeMs),
                                            QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        item->setText(Action, actionTitle(entry.action, entry.actionName));
        item->setText(Members, m_session->displayText(members.join(QStringLiteral(", "))));
        item->setText(Count, locale.toString(entry.count));
        item->setText(Actor, entry.actorText());
        item->setText(Reason, m_session->displayText(entry.reason));
        item->setToolTip(Reason, item->text(Reason));
        items << item;
    }
    const bool first = m_table->topLevelItemCount() == 0;
    m_table->addTopLevelItems(items);
    if (first) // the first page (500 entries at most) sets the columns' widths
        for (int column = 0; column < Reason; ++column)
            m_table->resizeColumnToContents(column);
}

QString AuditView::exportCsv(const QString &path) const {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return tr("%1: %2").arg(path, file.errorString());
    QTextStream out(&file);
    writeModelCsv(out, *m_table->model(), Qt::DisplayRole);
    out.flush();
    if (!file.commit())
        return tr("%1: %2").arg(path, file.errorString());
    return {};
}

void AuditView::chooseExportFile() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the audit entries"),
        QStringLiteral("audit-%1.csv").arg(QString::fromUtf8(m_session->poolKey())),
        tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    const QString error = exportCsv(path);
    m_status->setText(error.isEmpty() ? tr("Exported to %1.").arg(path)
                                      : tr("Not exported: %1").arg(error));
}

} // namespace poolscope
