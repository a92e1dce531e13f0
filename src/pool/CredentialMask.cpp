#include "pool/CredentialMask.h"

namespace poolscope {
namespace {

const QString kMask = QStringLiteral("****");

// Quotes and brackets that text puts around a member: not part of its user name.
bool isOpening(QChar c) {
    return c == QLatin1Char('"') || c == QLatin1Char('\'') || c == QLatin1Char('(') ||
           c == QLatin1Char('[') || c == QLatin1Char('{') || c == QLatin1Char('<');
}

} // namespace

QString maskCredentials(const QString &member) {
    const qsizetype at = member.lastIndexOf(QLatin1Char('@'));
    if (at < 0)
        return member;
    const qsizetype scheme = member.indexOf(QStringLiteral("://"));
    const qsizetype userStart = (scheme >= 0 && scheme < at) ? scheme + 3 : 0;
    const qsizetype colon = member.indexOf(QLatin1Char(':'), userStart);
    if (colon < 0 || colon > at || colon + 1 == at)
        return member; // a user without a password, or an empty password
    return member.left(colon + 1) + kMask + member.mid(at);
}

QString maskCredentialsInText(const QString &text) {
    if (!text.contains(QLatin1Char('@')))
        return text;
    QString out;
    out.reserve(text.size());
    qsizetype i = 0;
    while (i < text.size()) {
        if (text[i].isSpace()) {
            out += text[i++];
            continue;
        }
        qsizetype end = i;
        while (end < text.size() && !text[end].isSpace())
            ++end;
        qsizetype start = i;
        while (start < end && isOpening(text[start]))
            ++start;
        out += text.mid(i, start - i);
        out += maskCredentials(text.mid(start, end - start));
        i = end;
    }
    return out;
}

} // namespace poolscope
