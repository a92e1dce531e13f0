// Entry normalisation for the proxy-list parser: display texts, character/port/host/scheme
// checks, "scheme://user:pass@host:port" parsing and the result collector.
#include "proxylist/ParserDetail.h"

#include <algorithm>
#include <utility>

#include <QCoreApplication>

namespace poolscope::proxylist_detail {

namespace {

bool isAsciiLetter(QChar c) {
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
}

bool isAsciiDigit(QChar c) {
    return c >= u'0' && c <= u'9';
}

// How one character is shown: control characters as \x01 escapes and an inner byte-order mark as
// \ufeff, so that what cannot be seen is told apart rather than all becoming U+FFFD.
void appendShown(QString &out, QChar c) {
    if ((c.unicode() < 0x20 && c != u'\t') || c.unicode() == 0x7f)
        out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
    else if (c.unicode() == 0xfeff)
        out += QStringLiteral("\\ufeff");
    else
        out += c;
}

// Display text built piece by piece (a character, or the escape shown for it), at most maxChars
// long, the last being an ellipsis when cut; a piece (a surrogate pair, an escape) is never split.
class ShownText {
public:
    explicit ShownText(qsizetype maxChars)
        : m_maxChars(maxChars) {}
    // False once the text is full; `last` says no piece follows.
    bool add(QStringView piece, bool last) {
        if (m_cut)
            return false;
        const qsizetype room = m_maxChars - (last ? 0 : 1); // keep one for the ellipsis
        if (m_text.size() + piece.size() > room) {
            m_cut = true;
            return false;
        }
        m_text += piece;
        return true;
    }
    QString finish(bool forceEllipsis) {
        if (m_cut || forceEllipsis) {
            if (m_text.size() >= m_maxChars)
                m_text.chop(m_text.size() - m_maxChars + 1);
            m_text += QChar(0x2026);
        }
        return m_text;
    }

private:
    qsizetype m_maxChars;
    QString m_text;
    bool m_cut = false;
};

bool needsEscape(QChar c) {
    return (c.unicode() < 0x20 && c != u'\t') || c.unicode() == 0x7f || c.unicode() == 0xfeff;
}

QString elided(QStringView text, qsizetype maxChars, bool forceEllipsis = false) {
    // Every entry's source text comes through here: when nothing shown needs an escape, the text
    // is cut as it is (one copy) rather than built piece by piece.
    const QStringView head = text.first(std::min(text.size(), maxChars));
    if (std::none_of(head.begin(), head.end(), needsEscape)) {
        if (!forceEllipsis && text.size() <= maxChars)
            return text.toString();
        qsizetype keep = std::min(text.size(), maxChars - 1);
        if (keep > 0 && keep < text.size() && text[keep - 1].isHighSurrogate())
            --keep; // never half a surrogate pair
        return text.first(keep).toString() + QChar(0x2026);
    }
    ShownText shown(maxChars);
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype width = text[i].isHighSurrogate() && i + 1 < text.size() ? 2 : 1;
        QString piece;
        for (qsizetype k = 0; k < width; ++k)
            appendShown(piece, text[i + k]);
        i += width;
        if (!shown.add(piece, i == text.size() && !forceEllipsis))
            break;
    }
    return shown.finish(forceEllipsis);
}

// The length of the valid UTF-8 sequence at the start of bytes, or 0.
qsizetype utf8SequenceLength(QByteArrayView bytes) {
    const auto at = [&](qsizetype i) { return static_cast<unsigned char>(bytes[i]); };
    const unsigned char lead = at(0);
    if (lead < 0x80)
        return 1;
    qsizetype length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        low = lead == 0xe0 ? 0xa0 : 0x80;
        high = lead == 0xed ? 0x9f : 0xbf;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        low = lead == 0xf0 ? 0x90 : 0x80;
        high = lead == 0xf4 ? 0x8f : 0xbf;
    } else {
        return 0;
    }
    if (bytes.size() < length || at(1) < low || at(1) > high)
        return 0;
    for (qsizetype i = 2; i < length; ++i) {
        if (at(i) < 0x80 || at(i) > 0xbf)
            return 0;
    }
    return length;
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
            return QCoreApplication::translate(
                       "ProxyList",
                       "unknown comment style \"%1\" (comment lines start with # or ;)")
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
    const QByteArrayView head = cut ? bytes.first(headBytes) : bytes;
    // A byte that is not UTF-8 shows as \xff (a U+FFFD written in the file stays U+FFFD).
    ShownText shown(kMaxDisplayTextChars);
    qsizetype i = 0;
    while (i < head.size()) {
        const qsizetype length = utf8SequenceLength(head.sliced(i));
        QString piece;
        if (length == 0) {
            piece = QStringLiteral("\\x%1").arg(static_cast<unsigned char>(head[i]), 2, 16,
                                                QLatin1Char('0'));
            ++i;
        } else {
            const QString decoded = QString::fromUtf8(head.sliced(i, length));
            for (const QChar c : decoded)
                appendShown(piece, c);
            i += length;
        }
        if (!shown.add(piece, i == head.size() && !cut))
            break;
    }
    return shown.finish(cut);
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
    return QCoreApplication::translate(
        "ProxyList", "contains an unpaired surrogate (a \\uD800-\\uDFFF escape without its "
                     "pair), which is not valid Unicode");
}

