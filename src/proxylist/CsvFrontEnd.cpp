// CSV front-end of the proxy-list parser: row splitting, header columns, one entry per row.
#include "proxylist/ParserDetail.h"

#include <utility>

namespace poolscope::proxylist_detail {

bool splitCsvRow(QStringView row, QStringList &fields, QString &error) {
    fields.clear();
    const qsizetype size = row.size();
    qsizetype i = 0;
    while (true) {
        while (i < size && (row[i] == u' ' || row[i] == u'\t'))
            ++i;
        if (i < size && row[i] == u'"') {
            QString field;
            bool closed = false;
            for (++i; i < size; ++i) {
                if (row[i] != u'"') {
                    field += row[i];
                } else if (i + 1 < size && row[i + 1] == u'"') {
                    field += u'"';
                    ++i;
                } else {
                    closed = true;
                    ++i;
                    break;
                }
            }
            if (!closed) {
                error = QStringLiteral("unterminated quoted field %1").arg(fields.size() + 1);
                return false;
            }
            while (i < size && (row[i] == u' ' || row[i] == u'\t'))
                ++i;
            if (i < size && row[i] != u',') {
                error = QStringLiteral("unexpected text after the closing quote of field %1")
                            .arg(fields.size() + 1);
                return false;
            }
            fields.append(field);
        } else {
            const qsizetype start = i;
            while (i < size && row[i] != u',')
                ++i;
            fields.append(row.sliced(start, i - start).trimmed().toString());
        }
        if (i >= size)
            return true;
        ++i; // the comma
    }
}

CsvColumns csvColumnsFromHeader(const QStringList &headerFields) {
    CsvColumns columns;
    for (qsizetype index = 0; index < headerFields.size(); ++index) {
        qsizetype *slot = nullptr;
        switch (fieldForColumnName(headerFields[index])) {
        case Field::Host:
            slot = &columns.host;
            break;
        case Field::Port:
            slot = &columns.port;
            break;
        case Field::Scheme:
            slot = &columns.scheme;
            break;
        case Field::Username:
            slot = &columns.username;
            break;
        case Field::Password:
            slot = &columns.password;
            break;
        case Field::None:
            break;
        }
        if (slot && *slot < 0) // the first matching column wins
            *slot = index;
    }
    return columns;
}

void parseCsv(QByteArrayView body, ListParser &parser) {
    const QString noun = QStringLiteral("line");
    LineReader reader(body);
    QByteArrayView line;
    int lineNumber = 0;
    QStringList fields;
    QString text;
    QString error;

    CsvColumns columns;
    bool haveHeader = false;
    while (!haveHeader && reader.next(line, lineNumber)) {
        if (isBlankOrComment(line))
            continue;
        if (!parser.decodeLine(line, lineNumber, noun, text) || !splitCsvRow(text, fields, error)) {
            parser.fail(QStringLiteral("CSV header on line %1 is unreadable").arg(lineNumber));
            return;
        }
        columns = csvColumnsFromHeader(fields);
        QStringList missing;
        if (columns.host < 0)
            missing << QStringLiteral("a host column (host, ip, address or proxy_host)");
        if (columns.port < 0)
            missing << QStringLiteral("a port column (port)");
        if (!missing.isEmpty()) {
            parser.fail(QStringLiteral("CSV header on line %1 (%2) lacks %3")
                            .arg(lineNumber)
                            .arg(quotedForReason(text), missing.join(QStringLiteral(" and "))));
            return;
        }
        haveHeader = true;
    }
    if (!haveHeader) {
        parser.fail(QStringLiteral("CSV input has no header row naming the host and port columns"));
        return;
    }

    auto fieldAt = [&fields](qsizetype column) {
        return column >= 0 && column < fields.size() ? QStringView(fields[column]) : QStringView();
    };
    while (!parser.stopped() && reader.next(line, lineNumber)) {
        if (!parser.decodeLine(line, lineNumber, noun, text))
            continue;
        const QString sourceText = displayText(text);
        if (!splitCsvRow(text, fields, error)) {
            parser.addProblem(lineNumber, sourceText, error);
            continue;
        }
        ProxyEntry entry;
        entry.lineNumber = lineNumber;
        entry.sourceText = sourceText;
        QString problem;
        for (const QString &field : std::as_const(fields)) {
            // Passwords may hold spaces; a host with one is rejected by the eligibility rules.
            problem = forbiddenCharacterProblem(field, Whitespace::Allowed);
            if (!problem.isEmpty())
                break;
        }
        if (problem.isEmpty())
            problem = parseHostField(fieldAt(columns.host), entry.host);
        if (problem.isEmpty())
            problem = parsePortText(fieldAt(columns.port), entry.port);
        if (problem.isEmpty()) {
            const QStringView scheme = fieldAt(columns.scheme);
            if (scheme.isEmpty())
                entry.scheme = httpScheme();
            else if (isValidScheme(scheme))
                entry.scheme = scheme.toString().toLower();
            else
                problem = QStringLiteral("invalid scheme %1").arg(quotedForReason(scheme));
        }
        if (problem.isEmpty()) {
            entry.username = fieldAt(columns.username).toString();
            entry.password = fieldAt(columns.password).toString();
            if (entry.username.contains(u':'))
                problem = QStringLiteral("user name contains \":\"");
        }
        if (!problem.isEmpty()) {
            parser.addProblem(lineNumber, sourceText, problem);
            continue;
        }
        parser.addEntry(std::move(entry));
    }
}

} // namespace poolscope::proxylist_detail
