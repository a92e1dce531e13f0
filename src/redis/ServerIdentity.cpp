#include "redis/ServerIdentity.h"

#include <QList>

namespace poolscope {

QString serverVersionFromInfo(const QByteArray &info) {
    QByteArray name;
    QByteArray redisVersion;
    QByteArray valkeyVersion;
    for (const QByteArray &line : info.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            continue;
        const QByteArray field = line.left(colon);
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (field == "server_name")
            name = value;
        else if (field == "redis_version")
            redisVersion = value;
        else if (field == "valkey_version")
            valkeyVersion = value;
    }
    if (!valkeyVersion.isEmpty() || name.compare("valkey", Qt::CaseInsensitive) == 0)
        return QStringLiteral("Valkey %1")
            .arg(QString::fromLatin1(valkeyVersion.isEmpty() ? redisVersion : valkeyVersion))
            .trimmed();
    if (redisVersion.isEmpty())
        return {};
    return QStringLiteral("Redis %1").arg(QString::fromLatin1(redisVersion));
}

} // namespace poolscope
