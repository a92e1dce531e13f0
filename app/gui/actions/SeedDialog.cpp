#include "actions/SeedDialog.h"

#include "actions/ReasonField.h"
#include "i18n/LeftToRight.h"

#include "ui_SeedDialog.h"

#include "client/BackgroundWorker.h"
#include "session/DisplayFormat.h"
#include "session/Forecast.h"
#include "session/PoolSession.h"

#include <QClipboard>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QGuiApplication>
#include <QLocale>
#include <QMimeData>
#include <QPushButton>
#include <QSet>
#include <QStyledItemDelegate>

namespace poolscope {

namespace {

constexpr int kMaxPreviewRows = 5000; // the preview lists stay responsive for huge files
constexpr qint64 kMaxFileBytes = 64 * 1024 * 1024;
// Lists bigger than this are parsed off the GUI thread (500,000 lines take over a second).
constexpr qsizetype kBackgroundParseBytes = 256 * 1024;
// Files bigger than this are used whole but shown as their first lines: a text box holding tens
// of megabytes is slow to fill and to scroll.
constexpr qint64 kMaxShownFileBytes = 1024 * 1024;
constexpr int kExcerptLines = 1000;

// Rows as tall as their text wrapped in the column's current width. QTreeView asks its delegate
// for a row's size without saying how wide the column is, so on its own it never grows a row for
// wrapped text, and a long rejection reason would be cut off.
class WrappingDelegate final : public QStyledItemDelegate {
public:
    explicit WrappingDelegate(QTreeView *view)
        : QStyledItemDelegate(view)
        , m_view(view) {}

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override {
        const int width = m_view->header()->sectionSize(index.column());
        if (width <= 0)
            return QStyledItemDelegate::sizeHint(option, index);
        QStyleOptionViewItem wrapped(option);
        wrapped.rect = QRect(0, 0, width, 1);
        wrapped.features |= QStyleOptionViewItem::WrapText;
        return QStyledItemDelegate::sizeHint(wrapped, index);
    }

private:
    QTreeView *m_view;
};

} // namespace

SeedDialog::SeedDialog(PoolSession *session, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_ui(std::make_unique<Ui::SeedDialog>()) {
    m_ui->setupUi(this);
    m_seedButton = m_ui->buttonBox->addButton(tr("Seed"), QDialogButtonBox::ApplyRole);
    m_seedButton->setDefault(true);
    // The reason, above the buttons: recorded with every batch of the seed.
    m_reason = new ReasonField(this);
    auto *reasonLine = new QHBoxLayout;
    auto *reasonLabel = new QLabel(ReasonField::labelText(), this);
    reasonLabel->setBuddy(m_reason);
    reasonLine->addWidget(reasonLabel);
    reasonLine->addWidget(m_reason, 1);
    m_ui->mainLayout->insertLayout(m_ui->mainLayout->indexOf(m_ui->buttonBox), reasonLine);
    m_ui->progressBar->setVisible(false);
    m_ui->splitter->setStretchFactor(0, 2);
    m_ui->splitter->setStretchFactor(1, 3);
    m_ui->acceptedList->setColumnWidth(0, 60);
    m_ui->acceptedList->setColumnWidth(1, 300);
    m_ui->rejectedList->setColumnWidth(0, 60);
    m_ui->rejectedList->setColumnWidth(1, 220);
    m_ui->duplicatesList->setColumnWidth(0, 70);
    m_ui->duplicatesList->setColumnWidth(1, 260);
    m_ui->duplicatesList->setColumnWidth(2, 110);
    // The reason column takes the rest of the width and wraps: a reason is never cut off.
    m_ui->rejectedList->header()->setStretchLastSection(true);
    m_ui->rejectedList->setTextElideMode(Qt::ElideNone);
    m_ui->rejectedList->setItemDelegate(new WrappingDelegate(m_ui->rejectedList));
    // Row heights follow the column widths (the dialog resized, a column dragged).
    m_relayoutTimer.setSingleShot(true);
    m_relayoutTimer.setInterval(0);
    connect(&m_relayoutTimer, &QTimer::timeout, m_ui->rejectedList, &QTreeWidget::doItemsLayout);
    connect(m_ui->rejectedList->header(), &QHeaderView::sectionResized, this,
            [this] { m_relayoutTimer.start(); });
    m_ui->textEdit->setAcceptDrops(false); // the dialog takes file drops; text drops too
    // A proxy list is addresses and URLs: left to right in a right-to-left window too.
    i18n::keepLeftToRight(m_ui->textEdit);

    m_parseTimer.setSingleShot(true);
    m_parseTimer.setInterval(150);
    connect(&m_parseTimer, &QTimer::timeout, this, &SeedDialog::updatePreview);
    connect(m_ui->textEdit, &QPlainTextEdit::textChanged, this, [this] {
        m_parseTimer.start();
        m_ui->sourceLabel->clear();
    });
    connect(m_ui->publicOnlyCheck, &QCheckBox::toggled, this, &SeedDialog::updatePreview);
    connect(m_ui->openButton, &QPushButton::clicked, this, &SeedDialog::chooseFile);
    connect(m_ui->pasteButton, &QPushButton::clicked, this,
            [this] { setText(QGuiApplication::clipboard()->text()); });
    connect(m_ui->countEdit, &QLineEdit::textChanged, this, &SeedDialog::updateControls);
    // A choice of the user's is never replaced by the preselection.
    connect(m_ui->countEdit, &QLineEdit::textEdited, this, [this] { m_startChoiceMade = true; });
    connect(m_ui->numberRadio, &QRadioButton::clicked, this, [this] { m_startChoiceMade = true; });
    connect(m_ui->minimumRadio, &QRadioButton::clicked, this, [this] { m_startChoiceMade = true; });
    connect(m_ui->numberRadio, &QRadioButton::toggled, this, &SeedDialog::updateControls);
    connect(m_ui->overwriteCheck, &QCheckBox::toggled, this, &SeedDialog::updateControls);
    connect(m_seedButton, &QPushButton::clicked, this, &SeedDialog::startSeed);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_session, &PoolSession::seedProgressed, this, [this](qint64 done, qint64 total) {
        if (!m_seeding)
            return;
        m_ui->progressBar->setMaximum(int(std::min<qint64>(total, INT_MAX)));
        m_ui->progressBar->setValue(int(std::min<qint64>(done, INT_MAX)));
    });
    connect(m_session, &PoolSession::seedFinished, this, &SeedDialog::handleFinished);
    connect(m_session, &PoolSession::commandFailed, this, &SeedDialog::handleFailure);
    connect(m_session, &PoolSession::observationApplied, this, [this] {
        if (m_refreshListAfterSeed) { // the members just written are "already in the pool" now
            m_refreshListAfterSeed = false;
            showReport(m_report);
        }
        preselectStart();
        updateForecast();
    });
    connect(m_session, &PoolSession::targetChanged, this, &SeedDialog::showTarget);
    showTarget();
    connect(m_session, &PoolSession::writeAvailabilityChanged, this, &SeedDialog::updateControls);
    preselectStart();
    updatePreview();
}

// A non-empty pool: new members start at its minimum unless the user picks a count, so the
// choice offered first is the one that causes no flood.
void SeedDialog::preselectStart() {
    if (m_startChoiceMade || !m_session->poolMinimum() || m_ui->minimumRadio->isChecked())
        return;
    m_ui->minimumRadio->setChecked(true);
}

SeedDialog::~SeedDialog() = default;

void SeedDialog::setText(const QString &text) {
    m_fileBytes.clear();
    m_ui->textEdit->setReadOnly(m_seeding);
    m_ui->textEdit->setPlainText(text);
    updatePreview();
}

QByteArray SeedDialog::listBytes() const {
    return m_fileBytes.isEmpty() ? m_ui->textEdit->toPlainText().toUtf8() : m_fileBytes;
}

bool SeedDialog::loadFile(const QString &path) {
    QFile file(path);
    if (file.size() > kMaxFileBytes) {
        m_ui->summaryLabel->setText(
            tr("%1 is larger than 64 MiB: split it first.").arg(QFileInfo(path).fileName()));
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        m_ui->summaryLabel->setText(tr("Cannot read %1: %2").arg(path, file.errorString()));
        return false;
    }
    const QByteArray bytes = file.readAll();
    const QString name = QFileInfo(path).fileName();
    if (bytes.size() <= kMaxShownFileBytes) {
        setText(QString::fromUtf8(bytes));
        m_ui->sourceLabel->setText(name);
    } else {
        // Used whole, shown in part: the preview lists and the summary cover every line.
        qsizetype end = -1; // the end of the last line shown
        for (int line = 0; line < kExcerptLines; ++line) {
            const qsizetype next = bytes.indexOf('\n', end + 1);
            if (next < 0) {
                end = bytes.size();
                break;
            }
            end = next;
        }
        const QByteArray excerpt = bytes.left(end);
        m_fileBytes = bytes;
        m_ui->textEdit->setReadOnly(true);
        {
            const QSignalBlocker quiet(m_ui->textEdit); // not an edit: no re-parse of the excerpt
            m_ui->textEdit->setPlainText(QString::fromUtf8(excerpt));
        }
        updatePreview();
        m_ui->sourceLabel->setText(tr("%1 (%2): the first %3 lines are shown, every line is used")
                                       .arg(name, QLocale().formattedDataSize(bytes.size()),
                                            QLocale().toString(kExcerptLines)));
    }
    m_ui->sourceLabel->setToolTip(path);
    return true;
}

void SeedDialog::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a proxy list"), QString(),
        tr("Proxy lists (*.txt *.csv *.json *.list)") + QStringLiteral(";;") + tr("All files (*)"));
    if (!path.isEmpty())
        loadFile(path);
}

