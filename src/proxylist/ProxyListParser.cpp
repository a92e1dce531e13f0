#include "proxylist/ProxyListParser.h"

#include <QByteArrayView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QStringDecoder>
#include <QStringList>

#include <arpa/inet.h>
#include <cmath>
#include <utility>

namespace poolscope {

QByteArray ProxyEntry::memberId() const {
    const bool hasCredentials = !username.isEmpty() || !password.isEmpty();
    const bool isPlainHttp = scheme.isEmpty() || scheme == u"http";
    QString id;
    id.reserve(scheme.size() + username.size() + password.size() + host.size() + 16);
    if (!isPlainHttp || hasCredentials) {
        id += isPlainHttp ? QStringLiteral("http") : scheme;
        id += u"://";
        if (hasCredentials) {
            id += username;
            if (!password.isEmpty()) {
                id += u':';
                id += password;
            }
            id += u'@';
        }
    }
    if (host.contains(u':')) {
        id += u'[';
        id += host;
        id += u']';
    } else {
        id += host;
    }
    id += u':';
    id += QString::number(port);
    return id.toUtf8();
}

bool canonicalIpv6(QStringView text, QString &canonical) {
    // inet_pton stops at a NUL and would accept "::1\0junk", so only printable ASCII goes in.
    if (text.isEmpty() || text.size() >= INET6_ADDRSTRLEN)
        return false;
    char ascii[INET6_ADDRSTRLEN] = {};
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (c <= 0x20 || c >= 0x7f)
            return false;
        ascii[i] = static_cast<char>(c);
    }
    in6_addr address{};
    if (inet_pton(AF_INET6, ascii, &address) != 1)
        return false;
    char buffer[INET6_ADDRSTRLEN] = {};
    if (!inet_ntop(AF_INET6, &address, buffer, sizeof buffer))
        return false;
    canonical = QString::fromLatin1(buffer);
    return true;
}

QString proxyListFormatName(ProxyListFormat format) {
    switch (format) {
    case ProxyListFormat::Auto:
        return QStringLiteral("auto");
    case ProxyListFormat::Lines:
        return QStringLiteral("lines");
    case ProxyListFormat::Csv:
        return QStringLiteral("csv");
    case ProxyListFormat::Json:
        return QStringLiteral("json");
    }
    return QStringLiteral("unknown");
}

namespace {

constexpr QByteArrayView kUtf8Bom("\xEF\xBB\xBF");

// Shared instance so that the millions of scheme-less entries a big list may have do not each
// allocate their own "http".
const QString &httpScheme() {
    static const QString scheme = QStringLiteral("http");
    return scheme;
}

bool isAsciiWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool isAsciiLetter(QChar c) {
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
}

bool isAsciiDigit(QChar c) {
    return c >= u'0' && c <= u'9';
}

// Cuts to at most maxChars characters, the last being an ellipsis, without splitting a surrogate
// pair. Control characters become U+FFFD so that binary junk stays displayable.
QString elided(QStringView text, qsizetype maxChars, bool forceEllipsis = false) {
    const bool cut = forceEllipsis || text.size() > maxChars;
    qsizetype keep = cut ? qMin(text.size(), maxChars - 1) : text.size();
    if (keep > 0 && keep < text.size() && text[keep - 1].isHighSurrogate())
        --keep;
    QString result = text.first(keep).toString();
    for (QChar &c : result) {
        if ((c.unicode() < 0x20 && c != u'\t') || c.unicode() == 0x7f)
            c = QChar::ReplacementCharacter;
    }
    if (cut)
        result += QChar(0x2026);
    return result;
}

QString displayText(QStringView text) {
    return elided(text, kMaxDisplayTextChars);
}

// Decodes only the head of the bytes (lossily): a 1 MB line must not be copied whole.
QString displayTextFromBytes(QByteArrayView bytes) {
    const qsizetype headBytes = kMaxDisplayTextChars * 4; // enough for 200 chars of any UTF-8
    const bool cut = bytes.size() > headBytes;
    const QString head = QString::fromUtf8(cut ? bytes.first(headBytes) : bytes);
    return elided(head, kMaxDisplayTextChars, cut);
}

// Pieces of an entry quoted inside a reason stay short.
QString elidedForReason(QStringView text) {
    return elided(text, 60);
}

QString quotedForReason(QStringView text) {
    return u'"' + elidedForReason(text) + u'"';
}

// Splits on \n, \r\n and lone \r without copying, counting 1-based line numbers.
class LineReader {
public:
    explicit LineReader(QByteArrayView data)
        : m_data(data) {}