QString forbiddenCharacterProblem(QStringView text, Whitespace whitespace) {
    if (QString problem = unpairedSurrogateProblem(text); !problem.isEmpty())
        return problem;
    for (const QChar c : text) {
        if (c == u'\0')
            return QCoreApplication::translate("ProxyList", "contains a NUL byte");
        if (c.isSpace() && whitespace == Whitespace::Allowed)
            continue;
        if (c.isSpace())
            return QCoreApplication::translate(
                "ProxyList", "unexpected whitespace inside the entry (expected one proxy "
                             "per line, as host:port)");
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return QCoreApplication::translate("ProxyList", "contains the control character U+%1")
                .arg(QString::number(c.unicode(), 16).toUpper().rightJustified(4, u'0'));
        // Invisible, and it would make "\ufeff1.2.3.4" look like a valid host that was refused.
        if (c.unicode() == 0xfeff)
            return QCoreApplication::translate(
                "ProxyList", "contains a byte-order mark (U+FEFF, invisible), which only the "
                             "file's first character may be");
    }
    return {};
}

QString parsePortText(QStringView text, int &port) {
    if (text.isEmpty())
        return QCoreApplication::translate("ProxyList", "missing port");
    for (const QChar c : text) {
        if (!isAsciiDigit(c))
            return QCoreApplication::translate("ProxyList", "port %1 is not a number")
                .arg(quotedForReason(text));
    }
    qsizetype firstSignificant = 0;
    while (firstSignificant < text.size() - 1 && text[firstSignificant] == u'0')
        ++firstSignificant;
    if (text.size() - firstSignificant > 9) // would overflow int; certainly out of range
        return QCoreApplication::translate("ProxyList", "port %1 is out of range 1-65535")
            .arg(elidedForReason(text.sliced(firstSignificant)));
    port = text.sliced(firstSignificant).toInt();
    return {};
}