void SeedDialog::dragEnterEvent(QDragEnterEvent *event) {
    if (event->mimeData()->hasUrls() || event->mimeData()->hasText())
        event->acceptProposedAction();
}

void SeedDialog::dropEvent(QDropEvent *event) {
    const QMimeData *mime = event->mimeData();
    if (mime->hasUrls()) {
        for (const QUrl &url : mime->urls())
            if (url.isLocalFile()) {
                loadFile(url.toLocalFile());
                event->acceptProposedAction();
                return;
            }
    }
    if (mime->hasText()) {
        setText(mime->text());
        event->acceptProposedAction();
    }
}

void SeedDialog::updatePreview() {
    m_parseTimer.stop();
    EligibilityRules rules;
    rules.rejectNonPublicAddresses = m_ui->publicOnlyCheck->isChecked();
    const QByteArray data = listBytes();
    if (m_parser)
        m_parser->retarget(); // a parse under way is ignored from now on
    m_parsingBytes = data.size();
    if (data.size() <= kBackgroundParseBytes) {
        m_parsing = false;
        showReport(data.trimmed().isEmpty() ? EligibilityReport{} : readProxyList(data, rules));
        return;
    }
    if (!m_parser)
        m_parser = std::make_unique<BackgroundWorker>(QStringLiteral("poolscope-parse"));
    const quint64 generation = m_parser->retarget();
    m_parsing = true;
    updateControls();
    m_parser->post([this, link = m_parser->link(), generation, data, rules] {
        if (!link.isCurrent(generation))
            return; // superseded while it waited
        EligibilityReport report = readProxyList(data, rules);
        link.deliver(generation, [this, report = std::move(report)] {
            m_parsing = false;
            showReport(report);
        });
    });
}

