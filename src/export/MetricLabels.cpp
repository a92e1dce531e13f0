#include "export/MetricLabels.h"

#include <QString>

namespace poolscope {
namespace {

bool isControl(char32_t code) {
    return code < 0x20 || code == 0x7f || (code >= 0x80 && code < 0xa0);
}

// Length of the valid UTF-8 sequence at bytes[i] encoding a printable character; 0 if none.
qsizetype printableSequence(const QByteArray &bytes, qsizetype i) {
    const auto byte = [&](qsizetype k) { return static_cast<unsigned char>(bytes[k]); };
    const unsigned char lead = byte(i);
    qsizetype length = 0;
    char32_t code = 0;
    if (lead < 0x80) {
        length = 1;
        code = lead;
    } else if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
        code = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        code = lead & 0x0f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        code = lead & 0x07;
    } else {
        return 0;
    }
    if (i + length > bytes.size())
        return 0;
    for (qsizetype k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80)
            return 0;
        code = (code << 6) | (byte(i + k) & 0x3f);
    }
    const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
    const bool surrogate = code >= 0xd800 && code <= 0xdfff;
    if (overlong || surrogate || code > 0x10ffff || isControl(code))
        return 0;
    return length;
}

} // namespace

std::string metricLabelValue(const QByteArray &bytes) {
    std::string out;
    out.reserve(size_t(bytes.size()));
    static const char kHex[] = "0123456789abcdef";
    for (qsizetype i = 0; i < bytes.size();) {
        if (bytes[i] == '\\') {
            out += "\\\\";
            ++i;
            continue;
        }
        if (const qsizetype length = printableSequence(bytes, i)) {
            out.append(bytes.constData() + i, size_t(length));
            i += length;
            continue;
        }
        const auto byte = static_cast<unsigned char>(bytes[i]);
        out += "\\x";
        out += kHex[byte >> 4];
        out += kHex[byte & 0x0f];
        ++i;
    }
    return out;
}

QByteArray maskMemberPassword(const QByteArray &member) {
    const qsizetype at = member.lastIndexOf('@');
    if (at < 0)
        return member;
    const qsizetype scheme = member.indexOf("://");
    const qsizetype userStart = (scheme >= 0 && scheme < at) ? scheme + 3 : 0;
    const qsizetype colon = member.indexOf(':', userStart);
    if (colon < 0 || colon > at)
        return member; // a user name alone: nothing secret
    return member.left(colon + 1) + "****" + member.mid(at);
}

std::string metricMemberLabel(const QByteArray &member) {
    return metricLabelValue(maskMemberPassword(member));
}

} // namespace poolscope
