// JSON front-end of the proxy-list parser: an array of "host:port" strings or {host, port, ...}
// objects, numbered by array element.
#include "proxylist/ParserDetail.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>

#include <cmath>
#include <utility>

namespace poolscope::proxylist_detail {

namespace {

QString jsonTypeName(const QJsonValue &value) {
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("undefined");
}

// QJsonParseError gives a byte offset; people need line and column (1-based, in characters).
QString lineAndColumn(QByteArrayView data, qsizetype offset) {
    offset = qBound(qsizetype(0), offset, data.size());
    int line = 1;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < offset; ++i) {
        if (data[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    int column = 1;
    for (qsizetype i = lineStart; i < offset; ++i) {
        if ((static_cast<unsigned char>(data[i]) & 0xC0) != 0x80) // skip UTF-8 continuation
            ++column;
    }
    return QStringLiteral("line %1, column %2").arg(line).arg(column);
}

QString parseJsonPort(const QJsonValue &value, int &port) {
    if (value.isUndefined() || value.isNull())
        return QStringLiteral("missing port");
    if (value.isString())
        return parsePortText(QStringView(value.toString()).trimmed(), port);
    if (!value.isDouble())
        return QStringLiteral("port must be a number or a numeric string, not %1")
            .arg(jsonTypeName(value));
    const double number = value.toDouble();
    if (!std::isfinite(number) || number != std::floor(number))
        return QStringLiteral("port %1 is not a whole number").arg(number);
    if (std::fabs(number) > 1e9)
        return QStringLiteral("port %1 is out of range 1-65535").arg(number, 0, 'f', 0);
    port = static_cast<int>(number);
    return {};
}

QString parseJsonObject(const QJsonObject &object, ProxyEntry &entry) {
    // Default-constructed QJsonValues are null; undefined marks "member not seen yet".
    QJsonValue host(QJsonValue::Undefined), port(QJsonValue::Undefined),
        scheme(QJsonValue::Undefined), username(QJsonValue::Undefined),
        password(QJsonValue::Undefined);
    for (auto it = object.begin(); it != object.end(); ++it) {
        QJsonValue *slot = nullptr;
        switch (fieldForColumnName(it.key())) {
        case Field::Host:
            slot = &host;
            break;
        case Field::Port:
            slot = &port;
            break;
        case Field::Scheme:
            slot = &scheme;
            break;
        case Field::Username:
            slot = &username;
            break;
        case Field::Password:
            slot = &password;
            break;
        case Field::None:
            break;
        }
        if (slot && slot->isUndefined())
            *slot = it.value();
    }

    const std::pair<const char *, const QJsonValue *> stringMembers[] = {
        {"host", &host}, {"scheme", &scheme}, {"username", &username}, {"password", &password}};
    for (const auto &[name, value] : stringMembers) {
        if (!value->isUndefined() && !value->isNull() && !value->isString())
            return QStringLiteral("%1 must be a string, not %2")
                .arg(QLatin1String(name), jsonTypeName(*value));
        const QString problem = forbiddenCharacterProblem(value->toString(), Whitespace::Allowed);
        if (!problem.isEmpty())
            return QStringLiteral("%1 %2").arg(QLatin1String(name), problem);
    }

    if (host.isUndefined() || host.isNull())
        return QStringLiteral("missing host (expected a \"host\" or \"ip\" member)");
    if (QString problem = parseHostField(QStringView(host.toString()).trimmed(), entry.host);
        !problem.isEmpty())
        return problem;
    if (QString problem = parseJsonPort(port, entry.port); !problem.isEmpty())
        return problem;
    const QString schemeText = scheme.toString().trimmed();
    if (schemeText.isEmpty())
        entry.scheme = httpScheme();
    else if (isValidScheme(schemeText))
        entry.scheme = schemeText.toLower();
    else
        return QStringLiteral("invalid scheme %1").arg(quotedForReason(schemeText));
    entry.username = username.toString();
    entry.password = password.toString();
    if (entry.username.contains(u':'))
        return QStringLiteral("user name contains \":\"");
    return {};
}

bool isJsonWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Calls visit(bytes, elementNumber) for each element of an array of plain strings, and returns
// true, when json is one; returns false as soon as it sees anything else (objects, numbers,
// escapes, control characters, invalid UTF-8, malformed JSON, bytes after the array), having
// visited the elements before that point.
template <typename Visit> bool forEachPlainString(QByteArrayView json, Visit &&visit) {
    const qsizetype size = json.size();
    qsizetype i = 0;
    const auto skipWhitespace = [&] {
        while (i < size && isJsonWhitespace(json[i]))
            ++i;
    };
    skipWhitespace();
    if (i >= size || json[i] != '[')
        return false;
    ++i;
    skipWhitespace();
    if (i < size && json[i] == ']') {
        ++i;
    } else {
        int elementNumber = 0;
        while (true) {
            if (i >= size || json[i] != '"')
                return false;
            const qsizetype start = ++i;
            while (i < size && json[i] != '"') {
                const auto c = static_cast<unsigned char>(json[i]);
                if (c == '\\' || c < 0x20)
                    return false;
                ++i;
            }
            if (i >= size)
                return false;
            const QByteArrayView text = json.sliced(start, i - start);
            // A byte-order mark inside a string is read apart by QJsonDocument (fuzz_proxylist
            // found it): such input takes the full reader.
            if (!text.isValidUtf8() || text.contains(QByteArrayView("\xef\xbb\xbf")))
                return false;
            ++i;
            visit(text, ++elementNumber);
            skipWhitespace();
            if (i < size && json[i] == ',') {
                ++i;
                skipWhitespace();
                continue;
            }
            if (i < size && json[i] == ']') {
                ++i;
                break;
            }
            return false;
        }
    }
    skipWhitespace();
    return i == size;
}

} // namespace

bool isPlainJsonStringArray(QByteArrayView json) {
    return forEachPlainString(json, [](QByteArrayView, int) {});
}

void parseJson(const QByteArray &json, ListParser &parser, JsonReading reading) {
    const QString noun = QStringLiteral("string");
    // Checked whole first: nothing may reach the parser before the input is known to be plain,
    // or a malformed tail would leave its head's entries behind the fatal error. Such a string
    // is its own bytes (no escape changes it), exactly what the full reader passes on below.
    if (reading == JsonReading::PlainStringsFromBytes && isPlainJsonStringArray(json)) {
        forEachPlainString(json, [&parser, &noun](QByteArrayView text, int elementNumber) {
            if (!parser.stopped())
                parser.addTextLine(text, elementNumber, noun);
        });
        return;
    }

    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        parser.fail(QStringLiteral("malformed JSON at %1: %2")
                        .arg(lineAndColumn(json, error.offset), error.errorString()));
        return;
    }
    if (!document.isArray()) {
        parser.fail(QStringLiteral("JSON input must be an array of proxies (strings or objects)%1")
                        .arg(document.isObject() ? QStringLiteral(", not an object") : QString()));
        return;
    }
    const QJsonArray array = document.array();
    for (qsizetype index = 0; index < array.size() && !parser.stopped(); ++index) {
        const int elementNumber = static_cast<int>(index + 1);
        const QJsonValue element = array.at(index);
        if (element.isString()) {
            const QString text = element.toString();
            const QString problem = unpairedSurrogateProblem(text);
            if (!problem.isEmpty())
                parser.addProblem(elementNumber, displayTextFromBytes(text.toUtf8()), problem);
            else
                parser.addTextLine(text.toUtf8(), elementNumber, noun);
        } else if (element.isObject()) {
            const QJsonObject object = element.toObject();
            const QByteArray compact = QJsonDocument(object).toJson(QJsonDocument::Compact);
            const QString sourceText = displayTextFromBytes(compact);
            if (compact.size() > kMaxProxyLineBytes) {
                parser.addProblem(elementNumber, sourceText,
                                  QStringLiteral("object is %1 bytes long (the limit is %2)")
                                      .arg(compact.size())
                                      .arg(kMaxProxyLineBytes));
                continue;
            }
            ProxyEntry entry;
            entry.lineNumber = elementNumber;
            entry.sourceText = sourceText;
            if (const QString problem = parseJsonObject(object, entry); !problem.isEmpty())
                parser.addProblem(elementNumber, sourceText, problem);
            else
                parser.addEntry(std::move(entry));
        } else {
            parser.addProblem(
                elementNumber,
                displayTextFromBytes(
                    QJsonDocument(QJsonArray{element}).toJson(QJsonDocument::Compact)),
                QStringLiteral("expected a string or an object, not %1")
                    .arg(jsonTypeName(element)));
        }
    }
}

} // namespace poolscope::proxylist_detail