void SeedDialog::showReport(const EligibilityReport &report) {
    m_report = report;
    QSet<QByteArray> inPool;
    QSet<QByteArray> evicted;
    if (const auto &observation = m_session->latestObservation()) {
        for (const PoolMember &member : observation->snapshot.members)
            inPool.insert(member.member);
        for (const EvictedMember &member : observation->snapshot.evicted)
            evicted.insert(member.member);
    }

    m_ui->acceptedList->setUpdatesEnabled(false);
    m_ui->rejectedList->setUpdatesEnabled(false);
    m_ui->acceptedList->clear();
    m_ui->rejectedList->clear();
    QList<QTreeWidgetItem *> accepted;
    for (const AcceptedProxy &entry : m_report.accepted) {
        if (accepted.size() >= kMaxPreviewRows)
            break;
        const QByteArray &id = entry.memberId;
        auto *item = new QTreeWidgetItem;
        item->setText(0, QString::number(entry.lineNumber));
        item->setText(1, m_session->displayMember(id));
        item->setText(2, evicted.contains(id)  ? tr("evicted: restore it instead")
                         : inPool.contains(id) ? tr("already in the pool")
                                               : tr("new"));
        item->setToolTip(1, m_session->displayText(entry.sourceText));
        accepted.append(item);
    }
    m_ui->acceptedList->addTopLevelItems(accepted);
    QList<QTreeWidgetItem *> rejected;
    for (const RejectedLine &line : m_report.rejected) {
        if (rejected.size() >= kMaxPreviewRows)
            break;
        auto *item = new QTreeWidgetItem;
        item->setText(0, QString::number(line.lineNumber));
        const QString lineText = m_session->displayText(line.text);
        item->setText(1, lineText);
        item->setText(2, line.reason);
        const QString whole =
            tr("line %1: %2\n%3").arg(QLocale().toString(line.lineNumber), lineText, line.reason);
        for (int column = 0; column < 3; ++column)
            item->setToolTip(column, whole);
        item->setForeground(2, QColor(0xb7, 0x1c, 0x1c));
        rejected.append(item);
    }
    m_ui->rejectedList->addTopLevelItems(rejected);
    showCollapsedDuplicates();
    m_ui->acceptedList->setUpdatesEnabled(true);
    m_ui->rejectedList->setUpdatesEnabled(true);
    // The lists stop at kMaxPreviewRows; the tabs say so when they do.
    const auto tabText = [](const QString &name, qsizetype count) {
        return count > kMaxPreviewRows
                   ? tr("%1 (%2, first %3 listed)")
                         .arg(name, QLocale().toString(count), QLocale().toString(kMaxPreviewRows))
                   : QStringLiteral("%1 (%2)").arg(name, QLocale().toString(count));
    };
    m_ui->previewTabs->setTabText(0, tabText(tr("Accepted"), m_report.accepted.size()));
    m_ui->previewTabs->setTabText(1, tabText(tr("Rejected"), m_report.rejectedCount));
    m_ui->previewTabs->setTabText(2, tabText(tr("Duplicates"), m_report.collapsed.size()));
    updateControls();
    Q_EMIT previewUpdated();
}

