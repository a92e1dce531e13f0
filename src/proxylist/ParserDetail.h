// Internals shared by the proxy-list parser's files: display texts, line reading, entry
// normalisation, the result collector and the CSV/JSON front-ends' entry points.
#pragma once

#include "proxylist/ProxyListParser.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringDecoder>
#include <QStringList>
#include <QStringView>

#include <utility>

namespace poolscope::proxylist_detail {

// Shared instance so that the millions of scheme-less entries a big list may have do not each
// allocate their own "http".
const QString &httpScheme();

// The entry as written, cut to kMaxDisplayTextChars with control characters made displayable.
QString displayText(QStringView text);
// Decodes only the head of the bytes (lossily): a 1 MB line must not be copied whole.
QString displayTextFromBytes(QByteArrayView bytes);
// Pieces of an entry quoted inside a reason stay short.
QString quotedForReason(QStringView text);

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

// Blank, or a comment: the first non-blank character is '#' or ';'.
bool isBlankOrComment(QByteArrayView line);

enum class Field { None, Host, Port, Scheme, Username, Password };

// Header names are compared lower case with spaces and dashes as underscores, so that
// "IP Address", "ip-address" and "ip_address" all match.
Field fieldForColumnName(QStringView name);

bool isValidScheme(QStringView scheme);

enum class Whitespace { Forbidden, Allowed };

// JSON escapes can produce lone surrogates; toUtf8() would turn them into '?', silently changing
// the member (and merging different passwords into one).
QString unpairedSurrogateProblem(QStringView text);
// Reason why the text holds an unpaired surrogate, a NUL, a control character or (when
// forbidden) whitespace; empty when it holds none.
QString forbiddenCharacterProblem(QStringView text, Whitespace whitespace);
// Digits only, as written; the range is for the eligibility rules to judge.
QString parsePortText(QStringView text, int &port);
// Host from a CSV column or JSON member: a name, IPv4, bare IPv6 or [IPv6].
QString parseHostField(QStringView text, QString &host);
// Parses "[scheme://][user[:pass]@]host:port[/]" (host may be [IPv6]); returns the reason on
// failure.
QString parseEntryText(QStringView text, ProxyEntry &entry);

// Receives a list's entries and problems in input order, as the parser finds them.
class ProxyListSink {
public:
    virtual ~ProxyListSink() = default;
    virtual void formatDetected(ProxyListFormat format) = 0; // first, never Auto
    virtual void entryParsed(ProxyEntry &&entry) = 0;
    virtual void problemFound(ParseProblem &&problem) = 0;
};

// Parses into the sink and returns the fatal error (empty when the input was usable). After a
// fatal error nothing more reaches the sink.
QString parseProxyListInto(const QByteArray &data, ProxyListFormat format, ProxyListSink &sink);

// Hands entries and problems to the sink and enforces kMaxParseProblems.
class ListParser {
public:
    ListParser(ProxyListFormat format, ProxyListSink &sink);

    bool stopped() const { return !m_fatalError.isEmpty(); }
    void fail(const QString &error) { m_fatalError = error; }
    const QString &fatalError() const { return m_fatalError; }

    void addProblem(int lineNumber, QString text, const QString &reason);
    void addEntry(ProxyEntry &&entry) { m_sink.entryParsed(std::move(entry)); }

    // Length, NUL and UTF-8 checks shared by every format; true with decoded text when the
    // line can be looked at, false when it is blank/comment (skip) or already reported.
    bool decodeLine(QByteArrayView raw, int lineNumber, const QString &noun, QString &text);
    // One entry of the lines format, also used for the string elements of a JSON array.
    void addTextLine(QByteArrayView raw, int lineNumber, const QString &noun);

private:
    QString location(int lineNumber) const;
    // JSON "line numbers" are element indexes, so JSON reasons say so.
    QString locatedReason(int lineNumber, const QString &reason) const;

    ProxyListFormat m_format;
    ProxyListSink &m_sink;
    qsizetype m_problems = 0;
    QString m_fatalError;
    QStringDecoder m_decoder;
};

// CSV front-end (CsvFrontEnd.cpp).
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
bool splitCsvRow(QStringView row, QStringList &fields, QString &error);
CsvColumns csvColumnsFromHeader(const QStringList &headerFields);
void parseCsv(QByteArrayView body, ListParser &parser);

// JSON front-end (JsonFrontEnd.cpp).
// An array of plain strings (no escapes, no control characters, valid UTF-8, nothing after the
// array), the common shape, is read straight from the bytes so that no QJsonDocument holds the
// whole array; FullReaderOnly sends everything through QJsonDocument (tests compare the two).
enum class JsonReading { PlainStringsFromBytes, FullReaderOnly };
bool isPlainJsonStringArray(QByteArrayView json);
void parseJson(const QByteArray &json, ListParser &parser,
               JsonReading reading = JsonReading::PlainStringsFromBytes);

} // namespace poolscope::proxylist_detail
