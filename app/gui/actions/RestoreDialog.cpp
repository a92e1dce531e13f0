#include "actions/RestoreDialog.h"

#include "actions/ReasonField.h"

#include "ui_RestoreDialog.h"

#include "session/DisplayFormat.h"
#include "session/PoolSession.h"

#include <QPushButton>

namespace poolscope {

RestoreDialog::RestoreDialog(PoolSession *session, const QList<QByteArray> &members,
                             QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_members(members)
    , m_ui(std::make_unique<Ui::RestoreDialog>()) {
    m_ui->setupUi(this);
    m_restoreButton = m_ui->buttonBox->addButton(tr("Restore"), QDialogButtonBox::AcceptRole);
    m_restoreButton->setDefault(true);
    for (RestorePolicy policy : allRestorePolicies())
        m_ui->policyBox->addItem(restorePolicyLabel(policy), int(policy));
    QFont title = m_ui->forecastTitle->font();
    title.setBold(true);
    m_ui->forecastTitle->setFont(title);

    QStringList names;
    const QList<double> saved = savedCounts();
    for (qsizetype i = 0; i < m_members.size() && i < 8; ++i)
        names << tr("%1 (saved %2)")
                     .arg(m_session->displayMember(m_members[i]), formatCount(saved.value(i)));
    if (m_members.size() > 8)
        names << tr("and %n more", nullptr, int(m_members.size() - 8));
    m_ui->membersLabel->setText(tr("Restore %n member(s): %1", nullptr, int(m_members.size()))
                                    .arg(names.join(QStringLiteral(", "))));

    m_reason = new ReasonField(this);
    m_ui->formLayout->addRow(ReasonField::labelText(), m_reason);
    connect(m_ui->policyBox, &QComboBox::currentIndexChanged, this, &RestoreDialog::updateForecast);
    connect(m_ui->startEdit, &QLineEdit::textChanged, this, &RestoreDialog::updateForecast);
    connect(m_ui->buttonBox, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_session, &PoolSession::observationApplied, this, &RestoreDialog::updateForecast);
    connect(m_session, &PoolSession::writeAvailabilityChanged, this,
            &RestoreDialog::updateForecast);
    setPolicy(RestorePolicy::Min);
    updateForecast();
}

RestoreDialog::~RestoreDialog() = default;

void RestoreDialog::setPolicy(RestorePolicy policy) {
    m_ui->policyBox->setCurrentIndex(m_ui->policyBox->findData(int(policy)));
    updateForecast();
}

QString RestoreDialog::reason() const {
    return m_reason->reason();
}

RestorePolicy RestoreDialog::policy() const {
    return RestorePolicy(m_ui->policyBox->currentData().toInt());
}

void RestoreDialog::setStartCount(const QString &text) {
    m_ui->startEdit->setText(text);
}

double RestoreDialog::startCount() const {
    return parseCount(m_ui->startEdit->text(), nullptr).value_or(0);
}

QList<double> RestoreDialog::savedCounts() const {
    QList<double> counts;
    const auto &observation = m_session->latestObservation();
    for (const QByteArray &member : m_members) {
        double saved = 0;
        if (observation)
            for (const EvictedMember &evicted : observation->snapshot.evicted)
                if (evicted.member == member) {
                    saved = evicted.savedCount;
                    break;
                }
        counts.append(saved);
    }
    return counts;
}

FloodForecast RestoreDialog::forecast() const {
    return forecastRestore(policy(), savedCounts(), m_session->poolMinimum(), startCount(),
                           m_session->poolRatePerSecond());
}

StarvationForecast RestoreDialog::starvation() const {
    return forecastRestoreStarvation(policy(), savedCounts(),
                                     poolLevelsOf(m_session->latestObservation()), startCount(),
                                     m_session->poolRatePerSecond());
}

QString RestoreDialog::forecastText() const {
    return m_ui->forecastLabel->text();
}

QString RestoreDialog::descriptionText() const {
    return m_ui->descriptionLabel->text();
}

void RestoreDialog::updateForecast() {
    const RestorePolicy current = policy();
    m_ui->descriptionLabel->setText(restorePolicyDescription(current));
    m_ui->startEdit->setEnabled(current == RestorePolicy::Start);
    m_ui->startTitle->setEnabled(current == RestorePolicy::Start);

    QString error;
    const bool startOk =
        current != RestorePolicy::Start || parseCount(m_ui->startEdit->text(), &error).has_value();
    const FloodForecast flood = forecast();
    const std::optional<double> minimum = m_session->poolMinimum();
    const StarvationForecast wait = starvation();
    // Joining above the minimum floods nobody but waits for the pool: as clear a warning.
    QString text = wait.allocations > 0 ? wait.text : flood.text;
    if (minimum && m_members.size() == 1)
        text += QLatin1Char('\n') +
                tr("Restored count %1, pool minimum now %2, rate %3/s.",
                   "count: allocations a member has had (its score); %3: allocations per second")
                    .arg(formatCount(flood.joinCount), formatCount(*minimum),
                         formatRate(m_session->poolRatePerSecond()));
    if (!startOk)
        text = tr("Starting count: %1").arg(error);
    m_ui->forecastLabel->setText(text);
    m_ui->forecastLabel->setStyleSheet(flood.allocations > 0 || wait.allocations > 0
                                           ? QStringLiteral("color: #c62828;")
                                           : QStringLiteral("color: #2e7d32;"));
    const QString blocked = m_session->writeBlockReason();
    m_restoreButton->setEnabled(blocked.isEmpty() && startOk && !m_members.isEmpty());
    m_restoreButton->setToolTip(blocked.isEmpty() ? tr("Restore with this policy")
                                                  : tr("Disabled: %1").arg(blocked));
}

} // namespace poolscope