int SeedDialog::newMemberCount() const {
    QSet<QByteArray> known;
    if (const auto &observation = m_session->latestObservation()) {
        for (const PoolMember &member : observation->snapshot.members)
            known.insert(member.member);
        for (const EvictedMember &member : observation->snapshot.evicted)
            known.insert(member.member);
    }
    int count = 0;
    for (qsizetype i = 0; i < m_report.accepted.size(); ++i)
        if (!known.contains(m_report.accepted.memberId(i)))
            ++count;
    return count;
}

void SeedDialog::setStartCount(const QString &text) {
    m_startChoiceMade = true;
    m_ui->numberRadio->setChecked(true);
    m_ui->countEdit->setText(text);
}

void SeedDialog::setStartAtPoolMinimum(bool atMinimum) {
    m_startChoiceMade = true;
    (atMinimum ? m_ui->minimumRadio : m_ui->numberRadio)->setChecked(true);
}

bool SeedDialog::startsAtPoolMinimum() const {
    return m_ui->minimumRadio->isChecked();
}

QString SeedDialog::forecastText() const {
    return m_ui->forecastLabel->text();
}

QString SeedDialog::targetText() const {
    return m_ui->targetLabel->text();
}

// Members written once although the list has them several times: where, and how often.
void SeedDialog::showCollapsedDuplicates() {
    m_ui->duplicatesList->clear();
    QList<QTreeWidgetItem *> items;
    for (const CollapsedDuplicate &duplicate : m_report.collapsed) {
        if (items.size() >= kMaxPreviewRows)
            break;
        auto *item = new QTreeWidgetItem;
        item->setText(0, QString::number(duplicate.firstLine));
        item->setText(1, m_session->displayMember(duplicate.memberId));
        item->setText(2, QLocale().toString(duplicate.occurrences));
        QStringList lines;
        for (const int line : duplicate.duplicateLines)
            lines.append(QString::number(line));
        if (duplicate.occurrences - 1 > duplicate.duplicateLines.size())
            lines.append(QStringLiteral("…"));
        item->setText(3, lines.join(QStringLiteral(", ")));
        items.append(item);
    }
    m_ui->duplicatesList->addTopLevelItems(items);
}

QTreeWidget *SeedDialog::duplicatesList() const {
    return m_ui->duplicatesList;
}

QTreeWidget *SeedDialog::acceptedList() const {
    return m_ui->acceptedList;
}

