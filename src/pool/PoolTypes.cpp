#include "pool/PoolTypes.h"

#include <cmath>

#include <QCoreApplication>

namespace poolscope {

QString restorePolicyName(RestorePolicy policy) {
    switch (policy) {
    case RestorePolicy::Keep:
        return QStringLiteral("keep");
    case RestorePolicy::Zero:
        return QStringLiteral("zero");
    case RestorePolicy::Start:
        return QStringLiteral("start");
    case RestorePolicy::Min:
        return QStringLiteral("min");
    }
    return {};
}

std::optional<RestorePolicy> parseRestorePolicy(const QString &name) {
    for (RestorePolicy policy : allRestorePolicies())
        if (restorePolicyName(policy) == name.trimmed().toLower())
            return policy;
    return std::nullopt;
}

QString restorePolicyLabel(RestorePolicy policy) {
    switch (policy) {
    case RestorePolicy::Keep:
        //: A restore policy's name in the window (the CLI's --policy keep).
        return QCoreApplication::translate("RestorePolicy", "keep");
    case RestorePolicy::Zero:
        //: A restore policy's name in the window (the CLI's --policy zero).
        return QCoreApplication::translate("RestorePolicy", "zero");
    case RestorePolicy::Start:
        //: A restore policy's name in the window (the CLI's --policy start).
        return QCoreApplication::translate("RestorePolicy", "start");
    case RestorePolicy::Min:
        //: A restore policy's name in the window (the CLI's --policy min): the pool's minimum.
        return QCoreApplication::translate("RestorePolicy", "min");
    }
    return {};
}

QString restorePolicyDescription(RestorePolicy policy) {
    switch (policy) {
    case RestorePolicy::Keep:
        return QCoreApplication::translate("RestorePolicy",
                                           "keep: back at its saved count, where it left off");
    case RestorePolicy::Zero:
        return QCoreApplication::translate(
            "RestorePolicy", "zero: back at 0; it takes every allocation until it catches up");
    case RestorePolicy::Start:
        return QCoreApplication::translate("RestorePolicy",
                                           "start: back at the agreed starting count");
    case RestorePolicy::Min:
        return QCoreApplication::translate(
            "RestorePolicy", "min: back at the pool's lowest count; joins the rotation, no flood");
    }
    return {};
}

QList<RestorePolicy> allRestorePolicies() {
    return {RestorePolicy::Keep, RestorePolicy::Zero, RestorePolicy::Start, RestorePolicy::Min};
}

QString validateCount(double count) {
    if (std::isnan(count))
        return QStringLiteral("the count is not a number");
    if (std::isinf(count))
        return QStringLiteral("the count is infinite");
    if (count < 0)
        return QStringLiteral("the count %1 is negative").arg(count);
    if (count > kMaxCount)
        return QStringLiteral("the count %1 is larger than %2")
            .arg(count, 0, 'g', 17)
            .arg(formatCount(kMaxCount));
    if (std::floor(count) != count)
        return QStringLiteral("the count %1 is not a whole number").arg(count);
    return {};
}

std::optional<double> parseCount(const QString &text, QString *error) {
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    if (!ok) {
        if (error)
            *error = QStringLiteral("\"%1\" is not a number").arg(text);
        return std::nullopt;
    }
    const QString problem = validateCount(value);
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return std::nullopt;
    }
    return value;
}

QString formatCount(double count) {
    if (std::floor(count) == count && std::fabs(count) <= kMaxCount)
        return QString::number(static_cast<qint64>(count));
    return QString::number(count, 'g', 17);
}

} // namespace poolscope
