#include "startup/LastConnection.h"

#include <algorithm>

#include <QSettings>

namespace poolscope {

namespace {

const QString kProfile = QStringLiteral("lastConnection/profile");
const QString kUrl = QStringLiteral("lastConnection/url");
const QString kKey = QStringLiteral("lastConnection/poolKey");
const QString kTabs = QStringLiteral("openTabs");
const QString kCurrentTab = QStringLiteral("openTabs/current");

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

OpenTabs loadOpenTabs() {
    QSettings settings;
    OpenTabs open;
    const int count = settings.beginReadArray(kTabs);
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        LastConnection tab;
        tab.profile = settings.value(QStringLiteral("profile")).toString();
        tab.url = settings.value(QStringLiteral("url")).toString();
        tab.poolKey = settings.value(QStringLiteral("poolKey")).toByteArray();
        if (!tab.isEmpty())
            open.tabs.append(tab);
    }
    settings.endArray();
    open.current =
        std::clamp(settings.value(kCurrentTab).toInt(), 0, std::max(0, int(open.tabs.size()) - 1));
    return open;
}

void saveOpenTabs(const OpenTabs &open) {
    QSettings settings;
    settings.remove(kTabs); // a shorter list leaves no old entries behind
    settings.beginWriteArray(kTabs, int(open.tabs.size()));
    for (int i = 0; i < open.tabs.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("profile"), open.tabs[i].profile);
        settings.setValue(QStringLiteral("url"), open.tabs[i].url); // never a password
        settings.setValue(QStringLiteral("poolKey"), open.tabs[i].poolKey);
    }
    settings.endArray();
    settings.setValue(kCurrentTab, open.current);
}

} // namespace poolscope
