#include "session/CsvExport.h"

#include "text/CredentialMask.h"

#include <algorithm>

#include <QAbstractItemModel>
#include <QDateTime>
#include <QStringList>
#include <QTextStream>

namespace poolscope {

QString csvField(const QString &text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

void writeHistoryCsv(QTextStream &out, const PoolHistory &history, const QList<QByteArray> &members,
                     qint64 fromMs, qint64 toMs, CsvCredentials credentials) {
    struct Row {
        qint64 timeMs;
        const QByteArray *member;
        double count;
    };
    QList<Row> rows;
    for (const QByteArray &member : members)
        for (const HistoryPoint &point : history.series(member, fromMs, toMs))
            rows.append({point.timeMs, &member, point.count});
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        return a.timeMs != b.timeMs ? a.timeMs < b.timeMs : *a.member < *b.member;
    });
    out << "time,member,count\n";
    for (const Row &row : rows) {
        out << QDateTime::fromMSecsSinceEpoch(row.timeMs, Qt::UTC).toString(Qt::ISODateWithMs)
            << ','
            << csvField(credentials == CsvCredentials::Shown
                            ? QString::fromUtf8(*row.member)
                            : maskCredentials(QString::fromUtf8(*row.member)))
            << ',' << QString::number(row.count, 'f', 0) << '\n';
    }
}

void writeModelCsv(QTextStream &out, const QAbstractItemModel &model, int role,
                   CsvCredentials credentials) {
    QStringList header;
    for (int column = 0; column < model.columnCount(); ++column) {
        const QVariant own = model.headerData(column, Qt::Horizontal, role);
        header << csvField(own.isValid() ? own.toString()
                                         : model.headerData(column, Qt::Horizontal).toString());
    }
    out << header.join(QLatin1Char(',')) << '\n';
    for (int row = 0; row < model.rowCount(); ++row) {
        QStringList fields;
        for (int column = 0; column < model.columnCount(); ++column) {
            const QString text = model.index(row, column).data(role).toString();
            fields << csvField(credentials == CsvCredentials::Shown ? text : maskCredentials(text));
        }
        out << fields.join(QLatin1Char(',')) << '\n';
    }
}

} // namespace poolscope
