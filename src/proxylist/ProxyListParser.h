#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringView>

namespace poolscope {

// One candidate proxy as read from a list.
struct ProxyEntry {
    QString scheme;   // lower case; "http" when the line had none
    QString username; // empty when none
    QString password;
    // Lower case; IPv6 without brackets in canonical inet_ntop form; IPv4 dotted.
    QString host;
    int port = 0;       // as written (may be out of range: eligibility rejects it)
    int lineNumber = 0; // 1-based line in the input; for JSON the 1-based array element index
    QString sourceText; // the line/element as written, truncated to 200 chars for display

    // Canonical member id stored in Redis: "host:port" for http without credentials ("[v6]:port"
    // for IPv6), otherwise "scheme://[user[:pass]@]host:port", so "http://1.2.3.4:80" and
    // "1.2.3.4:80" collapse into one member.
    QByteArray memberId() const;
};

enum class ProxyListFormat { Auto, Lines, Csv, Json };

struct ParseProblem {
    int lineNumber = 0; // same numbering as ProxyEntry::lineNumber
    QString text;       // the offending line/element, truncated to 200 chars for display
    QString reason;
};

struct ParsedProxyList {
    ProxyListFormat detectedFormat = ProxyListFormat::Lines; // never Auto
    QList<ProxyEntry> entries;    // syntactically parsed entries, in input order
    QList<ParseProblem> problems; // lines that could not be parsed at all, with reason
    // Non-empty when the whole input is unusable (malformed JSON, CSV without host/port header,
    // too many unparseable lines). entries may then be incomplete and must not be used.
    QString fatalError;
};

// Lines longer than this many bytes are rejected without being parsed.
inline constexpr qsizetype kMaxProxyLineBytes = 4096;
// sourceText and problem texts are cut to this many characters (an ellipsis included).
inline constexpr qsizetype kMaxDisplayTextChars = 200;
// Past this many unparseable lines the input is declared unusable (fatalError) and parsing stops,
// so that megabytes of junk cannot turn into millions of stored problems.
inline constexpr qsizetype kMaxParseProblems = 10000;

// Parses a proxy list given as text lines, CSV with a header row, or a JSON array. Never throws;
// hostile input ends up in problems (or fatalError), not in entries.
ParsedProxyList parseProxyList(const QByteArray &data,
                               ProxyListFormat format = ProxyListFormat::Auto);

// Canonical inet_ntop form of an IPv6 literal given without brackets (e.g. "2001:DB8:0::1" ->
// "2001:db8::1"); false when the text is not one.
bool canonicalIpv6(QStringView text, QString &canonical);

// "auto", "lines", "csv" or "json".
QString proxyListFormatName(ProxyListFormat format);

} // namespace poolscope

Q_DECLARE_TYPEINFO(poolscope::ProxyEntry, Q_RELOCATABLE_TYPE);
Q_DECLARE_TYPEINFO(poolscope::ParseProblem, Q_RELOCATABLE_TYPE);