QTreeWidget *SeedDialog::rejectedList() const {
    return m_ui->rejectedList;
}

QString SeedDialog::summaryText() const {
    return m_ui->summaryLabel->text();
}

void SeedDialog::updateForecast() {
    const std::optional<double> minimum = m_session->poolMinimum();
    const bool poolRead = m_session->latestObservation().has_value();
    m_ui->minimumRadio->setText(minimum    ? tr("Pool minimum (now %1)").arg(formatCount(*minimum))
                                : poolRead ? tr("Pool minimum (pool empty: 0)")
                                           : tr("Pool minimum (not read yet)"));
    // No verdict before its figures exist: the list's new members and the pool's minimum.
    if (m_report.accepted.isEmpty()) {
        m_ui->forecastLabel->setText(
            m_ui->minimumRadio->isChecked()
                ? tr("Load or paste a list: its new members will join at the pool minimum.")
                : tr("Load or paste a list to see whether its new members would flood the "
                     "pool."));
        m_ui->forecastLabel->setStyleSheet(QString());
        return;
    }
    if (m_ui->minimumRadio->isChecked()) {
        m_ui->forecastLabel->setText(tr("New members join at the pool minimum: no "
                                        "flood."));
        m_ui->forecastLabel->setStyleSheet(QString());
        return;
    }
    if (!poolRead) {
        m_ui->forecastLabel->setText(
            tr("The pool has not been read yet: the flood forecast follows its first poll."));
        m_ui->forecastLabel->setStyleSheet(QString());
        return;
    }
    QString error;
    const std::optional<double> start = parseCount(m_ui->countEdit->text(), &error);
    if (!start) {
        m_ui->forecastLabel->setText(tr("Starting count: %1").arg(error));
        m_ui->forecastLabel->setStyleSheet(QStringLiteral("color: #c62828;"));
        return;
    }
    const int joining =
        m_ui->overwriteCheck->isChecked() ? int(m_report.accepted.size()) : newMemberCount();
    if (joining == 0 && !m_report.accepted.isEmpty()) {
        // Typically right after a seed: the list's members are in the pool now.
        m_ui->forecastLabel->setText(
            (minimum ? tr("Nothing new to seed: the %n accepted member(s) are all in the pool "
                          "already (pool minimum now %1). Tick \"Reset members already in the "
                          "pool\" to set their count again.",
                          nullptr, int(m_report.accepted.size()))
                           .arg(formatCount(*minimum))
                     : tr("Nothing new to seed: the %n accepted member(s) are all in the pool "
                          "already. Tick \"Reset members already in the pool\" to set their "
                          "count again.",
                          nullptr, int(m_report.accepted.size()))));
        m_ui->forecastLabel->setStyleSheet(QString());
        return;
    }
    if (joining == 0 || !minimum || *start >= *minimum) {
        m_ui->forecastLabel->setText(
            minimum ? tr("Pool minimum is %1: starting at %2 causes no flood.")
                          .arg(formatCount(*minimum), formatCount(*start))
                    : tr("The pool is empty: the new members share the allocations."));
        m_ui->forecastLabel->setStyleSheet(QString());
        return;
    }
    const FloodForecast forecast =
        forecastFlood(*start, joining, minimum, m_session->poolRatePerSecond());
    m_ui->forecastLabel->setText(
        tr("Flood warning: %1 is below the pool minimum %2. %3")
            .arg(formatCount(*start), formatCount(*minimum), forecast.text));
    m_ui->forecastLabel->setStyleSheet(QStringLiteral("color: #ef6c00; font-weight: bold;"));
}

void SeedDialog::showTarget() {
    const QString key = QString::fromUtf8(m_session->poolKey());
    if (!m_session->hasTarget() || key.isEmpty()) {
        setWindowTitle(tr("Seed a pool (not connected)"));
        m_ui->targetLabel->setText(tr("Not connected: connect to a pool first."));
        return;
    }
    const QString server = m_session->endpoint().toDisplayString();
    setWindowTitle(tr("Seed pool \"%1\" · %2").arg(key, server));
    m_ui->targetLabel->setText(
        tr("Target pool: <b>%1</b> on %2").arg(key.toHtmlEscaped(), server.toHtmlEscaped()));
}

