#include "text/CredentialMask.h"

#include <QCryptographicHash>

namespace poolscope {
namespace {

const QString kMask = QStringLiteral("****");
constexpr int kHashDigits = 6;

// Quotes and brackets that text puts around a member: not part of its user name.
bool isOpening(QChar c) {
    return c == QLatin1Char('"') || c == QLatin1Char('\'') || c == QLatin1Char('(') ||
           c == QLatin1Char('[') || c == QLatin1Char('{') || c == QLatin1Char('<');
}

// `****` or `****~hhhhhh`: what this file writes, so masking twice changes nothing.
bool isMasked(QStringView secret) {
    if (secret == kMask)
        return true;
    if (secret.size() != kMask.size() + 1 + kHashDigits || !secret.startsWith(kMask) ||
        secret[kMask.size()] != QLatin1Char('~'))
        return false;
    for (const QChar c : secret.mid(kMask.size() + 1)) {
        if (!((c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
              (c >= QLatin1Char('a') && c <= QLatin1Char('f'))))
            return false;
    }
    return true;
}

QString maskOf(QStringView secret) {
    if (isMasked(secret))
        return secret.toString();
    const QByteArray digest =
        QCryptographicHash::hash(secret.toUtf8(), QCryptographicHash::Sha256).toHex();
    return kMask + QLatin1Char('~') + QString::fromLatin1(digest.left(kHashDigits));
}

} // namespace

QString maskCredentials(const QString &member) {
    const qsizetype at = member.lastIndexOf(QLatin1Char('@'));
    if (at < 0)
        return member;
    const qsizetype scheme = member.indexOf(QStringLiteral("://"));
    const qsizetype userStart = (scheme >= 0 && scheme < at) ? scheme + 3 : 0;
    const qsizetype colon = member.indexOf(QLatin1Char(':'), userStart);
    if (colon < 0 || colon > at) {
        if (at == userStart)
            return member; // `scheme://@host`: nothing before the '@'
        // A user name alone: often a token, masked whole.
        return member.left(userStart) + maskOf(QStringView(member).mid(userStart, at - userStart)) +
               member.mid(at);
    }
    if (colon + 1 == at)
        return member; // an empty password
    return member.left(colon + 1) + maskOf(QStringView(member).mid(colon + 1, at - colon - 1)) +
           member.mid(at);
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
