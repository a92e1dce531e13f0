#include "health/HealthTarget.h"

#include <QSettings>

namespace poolscope {

namespace {

const QString kTargetSetting = QStringLiteral("health/target");

} // namespace

HealthTargetNotifier *HealthTargetNotifier::instance() {
    static HealthTargetNotifier notifier;
    return &notifier;
}

QString savedHealthTargetUrl() {
    return QSettings().value(kTargetSetting).toString();
}

void saveHealthTargetUrl(const QString &url) {
    if (savedHealthTargetUrl() == url)
        return;
    QSettings().setValue(kTargetSetting, url);
    Q_EMIT HealthTargetNotifier::instance()->targetUrlSaved(url);
}

} // namespace poolscope
