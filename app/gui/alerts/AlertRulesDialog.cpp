#include "alerts/AlertRulesDialog.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace poolscope {

namespace {

QDoubleSpinBox *secondsBox(qint64 ms, QWidget *parent) {
    auto *box = new QDoubleSpinBox(parent);
    box->setRange(0, 7 * 24 * 3600);
    box->setDecimals(0);
    box->setSuffix(QCoreApplication::translate("poolscope::AlertRulesDialog", " s"));
    box->setValue(double(ms) / 1000.0);
    return box;
}

template <typename T> T *cellWidget(const QTableWidget *table, int row, int column) {
    QWidget *cell = table->cellWidget(row, column);
    return cell ? cell->findChild<T *>() : nullptr;
}

} // namespace

AlertRulesDialog::AlertRulesDialog(const AlertRuleSet &rules, QWidget *parent)
    : QDialog(parent)
    , m_table(new QTableWidget(this))
    , m_where(new QLabel(this))
    , m_explanation(new QLabel(this)) {
    setObjectName(QStringLiteral("alertRulesDialog"));
    setWindowTitle(tr("Alert rules"));
    auto *intro = new QLabel(
        tr("An alert is pending while its condition holds, fires once it has held for the rule's "
           "\"for\" time, and resolves once the condition has been gone for its \"keep firing\" "
           "time. The defaults are on for every pool; unticked rules are not judged."),
        this);
    intro->setWordWrap(true);
    m_where->setWordWrap(true);
    m_explanation->setWordWrap(true);
    m_explanation->setObjectName(QStringLiteral("ruleExplanation"));
    m_explanation->setMinimumHeight(m_explanation->fontMetrics().lineSpacing() * 3);
    m_table->setObjectName(QStringLiteral("alertRulesTable"));
    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels(
        {tr("On"), tr("Rule"), tr("Severity"), tr("For"), tr("Keep firing"), tr("Thresholds")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto *buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        Q_EMIT rulesAccepted(this->rules());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] { setRules(AlertRuleSet::defaults()); });
    connect(m_table, &QTableWidget::currentCellChanged, this, &AlertRulesDialog::showExplanation);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_explanation);
    layout->addWidget(m_where);
    layout->addWidget(buttons);
    setRules(rules);
    resize(std::min(1500, m_table->horizontalHeader()->length() + 60), 560);
}

AlertRulesDialog::~AlertRulesDialog() = default;

void AlertRulesDialog::setSavedIn(const QString &profile, const QString &poolKey) {
    m_where->setText(
        profile.isEmpty()
            ? tr("This connection was typed in, not saved: the rules apply to this "
                 "window until it closes.")
            : tr("Saved with the connection \"%1\", for the pool %2.").arg(profile, poolKey));
}

