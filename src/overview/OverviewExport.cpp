#include "overview/OverviewExport.h"

#include "overview/OverviewModel.h"

#include <QAbstractItemModel>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

namespace poolscope {
namespace {

QString csvField(const QString &text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// Numbers as C locale text with every digit they need: the file is for programs.
QString plainText(const QVariant &value) {
    if (!value.isValid())
        return {};
    switch (value.typeId()) {
    case QMetaType::Double:
        return QString::number(value.toDouble(), 'g', 17);
    case QMetaType::QVariantList: {
        QStringList parts;
        for (const QVariant &item : value.toList())
            parts << plainText(item);
        return parts.join(QLatin1Char(' '));
    }
    case QMetaType::QStringList:
        return value.toStringList().join(QStringLiteral("; "));
    default:
        return value.toString();
    }
}

QString keyOf(const QAbstractItemModel &model, int column) {
    return model.headerData(column, Qt::Horizontal, OverviewModel::ColumnKeyRole).toString();
}

} // namespace

QByteArray overviewCsv(const QAbstractItemModel &model) {
    QStringList lines;
    QStringList header;
    for (int column = 0; column < model.columnCount(); ++column)
        header << csvField(keyOf(model, column));
    lines << header.join(QLatin1Char(','));
    for (int row = 0; row < model.rowCount(); ++row) {
        QStringList fields;
        for (int column = 0; column < model.columnCount(); ++column)
            fields << csvField(plainText(model.index(row, column).data(OverviewModel::ExportRole)));
        lines << fields.join(QLatin1Char(','));
    }
    return (lines.join(QStringLiteral("\r\n")) + QStringLiteral("\r\n")).toUtf8();
}

QJsonArray overviewJson(const QAbstractItemModel &model) {
    QJsonArray rows;
    for (int row = 0; row < model.rowCount(); ++row) {
        QJsonObject object;
        for (int column = 0; column < model.columnCount(); ++column) {
            const QVariant value = model.index(row, column).data(OverviewModel::ExportRole);
            object.insert(keyOf(model, column),
                          value.isValid() ? QJsonValue::fromVariant(value) : QJsonValue());
        }
        const QVariant kind = model.index(row, 0).data(OverviewModel::ErrorKindRole);
        if (kind.isValid())
            object.insert(QStringLiteral("error_kind"),
                          errorKindName(static_cast<RedisError::Kind>(kind.toInt())));
        rows.append(object);
    }
    return rows;
}

} // namespace poolscope
