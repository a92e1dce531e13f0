// The eligibility rules prepared once for a whole list (private to src/proxylist).
#pragma once

#include "proxylist/Eligibility.h"

#include <QSet>
#include <QString>

namespace poolscope {

// The rules with their reason texts prepared once, not once per entry.
class RuleChecker {
public:
    explicit RuleChecker(const EligibilityRules &rules);
    // Why the entry breaks the rules; empty when it is eligible.
    QString violation(const ProxyEntry &entry) const;

private:
    QString hostViolation(const QString &host) const;

    const EligibilityRules &m_rules;
    QSet<QString> m_allowedSchemes;
    QString m_allowedSchemesText;
    QString m_allowedPortsText;
};

} // namespace poolscope
