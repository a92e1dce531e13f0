// The connection the dashboard watched last, reopened when it starts without a server named.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {

// Either a saved connection's name, or a typed URL (without its password) and pool key.
struct LastConnection {
    QString profile;
    QString url;
    QByteArray poolKey;
    bool isEmpty() const { return profile.isEmpty() && url.isEmpty(); }
};

LastConnection loadLastConnection();
void saveLastConnection(const LastConnection &last);

// The tabs open when the dashboard closed, each as a last connection (never a secret: a saved
// connection's name, or a URL without its password), and which one was current.
struct OpenTabs {
    QList<LastConnection> tabs;
    int current = 0;
};
OpenTabs loadOpenTabs();
void saveOpenTabs(const OpenTabs &open);

} // namespace poolscope
