#include "members/HealthCell.h"

#include "session/DisplayFormat.h"
#include "text/CredentialMask.h"

#include <algorithm>
#include <optional>

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace poolscope {

HealthState healthState(const HealthRecord *record) {
    if (!record || record->outcome.isEmpty())
        return HealthState::Unknown;
    const std::optional<CheckOutcome> outcome = parseOutcomeName(record->outcome);
    if (!outcome)
        return HealthState::Unknown;
    if (*outcome == CheckOutcome::Ok)
        return HealthState::Up;
    if (*outcome == CheckOutcome::NotCheckable)
        return HealthState::NotCheckable;
    return HealthState::Down;
}

QString healthStateName(HealthState state) {
    switch (state) {
    case HealthState::Up:
        return QStringLiteral("up");
    case HealthState::Down:
        return QStringLiteral("down");
    case HealthState::NotCheckable:
        return QStringLiteral("not checkable");
    case HealthState::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString healthStateText(HealthState state) {
    switch (state) {
    case HealthState::Up:
        return QCoreApplication::translate("HealthCell", "up");
    case HealthState::Down:
        return QCoreApplication::translate("HealthCell", "down");
    case HealthState::NotCheckable:
        return QCoreApplication::translate("HealthCell", "not checkable");
    case HealthState::Unknown:
        break;
    }
    return QCoreApplication::translate("HealthCell", "unknown");
}

QString healthText(const HealthRecord *record) {
    const HealthState state = healthState(record);
    switch (state) {
    case HealthState::Up:
        return record->latencyMs >= 0 ? QCoreApplication::translate("HealthCell", "up · %1 ms")
                                            .arg(QLocale().toString(record->latencyMs))
                                      : QCoreApplication::translate("HealthCell", "up");
    case HealthState::Down:
        return QCoreApplication::translate("HealthCell", "down · %1").arg(record->outcome);
    case HealthState::NotCheckable:
    case HealthState::Unknown:
        break;
    }
    return healthStateText(state);
}

QString healthTooltip(const HealthRecord *record, qint64 nowMs, bool credentialsShown) {
    if (!record || record->outcome.isEmpty())
        return QCoreApplication::translate("HealthCell",
                                           "Never checked (Ctrl+K checks the selected members)");
    QStringList lines;
    lines << QCoreApplication::translate("HealthCell", "Last check %1: %2")
                 .arg(formatAgo(nowMs - record->checkedAtMs), record->outcome);
    if (record->latencyMs >= 0)
        lines << QCoreApplication::translate("HealthCell", "Latency %1 ms")
                     .arg(QLocale().toString(record->latencyMs));
    if (record->status > 0)
        lines << QCoreApplication::translate("HealthCell", "Target answered HTTP %1")
                     .arg(record->status);
    lines << QCoreApplication::translate("HealthCell",
                                         "%1 consecutive successes, %2 consecutive failures")
                 .arg(QLocale().toString(record->successes), QLocale().toString(record->failures));
    if (!record->error.isEmpty())
        lines << QCoreApplication::translate("HealthCell", "Last error: %1")
                     .arg(credentialsShown ? record->error : maskCredentialsInText(record->error));
    if (record->evictedByGuard)
        lines << QCoreApplication::translate("HealthCell", "Evicted by the guard");
    return lines.join(u'\n');
}

double healthSortKey(const HealthRecord *record) {
    switch (healthState(record)) {
    case HealthState::Up:
        return double(std::max<qint64>(record->latencyMs, 0));
    case HealthState::Down:
        return 1e12;
    case HealthState::NotCheckable:
        return 2e12;
    case HealthState::Unknown:
        break;
    }
    return 3e12;
}

} // namespace poolscope
