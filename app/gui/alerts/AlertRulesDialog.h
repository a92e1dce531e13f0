#pragma once

#include "alerts/AlertRules.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace poolscope {

// Edits one pool's alert rules: per rule whether it is on, how bad it is, how long its condition
// must hold before it fires ("for"), how long it must be gone before it resolves, and its
// thresholds; the rule's explanation under the table says what it fires on with the figures
// entered. "Restore defaults" puts the defaults back. rulesAccepted carries the set on OK.
class AlertRulesDialog : public QDialog {
    Q_OBJECT

public:
    enum Column { Enabled, Rule, Severity, For, KeepFiring, Thresholds, ColumnCount };

    explicit AlertRulesDialog(const AlertRuleSet &rules, QWidget *parent = nullptr);
    ~AlertRulesDialog() override;

    // Says where OK saves the rules: in the saved connection `profile` for pool `poolKey`, or
    // (empty profile) nowhere: for this window only.
    void setSavedIn(const QString &profile, const QString &poolKey);
    // The rules as the table shows them now.
    AlertRuleSet rules() const;
    void setRules(const AlertRuleSet &rules);
    QTableWidget *table() const { return m_table; }

Q_SIGNALS:
    void rulesAccepted(const poolscope::AlertRuleSet &rules);

private:
    void showExplanation();

    QTableWidget *m_table;
    QLabel *m_where;
    QLabel *m_explanation;
    QList<AlertRule> m_base; // each row's rule (name and kind kept from it)
};

} // namespace poolscope
