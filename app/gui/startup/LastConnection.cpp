#include "startup/LastConnection.h"

#include <QSettings>

namespace poolscope {

namespace {

const QString kProfile = QStringLiteral("lastConnection/profile");
const QString kUrl = QStringLiteral("lastConnection/url");
const QString kKey = QStringLiteral("lastConnection/poolKey");

} // namespace

LastConnection loadLastConnection() {
    const QSettings settings;
    LastConnection last;
    last.profile = settings.value(kProfile).toString();
    last.url = settings.value(kUrl).toString();
    last.poolKey = settings.value(kKey).toByteArray();
    return last;
}

void saveLastConnection(const LastConnection &last) {
    QSettings settings;
    settings.setValue(kProfile, last.profile);
    settings.setValue(kUrl, last.url); // Endpoint::toSafeUrl(): never a password
    settings.setValue(kKey, last.poolKey);
}

} // namespace poolscope