void SeedDialog::updateControls() {
    m_ui->countEdit->setEnabled(m_ui->numberRadio->isChecked() && !m_seeding);
    updateForecast();
    const QString blocked = m_session->writeBlockReason();
    QString error;
    const bool countOk =
        m_ui->minimumRadio->isChecked() || parseCount(m_ui->countEdit->text(), &error).has_value();
    const bool canSeed =
        blocked.isEmpty() && !m_seeding && !m_parsing && !m_report.accepted.isEmpty() && countOk;
    m_seedButton->setEnabled(canSeed);
    m_seedButton->setText(m_report.accepted.isEmpty()
                              ? tr("Seed")
                              : tr("Seed %Ln member(s)", nullptr, int(m_report.accepted.size())));
    m_seedButton->setToolTip(!blocked.isEmpty() ? tr("Disabled: %1").arg(blocked)
                             : m_parsing        ? tr("Disabled: still reading the list")
                             : m_report.accepted.isEmpty()
                                 ? tr("Disabled: no accepted proxy in the list")
                             : !countOk ? tr("Disabled: %1").arg(error)
                                        : tr("Write the accepted members to the pool"));
    if (!m_seeding) {
        QString summary;
        if (m_parsing)
            summary = tr("Reading the list (%1)…").arg(QLocale().formattedDataSize(m_parsingBytes));
        else if (!m_report.fatalError.isEmpty())
            summary = tr("The list cannot be used: %1").arg(m_report.fatalError);
        else if (!m_report.accepted.isEmpty() || m_report.rejectedCount > 0)
            summary = tr("%Ln accepted (%1 new), %2 rejected, %3 duplicates collapsed.", nullptr,
                         int(m_report.accepted.size()))
                          .arg(QLocale().toString(newMemberCount()),
                               QLocale().toString(m_report.rejectedCount),
                               QLocale().toString(m_report.duplicates));
        m_ui->summaryLabel->setText(summary);
    }
}

bool SeedDialog::startSeed() {
    if (m_parseTimer.isActive())
        updatePreview(); // edited within the last 150 ms: the preview must be the list
    if (!m_seedButton->isEnabled()) {
        m_ui->summaryLabel->setText(m_seedButton->toolTip());
        return false;
    }
    SeedOptions options;
    options.startAtPoolMinimum = m_ui->minimumRadio->isChecked();
    if (!options.startAtPoolMinimum)
        options.startCount = parseCount(m_ui->countEdit->text(), nullptr).value_or(0);
    options.overwrite = m_ui->overwriteCheck->isChecked();
    options.reason = m_reason->reason();
    const QList<QByteArray> members = m_report.accepted.memberIds();
    if (!m_session->seed(members, options))
        return false;
    m_seeding = true;
    m_ui->progressBar->setVisible(true);
    m_ui->progressBar->setRange(0, int(members.size()));
    m_ui->progressBar->setValue(0);
    m_ui->summaryLabel->setText(tr("Writing %Ln member(s)…", nullptr, int(members.size())));
    m_ui->textEdit->setReadOnly(true);
    updateControls();
    return true;
}

void SeedDialog::handleFinished(const SeedResult &result) {
    if (!m_seeding)
        return;
    m_seeding = false;
    m_ui->textEdit->setReadOnly(showsExcerpt());
    m_ui->progressBar->setValue(m_ui->progressBar->maximum());
    m_refreshListAfterSeed = true; // and the forecast: from the poll that follows the seed
    updateControls();
    m_ui->summaryLabel->setText(
        tr("Done: %1 added at count %2, %3 already in the pool kept their count, %4 "
           "reset, %5 evicted not re-added.")
            .arg(QLocale().toString(result.added.size()), formatCount(result.startCount),
                 QLocale().toString(result.alreadyPresent.size()),
                 QLocale().toString(result.overwritten.size()),
                 QLocale().toString(result.evicted.size())));

    Q_EMIT seedDone(result);
}

void SeedDialog::handleFailure(const QString &operation, const Failure &failure) {
    if (!m_seeding || operation != QStringLiteral("seed"))
        return;
    m_seeding = false;
    m_ui->textEdit->setReadOnly(showsExcerpt());
    m_ui->progressBar->setVisible(false);
    updateControls();
    m_ui->summaryLabel->setText(tr("Seed failed: %1").arg(failure.text));
}

} // namespace poolscope
