#include "redis/RedisReply.h"

#include <QStringList>

namespace poolscope {

QByteArray RedisReply::errorCode() const {
    if (type != Type::Error)
        return {};
    const qsizetype space = text.indexOf(' ');
    return space < 0 ? text : text.left(space);
}

bool refusedBeforeRunning(const QByteArray &errorCode) {
    static const QList<QByteArray> codes{"MOVED",       "ASK",       "TRYAGAIN",
                                         "CLUSTERDOWN", "CROSSSLOT", "LOADING",
                                         "MASTERDOWN",  "BUSY",      "NOSCRIPT"};
    return codes.contains(errorCode);
}

double RedisReply::toDouble(bool *ok) const {
    if (type == Type::Integer) {
        if (ok)
            *ok = true;
        return static_cast<double>(integer);
    }
    if (type == Type::String || type == Type::Status)
        return text.toDouble(ok);
    if (ok)
        *ok = false;
    return 0;
}

QString RedisReply::toDisplayString() const {
    switch (type) {
    case Type::Nil:
        return QStringLiteral("(nil)");
    case Type::Status:
    case Type::Error:
    case Type::String:
        return QString::fromUtf8(text);
    case Type::Integer:
        return QString::number(integer);
    case Type::Array: {
        QStringList parts;
        for (const RedisReply &element : elements)
            parts << element.toDisplayString();
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    }
    return {};
}

} // namespace poolscope
