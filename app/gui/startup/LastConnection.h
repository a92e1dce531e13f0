// The connection the dashboard watched last, reopened when it starts without a server named.
#pragma once

#include <QByteArray>
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

} // namespace poolscope