void AlertRulesDialog::setRules(const AlertRuleSet &rules) {
    // Every kind has a row: a kind the set leaves out is shown off, with its defaults.
    m_base.clear();
    for (const AlertKind kind : allAlertKinds()) {
        bool listed = false;
        for (const AlertRule &rule : rules.rules)
            if (rule.kind == kind) {
                m_base << rule;
                listed = true;
            }
        if (!listed) {
            AlertRule rule = AlertRule::defaults(kind);
            rule.enabled = false;
            m_base << rule;
        }
    }
    m_table->setRowCount(int(m_base.size()));
    for (int row = 0; row < m_base.size(); ++row) {
        const AlertRule &rule = m_base[row];
        const auto wrap = [this](QWidget *inner) {
            auto *cell = new QWidget(m_table);
            auto *layout = new QHBoxLayout(cell);
            layout->setContentsMargins(2, 0, 2, 0);
            inner->setParent(cell);
            layout->addWidget(inner);
            return cell;
        };
        auto *enabled = new QCheckBox;
        enabled->setChecked(rule.enabled);
        enabled->setAccessibleName(tr("%1 on").arg(alertRuleTitle(rule.kind)));
        m_table->setCellWidget(row, Enabled, wrap(enabled));
        auto *title = new QTableWidgetItem(alertRuleTitle(rule.kind));
        title->setToolTip(explainAlertRule(rule, locale()));
        m_table->setItem(row, Rule, title);
        auto *severity = new QComboBox;
        severity->addItem(tr("warning"), int(AlertSeverity::Warning));
        severity->addItem(tr("critical"), int(AlertSeverity::Critical));
        severity->setCurrentIndex(rule.severity == AlertSeverity::Critical ? 1 : 0);
        m_table->setCellWidget(row, Severity, wrap(severity));
        m_table->setCellWidget(row, For, wrap(secondsBox(rule.forMs, nullptr)));
        m_table->setCellWidget(row, KeepFiring, wrap(secondsBox(rule.keepFiringMs, nullptr)));
        auto *thresholds = new QWidget(m_table);
        auto *line = new QHBoxLayout(thresholds);
        line->setContentsMargins(2, 0, 2, 0);
        for (const AlertParameter &parameter : alertKindInfo(rule.kind).parameters) {
            auto *label = new QLabel(
                QCoreApplication::translate("poolscope::AlertRules", parameter.label), thresholds);
            auto *box = new QDoubleSpinBox(thresholds);
            box->setObjectName(QString::fromLatin1(parameter.key));
            box->setRange(parameter.minimum, parameter.maximum);
            box->setDecimals(parameter.whole ? 0 : 2);
            box->setValue(rule.parameter(parameter.key));
            // The figures are short: the room goes to their labels.
            box->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
            box->setMinimumWidth(
                box->fontMetrics().horizontalAdvance(QStringLiteral("0000000.00")) + 30);
            label->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
            box->setAccessibleName(label->text());
            label->setBuddy(box);
            line->addWidget(label);
            line->addWidget(box);
            connect(box, &QDoubleSpinBox::valueChanged, this, &AlertRulesDialog::showExplanation);
        }
        line->addStretch(1);
        m_table->setCellWidget(row, Thresholds, thresholds);
    }
    m_table->resizeColumnsToContents();
    int widest = 0; // the thresholds' cells: as wide as their widest line
    for (int row = 0; row < m_table->rowCount(); ++row)
        widest = std::max(widest, m_table->cellWidget(row, Thresholds)->sizeHint().width());
    m_table->setColumnWidth(Thresholds, widest);
    m_table->resizeRowsToContents();
    m_table->setCurrentCell(0, Rule);
    showExplanation();
}

AlertRuleSet AlertRulesDialog::rules() const {
    AlertRuleSet set;
    for (int row = 0; row < m_base.size(); ++row) {
        AlertRule rule = m_base[row];
        rule.enabled = cellWidget<QCheckBox>(m_table, row, Enabled)->isChecked();
        rule.severity =
            AlertSeverity(cellWidget<QComboBox>(m_table, row, Severity)->currentData().toInt());
        rule.forMs = qint64(cellWidget<QDoubleSpinBox>(m_table, row, For)->value() * 1000);
        rule.keepFiringMs =
            qint64(cellWidget<QDoubleSpinBox>(m_table, row, KeepFiring)->value() * 1000);
        QWidget *thresholds = m_table->cellWidget(row, Thresholds);
        for (const AlertParameter &parameter : alertKindInfo(rule.kind).parameters)
            if (auto *box =
                    thresholds->findChild<QDoubleSpinBox *>(QString::fromLatin1(parameter.key)))
                rule.parameters.insert(QString::fromLatin1(parameter.key), box->value());
        set.rules << rule;
    }
    return set;
}

void AlertRulesDialog::showExplanation() {
    const int row = m_table->currentRow();
    if (row < 0 || row >= m_base.size()) {
        m_explanation->clear();
        return;
    }
    const AlertRule rule = rules().rules.value(row);
    m_explanation->setText(tr("%1: %2 It fires after %3 and resolves %4 after it is gone.")
                               .arg(alertRuleTitle(rule.kind), explainAlertRule(rule, locale()),
                                    formatAlertDuration(rule.forMs, locale()),
                                    formatAlertDuration(rule.keepFiringMs, locale())));
}

} // namespace poolscope