    bool next(QByteArrayView &line, int &lineNumber) {
        const qsizetype size = m_data.size();
        if (m_position >= size)
            return false;
        const char *begin = m_data.data() + m_position;
        qsizetype length = 0;
        while (m_position + length < size && begin[length] != '\n' && begin[length] != '\r')
            ++length;
        line = QByteArrayView(begin, length);
        m_position += length;
        if (m_position < size) {
            const bool isCrLf = m_data[m_position] == '\r' && m_position + 1 < size &&
                                m_data[m_position + 1] == '\n';
            m_position += isCrLf ? 2 : 1;
        }
        lineNumber = ++m_lineNumber;
        return true;
    }

private:
    QByteArrayView m_data;
    qsizetype m_position = 0;
    int m_lineNumber = 0;
};

bool isBlankOrComment(QByteArrayView line) {
    const QByteArrayView trimmed = line.trimmed();
    return trimmed.isEmpty() || trimmed.startsWith('#');
}

// Header names are compared lower case with spaces and dashes as underscores, so that
// "IP Address", "ip-address" and "ip_address" all match.
QString normalizedColumnName(QStringView name) {
    QString normalized = name.trimmed().toString().toLower();
    normalized.replace(u' ', u'_');
    normalized.replace(u'-', u'_');
    return normalized;
}

enum class Field { None, Host, Port, Scheme, Username, Password };

Field fieldForColumnName(QStringView name) {
    static const QStringList hostNames{"host",     "ip",         "address", "proxy_host",
                                       "hostname", "ip_address", "proxy_ip"};
    static const QStringList portNames{"port", "proxy_port"};
    static const QStringList schemeNames{"scheme", "protocol", "type"};
    static const QStringList usernameNames{"username", "user", "login"};
    static const QStringList passwordNames{"password", "pass"};
    const QString normalized = normalizedColumnName(name);
    if (hostNames.contains(normalized))
        return Field::Host;
    if (portNames.contains(normalized))
        return Field::Port;
    if (schemeNames.contains(normalized))
        return Field::Scheme;
    if (usernameNames.contains(normalized))
        return Field::Username;
    if (passwordNames.contains(normalized))
        return Field::Password;
    return Field::None;
}

// Column indexes of a CSV header, -1 when absent.
struct CsvColumns {
    qsizetype host = -1;
    qsizetype port = -1;
    qsizetype scheme = -1;
    qsizetype username = -1;
    qsizetype password = -1;

