#pragma once

#include <QObject>
#include <QString>

namespace poolscope {

// The URL health checks fetch through each proxy, remembered in QSettings ("health/target") for
// Check selected and the Guard panel. Saving a new one tells every panel (HealthTargetNotifier),
// so a field showing it (the Guard panel's Target) follows.
class HealthTargetNotifier : public QObject {
    Q_OBJECT

public:
    static HealthTargetNotifier *instance();

Q_SIGNALS:
    void targetUrlSaved(const QString &url);
};

QString savedHealthTargetUrl();
void saveHealthTargetUrl(const QString &url);

} // namespace poolscope
