// Entry normalisation for the proxy-list parser: display texts, character/port/host/scheme
// checks, "scheme://user:pass@host:port" parsing and the result collector.
#include "proxylist/ParserDetail.h"

#include <utility>

namespace poolscope::proxylist_detail {

namespace {

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

QString elidedForReason(QStringView text) {
    return elided(text, 60);
}

QString normalizedColumnName(QStringView name) {
    QString normalized = name.trimmed().toString().toLower();
    normalized.replace(u' ', u'_');
    normalized.replace(u'-', u'_');
    return normalized;
}

bool isCommentMark(QChar c) {
    return c == u'#' || c == u';';
}

QString unknownCommentStyleProblem(QStringView text) {
    for (const QLatin1StringView mark :
         {QLatin1StringView("//"), QLatin1StringView("/*"), QLatin1StringView("--")}) {
        if (text.startsWith(mark))
            return QStringLiteral("unknown comment style \"%1\" (comment lines start with # or ;)")
                .arg(mark);
    }
    return {};
}

} // namespace

const QString &httpScheme() {
    static const QString scheme = QStringLiteral("http");
    return scheme;
}

QString displayText(QStringView text) {
    return elided(text, kMaxDisplayTextChars);
}

QString displayTextFromBytes(QByteArrayView bytes) {
    const qsizetype headBytes = kMaxDisplayTextChars * 4; // enough for 200 chars of any UTF-8
    const bool cut = bytes.size() > headBytes;
    const QString head = QString::fromUtf8(cut ? bytes.first(headBytes) : bytes);
    return elided(head, kMaxDisplayTextChars, cut);
}

QString quotedForReason(QStringView text) {
    return u'"' + elidedForReason(text) + u'"';
}

bool isBlankOrComment(QByteArrayView line) {
    const QByteArrayView trimmed = line.trimmed();
    return trimmed.isEmpty() || trimmed.startsWith('#') || trimmed.startsWith(';');
}

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

bool isValidScheme(QStringView scheme) {
    if (scheme.isEmpty() || scheme.size() > 32 || !isAsciiLetter(scheme[0]))
        return false;
    for (const QChar c : scheme) {
        if (!isAsciiLetter(c) && !isAsciiDigit(c) && c != u'+' && c != u'-' && c != u'.')
            return false;
    }
    return true;
}

QString unpairedSurrogateProblem(QStringView text) {
    if (text.isValidUtf16())
        return {};
    return QStringLiteral("contains an unpaired surrogate (a \\uD800-\\uDFFF escape without its "
                          "pair), which is not valid Unicode");
}

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

ListParser::ListParser(ProxyListFormat format, ProxyListSink &sink)
    : m_format(format)
    , m_sink(sink)
    , m_decoder(QStringDecoder::Utf8,
                // Stateless: a multi-byte sequence cut off at the end of a line is an error,
                // not something to complete from the next line. The BOM is stripped by the
                // caller, so any later U+FEFF is kept (and rejected) rather than dropped.
                QStringDecoder::Flag::Stateless | QStringDecoder::Flag::ConvertInitialBom) {
    m_sink.formatDetected(format);
}

void ListParser::addProblem(int lineNumber, QString text, const QString &reason) {
    if (stopped())
        return;
    if (m_problems >= kMaxParseProblems) {
        fail(QStringLiteral("gave up at %1: more than %2 entries could not be parsed, so this "
                            "does not look like a proxy list")
                 .arg(location(lineNumber))
                 .arg(kMaxParseProblems));
        return;
    }
    ++m_problems;
    m_sink.problemFound({lineNumber, std::move(text), locatedReason(lineNumber, reason)});
}

bool ListParser::decodeLine(QByteArrayView raw, int lineNumber, const QString &noun,
                            QString &text) {
    if (raw.size() > kMaxProxyLineBytes) {
        addProblem(lineNumber, displayTextFromBytes(raw),
                   QStringLiteral("%1 is %2 bytes long (the limit is %3)")
                       .arg(noun)
                       .arg(raw.size())
                       .arg(kMaxProxyLineBytes));
        return false;
    }
    if (raw.contains('\0')) {
        addProblem(lineNumber, displayTextFromBytes(raw), QStringLiteral("contains a NUL byte"));
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

void ListParser::addTextLine(QByteArrayView raw, int lineNumber, const QString &noun) {
    QString text;
    if (!decodeLine(raw, lineNumber, noun, text))
        return;
    QStringView entryText = text;
    // A trailing " # comment" or " ; comment"; a mark without whitespace before it may be part of
    // a password.
    for (qsizetype i = 1; i < entryText.size(); ++i) {
        if (isCommentMark(entryText[i]) && entryText[i - 1].isSpace()) {
            entryText = entryText.first(i).trimmed();
            break;
        }
    }
    ProxyEntry entry;
    entry.lineNumber = lineNumber;
    entry.sourceText = displayText(text);
    if (const QString problem = unknownCommentStyleProblem(entryText); !problem.isEmpty()) {
        addProblem(lineNumber, entry.sourceText, problem);
        return;
    }
    if (const QString problem = parseEntryText(entryText, entry); !problem.isEmpty()) {
        addProblem(lineNumber, entry.sourceText, problem);
        return;
    }
    addEntry(std::move(entry));
}

QString ListParser::location(int lineNumber) const {
    return m_format == ProxyListFormat::Json ? QStringLiteral("array element %1").arg(lineNumber)
                                             : QStringLiteral("line %1").arg(lineNumber);
}

QString ListParser::locatedReason(int lineNumber, const QString &reason) const {
    if (m_format != ProxyListFormat::Json)
        return reason;
    return QStringLiteral("array element %1: %2").arg(lineNumber).arg(reason);
}

} // namespace poolscope::proxylist_detail