    bool hasHostAndPort() const { return host >= 0 && port >= 0; }
};

// Splits one CSV row: comma separated, fields optionally in double quotes with "" as an escaped
// quote. Quoted fields spanning lines are not supported (no proxy list needs them).
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

// "[2001:db8::1]:80" must not be mistaken for the start of a JSON array.
bool startsWithBracketedIpv6(QByteArrayView text) {
    const qsizetype close = text.indexOf(']');
    if (close < 3 || close > 64)
        return false;
    bool sawColon = false;
    for (const char c : text.sliced(1, close - 1)) {
        const bool isHex =
            (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (c == ':')
            sawColon = true;
        else if (!isHex && c != '.')
            return false;
    }
    return sawColon;
}

ProxyListFormat detectFormat(QByteArrayView body) {
    qsizetype first = 0;
    while (first < body.size() && isAsciiWhitespace(body[first]))
        ++first;
    // '{' is no valid start for the other formats; taking it as JSON gives the clearer error.
    if (first < body.size() && body[first] == '{')
        return ProxyListFormat::Json;
    if (first < body.size() && body[first] == '[' && !startsWithBracketedIpv6(body.sliced(first)))
        return ProxyListFormat::Json;

    LineReader reader(body);
    QByteArrayView line;
    int lineNumber = 0;
    while (reader.next(line, lineNumber)) {
        if (isBlankOrComment(line))
            continue;
        if (line.size() > kMaxProxyLineBytes || !line.contains(','))
            return ProxyListFormat::Lines;
        QStringList fields;
        QString error;
        if (!splitCsvRow(QString::fromUtf8(line), fields, error))
            return ProxyListFormat::Lines;
        return csvColumnsFromHeader(fields).hasHostAndPort() ? ProxyListFormat::Csv
                                                             : ProxyListFormat::Lines;
    }
    return ProxyListFormat::Lines;
}

bool isValidScheme(QStringView scheme) {
    if (scheme.isEmpty() || scheme.size() > 32 || !isAsciiLetter(scheme[0]))
        return false;
    for (const QChar c : scheme) {
        if (!isAsciiLetter(c) && !isAsciiDigit(c) && c != u'+' && c != u'-' && c != u'.')
            return false;
    }
    return true;
}

enum class Whitespace { Forbidden, Allowed };

// JSON escapes can produce lone surrogates; toUtf8() would turn them into '?', silently changing
// the member (and merging different passwords into one).
QString unpairedSurrogateProblem(QStringView text) {
    if (text.isValidUtf16())
        return {};
    return QStringLiteral("contains an unpaired surrogate (a \\uD800-\\uDFFF escape without its "
                          "pair), which is not valid Unicode");
}

// Reason why the text holds an unpaired surrogate, a NUL, a control character or (when
// forbidden) whitespace; empty when it holds none.
QString forbiddenCharacterProblem(QStringView text, Whitespace whitespace) {
    if (QString problem = unpairedSurrogateProblem(text); !problem.isEmpty())
        return problem;
    for (const QChar c : text) {
        if (c == u'\0')
            return QStringLiteral("contains a NUL byte");
        if (c.isSpace() && whitespace == Whitespace::Allowed)
            continue;
        if (c.isSpace())
            return QStringLiteral("unexpected whitespace inside the entry (expected one proxy "
                                  "per line, as host:port)");
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return QStringLiteral("contains the control character U+%1")
                .arg(QString::number(c.unicode(), 16).toUpper().rightJustified(4, u'0'));
    }
    return {};
}

// Digits only, as written; the range is for the eligibility rules to judge.
QString parsePortText(QStringView text, int &port) {
    if (text.isEmpty())
        return QStringLiteral("missing port");
    for (const QChar c : text) {
        if (!isAsciiDigit(c))
            return QStringLiteral("port %1 is not a number").arg(quotedForReason(text));
    }
    qsizetype firstSignificant = 0;
    while (firstSignificant < text.size() - 1 && text[firstSignificant] == u'0')
        ++firstSignificant;
    if (text.size() - firstSignificant > 9) // would overflow int; certainly out of range
        return QStringLiteral("port %1 is out of range 1-65535")
            .arg(elidedForReason(text.sliced(firstSignificant)));
    port = text.sliced(firstSignificant).toInt();
    return {};
}

// Host from a CSV column or JSON member: a name, IPv4, bare IPv6 or [IPv6].
QString parseHostField(QStringView text, QString &host) {
    if (text.isEmpty())
        return QStringLiteral("missing host");
    if (text.startsWith(u'[')) {
        if (!text.endsWith(u']'))
            return QStringLiteral("unterminated [ in IPv6 address");
        const QStringView inner = text.sliced(1, text.size() - 2);
        if (!canonicalIpv6(inner, host))
            return QStringLiteral("%1 is not a valid IPv6 address").arg(quotedForReason(inner));
        return {};
    }
    if (text.contains(u':')) {
        if (!canonicalIpv6(text, host))
            return QStringLiteral("host %1 contains \":\" but is not a valid IPv6 address")
                .arg(quotedForReason(text));
        return {};
    }
    host = text.toString().toLower();
    return {};
}

// Parses "[scheme://][user[:pass]@]host:port[/]" (host may be [IPv6]); returns the reason on
// failure.
QString parseEntryText(QStringView text, ProxyEntry &entry) {
    if (QString problem = forbiddenCharacterProblem(text, Whitespace::Forbidden);
        !problem.isEmpty())
        return problem;

    QStringView rest = text;
    if (const qsizetype schemeEnd = rest.indexOf(u"://"); schemeEnd >= 0) {
        const QStringView scheme = rest.first(schemeEnd);
        if (scheme.isEmpty())
            return QStringLiteral("missing scheme before \"://\"");
        if (!isValidScheme(scheme))
            return QStringLiteral("invalid scheme %1").arg(quotedForReason(scheme));
        entry.scheme = scheme.toString().toLower();
        rest = rest.sliced(schemeEnd + 3);
    } else {
        entry.scheme = httpScheme();
    }

    // The last '@' ends the credentials, so passwords may contain '@', ':' and '/'.
    if (const qsizetype at = rest.lastIndexOf(u'@'); at >= 0) {
        const QStringView userInfo = rest.first(at);
        if (userInfo.isEmpty())
            return QStringLiteral("empty credentials before \"@\"");
        const qsizetype colon = userInfo.indexOf(u':');
        entry.username = (colon < 0 ? userInfo : userInfo.first(colon)).toString();
        entry.password = colon < 0 ? QString() : userInfo.sliced(colon + 1).toString();
        rest = rest.sliced(at + 1);
    }

    // Lists copied from URLs often end in a single '/'.
    if (rest.endsWith(u'/'))
        rest.chop(1);
    if (const qsizetype slash = rest.indexOf(u'/'); slash >= 0)
        return QStringLiteral("unexpected path %1 after the port")
            .arg(quotedForReason(rest.sliced(slash)));
    if (rest.isEmpty())
        return QStringLiteral("missing host and port");

    QStringView portText;
    if (rest.startsWith(u'[')) {
        const qsizetype close = rest.indexOf(u']');
        if (close < 0)
            return QStringLiteral("unterminated [ in IPv6 address");
        const QStringView inner = rest.sliced(1, close - 1);
        const QStringView afterBracket = rest.sliced(close + 1);
        if (inner.isEmpty())
            return QStringLiteral("empty [] where an IPv6 address belongs");
        if (!canonicalIpv6(inner, entry.host))
            return QStringLiteral("%1 is not a valid IPv6 address").arg(quotedForReason(inner));
        if (afterBracket.isEmpty())
            return QStringLiteral("missing port");
        if (!afterBracket.startsWith(u':'))
            return QStringLiteral("unexpected text %1 after \"]\"")
                .arg(quotedForReason(afterBracket));
        portText = afterBracket.sliced(1);
    } else {
        const qsizetype colon = rest.lastIndexOf(u':');
        if (colon < 0)
            return QStringLiteral("missing port");
        const QStringView hostText = rest.first(colon);
        if (hostText.contains(u':')) {
            QString ignored;
            if (canonicalIpv6(rest, ignored) || canonicalIpv6(hostText, ignored))
                return QStringLiteral("IPv6 address must be written in brackets, as in "
                                      "[2001:db8::1]:8080");
            return QStringLiteral("too many \":\" (expected host:port; write credentials as "
                                  "scheme://user:pass@host:port)");
        }
        if (hostText.isEmpty())
            return QStringLiteral("missing host");
        entry.host = hostText.toString().toLower();
        portText = rest.sliced(colon + 1);
    }
    return parsePortText(portText, entry.port);
}

// Collects the result and enforces kMaxParseProblems.
class ListParser {
public:
    explicit ListParser(ProxyListFormat format)
        : m_decoder(QStringDecoder::Utf8,
                    // Stateless: a multi-byte sequence cut off at the end of a line is an error,
                    // not something to complete from the next line. The BOM is stripped by the
                    // caller, so any later U+FEFF is kept (and rejected) rather than dropped.
                    QStringDecoder::Flag::Stateless | QStringDecoder::Flag::ConvertInitialBom) {
        m_result.detectedFormat = format;
    }

    bool stopped() const { return !m_result.fatalError.isEmpty(); }
    void fail(const QString &error) { m_result.fatalError = error; }
    ParsedProxyList take() { return std::move(m_result); }

    void addProblem(int lineNumber, QString text, const QString &reason) {
        if (stopped())
            return;
        if (m_result.problems.size() >= kMaxParseProblems) {
            fail(QStringLiteral("gave up at %1: more than %2 entries could not be parsed, so this "
                                "does not look like a proxy list")
                     .arg(location(lineNumber))
                     .arg(kMaxParseProblems));
            return;
        }
        m_result.problems.append({lineNumber, std::move(text), locatedReason(lineNumber, reason)});
    }

    void addEntry(ProxyEntry &&entry) { m_result.entries.append(std::move(entry)); }

    // Length, NUL and UTF-8 checks shared by every format; true with decoded text when the
    // line can be looked at, false when it is blank/comment (skip) or already reported.
    bool decodeLine(QByteArrayView raw, int lineNumber, const QString &noun, QString &text) {
        if (raw.size() > kMaxProxyLineBytes) {
            addProblem(lineNumber, displayTextFromBytes(raw),
                       QStringLiteral("%1 is %2 bytes long (the limit is %3)")
                           .arg(noun)
                           .arg(raw.size())
                           .arg(kMaxProxyLineBytes));
            return false;
        }
        if (raw.contains('\0')) {
            addProblem(lineNumber, displayTextFromBytes(raw),
                       QStringLiteral("contains a NUL byte"));
            return false;
        }
        // Comments are skipped before decoding: a Latin-1 comment must not fail the list.
        if (isBlankOrComment(raw))
            return false;
        m_decoder.resetState();
        text = m_decoder.decode(raw.trimmed());
        if (m_decoder.hasError()) {
            addProblem(lineNumber, displayText(text), QStringLiteral("not valid UTF-8"));
            return false;
        }
        return true;
    }

    // One entry of the lines format, also used for the string elements of a JSON array.
    void addTextLine(QByteArrayView raw, int lineNumber, const QString &noun) {
        QString text;
        if (!decodeLine(raw, lineNumber, noun, text))
            return;
        QStringView entryText = text;
        // A trailing " # comment"; '#' without whitespace before it may be part of a password.
        for (qsizetype i = 1; i < entryText.size(); ++i) {
            if (entryText[i] == u'#' && entryText[i - 1].isSpace()) {
                entryText = entryText.first(i).trimmed();
                break;
            }
        }
        ProxyEntry entry;
        entry.lineNumber = lineNumber;
        entry.sourceText = displayText(text);
        if (const QString problem = parseEntryText(entryText, entry); !problem.isEmpty()) {
            addProblem(lineNumber, entry.sourceText, problem);
            return;
        }
        addEntry(std::move(entry));
    }

private:
    QString location(int lineNumber) const {
        return m_result.detectedFormat == ProxyListFormat::Json
                   ? QStringLiteral("array element %1").arg(lineNumber)
                   : QStringLiteral("line %1").arg(lineNumber);
    }

    // JSON "line numbers" are element indexes, so JSON reasons say so.
    QString locatedReason(int lineNumber, const QString &reason) const {
        if (m_result.detectedFormat != ProxyListFormat::Json)
            return reason;
        return QStringLiteral("array element %1: %2").arg(lineNumber).arg(reason);
    }

    ParsedProxyList m_result;
    QStringDecoder m_decoder;
};

void parseLines(QByteArrayView body, ListParser &parser) {
    const QString noun = QStringLiteral("line");
    LineReader reader(body);
    QByteArrayView line;
    int lineNumber = 0;
    while (!parser.stopped() && reader.next(line, lineNumber))
        parser.addTextLine(line, lineNumber, noun);
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

void parseJson(const QByteArray &json, ListParser &parser) {
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
    const QString noun = QStringLiteral("string");
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

} // namespace

ParsedProxyList parseProxyList(const QByteArray &data, ProxyListFormat format) {
    const bool hasBom = QByteArrayView(data).startsWith(kUtf8Bom);
    const QByteArrayView body = QByteArrayView(data).sliced(hasBom ? kUtf8Bom.size() : 0);
    if (format == ProxyListFormat::Auto)
        format = detectFormat(body);

    ListParser parser(format);
    switch (format) {
    case ProxyListFormat::Json:
        // Only copy the input when a BOM has to go.
        parseJson(hasBom ? body.toByteArray() : data, parser);
        break;
    case ProxyListFormat::Csv:
        parseCsv(body, parser);
        break;
    case ProxyListFormat::Lines:
    case ProxyListFormat::Auto:
        parseLines(body, parser);
        break;
    }
    return parser.take();
}

} // namespace poolscope
