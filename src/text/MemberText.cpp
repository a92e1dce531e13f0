#include "text/MemberText.h"

namespace poolscope {
namespace {

void appendByteEscape(QString &out, unsigned char byte) {
    static const char digits[] = "0123456789abcdef";
    out += QLatin1String("\\x");
    out += QLatin1Char(digits[byte >> 4]);
    out += QLatin1Char(digits[byte & 0x0f]);
}

// Length of the valid UTF-8 sequence at data[i] and its code point; 0 when not valid there.
int utf8Sequence(const QByteArray &data, qsizetype i, char32_t &codePoint) {
    const auto lead = static_cast<unsigned char>(data[i]);
    int length = 0;
    char32_t minimum = 0;
    if (lead < 0x80) {
        codePoint = lead;
        return 1;
    }
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
        codePoint = lead & 0x1f;
        minimum = 0x80;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        codePoint = lead & 0x0f;
        minimum = 0x800;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        codePoint = lead & 0x07;
        minimum = 0x10000;
    } else {
        return 0;
    }
    if (i + length > data.size())
        return 0;
    for (int k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(data[i + k]);
        if ((next & 0xc0) != 0x80)
            return 0;
        codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < minimum || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff))
        return 0;
    return length;
}

bool isControl(char32_t c) {
    return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f);
}

} // namespace

QString memberText(const QByteArray &member) {
    QString out;
    out.reserve(member.size());
    for (qsizetype i = 0; i < member.size();) {
        char32_t c = 0;
        const int length = utf8Sequence(member, i, c);
        if (length == 0) {
            appendByteEscape(out, static_cast<unsigned char>(member[i]));
            ++i;
            continue;
        }
        if (c == '\\')
            out += QLatin1String("\\\\");
        else if (c == '\n')
            out += QLatin1String("\\n");
        else if (c == '\t')
            out += QLatin1String("\\t");
        else if (c == '\r')
            out += QLatin1String("\\r");
        else if (isControl(c))
            for (int k = 0; k < length; ++k)
                appendByteEscape(out, static_cast<unsigned char>(member[i + k]));
        else
            out += QString::fromUtf8(member.constData() + i, length);
        i += length;
    }
    return out;
}

} // namespace poolscope
