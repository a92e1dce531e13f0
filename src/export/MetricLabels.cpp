#include "export/MetricLabels.h"

#include "pool/MemberText.h"

namespace poolscope {

std::string metricLabelValue(const QByteArray &bytes) {
    return memberText(bytes).toStdString();
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