QString parseHostField(QStringView text, QString &host) {
    if (text.isEmpty())
        return QCoreApplication::translate("ProxyList", "missing host");
    if (text.startsWith(u'[')) {
        if (!text.endsWith(u']'))
            return QCoreApplication::translate("ProxyList", "unterminated [ in IPv6 address");
        const QStringView inner = text.sliced(1, text.size() - 2);
        if (!canonicalIpv6(inner, host))
            return QCoreApplication::translate("ProxyList", "%1 is not a valid IPv6 address")
                .arg(quotedForReason(inner));
        return {};
    }
    if (text.contains(u':')) {
        if (!canonicalIpv6(text, host))
            return QCoreApplication::translate(
                       "ProxyList", "host %1 contains \":\" but is not a valid IPv6 address")
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
            return QCoreApplication::translate("ProxyList", "missing scheme before \"://\"");
        if (!isValidScheme(scheme))
            return QCoreApplication::translate("ProxyList", "invalid scheme %1")
                .arg(quotedForReason(scheme));
        entry.scheme = scheme.toString().toLower();
        rest = rest.sliced(schemeEnd + 3);
    } else {
        entry.scheme = httpScheme();
    }

    // The last '@' ends the credentials, so passwords may contain '@', ':' and '/'.
    if (const qsizetype at = rest.lastIndexOf(u'@'); at >= 0) {
        const QStringView userInfo = rest.first(at);
        if (userInfo.isEmpty())
            return QCoreApplication::translate("ProxyList", "empty credentials before \"@\"");
        const qsizetype colon = userInfo.indexOf(u':');
        entry.username = (colon < 0 ? userInfo : userInfo.first(colon)).toString();
        entry.password = colon < 0 ? QString() : userInfo.sliced(colon + 1).toString();
        rest = rest.sliced(at + 1);
    }

    // Lists copied from URLs often end in a single '/'.
    if (rest.endsWith(u'/'))
        rest.chop(1);
    if (const qsizetype slash = rest.indexOf(u'/'); slash >= 0)
        return QCoreApplication::translate("ProxyList", "unexpected path %1 after the port")
            .arg(quotedForReason(rest.sliced(slash)));
    if (rest.isEmpty())
        return QCoreApplication::translate("ProxyList", "missing host and port");

    QStringView portText;
    if (rest.startsWith(u'[')) {
        const qsizetype close = rest.indexOf(u']');
        if (close < 0)
            return QCoreApplication::translate("ProxyList", "unterminated [ in IPv6 address");
        const QStringView inner = rest.sliced(1, close - 1);
        const QStringView afterBracket = rest.sliced(close + 1);
        if (inner.isEmpty())
            return QCoreApplication::translate("ProxyList",
                                               "empty [] where an IPv6 address belongs");
        if (!canonicalIpv6(inner, entry.host))
            return QCoreApplication::translate("ProxyList", "%1 is not a valid IPv6 address")
                .arg(quotedForReason(inner));
        if (afterBracket.isEmpty())
            return QCoreApplication::translate("ProxyList", "missing port");
        if (!afterBracket.startsWith(u':'))
            return QCoreApplication::translate("ProxyList", "unexpected text %1 after \"]\"")
                .arg(quotedForReason(afterBracket));
        portText = afterBracket.sliced(1);
    } else {
        const qsizetype colon = rest.lastIndexOf(u':');
        if (colon < 0)
            return QCoreApplication::translate("ProxyList", "missing port");
        const QStringView hostText = rest.first(colon);
        if (hostText.contains(u':')) {
            QString ignored;
            if (canonicalIpv6(rest, ignored) || canonicalIpv6(hostText, ignored))
                return QCoreApplication::translate(
                    "ProxyList", "IPv6 address must be written in brackets, as in "
                                 "[2001:db8::1]:8080");
            return QCoreApplication::translate(
                "ProxyList", "too many \":\" (expected host:port; write credentials as "
                             "scheme://user:pass@host:port)");
        }
        if (hostText.isEmpty())
            return QCoreApplication::translate("ProxyList", "missing host");
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
        addProblem(lineNumber, displayTextFromBytes(raw),
                   QCoreApplication::translate("ProxyList", "contains a NUL byte"));
        return false;
    }
    // Comments are skipped before decoding: a Latin-1 comment must not fail the list.
    if (isBlankOrComment(raw))
        return false;
    m_decoder.resetState();
    text = m_decoder.decode(raw.trimmed());
    if (m_decoder.hasError()) {
        addProblem(lineNumber, displayTextFromBytes(raw.trimmed()),
                   QCoreApplication::translate("ProxyList", "not valid UTF-8"));
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
