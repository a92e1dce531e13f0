#include "proxylist/ProxyListParser.h"

#include "proxylist/ParserDetail.h"

#include <QByteArrayView>
#include <QStringList>

#include <arpa/inet.h>

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

using namespace proxylist_detail;

constexpr QByteArrayView kUtf8Bom("\xEF\xBB\xBF");

bool isAsciiWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
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

void parseLines(QByteArrayView body, ListParser &parser) {
    const QString noun = QStringLiteral("line");
    LineReader reader(body);
    QByteArrayView line;
    int lineNumber = 0;
    while (!parser.stopped() && reader.next(line, lineNumber))
        parser.addTextLine(line, lineNumber, noun);
}

} // namespace

namespace proxylist_detail {

QString parseProxyListInto(const QByteArray &data, ProxyListFormat format, ProxyListSink &sink) {
    const bool hasBom = QByteArrayView(data).startsWith(kUtf8Bom);
    const QByteArrayView body = QByteArrayView(data).sliced(hasBom ? kUtf8Bom.size() : 0);
    if (format == ProxyListFormat::Auto)
        format = detectFormat(body);

    ListParser parser(format, sink);
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
    return parser.fatalError();
}

} // namespace proxylist_detail

ParsedProxyList parseProxyList(const QByteArray &data, ProxyListFormat format) {
    // Keeps everything, in input order.
    class Collector final : public proxylist_detail::ProxyListSink {
    public:
        void formatDetected(ProxyListFormat detected) override { result.detectedFormat = detected; }
        void entryParsed(ProxyEntry &&entry) override { result.entries.append(std::move(entry)); }
        void problemFound(ParseProblem &&problem) override {
            result.problems.append(std::move(problem));
        }
        ParsedProxyList result;
    };
    Collector collector;
    collector.result.fatalError = proxylist_detail::parseProxyListInto(data, format, collector);
    return std::move(collector.result);
}

} // namespace poolscope
